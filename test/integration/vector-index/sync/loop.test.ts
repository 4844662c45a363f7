/**
 * The index sync against the real Neo4j and Redis: nodes created, changed and deleted in the
 * database reach search without a build; an unchanged graph costs no embedding; a model that
 * fails leaves the index as it was and the next pass catches up; two instances never sync one
 * index at once; a changed chunking is left to a build; the loop runs by itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkLabel, quoteName } from '../../../../src/graph/dialect/names.js';
import type { EmbedderPool } from '../../../../src/embeddings/embedders.js';
import { buildVectorIndex } from '../../../../src/vector-index/build/build.js';
import { readSyncState, startIndexSync, syncGraph } from '../../../../src/vector-index/sync/loop.js';
import { dropSearchIndex } from '../../../../src/graph/access/index-writer.js';
import { createApp } from '../../../../src/app.js';
import { loadConfig } from '../../../../src/config.js';
import { createTestDeps } from '../../helpers/deps.js';
import { createSyncFixture, indexContent, spyEmbedders } from '../../helpers/index-fixtures.js';

const MODEL = 'minishlab/potion-base-32M';
const { label: LABEL, index, env } = createSyncFixture('SyncDoc', { INDEX_BATCH_SIZE: '8' });
const deps = createTestDeps(env);
const driver = deps.graph.driver;
/** {@link spyEmbedders} with the old name and options of this suite. */
const countingPool = (pool: EmbedderPool, opts: { fail?: boolean; delayMs?: number } = {}) =>
  spyEmbedders(pool, { failFrom: opts.fail ? 1 : undefined, delayMs: opts.delayMs });

const q = async (cypher: string, params: Record<string, unknown> = {}) =>
  (await driver.executeQuery(cypher, params, { database: 'neo4j' })).records.map((r) => r.toObject());
const search = (query: string) => deps.search.search({ query, graph: 'neo4j', model: MODEL, topK: 3, mode: 'fulltext' });
const names = async (query: string) => (await search(query)).map((h) => h.displayName);
const chunksOf = async (name: string) =>
  Number(
    (
      await q(
        `MATCH (n:${quoteName(LABEL)} {title: $name}), (c:${quoteName(chunkLabel(index))}) WHERE c.nodeId = elementId(n) RETURN count(c) AS n`,
        {
          name,
        },
      )
    )[0]?.n,
  );

beforeAll(async () => {
  // 120 nodes in batches of ~8 chunks: ~15 batches, so three edits never touch them all (with
  // 30 nodes, three batches, the content-defined layout sometimes put every edit in a different one).
  await q(
    `UNWIND range(0, 119) AS i CREATE (:${quoteName(LABEL)} {title: 'Document ' + i, summary: 'A plain summary of document number ' + i + ' about ordinary things.'})`,
  );
  await buildVectorIndex(deps, { graph: 'neo4j', model: MODEL });
  // The first pass records the bookmark the index is in step at.
  await syncGraph(deps, 'neo4j');
});
afterAll(async () => {
  await q(`MATCH (n:${quoteName(LABEL)}) DETACH DELETE n`);
  await dropSearchIndex(driver, 'neo4j', index);
  await deps.close();
});

