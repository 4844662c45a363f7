/**
 * Search over a built index, shared by `POST /vector/search`, the chat lookup handler, the
 * agent's `vector_search` tool and MCP (all through `deps.search`). Three modes:
 *
 * - `vector`: the query is embedded with the named model and the vector index is asked for
 *   `top_k × 6` chunk hits ({@link OVERFETCH}: chosen from measured recall), so that after keeping
 *   one entry per source node (its best chunk's score) there are still `top_k` nodes in most cases.
 * - `fulltext`: the query's words go to the Lucene index over the same chunks (header + text),
 *   ranked by BM25. A query without a single indexable word is searched as `vector`.
 * - `hybrid`: both candidate lists, fused per node by a weighted sum of normalised scores
 *   (`searchQuery` in src/graph/dialect.ts). An index built before the full-text index existed
 *   is searched as `vector` until its next build.
 *
 * Each mode is one query, one round trip: a second one (fusing here, then reading the nodes)
 * cost hybrid ~0.8 ms, half of a vector search. With `neighbors`, each result also carries some
 * of its relationships (src/graph/access/neighbors.ts), read by the same query.
 *
 * The query vector comes from ./query-vectors.ts: concurrent identical queries share one
 * embedding call and recent ones are kept.
 *
 * With `labels` or `where` the same query keeps only the candidates that pass the filter, and
 * is run again with longer candidate lists while fewer than `top_k` pass (./filter.ts). Where
 * the index's chunks carry filter values (../index/carry.ts: Neo4j 2026.x), the part of the filter the
 * vector index can apply goes into it (`SEARCH … WHERE`, src/graph/filters/filter-index.ts), so its list
 * holds only passing chunks and one round suffices; the rest is post-filtered as before. Without
 * a filter the query, its parameters and its one round trip are exactly those of an unfiltered search.
 */
import neo4j from 'neo4j-driver';
import { type AutoRead, withAutoRead } from '../../graph/access/auto-read.js';
import type { Config } from '../../config.js';
import type { EmbedderPool } from '../../embeddings/embedders.js';
import { assertGraph, type GraphStore } from '../../graph/access/driver.js';
import { DomainError } from '../../errors.js';
import { fulltextIndexName, missingIndexKind, namesIndexName, searchQuery } from '../../graph/dialect.js';
import { indexStatements } from '../../graph/dialect/index-statements.js';
import { type CompiledFilter, compileFilter } from '../../graph/filters/filter-cypher.js';
import { type CarriedFields, splitFilter } from '../../graph/filters/filter-index.js';
import { type CarryPlan, inIndexOverfetch, labelField, propField } from '../index/carry.js';
import { createFilterNameCheck } from './filter-names.js';
import { createTtlCache } from '../../lib/ttl-cache.js';
import { NEIGHBOR_SCAN, nodeContext, type RawNeighbor } from '../../graph/access/neighbors.js';
import { unknownModel } from '../../embeddings/embedders.js';
import { queryTerms, toLuceneQuery } from './fulltext-query.js';
import { createQueryVectors, type QueryVectors } from './query-vectors.js';
import { resolveIndexName } from '../index/target.js';
import { metaWrites, readIndexMeta } from '../index/record.js';
import { nodeFields, textParams } from '../index/source.js';
import { hitText, nodePath } from './result-text.js';
import { planNames, type TextPlan } from '../../graph/text/text-plan.js';
import { findModel } from '../../contract/models.js';
import type { RetrievalMode, SourceNode } from '../../contract/search.js';
import type { FilterPath, SearchRequest, VectorSearcher } from './types.js';
import { createListMemory, MAX_FILTER_CANDIDATES, nextCandidateCount } from './filter.js';

/** What the searcher needs from the app's dependencies. */
export interface VectorSearchDeps {
  readonly config: Config;
  readonly graph: GraphStore;
  readonly embedders: EmbedderPool;
}

