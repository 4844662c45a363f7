/**
 * The node-by-node sync (issue 39) against the real Neo4j and Redis: the cost follows the
 * change. An edit to one paragraph of a long text embeds that paragraph's chunks only; a write
 * that touches no indexed node embeds nothing and writes nothing; a node with no text is not
 * read again until it changes; an index built before chunks recorded their node's values is
 * brought in step without embedding anything; a pass that fails half-way keeps what it wrote
 * and the next completes; `/status` says in step right after a pass that wrote.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbedderPool } from '../../../../src/embeddings/embedders.js';
import { chunkLabel, quoteName } from '../../../../src/graph/dialect/names.js';
import { buildVectorIndex } from '../../../../src/vector-index/build/build.js';
import { readSyncState, syncGraph } from '../../../../src/vector-index/sync/loop.js';
import { graphBookmark } from '../../../../src/graph/access/bookmark.js';
import { dropSearchIndex } from '../../../../src/graph/access/index-writer.js';
import { createApp } from '../../../../src/app.js';
import { createTestDeps } from '../../helpers/deps.js';
import { createSyncFixture, spyEmbedders } from '../../helpers/index-fixtures.js';

const MODEL = 'minishlab/potion-base-32M';
const { tag, label: LABEL, index, env } = createSyncFixture('NodeSync', { CHUNK_TOKENS: '32', CHUNK_OVERLAP_TOKENS: '0' });
const OTHER = `NodeSyncOther_${tag}`;
const deps = createTestDeps(env);
const driver = deps.graph.driver;
const L = quoteName(LABEL);
const C = quoteName(chunkLabel(index));
const recordingPool = (pool: EmbedderPool, failFrom?: number) => {
  const spy = spyEmbedders(pool, { failFrom });
  return { pool: spy.pool, texts: spy.stats.texts };
};

const q = async (cypher: string, params: Record<string, unknown> = {}) =>
  (await driver.executeQuery(cypher, params, { database: 'neo4j' })).records.map((r) => r.toObject());
const pass = async (pool?: EmbedderPool) => {
  const p = await syncGraph(pool ? { ...deps, embedders: pool } : deps, 'neo4j');
  return { ...p, r: p.results.find((x) => x.index === index) };
};
/** Chunk node ids and texts of the node titled `title`, in chunk order. */
const chunksOf = async (title: string) =>
  (await q(
    `MATCH (n:${L} {title: $title}), (c:${C}) WHERE c.nodeId = elementId(n)
     RETURN elementId(c) AS id, c.chunk AS k, c.chunkText AS text, c.embedding IS NOT NULL AS vector ORDER BY k`,
    { title },
  )) as { id: string; k: number; text: string | null; vector: boolean }[];

const paragraph = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => `The ${topic} sentence number ${i} talks about ${topic} at some length here.`).join(' ');

beforeAll(async () => {
  await q(`UNWIND range(0, 39) AS i CREATE (:${L} {title: 'Note ' + i, body: 'A short note number ' + i + ' on plain matters.'})`);
  await q(`CREATE (:${L} {title: 'Long', body: $body})`, {
    body: [paragraph('harbour', 6), paragraph('orchard', 6), paragraph('glacier', 6)].join('\n\n'),
  });
  await buildVectorIndex(deps, { graph: 'neo4j', model: MODEL });
  await pass();
});
afterAll(async () => {
  await q(`MATCH (n) WHERE n:${L} OR n:${quoteName(OTHER)} DETACH DELETE n`);
  await dropSearchIndex(driver, 'neo4j', index);
  await deps.close();
});

