/**
 * `bench:search -- --peer --recall`: what the over-fetch (chunk hits asked per wanted node)
 * buys. For each factor, vector search's recall@k against the exact answer (every chunk's
 * cosine computed here, best chunk per node, the k best nodes), hybrid search's agreement with
 * its results at ×4 (the setting bench:quality measured), and the search's own latency (one
 * client, query vectors cached, so the model server is out of it).
 */
import type { Config } from '../../../src/config.js';
import type { EmbedderPool } from '../../../src/embeddings/embedders.js';
import { chunkLabel, quoteName } from '../../../src/graph/dialect/names.js';
import type { GraphStore } from '../../../src/graph/access/driver.js';
import { createQueryVectors } from '../../../src/vector-index/search/query-vectors.js';
import { createVectorSearcher } from '../../../src/vector-index/search/searcher.js';
import { fmt } from '../bench-common.js';
import { pct } from './stats.js';

/** Options of {@link overfetchRecall}. */
export interface OverfetchRecallOptions {
  deps: { config: Config; graph: GraphStore; embedders: EmbedderPool };
  model: string;
  queries: readonly string[];
  topK: number;
  factors: readonly number[];
}

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

/** Prints the recall table (Markdown) for `factors`. */
export async function overfetchRecall({ deps, model, queries, topK, factors }: OverfetchRecallOptions): Promise<void> {
  const { config, graph } = deps;
  const db = config.GRAPHDB_GRAPH;
  const { records } = await graph.driver.executeQuery(
    `MATCH (c:${quoteName(chunkLabel(config.VECTOR_INDEX_NAME))})
     MATCH (n) WHERE elementId(n) = c.nodeId
     RETURN CASE WHEN n.dbId IS :: INTEGER NOT NULL THEN n.dbId ELSE id(n) END AS dbId, c.embedding AS e`,
    {},
    { database: db },
  );
  const chunks = records.map((r) => {
    const e = r.get('e') as number[];
    const norm = Math.sqrt(dot(e, e)) || 1;
    return { dbId: Number(r.get('dbId')), e: Float64Array.from(e, (x) => x / norm) };
  });
  const queryVectors = createQueryVectors({ embedders: deps.embedders, size: queries.length });
  const exact: Set<number>[] = [];
  for (const q of queries) {
    const v = await queryVectors.get(model, q);
    const best = new Map<number, number>();
    for (const c of chunks) {
      const s = v ? dot(v, c.e) : 0;
      if (s > (best.get(c.dbId) ?? -Infinity)) best.set(c.dbId, s);
    }
    exact.push(
      new Set(
        [...best]
          .sort((a, b) => b[1] - a[1])
          .slice(0, topK)
          .map(([id]) => id),
      ),
    );
  }

  const run = async (overfetch: number, mode: 'vector' | 'hybrid') => {
    const searcher = createVectorSearcher(deps, { overfetch, queryVectors });
    const ids: number[][] = [];
    const ms: number[] = [];
    for (const query of queries) {
      const t = performance.now();
      const hits = await searcher.search({ query, graph: db, model, topK, mode });
      ms.push(performance.now() - t);
      ids.push(hits.map((h) => h.dbId));
    }
    return {
      ids,
      p50: pct(
        ms.sort((a, b) => a - b),
        50,
      ),
    };
  };
  const share = (got: number[][], want: Set<number>[]) =>
    got.reduce((s, ids, i) => s + ids.filter((id) => want[i]!.has(id)).length / Math.max(1, want[i]!.size), 0) / got.length;

  const hybridRef = (await run(4, 'hybrid')).ids.map((ids) => new Set(ids));
  console.log(`\nover-fetch at top_k ${topK}, ${queries.length} queries, ${chunks.length} chunks (one client, query vectors cached):`);
  console.log('| over-fetch | chunk hits asked | vector recall@k vs exact | vector p50 ms | hybrid agreement with ×4 | hybrid p50 ms |');
  console.log('|---:|---:|---:|---:|---:|---:|');
  for (const f of factors) {
    await run(f, 'vector'); // warm-up: plan cache, index pages
    const v = await run(f, 'vector');
    const h = await run(f, 'hybrid');
    console.log(
      `| ×${f} | ${Math.ceil(topK * f)} | ${fmt(share(v.ids, exact), 4)} | ${fmt(v.p50, 2)} | ${fmt(share(h.ids, hybridRef), 4)} | ${fmt(h.p50, 2)} |`,
    );
  }
}