/**
 * Vector-index chunk hits asked per wanted node. Two jobs: several chunks of one node may rank
 * high (one entry per node is kept), and Neo4j's HNSW search uses the number asked as its beam,
 * so it is also the recall knob. Measured on WikiPathways with all-MiniLM-L6-v2 (2,866 chunks,
 * 200 titles, `bench:search -- --peer --recall`), recall@k against the exact answer: top_k 10:
 * ×1 0.849, ×2 0.954, ×4 0.967, ×6 0.971, ×10 0.971; top_k 5: ×4 0.942, ×6 0.948, ×10 0.949.
 * ×6 is the smallest factor within 0.005 of the saturated recall at both; the database time
 * hardly moves with it (p50 2.3–2.8 ms from ×1 to ×10), so recall decides (docs/benchmarks.md).
 */
export const OVERFETCH = 6;

/**
 * Chunk hits asked of each list per wanted node in `fulltext` and `hybrid` mode. Lucene's top
 * hits are exact, so for full-text this only covers several chunks of one node; hybrid's weight
 * was tuned with both lists at ×4, and a longer vector list (×6) cost it a little
 * (bench:quality: description recall@5 0.997 → 0.995, question recall@1 0.928 → 0.923).
 */
export const LIST_OVERFETCH = 4;

/** Chunk hits asked of an index for `topK` nodes: `topK × overfetch`, rounded up. */
export function candidateCount(topK: number, overfetch = OVERFETCH): number {
  return Math.ceil(topK * overfetch);
}

/**
 * Weight of the vector scores in hybrid mode (the full-text scores get the rest). With
 * all-MiniLM-L6-v2 on bench:quality's WikiPathways sets, 0.3 is within 0.01 of the best single
 * mode on every set; 0.4 falls 0.01 below on description sentences, 0.2 is within 0.006 of 0.3
 * everywhere but leaves less to meaning, which helps paraphrases no set measures; reciprocal
 * rank fusion fell 0.06 below on description sentences (docs/benchmarks.md).
 */
export const HYBRID_ALPHA = 0.3;

/** Largest accepted `top_k`. */
export const MAX_TOP_K = 100;

/** The 404 for a graph and model that have no index yet, saying how to build one. */
export function noIndex(graph: string, model: string, index: string): DomainError {
  return new DomainError(
    'not-found',
    'no-index',
    `no vector index "${index}" for graph "${graph}" and model "${model}"; build it with ` +
      `POST /dev/build_vector_index {"graph_name": "${graph}", "model": "${model}"} ` +
      `or scripts/build-index --graph ${graph} --model ${model}`,
  );
}

/** How long a graph's label and property names, and an index's chunk count, are reused by filtered searches, in ms. */
export const FILTER_NAMES_TTL_MS = 30_000;

/** How long an index's text plan is reused by searches, in ms (a build in another process is seen within this). */
export const PLAN_TTL_MS = 5_000;

/** Chunk hits asked of each list in one round: `k` of the vector index, `kf` of the full-text index. */
interface Lists {
  k: number;
  kf: number;
}

/** What stays the same across the rounds of one search. */
interface SearchPlan {
  read: AutoRead;
  graph: string;
  index: string;
  /** The index's text plan: which properties make each node's `text`. */
  text: TextPlan;
  /** Name chunks' vectors are in the names' index (src/graph/dialect.ts NAME_VECTOR): both vector indexes are asked. */
  names: boolean;
  mode: RetrievalMode;
  /** Null for a query without a known token. */
  vector: readonly number[] | null;
  /** The Lucene query; null for a query without a word, or in vector mode. */
  q: string | null;
  topK: number;
  neighbors: number;
  /** The user's words: name chunks are weighed by the share of them they hold, in every mode (src/graph/dialect.ts NAME_SHARE). */
  query: string;
}

/** A filter as a search applies it: inside the index (a predicate over chunk `c`) and after it (over node `n`). */
interface AppliedFilter {
  inIndex: CompiledFilter | null;
  post: CompiledFilter | null;
  /** What the index's chunks carry, when `inIndex` is set. */
  carry?: CarryPlan;
  /** Chunks the vector index returned in the last round (`inIndex`, vector and hybrid mode); null when no row said. */
  chunkHits?: number | null;
}

/** The chunk properties of a recorded carry, by source name (src/graph/filters/filter-index.ts). */
function carriedFields(carry: CarryPlan): CarriedFields {
  return {
    labels: new Map(carry.labels.map((l) => [l, labelField(l)])),
    properties: new Map(carry.properties.map((p) => [p, propField(p)])),
    lists: new Set(carry.lists),
  };
}

