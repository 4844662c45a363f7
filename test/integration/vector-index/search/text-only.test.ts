/**
 * An index of text alone, with no node that is a name only (issue 50): its names' vector index
 * is empty and a search does not ask it (one HNSW query fewer), and the share of the query's
 * words (src/graph/dialect/search-query.ts TERM_SHARE), a rule for name chunks, leaves its
 * ranking as BM25 and the vectors give it. Real Neo4j and Redis, the generated tiny potion model.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fulltextIndexName, namesIndexName, quoteName } from '../../../../src/graph/dialect/names.js';
import { buildVectorIndex } from '../../../../src/vector-index/build/build.js';
import { createVectorSearcher } from '../../../../src/vector-index/search/searcher.js';
import { toLuceneQuery } from '../../../../src/vector-index/search/fulltext-query.js';
import { generateProse } from '../../../../scripts/bench/bench-prose.js';
import { createTestApp } from '../../helpers/deps.js';
import { createIndexFixture, createTextNodes, dropIndexFixture } from '../../helpers/index-fixtures.js';

const MODEL = 'minishlab/potion-base-32M';
const f = createIndexFixture(MODEL);
const { deps } = createTestApp(f.env);
const driver = deps.graph.driver;
const texts = Array.from({ length: 20 }, (_, i) => generateProse(5000 + i, 60, 400));
/** Queries of words some texts hold and others do not, with question words no text holds. */
const queries = [
  'which genes are involved in the regulation of insulin',
  'explain calcium signalling in muscle to me',
  texts[3]!.slice(0, 80),
];

const q = async (cypher: string, params: Record<string, unknown> = {}) =>
  (await driver.executeQuery(cypher, params, { database: 'neo4j' })).records.map((r) => r.toObject());

beforeAll(async () => {
  await createTextNodes(driver, f, texts);
  await buildVectorIndex(deps, { graph: 'neo4j', model: MODEL });
}, 120_000);
afterAll(async () => {
  await dropIndexFixture(driver, f);
  await deps.close();
});

describe('an index of text alone', () => {
  const search = (query: string, mode: 'vector' | 'fulltext' | 'hybrid', termShare?: 'none' | 'names' | 'all') =>
    createVectorSearcher(deps, termShare ? { termShare } : {}).search({ query, graph: 'neo4j', model: MODEL, topK: 8, mode });

  it("ranks full-text hits by BM25 alone: the share of the query's words weighs names only", async () => {
    for (const query of queries) {
      const found = await search(query, 'fulltext');
      const raw = await q(
        `CALL db.index.fulltext.queryNodes($ft, $q, {limit: 8}) YIELD node, score
         MATCH (n) WHERE elementId(n) = node.nodeId RETURN n.dbId AS dbId, score`,
        { ft: fulltextIndexName(f.index), q: toLuceneQuery(query) },
      );
      expect(found.length).toBeGreaterThan(0);
      expect(found.map((h) => [h.dbId, h.score.toFixed(6)])).toEqual(raw.map((r) => [Number(r.dbId), (r.score as number).toFixed(6)]));
    }
  });

  it('gives hybrid and vector search the same order and scores as without the share', async () => {
    for (const query of queries) {
      for (const mode of ['hybrid', 'vector'] as const) {
        expect(await search(query, mode), `${mode}: ${query}`).toEqual(await search(query, mode, 'none'));
      }
    }
  });

  it('still weighs every full-text hit by its share when asked to (`all`), though it reads no text to tell names', async () => {
    // The first query's question words are in no text, so every hit holds a share below 1.
    const bm25 = await search(queries[0]!, 'fulltext', 'none');
    const all = await search(queries[0]!, 'fulltext', 'all');
    expect(all.length).toBeGreaterThan(0);
    const scoreOf = new Map(bm25.map((h) => [h.dbId, h.score]));
    for (const h of all) expect(h.score).toBeLessThan(scoreOf.get(h.dbId) ?? Number.POSITIVE_INFINITY);
  });

  it("does not ask its empty names' vector index", async () => {
    const before = await search(queries[0]!, 'hybrid');
    // Were the names' index asked, its absence would fail the search ("no such vector schema index").
    await q(`DROP INDEX ${quoteName(namesIndexName(f.index))}`);
    for (const mode of ['vector', 'hybrid'] as const) expect((await search(queries[0]!, mode)).length).toBeGreaterThan(0);
    expect(await search(queries[0]!, 'hybrid')).toEqual(before);
  });
});
