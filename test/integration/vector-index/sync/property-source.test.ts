/**
 * The sync following a property the graph's writers keep (`INDEX_CHANGED_PROPERTY`, with a range
 * index): the first pass runs the full check and keeps the newest value; after that a pass
 * checks only the nodes written since, a lower label count runs the chunk-side check for
 * deletes at once, and a create that may hide a delete keeps the indexes "behind" (and the
 * cursor where it was) until that check has run. A label without the range index leaves the
 * sync on the full check, and `/status` names the index to create. `INDEX_CHANGE_SOURCE=property`
 * chooses the property even where the change-log plugin is installed, so this runs on both lines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../../src/app.js';
import { dropSearchIndex } from '../../../../src/graph/access/index-writer.js';
import { quoteName } from '../../../../src/graph/dialect/names.js';
import { writeSyncState } from '../../../../src/store/sync-state.js';
import { buildVectorIndex } from '../../../../src/vector-index/build/build.js';
import { readSyncState, syncGraph } from '../../../../src/vector-index/sync/loop.js';
import { createTestDeps } from '../../helpers/deps.js';
import { createSyncFixture, spyEmbedders } from '../../helpers/index-fixtures.js';

const MODEL = 'minishlab/potion-base-32M';
const { label: LABEL, index, env } = createSyncFixture('PropDoc', { INDEX_CHANGE_SOURCE: 'property', INDEX_CHANGED_PROPERTY: 'updatedAt' });
const deps = createTestDeps(env);
const driver = deps.graph.driver;
const L = quoteName(LABEL);
const RANGE = `prop_source_${LABEL.toLowerCase()}`;
const q = async (cypher: string, params: Record<string, unknown> = {}) =>
  (await driver.executeQuery(cypher, params, { database: 'neo4j' })).records.map((r) => r.toObject());
const names = async (query: string) =>
  (await deps.search.search({ query, graph: 'neo4j', model: MODEL, topK: 3, mode: 'fulltext' })).map((h) => h.displayName);
const resultOf = (pass: Awaited<ReturnType<typeof syncGraph>>) => pass.results.find((r) => r.index === index)!;
const status = async () =>
  (await (await createApp(deps).request('/status')).json()) as {
    sync: { in_step: boolean; source: { name: string; why: string | null; deleted_check_at?: number | null } };
  };

beforeAll(async () => {
  await q(`CREATE RANGE INDEX ${RANGE} IF NOT EXISTS FOR (n:${L}) ON (n.updatedAt)`);
  await q('CALL db.awaitIndexes(300)');
  await q(
    `UNWIND range(0, 29) AS i CREATE (:${L} {title: 'Prop note ' + i, summary: 'A plain note number ' + i + '.', updatedAt: timestamp()})`,
  );
  await buildVectorIndex(deps, { graph: 'neo4j', model: MODEL });
});
afterAll(async () => {
  await q(`MATCH (n:${L}) DETACH DELETE n`);
  await q(`DROP INDEX ${RANGE} IF EXISTS`);
  await dropSearchIndex(driver, 'neo4j', index);
  await deps.close();
});

describe('the sync under a writer-kept property', () => {
  it('runs one full check first, then keeps the newest value it saw before the check', async () => {
    const pass = await syncGraph(deps, 'neo4j');
    expect(pass).toMatchObject({ changed: true, source: 'property' });
    expect(pass.fullMs).not.toBeNull();
    const state = await readSyncState(deps, 'neo4j');
    expect(state).toMatchObject({ source: 'property', sourceWhy: 'INDEX_CHANGE_SOURCE=property' });
    expect(state.cursor).toMatch(/^p:number:\d+$/);
    expect(JSON.parse(state.counts!)).toEqual({ [LABEL]: 30 });
  });

  it('checks only the nodes written since, embeds only their texts, and runs the deleted check when a count drops', async () => {
    await q(`CREATE (:${L} {title: 'Prop note new', summary: 'Quasar xylophones orbit zeppelins.', updatedAt: timestamp()})`);
    await q(`MATCH (n:${L} {title: 'Prop note 3'}) SET n.summary = 'Marmalade pyramids beside the fjord.', n.updatedAt = timestamp()`);
    await q(`MATCH (n:${L}) WHERE n.title IN ['Prop note 7', 'Prop note 8'] DETACH DELETE n`);
    const { pool, stats } = spyEmbedders(deps.embedders);
    const pass = await syncGraph({ ...deps, embedders: pool }, 'neo4j');
    expect(pass).toMatchObject({ changed: true, source: 'property', rounds: 1, fullMs: null });
    expect(resultOf(pass)).toMatchObject({ outcome: 'synced', nodes_changed: 2, nodes_deleted: 2, chunks_embedded: 2 });
    expect(stats.texts.sort()).toEqual([
      `Prop note 3 (${LABEL})\nMarmalade pyramids beside the fjord.`,
      `Prop note new (${LABEL})\nQuasar xylophones orbit zeppelins.`,
    ]);
    expect(await names('xylophones')).toEqual(['Prop note new']);
    expect(await names('"Prop note 7"')).not.toContain('Prop note 7');
    const state = await readSyncState(deps, 'neo4j');
    expect(JSON.parse(state.counts!)).toEqual({ [LABEL]: 29 });
    expect(state.goneAt).not.toBeNull();
    // The sync's own writes moved the bookmark; the next pass rechecks the overlap, writes nothing, and is in step.
    const again = await syncGraph(deps, 'neo4j');
    expect(resultOf(again)).toMatchObject({ outcome: 'synced', nodes_changed: 0, chunks_written: 0 });
    expect((await status()).sync).toMatchObject({ in_step: true, source: { name: 'property' } });
  });

  it('a create beside a delete (the count unchanged) stays behind, cursor kept, until the deleted check is due and has run', async () => {
    const kept = (await readSyncState(deps, 'neo4j')).cursor;
    await q(`CREATE (:${L} {title: 'Prop note late', summary: 'Vermilion kites over the harbour.', updatedAt: timestamp()})`);
    await q(`MATCH (n:${L} {title: 'Prop note 11'}) DETACH DELETE n`);
    await writeSyncState(deps.kv, 'neo4j', { goneAt: Date.now(), goneMs: 60_000 });
    const first = await syncGraph(deps, 'neo4j');
    expect(resultOf(first)).toMatchObject({ outcome: 'synced', nodes_changed: 1 });
    expect(resultOf(first).nodes_deleted ?? 0).toBe(0);
    expect(await names('vermilion')).toEqual(['Prop note late']);
    expect((await readSyncState(deps, 'neo4j')).cursor).toBe(kept);
    expect((await status()).sync.in_step).toBe(false);
    // Due: the check of the chunk side finds the deleted node, and the indexes are in step.
    await writeSyncState(deps.kv, 'neo4j', { goneAt: 0, goneMs: 0 });
    const second = await syncGraph(deps, 'neo4j');
    expect(resultOf(second)).toMatchObject({ outcome: 'synced', nodes_deleted: 1 });
    expect((await readSyncState(deps, 'neo4j')).cursor).not.toBe(kept);
    await syncGraph(deps, 'neo4j');
    expect((await status()).sync.in_step).toBe(true);
  });

  it('follows a date-time property as it follows a number', async () => {
    const dated = createTestDeps({ ...env, INDEX_CHANGED_PROPERTY: 'editedOn', KV_PREFIX: `${env.KV_PREFIX}dated:` });
    try {
      await q(`CREATE RANGE INDEX ${RANGE}_on IF NOT EXISTS FOR (n:${L}) ON (n.editedOn)`);
      await q('CALL db.awaitIndexes(300)');
      await q(`MATCH (n:${L}) SET n.editedOn = datetime()`);
      expect((await syncGraph(dated, 'neo4j')).fullMs).not.toBeNull();
      expect((await readSyncState(dated, 'neo4j')).cursor).toMatch(/^p:datetime:\d{4}-/);
      await q(`MATCH (n:${L} {title: 'Prop note 12'}) SET n.summary = 'Saffron gondolas at dusk.', n.editedOn = datetime()`);
      const pass = await syncGraph(dated, 'neo4j');
      expect(pass).toMatchObject({ source: 'property', fullMs: null });
      // Every node was stamped within the minute's overlap: checked again, and only the edited one synced.
      expect(resultOf(pass)).toMatchObject({ outcome: 'synced', nodes_changed: 1, chunks_embedded: 1 });
      expect(await names('gondolas')).toEqual(['Prop note 12']);
    } finally {
      await q(`DROP INDEX ${RANGE}_on IF EXISTS`);
      await dated.close();
    }
  });

  it('a property of a type a cursor cannot hold (a date as a string) leaves the sync on the full check, and says so', async () => {
    const typed = createTestDeps({ ...env, INDEX_CHANGED_PROPERTY: 'stampedAs', KV_PREFIX: `${env.KV_PREFIX}typed:` });
    try {
      await q(`CREATE RANGE INDEX ${RANGE}_as IF NOT EXISTS FOR (n:${L}) ON (n.stampedAs)`);
      await q('CALL db.awaitIndexes(300)');
      await q(`MATCH (n:${L}) SET n.stampedAs = '2026-11-28T04:00:00Z'`);
      const pass = await syncGraph(typed, 'neo4j');
      expect(pass).toMatchObject({ source: 'scan' });
      expect((await readSyncState(typed, 'neo4j')).sourceWhy).toMatch(
        /stampedAs on :PropDoc_\w+ holds STRING values \("2026-11-28T04:00:00Z"\)/,
      );
    } finally {
      await q(`MATCH (n:${L}) REMOVE n.stampedAs`);
      await q(`DROP INDEX ${RANGE}_as IF EXISTS`);
      await typed.close();
    }
  });

  it('a label without the range index leaves the sync on the full check, and /status names the index to create', async () => {
    const other = createTestDeps({ ...env, INDEX_CHANGED_PROPERTY: 'editedAt' });
    try {
      await q(`MATCH (n:${L} {title: 'Prop note 9'}) SET n.summary = 'Ninth note, rewritten with cobalt.'`);
      const pass = await syncGraph(other, 'neo4j');
      expect(pass).toMatchObject({ source: 'scan' });
      expect(pass.fullMs).not.toBeNull();
      const state = await readSyncState(other, 'neo4j');
      expect(state.sourceWhy).toContain(`CREATE RANGE INDEX FOR (n:${L}) ON (n.\`editedAt\`)`);
      const body = (await (await createApp(other).request('/status')).json()) as { checks: { id: string; ok: boolean; detail: string }[] };
      const settings = body.checks.find((c) => c.id === 'settings');
      expect(settings).toMatchObject({ ok: false });
      expect(settings?.detail).toContain('INDEX_CHANGED_PROPERTY');
    } finally {
      await other.close();
    }
  });
});