describe('node-by-node sync', () => {
  it('embeds only the chunks of the edited paragraph; the others keep their chunk nodes and vectors', async () => {
    const before = await chunksOf('Long');
    expect(before.length).toBeGreaterThan(4);
    await q(`MATCH (n:${L} {title: 'Long'}) SET n.body = replace(n.body, 'glacier sentence number 3', 'glacier phrase number 3')`);
    const { pool, texts } = recordingPool(deps.embedders);
    const { r } = await pass(pool);
    expect(r).toMatchObject({ outcome: 'synced', nodes_changed: 1 });
    const after = await chunksOf('Long');
    // Every sent text is a chunk of the edited paragraph, and fewer than half the node's chunks were sent.
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.length).toBeLessThan(before.length / 2);
    for (const t of texts) expect(t).toContain('glacier');
    expect(texts.some((t) => t.includes('glacier phrase number 3'))).toBe(true);
    expect(r!.chunks_embedded).toBe(texts.length);
    expect(r!.chunks_kept! + r!.chunks_written!).toBe(after.length);
    // The harbour and orchard chunks are the very chunk nodes they were.
    const ids = new Set(before.map((c) => c.id));
    for (const c of after.filter((x) => x.text?.includes('harbour') || x.text?.includes('orchard'))) expect(ids.has(c.id)).toBe(true);
    expect(after.map((c) => c.k)).toEqual(after.map((_, i) => i));
  });

  it('costs nothing for a write that touches no indexed node, or no value chunks are made from', async () => {
    await q(`CREATE (:${quoteName(OTHER)} {title: 'elsewhere', body: 'Not indexed at all.'})`);
    await q(`MATCH (n:${L} {title: 'Note 5'}) SET n.views = 42`);
    const { pool, texts } = recordingPool(deps.embedders);
    const p = await pass(pool);
    expect(p.changed).toBe(true);
    expect(p.rounds).toBe(1);
    expect(p.r).toMatchObject({ outcome: 'synced', nodes_changed: 0, nodes_deleted: 0, chunks_written: 0, chunks_deleted: 0 });
    expect(texts).toEqual([]);
    // And the pass recorded where it is in step: the next sees no change (or, when another suite
    // wrote to the shared database meanwhile, finds nothing to do).
    const next = await pass();
    if (next.changed) expect(next.r).toMatchObject({ nodes_changed: 0, nodes_deleted: 0 });
  });

  it('keeps a marker for a node with no text, so it is not read again until it changes', async () => {
    await q(`CREATE (:${L} {title: 'Empty', body: 'NULL'})`);
    const first = await pass();
    expect(first.r).toMatchObject({ outcome: 'synced', nodes_changed: 1, chunks_written: 1 });
    const marker = await chunksOf('Empty');
    // Named by its title, it has a header chunk; a node with neither name nor text keeps a bare marker.
    expect(marker.length).toBe(1);
    await q(`CREATE (:${L} {body: 'N/A'})`);
    const second = await pass();
    expect(second.r).toMatchObject({ outcome: 'synced', nodes_changed: 1, chunks_written: 0 });
    const [bare] = await q(
      `MATCH (n:${L}), (c:${C}) WHERE n.title IS NULL AND c.nodeId = elementId(n) RETURN c.chunkText AS text, c.embedding IS NULL AS noVector, c.sig IS NOT NULL AS sig`,
    );
    expect(bare).toEqual({ text: null, noVector: true, sig: true });
    await q(`MATCH (n:${L} {title: 'Note 1'}) SET n.body = 'A changed note.'`);
    const third = await pass();
    // Only the edited note: neither the marker nor the named empty node is read again.
    expect(third.r).toMatchObject({ nodes_changed: 1 });
  });

  it('brings an index whose chunks record no values in step without embedding anything', async () => {
    const chunkCount = Number((await q(`MATCH (c:${C}) RETURN count(c) AS n`))[0]!.n);
    await q(`MATCH (c:${C}) REMOVE c.sig`);
    await q(`MATCH (n:${L} {title: 'Note 2'}) SET n.body = 'Note two, edited.'`);
    const { pool, texts } = recordingPool(deps.embedders);
    const { r } = await pass(pool);
    expect(r!.nodes_changed).toBeGreaterThan(40);
    // Only the edited node's text went to the model; every other chunk was kept as it was.
    expect(texts).toEqual([`Note 2 (${LABEL})\nNote two, edited.`]);
    expect(Number((await q(`MATCH (c:${C}) RETURN count(c) AS n`))[0]!.n)).toBe(chunkCount);
    expect((await q(`MATCH (c:${C}) WHERE c.chunk = 0 AND c.sig IS NULL RETURN count(c) AS n`))[0]!.n).toBe(0);
  });

  it('keeps what a failing pass wrote, leaves the rest in place, and completes on the next pass', async () => {
    await q(`UNWIND range(0, 299) AS i CREATE (:${L} {title: 'Bulk ' + i, body: 'Bulk note ' + i + ' about cobalt.'})`);
    // The first window (256 nodes) is embedded; the second call fails.
    const { pool } = recordingPool(deps.embedders, 2);
    const failed = await pass(pool);
    expect(failed.r).toMatchObject({ outcome: 'failed', error: expect.stringContaining('unreachable') });
    const indexed = async () =>
      Number(
        (await q(`MATCH (n:${L}), (c:${C}) WHERE n.title STARTS WITH 'Bulk ' AND c.nodeId = elementId(n) RETURN count(c) AS n`))[0]!.n,
      );
    expect(await indexed()).toBe(256);
    const status = await createApp(deps).request('/status');
    expect(((await status.json()) as { sync: { in_step: boolean } }).sync.in_step).toBe(false);
    const { r } = await pass();
    expect(r).toMatchObject({ outcome: 'synced', nodes_changed: 44 });
    expect(await indexed()).toBe(300);
  });

  it('says in step right after a pass that wrote: the bookmark it records was read after its writes', async () => {
    const before = await graphBookmark(driver, 'neo4j');
    await q(`MATCH (n:${L} {title: 'Note 9'}) SET n.body = 'Ninth note, rewritten.'`);
    const p = await pass();
    expect(p.r).toMatchObject({ outcome: 'synced', nodes_changed: 1 });
    expect(p.rounds).toBe(2);
    const state = await readSyncState(deps, 'neo4j');
    expect(state).toMatchObject({ behindSince: null, error: null });
    expect(state.bookmark).not.toBe(before);
    // `/status` compares that bookmark with the database's (another suite's write makes it false, rightly).
    const res = await createApp(deps).request('/status');
    const body = (await res.json()) as { sync: { in_step: boolean } };
    const now = await graphBookmark(driver, 'neo4j');
    if (now === state.bookmark) expect(body.sync.in_step).toBe(true);
  });
});
