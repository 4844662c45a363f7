/**
 * POST /vector/search and `deps.search` against a real index built over the suite's own nodes
 * (generated tiny potion model): ranking, one entry per node, fields, top_k and the errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVectorIndex } from '../../../../src/vector-index/build/build.js';
import { candidateCount, LIST_OVERFETCH, OVERFETCH } from '../../../../src/vector-index/search/plan.js';
import { createVectorSearcher } from '../../../../src/vector-index/search/searcher.js';
import { fulltextIndexName } from '../../../../src/graph/dialect/names.js';
import { generateProse } from '../../../../scripts/bench/bench-prose.js';
import { createTestApp } from '../../helpers/deps.js';
import { countingDriver, createIndexFixture, createTextNodes, dropIndexFixture } from '../../helpers/index-fixtures.js';

const MODEL = 'minishlab/potion-base-32M';
const f = createIndexFixture(MODEL, { CHUNK_TOKENS: '48', CHUNK_OVERLAP_TOKENS: '8', VECTOR_SEARCH_TOP_K: '3' });
const { app, deps } = createTestApp(f.env);
const driver = deps.graph.driver;
const repeated = 'Calcium channels open in muscle cells. ';
const NAMED = 'Zebrafish heart regeneration';
// Node 29 says the same thing over and over: all of its chunks match a query about it.
const texts = Array.from({ length: 30 }, (_, i) => (i === 29 ? repeated.repeat(40).trim() : generateProse(2000 + i, 150, 1200)));
let ids: string[] = [];

const search = (body: unknown) =>
  app.request('/vector/search', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

beforeAll(async () => {
  ids = await createTextNodes(driver, f, texts);
  // One node with an integer dbId of its own, one without (the database id is used then).
  await driver.executeQuery(
    'MATCH (n) WHERE elementId(n) = $id REMOVE n.dbId SET n.displayName = $dn',
    { id: ids[7], dn: 'Seven' },
    { database: 'neo4j' },
  );
  // A node known by its name only: its text never says it.
  await driver.executeQuery('MATCH (n) WHERE elementId(n) = $id SET n.displayName = $dn', { id: ids[5], dn: NAMED }, { database: 'neo4j' });
  // Graph context of node 3: 20 parts (out, no text) and one citing node (in).
  await driver.executeQuery(
    `MATCH (n) WHERE elementId(n) = $id
     UNWIND range(1, 20) AS i CREATE (n)-[:HAS_PART]->(:${f.label} {name: 'part ' + toString(i)})
     WITH DISTINCT n CREATE (:${f.label}:Paper {dbId: 777, name: 'A [paper](http://x) <b>'})-[:CITES]->(n)`,
    { id: ids[3] },
    { database: 'neo4j' },
  );
  await buildVectorIndex(deps, { graph: 'neo4j', model: MODEL });
});
afterAll(async () => {
  await dropIndexFixture(driver, f);
  await deps.close();
});

describe('POST /vector/search', () => {
  it('ranks the node whose text is the query first, with every field', async () => {
    const res = await search({ query: texts[12], graph_name: 'neo4j', model: MODEL, top_k: 5 });
    expect(res.status).toBe(200);
    const hits = await res.json();
    expect(hits).toHaveLength(5);
    expect(hits[0]).toEqual({ dbId: 12, displayName: 'node 12', text: texts[12], score: expect.any(Number), labels: [f.label] });
    expect(hits[0].score).toBeGreaterThan(0.9);
    const scores = hits.map((h: { score: number }) => h.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('returns one entry per node even when several of its chunks match', async () => {
    const embedder = await deps.embedders.get(MODEL);
    expect(embedder.chunk(texts[29]!).length).toBeGreaterThan(3);
    const hits = await (await search({ query: repeated, graph_name: 'neo4j', model: MODEL, top_k: 10 })).json();
    expect(hits).toHaveLength(10);
    const dbIds = hits.map((h: { dbId: number }) => h.dbId);
    expect(new Set(dbIds).size).toBe(10);
    expect(dbIds[0]).toBe(29);
    // The chunk also holds the node's header, so an exact copy of the text is not quite 1.
    expect(hits[0].score).toBeGreaterThan(0.95);
  });

  it('uses VECTOR_SEARCH_TOP_K by default, the database id without a dbId, and displayName first', async () => {
    const hits = await (await search({ query: texts[7], graph_name: 'neo4j', model: MODEL })).json();
    expect(hits).toHaveLength(3);
    const [row] = (
      await driver.executeQuery('MATCH (n) WHERE elementId(n) = $id RETURN id(n) AS id', { id: ids[7] }, { database: 'neo4j' })
    ).records;
    expect(hits[0]).toMatchObject({ dbId: row!.get('id'), displayName: 'Seven', text: texts[7] });
  });

  it('is the same search as deps.search (what chat, agent and MCP call)', async () => {
    const viaHttp = await (
      await search({ query: 'insulin signalling in the liver', graph_name: 'neo4j', model: MODEL, top_k: 4, mode: 'hybrid' })
    ).json();
    // Without a mode, deps.search uses RETRIEVAL_MODE (hybrid by default); HTTP defaults to vector.
    const direct = await deps.search.search({ query: 'insulin signalling in the liver', graph: 'neo4j', model: MODEL, topK: 4 });
    expect(direct).toEqual(viaHttp);
  });

  it('finds nothing for a query without any known token instead of failing', async () => {
    const res = await search({ query: '∰∰∰', graph_name: 'neo4j', model: MODEL });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
  });
});

describe('search modes', () => {
  const hits = async (body: Record<string, unknown>) => {
    const res = await search({ graph_name: 'neo4j', model: MODEL, ...body });
    expect(res.status).toBe(200);
    return (await res.json()) as { dbId: number; score: number; text: string; neighbors?: unknown[]; degree?: number }[];
  };

  it('ranks the node whose name matches the query first in hybrid and fulltext mode', async () => {
    for (const mode of ['hybrid', 'fulltext']) {
      const found = await hits({ query: 'zebrafish heart regeneration', mode, top_k: 5 });
      expect(found[0]).toMatchObject({ dbId: 5, text: texts[5] });
      expect(new Set(found.map((h) => h.dbId)).size).toBe(found.length);
    }
  });

  it('finds a node by a rare word of its text in fulltext mode, with scores best first', async () => {
    const found = await hits({ query: 'Calcium channels', mode: 'fulltext', top_k: 3 });
    expect(found[0]!.dbId).toBe(29);
    const scores = found.map((h) => h.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('fuses per node: the vector weight moves hybrid from the full-text order (0) to the vector order (1)', async () => {
    const q = { query: 'insulin signalling in the liver calcium', graph: 'neo4j', model: MODEL, topK: 8 };
    const order = async (alpha: number | null, mode: 'vector' | 'fulltext' | 'hybrid') =>
      (await createVectorSearcher(deps, alpha === null ? {} : { alpha }).search({ ...q, mode })).map((h) => h.dbId);
    expect(await order(1, 'hybrid')).toEqual(await order(null, 'vector'));
    expect(await order(0, 'hybrid')).toEqual(await order(null, 'fulltext'));
    const fused = await deps.search.search({ ...q, mode: 'hybrid' });
    expect(new Set(fused.map((h) => h.dbId)).size).toBe(fused.length);
    const scores = fused.map((h) => h.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(scores[0]).toBeLessThanOrEqual(1);
    expect(scores.at(-1)).toBeGreaterThan(0);
  });

  it('vector is the default mode (the contract behaviour)', async () => {
    const q = { query: 'insulin signalling in the liver', top_k: 4 };
    expect(await hits(q)).toEqual(await hits({ ...q, mode: 'vector' }));
  });

  it.each(['hybrid', 'fulltext'])('%s: a query made only of Lucene operators returns results, not an error', async (mode) => {
    for (const query of ['&& || ! ( ) { } [ ] ^ " ~ * ? : \\ /', 'AND OR NOT', 'title:"x" AND body:[a TO z]~2^3', '*']) {
      const res = await search({ query, graph_name: 'neo4j', model: MODEL, mode });
      expect(res.status, query).toBe(200);
      expect(Array.isArray(await res.json())).toBe(true);
    }
    // No indexable word at all: searched by meaning, as in vector mode.
    expect(await hits({ query: '&& || !', mode, top_k: 3 })).toEqual(await hits({ query: '&& || !', mode: 'vector', top_k: 3 }));
  });

  it('attaches a bounded, type-diverse neighbourhood when asked', async () => {
    const found = await hits({ query: texts[3], mode: 'hybrid', top_k: 3, neighbors: 4 });
    const three = found.find((h) => h.dbId === 3)!;
    expect(three.degree).toBe(21);
    expect(three.neighbors).toHaveLength(4);
    const types = new Set((three.neighbors as { type: string }[]).map((n) => n.type));
    expect(types).toEqual(new Set(['HAS_PART', 'CITES']));
    expect(three.neighbors).toContainEqual({
      type: 'CITES',
      direction: 'in',
      dbId: 777,
      displayName: 'A [paper](http://x) <b>',
      labels: expect.arrayContaining([f.label, 'Paper']),
    });
    // Without `neighbors`, results keep the contract's fields only.
    for (const h of await hits({ query: texts[3], mode: 'hybrid', top_k: 3 }))
      expect(Object.keys(h).sort()).toEqual(['dbId', 'displayName', 'labels', 'score', 'text']);
  });

  it.each(['vector', 'fulltext', 'hybrid'] as const)(
    '%s: one round trip with graph context, same results in the same order',
    async (mode) => {
      const { counting, runs } = countingDriver(driver);
      const searcher = createVectorSearcher({ ...deps, graph: { ...deps.graph, driver: counting } });
      for (const query of [texts[3]!, 'insulin signalling in the liver calcium', 'Calcium channels muscle']) {
        const plain = await searcher.search({ query, graph: 'neo4j', model: MODEL, topK: 6, mode });
        runs.length = 0;
        const withContext = await searcher.search({ query, graph: 'neo4j', model: MODEL, topK: 6, mode, neighbors: 3 });
        expect(runs).toHaveLength(1);
        expect(withContext.map(({ neighbors, degree, ...node }) => node)).toEqual(plain);
        for (const h of withContext) expect(h.degree).toBeGreaterThanOrEqual(h.neighbors!.length);
      }
    },
  );
});

describe('over-fetch', () => {
  it('asks for top_k × OVERFETCH chunks in vector mode, top_k × LIST_OVERFETCH per list in hybrid mode', async () => {
    const { counting, runs } = countingDriver(driver);
    const searcher = createVectorSearcher({ ...deps, graph: { ...deps.graph, driver: counting } });
    await searcher.search({ query: 'insulin signalling', graph: 'neo4j', model: MODEL, topK: 5, mode: 'vector' });
    await searcher.search({ query: 'insulin signalling', graph: 'neo4j', model: MODEL, topK: 5, mode: 'hybrid' });
    // The index's text plan is read once before the first search; the searches follow.
    expect(runs.filter((r) => r && 'k' in r).map((r) => [Number(r.k), Number(r.kf)])).toEqual([
      [5 * OVERFETCH, 5 * LIST_OVERFETCH],
      [5 * LIST_OVERFETCH, 5 * LIST_OVERFETCH],
    ]);
    expect(OVERFETCH).toBeGreaterThan(LIST_OVERFETCH);
    expect(candidateCount(3, 1.5)).toBe(5);
  });

  it('keeps top_k nodes when one node owns many of the best chunks (what the over-fetch is for)', async () => {
    const embedder = await deps.embedders.get(MODEL);
    const own = embedder.chunk(texts[29]!).length;
    // At ×1 the node's own chunks crowd the others out; the default leaves room for top_k nodes.
    const narrow = await createVectorSearcher(deps, { overfetch: 1 }).search({
      query: repeated,
      graph: 'neo4j',
      model: MODEL,
      topK: own,
      mode: 'vector',
    });
    expect(narrow.length).toBeLessThan(own);
    const hits = await deps.search.search({ query: repeated, graph: 'neo4j', model: MODEL, topK: own, mode: 'vector' });
    expect(hits).toHaveLength(own);
  });
});

describe('POST /vector/search errors', () => {
  it.each(['semantic', '', 'VECTOR', 3])('422 naming the field for mode %j', async (mode) => {
    const res = await search({ query: 'x', graph_name: 'neo4j', model: MODEL, mode });
    expect(res.status).toBe(422);
    expect((await res.json()).errors.map((e: { path: string }) => e.path)).toContain('body.mode');
  });

  it.each([-1, 51, 1.5])('422 for neighbors %s', async (neighbors) => {
    const res = await search({ query: 'x', graph_name: 'neo4j', model: MODEL, neighbors });
    expect(res.status).toBe(422);
    expect((await res.json()).errors.map((e: { path: string }) => e.path)).toContain('body.neighbors');
  });

  it.each([0, 101, 2.5, '5'])('422 for top_k %s', async (topK) => {
    const res = await search({ query: 'x', graph_name: 'neo4j', model: MODEL, top_k: topK });
    expect(res.status).toBe(422);
    expect((await res.json()).errors.map((e: { path: string }) => e.path)).toContain('body.top_k');
  });

  it('422 for a model outside the registry', async () => {
    const res = await search({ query: 'x', graph_name: 'neo4j', model: 'gpt-embed' });
    expect(res.status).toBe(422);
    expect((await res.json()).detail).toContain('minishlab/potion-base-32M');
  });

  it('404 saying how to build the index when there is none for that graph and model', async () => {
    // Another model's derived index name that no test builds.
    const other = createTestApp({ ...f.env, VECTOR_INDEX_NAME: `${f.index}_missing` });
    try {
      const res = await other.app.request('/vector/search', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'x y z glucose', graph_name: 'neo4j', model: MODEL }),
      });
      expect(res.status).toBe(404);
      const p = await res.json();
      expect(p.detail).toContain('POST /dev/build_vector_index');
      expect(p.detail).toContain('scripts/build-index --graph neo4j --model minishlab/potion-base-32M');
    } finally {
      await other.deps.close();
    }
  });

  it('404 for an unknown graph', async () => {
    const res = await search({ query: 'glucose', graph_name: `nograph${f.tag}`, model: MODEL });
    expect(res.status).toBe(404);
  });

  it('503 when the graph database is down', async () => {
    const down = createTestApp({ ...f.env, GRAPHDB_PORT: '1299' });
    try {
      const res = await down.app.request('/vector/search', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'glucose', graph_name: 'neo4j', model: MODEL }),
      });
      expect(res.status).toBe(503);
    } finally {
      await down.deps.close();
    }
  });
});

// Last: it removes the suite's full-text index.
describe('an index built before full-text search existed (no full-text index)', () => {
  it('is searched by meaning in hybrid mode, and fulltext mode says how to rebuild', async () => {
    const q = { query: 'insulin signalling in the liver', top_k: 4 };
    const asVector = await (await search({ ...q, graph_name: 'neo4j', model: MODEL, mode: 'vector' })).json();
    await driver.executeQuery(`DROP INDEX ${fulltextIndexName(f.index)} IF EXISTS`, {}, { database: 'neo4j' });
    const hybrid = await search({ ...q, graph_name: 'neo4j', model: MODEL, mode: 'hybrid' });
    expect(hybrid.status).toBe(200);
    expect(await hybrid.json()).toEqual(asVector);
    const fulltext = await search({ ...q, graph_name: 'neo4j', model: MODEL, mode: 'fulltext' });
    expect(fulltext.status).toBe(404);
    expect((await fulltext.json()).detail).toContain('POST /dev/build_vector_index');
  });
});