describe('index sync', () => {
  it('does no embedding work on an unchanged graph: one bookmark read', async () => {
    const { pool, stats } = countingPool(deps.embedders);
    const pass = await syncGraph({ ...deps, embedders: pool }, 'neo4j');
    expect(stats.calls).toBe(0);
    // Other writers to the shared database can change the bookmark; then the pass embeds nothing either.
    if (!pass.changed) expect(pass.results).toEqual([]);
    expect(pass.checkMs).toBeLessThan(1000);
  });

  it('brings created, changed and deleted nodes into search, embedding only their changed chunk texts', async () => {
    await q(`CREATE (:${quoteName(LABEL)} {title: 'Document new', summary: 'Quasar xylophones orbit zeppelins.'})`);
    await q(`MATCH (n:${quoteName(LABEL)} {title: 'Document 3'}) SET n.summary = 'Marmalade pyramids beside the fjord.'`);
    await q(`MATCH (n:${quoteName(LABEL)} {title: 'Document 7'}) DETACH DELETE n`);
    // A value no chunk is made from, on an indexed node: the check passes it over.
    await q(`MATCH (n:${quoteName(LABEL)} {title: 'Document 4'}) SET n.pages = 12`);
    expect(await names('xylophones')).toEqual([]);
    const chunkNodes = await indexContent(driver, index);
    const { pool, stats } = countingPool(deps.embedders);
    const pass = await syncGraph({ ...deps, embedders: pool }, 'neo4j');
    expect(pass.changed).toBe(true);
    const r = pass.results.find((x) => x.index === index)!;
    // The sync round and the round that confirms it (nothing left).
    expect(pass.rounds).toBe(2);
    expect(r).toMatchObject({
      outcome: 'synced',
      nodes_changed: 2,
      nodes_deleted: 1,
      chunks_embedded: 2,
      chunks_written: 2,
      chunks_kept: 0,
    });
    expect(r.chunks_deleted).toBe(2);
    // The model received exactly the two new chunk texts, nothing of the 118 unchanged nodes.
    expect(stats.texts.sort()).toEqual([
      `Document 3 (${LABEL})\nMarmalade pyramids beside the fjord.`,
      `Document new (${LABEL})\nQuasar xylophones orbit zeppelins.`,
    ]);
    // Every other chunk node is the very node it was (not rewritten).
    const after = new Set((await indexContent(driver, index)).map((c) => JSON.stringify(c)));
    const untouched = chunkNodes.filter((c) => after.has(JSON.stringify(c)));
    expect(untouched.length).toBe(chunkNodes.length - 2);

    expect(await names('xylophones')).toEqual(['Document new']);
    expect(await names('marmalade pyramids')).toEqual(['Document 3']);
    expect((await search('marmalade pyramids'))[0]!.text).toBe('Marmalade pyramids beside the fjord.');
    const [stale] = await q(
      `MATCH (c:${quoteName(chunkLabel(index))}) WHERE c.chunkText CONTAINS 'number 3 about' OR c.chunkText STARTS WITH 'Document 7 ' RETURN count(c) AS n`,
    );
    expect(stale!.n).toBe(0);
    expect(await chunksOf('Document 3')).toBe(1);
    const state = await readSyncState(deps, 'neo4j');
    expect(state).toMatchObject({ behindSince: null, error: null });
    expect(state.syncedAt).toBeGreaterThan(0);
    // /status says what the last pass did.
    const status = (await (await createApp(deps).request('/status')).json()) as { sync: { enabled: boolean; last: unknown[] } };
    expect(status.sync.enabled).toBe(false); // INDEX_SYNC_INTERVAL_MS=0 in tests
    expect(status.sync.last).toContainEqual(expect.objectContaining({ index, outcome: 'synced', nodes_changed: 2 }));
  });

  it('leaves the index as it was when the model fails, and catches up on the next pass', async () => {
    await q(`MATCH (n:${quoteName(LABEL)} {title: 'Document 5'}) SET n.summary = 'Turquoise walruses compose sonnets.'`);
    const before = await indexContent(driver, index);
    const failing = countingPool(deps.embedders, { fail: true });
    const pass = await syncGraph({ ...deps, embedders: failing.pool }, 'neo4j');
    expect(pass.results.find((x) => x.index === index)).toMatchObject({ outcome: 'failed', error: expect.stringContaining('unreachable') });
    expect(await indexContent(driver, index)).toEqual(before);
    const state = await readSyncState(deps, 'neo4j');
    expect(state.error).toContain('unreachable');
    expect(state.behindSince).toBeGreaterThan(0);

    const again = await syncGraph(deps, 'neo4j');
    expect(again.results.find((x) => x.index === index)).toMatchObject({ outcome: 'synced' });
    expect(await names('turquoise walruses')).toEqual(['Document 5']);
    expect((await readSyncState(deps, 'neo4j')).error).toBeNull();
  });

  it('never syncs one index in two instances at once: the second finds the build lock held', async () => {
    await q(`MATCH (n:${quoteName(LABEL)} {title: 'Document 9'}) SET n.summary = 'Saffron lighthouses hum quietly.'`);
    const other = createTestDeps(env);
    try {
      const slow = countingPool(deps.embedders, { delayMs: 400 });
      const otherPool = countingPool(other.embedders, { delayMs: 400 });
      const passes = await Promise.all([
        syncGraph({ ...deps, embedders: slow.pool }, 'neo4j'),
        syncGraph({ ...other, embedders: otherPool.pool }, 'neo4j'),
      ]);
      const outcomes = passes.map((p) => p.results.find((x) => x.index === index)?.outcome).sort();
      expect(outcomes).toEqual(['busy', 'synced']);
      expect(slow.stats.calls + otherPool.stats.calls).toBeGreaterThan(0);
      expect(Math.max(slow.stats.maxActive, otherPool.stats.maxActive)).toBe(1);
      expect(await names('saffron lighthouses')).toEqual(['Document 9']);
    } finally {
      await other.close();
    }
  });

  it('leaves a changed chunking to a build, and says so', async () => {
    const changed = createTestDeps({ ...env, CHUNK_TOKENS: '64' });
    try {
      await q(`MATCH (n:${quoteName(LABEL)} {title: 'Document 11'}) SET n.summary = 'Cobalt meadows.'`);
      const pass = await syncGraph(changed, 'neo4j');
      expect(pass.results.find((x) => x.index === index)).toMatchObject({
        outcome: 'needs-build',
        error: expect.stringContaining('CHUNK_TOKENS 256 → 64'),
      });
    } finally {
      await changed.close();
    }
    await syncGraph(deps, 'neo4j');
  });

  it('runs by itself with the default interval: a created, an edited and a deleted node reach search, no build call', async () => {
    const interval = loadConfig({}).INDEX_SYNC_INTERVAL_MS;
    expect(interval).toBe(15_000);
    const loop = startIndexSync({ ...deps, config: { ...deps.config, INDEX_SYNC_INTERVAL_MS: interval } });
    const started = Date.now();
    try {
      await q(`CREATE (:${quoteName(LABEL)} {title: 'Document late', summary: 'Vermilion hedgehogs juggle.'})`);
      await q(`MATCH (n:${quoteName(LABEL)} {title: 'Document 13'}) SET n.summary = 'Indigo armadillos waltz.'`);
      await q(`MATCH (n:${quoteName(LABEL)} {title: 'Document 15'}) DETACH DELETE n`);
      const inStep = async () =>
        (await names('vermilion hedgehogs')).length === 1 &&
        (await names('indigo armadillos')).length === 1 &&
        (await chunksOf('Document 15')) === 0 &&
        Number(
          (await q(`MATCH (c:${quoteName(chunkLabel(index))}) WHERE c.chunkText STARTS WITH 'Document 15 ' RETURN count(c) AS n`))[0]!.n,
        ) === 0;
      while (!(await inStep()) && Date.now() - started < 120_000) await new Promise((r) => setTimeout(r, 500));
      expect(await inStep()).toBe(true);
      // One interval to the first pass, which syncs; well within the 120 s target.
      expect(Date.now() - started).toBeLessThan(2 * interval + 10_000);
    } finally {
      await loop.stop();
    }
  }, 150_000);
});