/** Options of {@link createVectorSearcher}. */
export interface VectorSearcherOptions {
  /** Node property holding the text; default `TEXT_PROPERTY`. */
  textProperty?: string;
  /** Weight of the vector scores in hybrid mode, 0..1; default {@link HYBRID_ALPHA}. bench:quality compares others. */
  alpha?: number;
  /** Vector-index chunk hits asked per wanted node in `vector` mode; default {@link OVERFETCH}. bench:search --recall compares others. */
  overfetch?: number;
  /**
   * Weigh hits by the share of the query's words they hold (src/graph/dialect.ts TERM_SHARE):
   * `all` (default), every full-text hit and, in the vector lists (vector mode, hybrid), chunks
   * that are a name alone (by ½ + ½ · share: NAME_SHARE); `names`, name chunks only in both
   * lists; `none`, the scores alone (as before issue 37). bench:quality compares them.
   */
  termShare?: 'none' | 'names' | 'all';
  /** Query embedding (cache and coalescing); default one of `QUERY_VECTOR_CACHE_SIZE` vectors over `deps.embedders`. */
  queryVectors?: QueryVectors;
}

/**
 * How a search applies its filter: when the index's chunks carry filter values, the part the
 * vector index can take goes into it (and full-text hits are tested on their chunks' values);
 * the rest, or all of it, is tested on the source nodes after.
 */
function appliedFilter(
  filter: CompiledFilter,
  carried: { carry: CarryPlan; fields: CarriedFields } | null,
  labels: SearchRequest['labels'],
  where: SearchRequest['where'],
): AppliedFilter {
  if (!carried) return { inIndex: null, post: filter };
  const split = splitFilter(labels, where, carried.fields);
  return split.index ? { inIndex: split.index, post: split.residual, carry: carried.carry } : { inIndex: null, post: filter };
}

/** Which path a filter took, for the caller (`Search-Filter` header of `POST /vector/search`). */
function filterPath(f: AppliedFilter): FilterPath {
  return f.inIndex ? (f.post ? 'index+post' : 'index') : 'post';
}

