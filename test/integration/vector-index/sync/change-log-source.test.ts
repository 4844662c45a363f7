/**
 * The sync following the server's change log (plugin/, loaded by the dev Neo4j): the first pass
 * runs the full check and keeps the log's position; after that, a pass checks only the nodes the
 * log names, the sync's own writes are not logged, and `/status` says in step right after. A
 * cursor the log cannot continue (a restart: another epoch; a position past the log) makes one
 * full check, and so does a real restart of the server (scripts/services/neo4j.sh restart);
 * `INDEX_CHANGE_SOURCE=scan` turns the log off, and `/status` says why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../../src/app.js';
import { readChangeLogInfo } from '../../../../src/graph/access/change-log.js';
import { dropSearchIndex } from '../../../../src/graph/access/index-writer.js';
import { quoteName } from '../../../../src/graph/dialect/names.js';
import { writeSyncState } from '../../../../src/store/sync-state.js';
import { buildVectorIndex } from '../../../../src/vector-index/build/build.js';
import { readSyncState, syncGraph } from '../../../../src/vector-index/sync/loop.js';
import { createTestDeps } from '../../helpers/deps.js';
import { changeLogExpected, restartServer } from '../../helpers/change-log.js';
import { createSyncFixture, spyEmbedders } from '../../helpers/index-fixtures.js';

/** False on a 5.x server started without the plugin (its default): the suite runs on the 2025+ line. */
const expected = await changeLogExpected();
const MODEL = 'minishlab/potion-base-32M';
const { label: LABEL, index, env } = createSyncFixture('LogDoc', { INDEX_CHANGE_SOURCE: 'auto' });
const deps = createTestDeps(env);
const driver = deps.graph.driver;
const L = quoteName(LABEL);
const q = async (cypher: string, params: Record<string, unknown> = {}) =>
  (await driver.executeQuery(cypher, params, { database: 'neo4j' })).records.map((r) => r.toObject());
const names = async (query: string) =>
  (await deps.search.search({ query, graph: 'neo4j', model: MODEL, topK: 3, mode: 'fulltext' })).map((h) => h.displayName);
const resultOf = (pass: Awaited<ReturnType<typeof syncGraph>>) => pass.results.find((r) => r.index === index)!;
const logPosition = async () => {
  const info = await readChangeLogInfo(driver, 'neo4j');
  if ('missing' in info) throw new Error(`the dev Neo4j runs without the change-log plugin: ${info.missing}`);
  return info;
};

beforeAll(async () => {
  if (!expected) return;
  await q(
    `UNWIND range(0, 39) AS i CREATE (:${L} {title: 'Log note ' + i, summary: 'An ordinary note number ' + i + ' about daily things.'})`,
  );
  await buildVectorIndex(deps, { graph: 'neo4j', model: MODEL });
});
afterAll(async () => {
  if (!expected) return deps.close();
  await q(`MATCH (n:${L}) DETACH DELETE n`);
  await dropSearchIndex(driver, 'neo4j', index);
  await deps.close();
});

