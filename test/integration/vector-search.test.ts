/**
 * POST /vector/search and `deps.search` against a real index built over the suite's own nodes
 * (generated tiny potion model): ranking, one entry per node, fields, top_k and the errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVectorIndex } from '../../src/embeddings/index-build.js';
import { generateProse } from '../../scripts/bench-prose.js';
import { createTestApp } from '../helpers/deps.js';
import { createIndexFixture, createTextNodes, dropIndexFixture } from './index-fixtures.js';

const MODEL = 'minishlab/potion-base-32M';
const f = createIndexFixture(MODEL, { CHUNK_TOKENS: '48', CHUNK_OVERLAP_TOKENS: '8', VECTOR_SEARCH_TOP_K: '3' });
const { app, deps } = createTestApp(f.env);
const driver = deps.graph.driver;
const repeated = 'Calcium channels open in muscle cells. ';
// Node 29 says the same thing over and over: all of its chunks match a query about it.
const texts = Array.from({ length: 30 }, (_, i) => (i === 29 ? repeated.repeat(40).trim() : generateProse(2000 + i, 150, 1200)));
let ids: string[] = [];

const search = (body: unknown) =>
  app.request('/vector/search', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

beforeAll(async () => {
  ids = await createTextNodes(driver, f, texts);
  // One node with an integer dbId of its own, one without (the database id is used then).
  await driver.executeQuery('MATCH (n) WHERE elementId(n) = $id REMOVE n.dbId SET n.displayName = $dn', { id: ids[7], dn: 'Seven' }, { database: 'neo4j' });
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
    expect(hits[0].score).toBeGreaterThan(0.99);
  });

  it('uses VECTOR_SEARCH_TOP_K by default, the database id without a dbId, and displayName first', async () => {
    const hits = await (await search({ query: texts[7], graph_name: 'neo4j', model: MODEL })).json();
    expect(hits).toHaveLength(3);
    const [row] = (await driver.executeQuery('MATCH (n) WHERE elementId(n) = $id RETURN id(n) AS id', { id: ids[7] }, { database: 'neo4j' })).records;
    expect(hits[0]).toMatchObject({ dbId: row!.get('id'), displayName: 'Seven', text: texts[7] });
  });

  it('is the same search as deps.search (what chat, agent and MCP call)', async () => {
    const viaHttp = await (await search({ query: 'insulin signalling in the liver', graph_name: 'neo4j', model: MODEL, top_k: 4 })).json();
    const direct = await deps.search.search({ query: 'insulin signalling in the liver', graph: 'neo4j', model: MODEL, topK: 4 });
    expect(direct).toEqual(viaHttp);
  });

  it('finds nothing for a query without any known token instead of failing', async () => {
    const res = await search({ query: '∰∰∰', graph_name: 'neo4j', model: MODEL });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
  });
});

describe('POST /vector/search errors', () => {
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