/** Builds the searcher every caller uses. */
export function createVectorSearcher(deps: VectorSearchDeps, opts: VectorSearcherOptions = {}): VectorSearcher {
  const { config } = deps;
  const prop = opts.textProperty ?? config.TEXT_PROPERTY;
  const alpha = opts.alpha ?? HYBRID_ALPHA;
  const overfetch = opts.overfetch ?? OVERFETCH;
  const termShare = opts.termShare ?? 'all';
  const textChars = config.SEARCH_TEXT_MAX_CHARS;

  // A query with no known token embeds to zeros (null here), which has no cosine similarity to anything.
  const queryVectors = opts.queryVectors ?? createQueryVectors({ embedders: deps.embedders, size: config.QUERY_VECTOR_CACHE_SIZE });

  /** The lists of a first round: `topK` × the mode's over-fetch. */
  // `inIndex`: the index's carry when the index applies the filter (fewer hits suffice: ../index/carry.ts).
  const firstLists = (mode: RetrievalMode, topK: number, inIndex?: CarryPlan): Lists => {
    const most = mode === 'vector' ? overfetch : LIST_OVERFETCH;
    return {
      k: candidateCount(topK, inIndex ? inIndexOverfetch(inIndex, most) : most),
      kf: candidateCount(topK, LIST_OVERFETCH),
    };
  };

  // Filtered searches only: the graph's names (to refuse unknown ones: ./filter-names.ts) and each index's size (to stop widening).
  const checkNames = createFilterNameCheck(deps.graph, FILTER_NAMES_TTL_MS);
  const chunkCounts = createTtlCache(
    async (key) => {
      const [graph, index] = JSON.parse(key) as [string, string];
      const records = await withAutoRead(deps.graph, graph, (read) => read(indexStatements(index).countChunks));
      return Number(records[0]?.get('n') ?? 0);
    },
    { ttlMs: FILTER_NAMES_TTL_MS },
  );

  /** One round trip: the mode's query, each node's relationships included when `neighbors` > 0. */
  const run = async (
    read: AutoRead,
    graph: string,
    { text, names: namesIndex }: { text: TextPlan; names: boolean },
    mode: RetrievalMode,
    params: Record<string, unknown>,
    topK: number,
    neighbors: number,
    lists: Lists,
    filter: AppliedFilter | null,
  ) => {
    const inIndex = filter?.inIndex ? { index: params.index as string, where: filter.inIndex.cypher } : undefined;
    const records = await read(searchQuery(mode, neighbors > 0, filter?.post?.cypher, inIndex, namesIndex), {
      ...params,
      ...filter?.post?.params,
      ...filter?.inIndex?.params,
      ...textParams(text),
      // The words a hit's share is counted over (src/graph/dialect.ts TERM_SHARE, NAME_SHARE); none: the scores alone.
      terms: termShare === 'none' ? [] : queryTerms(typeof params.q === 'string' ? params.q : String(params.query)),
      shareAll: termShare === 'all',
      textChars: neo4j.int(textChars),
      alpha,
      k: neo4j.int(lists.k),
      kf: neo4j.int(lists.kf),
      topK: neo4j.int(topK),
      scan: neo4j.int(NEIGHBOR_SCAN),
    });
    if (filter?.inIndex) filter.chunkHits = records[0]?.has('chunkHits') ? Number(records[0].get('chunkHits')) : null;
    // The text a result carries is the text that was indexed for it (../index/node-text.ts), bounded (./result-text.ts);
    // nodes are named as the index names them (src/graph/text/node-name.ts).
    const names = planNames(text);
    return records.map((r): SourceNode => {
      const dbId = r.get('dbId') as number;
      const get = (k: string) => r.get(k);
      // Named once: the result shows the name its text was composed with.
      const fields = nodeFields(get, names, dbId);
      const node: SourceNode = {
        dbId,
        displayName: fields.displayName,
        text: hitText(text, get, textChars, nodePath(dbId, graph, config.GRAPHDB_GRAPH), fields),
        score: r.get('score') as number,
        labels: fields.labels as string[],
      };
      const rels = r.has('rels') ? (r.get('rels') as RawNeighbor[]) : undefined;
      return rels ? { ...node, ...nodeContext(rels, r.get('degree'), neighbors, names) } : node;
    });
  };

  /**
   * The query a search runs: `vector` is null for a query without a known token, `q` for one
   * without a word; hybrid falls back to the mode that has something to search with.
   */
  const searchIn = async (plan: SearchPlan, lists: Lists, filter: AppliedFilter | null): Promise<SourceNode[]> => {
    const { read, graph, index, vector, q, topK, neighbors } = plan;
    let { mode } = plan;
    const ftIndex = fulltextIndexName(index);
    const namesIndex = namesIndexName(index);
    if (mode === 'hybrid' && !vector) mode = 'fulltext';
    if (mode === 'hybrid' && !q) mode = 'vector';
    if ((mode === 'vector' && !vector) || (mode === 'fulltext' && !q)) return [];
    try {
      return await run(
        read,
        graph,
        plan,
        mode,
        { index, namesIndex, ftIndex, vector, q, query: plan.query },
        topK,
        neighbors,
        lists,
        filter,
      );
    } catch (err) {
      // An index built before full-text search existed: search it by meaning until the next
      // build adds the full-text index, rather than failing every chat lookup.
      if (mode === 'hybrid' && missingIndexKind(err) === 'fulltext') {
        return run(read, graph, plan, 'vector', { index, namesIndex, vector, query: plan.query }, topK, neighbors, lists, filter);
      }
      throw err;
    }
  };

  const memory = createListMemory();

  // Each index's text plan, as its last build recorded it; an index built before plans were
  // recorded reads `TEXT_PROPERTY` alone, as it was built. A build in this process is seen at
  // once (its record count is part of the key), one elsewhere within PLAN_TTL_MS.
  const plans = createTtlCache(
    async (key) => {
      const [graph, index] = JSON.parse(key) as [string, string, number];
      const meta = await readIndexMeta(deps.graph.driver, graph, index);
      // Filtering inside the index needs the chunks' carried values and a server that still takes `SEARCH`.
      const carry = meta?.settings.carry && (await deps.graph.server().catch(() => null))?.vectorFilters ? meta.settings.carry : null;
      return {
        text: meta?.plan ?? ({ textProperty: prop, only: null, labels: [] } as TextPlan),
        names: meta?.settings.namesIndex === true,
        // Built once per plan read, not per search.
        carried: carry ? { carry, fields: carriedFields(carry) } : null,
      };
    },
    { ttlMs: PLAN_TTL_MS },
  );

  /**
   * A filtered search: rounds of {@link searchIn} with longer lists while fewer than `topK`
   * nodes pass, until the lists cover the index or reach {@link MAX_FILTER_CANDIDATES}. The
   * index's size is read only when a first round falls short. The first round starts from the
   * lists this filter needed last time, if it was seen.
   */
  const searchFiltered = async (plan: SearchPlan, filter: AppliedFilter): Promise<SourceNode[]> => {
    const { topK } = plan;
    const key = JSON.stringify([plan.graph, plan.index, plan.mode, filter.inIndex, filter.post]);
    const first = firstLists(plan.mode, topK, filter.carry);
    const seen = memory.get(key);
    const cap = (n: number) => Math.min(MAX_FILTER_CANDIDATES, Math.ceil(n));
    let lists = seen ? { k: cap(Math.max(first.k, seen.k * topK)), kf: cap(Math.max(first.kf, seen.kf * topK)) } : first;
    let limit: number | undefined;
    for (;;) {
      const hits = await searchIn(plan, lists, filter);
      // The index applied the whole filter and returned fewer chunks than asked: none else pass.
      const exhausted = !filter.post && filter.chunkHits != null && filter.chunkHits < lists.k;
      const done = hits.length >= topK || exhausted;
      if (!done) limit ??= Math.min(MAX_FILTER_CANDIDATES, await chunkCounts.get(JSON.stringify([plan.graph, plan.index])));
      if (done || (lists.k >= limit! && lists.kf >= limit!)) {
        memory.set(key, { k: lists.k / topK, kf: lists.kf / topK });
        return hits;
      }
      const grow = (k: number) => nextCandidateCount(k, topK, hits.length, Math.max(k, limit!));
      lists = { k: grow(lists.k), kf: grow(lists.kf) };
    }
  };

  return {
    async search({
      query,
      graph,
      model,
      topK,
      mode = config.RETRIEVAL_MODE,
      neighbors = 0,
      labels,
      where,
      onFilterPath,
    }: SearchRequest): Promise<SourceNode[]> {
      if (!findModel(model)) throw unknownModel(model);
      if (!Number.isInteger(topK) || topK < 1 || topK > MAX_TOP_K) {
        throw new DomainError('invalid', 'validation', `top_k must be an integer from 1 to ${MAX_TOP_K}`, {
          errors: [{ path: 'topK', message: `must be an integer from 1 to ${MAX_TOP_K}` }],
        });
      }
      await assertGraph(deps.graph, graph);
      const filter = compileFilter(labels, where);
      if (filter) await checkNames(graph, { labels, where });
      const index = resolveIndexName(config, graph, model);
      const q = mode === 'vector' ? null : toLuceneQuery(query);
      // A full-text query with no indexable word is searched by meaning instead.
      let effective: RetrievalMode = mode === 'fulltext' && !q ? 'vector' : mode;
      const vector = effective === 'fulltext' ? null : await queryVectors.get(model, query);
      // Hybrid with only one of its two lists is that list's mode, with that mode's over-fetch.
      if (effective === 'hybrid' && !vector) effective = 'fulltext';
      if (effective === 'hybrid' && !q) effective = 'vector';
      const { text, names, carried } = await plans.get(JSON.stringify([graph, index, metaWrites(graph, index)]));
      const applied = filter && appliedFilter(filter, carried, labels, where);
      if (applied) onFilterPath?.(filterPath(applied));
      // Auto-commit reads (src/graph/access/auto-read.ts): one round trip per query.
      try {
        return await withAutoRead(deps.graph, graph, (read) => {
          const plan: SearchPlan = { read, graph, index, text, names, mode: effective, vector, q, topK, neighbors, query };
          return applied ? searchFiltered(plan, applied) : searchIn(plan, firstLists(effective, topK), null);
        });
      } catch (err) {
        if (missingIndexKind(err)) throw noIndex(graph, model, index);
        throw err;
      }
    },
  };
}