describe.runIf(expected)('the sync under the change-log plugin', () => {
  it('runs one full check first, then keeps the log position it started from', async () => {
    const before = await logPosition();
    const pass = await syncGraph(deps, 'neo4j');
    expect(pass).toMatchObject({ changed: true, source: 'plugin' });
    expect(pass.fullMs).not.toBeNull();
    const state = await readSyncState(deps, 'neo4j');
    expect(state).toMatchObject({ source: 'plugin', sourceWhy: null });
    expect(state.cursor).toMatch(new RegExp(`^\\d+:${before.epoch}$`));
  });

  it('checks only the nodes the log names, embeds only their texts, and is in step right after', async () => {
    await q(`CREATE (:${L} {title: 'Log note new', summary: 'Quasar xylophones orbit zeppelins.'})`);
    await q(`MATCH (n:${L} {title: 'Log note 3'}) SET n.summary = 'Marmalade pyramids beside the fjord.'`);
    await q(`MATCH (n:${L} {title: 'Log note 7'}) DETACH DELETE n`);
    // A node the index does not hold: named by the log, passed over by the check.
    await q('CREATE (:LogOther {x: 1}) WITH 1 AS one MATCH (o:LogOther) DELETE o');
    const { pool, stats } = spyEmbedders(deps.embedders);
    const pass = await syncGraph({ ...deps, embedders: pool }, 'neo4j');
    expect(pass).toMatchObject({ changed: true, source: 'plugin', rounds: 1, fullMs: null });
    expect(resultOf(pass)).toMatchObject({ outcome: 'synced', nodes_changed: 2, nodes_deleted: 1, chunks_embedded: 2 });
    expect(stats.texts.sort()).toEqual([
      `Log note 3 (${LABEL})\nMarmalade pyramids beside the fjord.`,
      `Log note new (${LABEL})\nQuasar xylophones orbit zeppelins.`,
    ]);
    expect(await names('xylophones')).toEqual(['Log note new']);
    expect(await names('Marmalade')).toEqual(['Log note 3']);
    // The sync's own writes (chunks, the record) are not in the log: its cursor is the log's head.
    const state = await readSyncState(deps, 'neo4j');
    const head = await logPosition();
    expect(state.cursor).toBe(`${head.position}:${head.epoch}`);
    const status = (await (await createApp(deps).request('/status')).json()) as {
      sync: { in_step: boolean; source: { name: string; why: string | null } };
    };
    expect(status.sync.in_step).toBe(true);
    expect(status.sync.source).toMatchObject({ name: 'plugin', why: null });
  });

  it('runs one full check when the log cannot continue the cursor: another epoch, or a position past its head', async () => {
    const head = await logPosition();
    for (const cursor of [`${head.position}:another-epoch`, `${head.position + 1_000_000}:${head.epoch}`]) {
      await q(`MATCH (n:${L} {title: 'Log note 5'}) SET n.summary = $s`, { s: `Edited while away: ${cursor.length} ochre lanterns.` });
      await writeSyncState(deps.kv, 'neo4j', { cursor });
      const pass = await syncGraph(deps, 'neo4j');
      expect(pass.fullMs, cursor).not.toBeNull();
      expect(resultOf(pass), cursor).toMatchObject({ outcome: 'synced', nodes_changed: 1 });
      expect(await names('lanterns')).toEqual(['Log note 5']);
      const now = await logPosition();
      expect((await readSyncState(deps, 'neo4j')).cursor).toMatch(new RegExp(`:${now.epoch}$`));
    }
  });

  it('finds an edit made before the server restarted (no pass ran between): the new epoch makes one full check', async () => {
    await syncGraph(deps, 'neo4j');
    const before = await logPosition();
    await q(`MATCH (n:${L} {title: 'Log note 11'}) SET n.summary = 'Edited just before a restart: vermilion kites.'`);
    await restartServer();
    const after = await logPosition();
    expect(after.epoch).not.toBe(before.epoch);
    const pass = await syncGraph(deps, 'neo4j');
    expect(pass).toMatchObject({ source: 'plugin' });
    expect(pass.fullMs).not.toBeNull();
    expect(resultOf(pass)).toMatchObject({ outcome: 'synced', nodes_changed: 1 });
    expect(await names('vermilion')).toEqual(['Log note 11']);
    expect((await readSyncState(deps, 'neo4j')).cursor).toMatch(new RegExp(`:${after.epoch}$`));
  }, 240_000);

  it('INDEX_CHANGE_SOURCE=scan turns the log off, and says so', async () => {
    const scan = createTestDeps({ ...env, INDEX_CHANGE_SOURCE: 'scan' });
    try {
      await q(`MATCH (n:${L} {title: 'Log note 9'}) SET n.summary = 'Ninth note, rewritten with cobalt.'`);
      const pass = await syncGraph(scan, 'neo4j');
      expect(pass).toMatchObject({ source: 'scan' });
      expect(pass.fullMs).not.toBeNull();
      expect(await readSyncState(scan, 'neo4j')).toMatchObject({ source: 'scan', sourceWhy: 'INDEX_CHANGE_SOURCE=scan' });
    } finally {
      await scan.close();
    }
  });
});
