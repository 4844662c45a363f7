/**
 * Search over a built index, shared by `POST /vector/search`, the chat lookup handler, the
 * agent's `vector_search` tool and MCP (all through `deps.search`). Three modes:
 *
 * - `vector`: the query is embedded with the named model and the vector index is asked for
 *   `top_k` × an over-fetch of chunk hits, so that after keeping one entry per source node (its
 *   best chunk's score) there are still `top_k` nodes in most cases.
 * - `fulltext`: the query's words go to the Lucene index over the same chunks (header + text),
 *   ranked by BM25. A query without a single indexable word is searched as `vector`.
 * - `hybrid`: both candidate lists, fused per node by a weighted sum of normalised scores
 *   (`searchQuery` in src/graph/dialect/search-query.ts).
 *
 * A search reads the index's record (../index/record.ts, cached), embeds the query once
 * (./query-vectors.ts: concurrent identical queries share one embedding call), is planned by
 * ./plan.ts without I/O, and runs as one query per round (./run.ts): one round trip, with each
 * node's relationships read by the same query when `neighbors` is asked.
 *
 * With `labels` or `where` the same query keeps only the candidates that pass the filter, and
 * is run again with longer candidate lists while fewer than `top_k` pass (./filter.ts). Where
 * the index's chunks carry filter values (../index/carry.ts: Neo4j 2026.x), the part of the
 * filter the vector index can apply goes into it (`SEARCH … WHERE`,
 * src/graph/filters/filter-index.ts), so its list holds only passing chunks and one round
 * suffices. Without a filter the query, its parameters and its one round trip are exactly those
 * of an unfiltered search.
 */
import type { Config } from '../../config.js';
import { findModel } from '../../contract/models.js';
import type { RetrievalMode, SourceNode } from '../../contract/search.js';
import type { EmbedderPool } from '../../embeddings/embedders.js';
import { unknownModel } from '../../embeddings/embedders.js';
import { DomainError } from '../../errors.js';
import { type AutoRead, withAutoRead } from '../../graph/access/auto-read.js';
import { assertGraph, type GraphStore } from '../../graph/access/driver.js';
import { type Fusion, HAS_NAMES, missingIndexKind } from '../../graph/dialect/search-query.js';
import { fulltextIndexName } from '../../graph/dialect/names.js';
import { indexStatements } from '../../graph/dialect/index-statements.js';
import { type CompiledFilter, compileFilter } from '../../graph/filters/filter-cypher.js';
import { createTtlCache } from '../../lib/ttl-cache.js';
import { metaWrites, readIndexMeta, type SearchView, searchView } from '../index/record.js';
import { resolveIndexName } from '../index/target.js';
import { createListMemory, MAX_FILTER_CANDIDATES } from './filter.js';
import { createFilterNameCheck } from './filter-names.js';
import {
  applyFilter,
  carriedFields,
  filterPath,
  HYBRID_ALPHA,
  HYBRID_FUSION,
  OVERFETCH,
  planSearch,
  queryForms,
  runnableMode,
  TERM_SHARE_DEFAULT,
} from './plan.js';
import { createQueryVectors, type QueryVectors } from './query-vectors.js';
import { type RoundOptions, type RoundSettings, runPlanned, searchFiltered } from './run.js';
import type { SearchRequest, VectorSearcher } from './types.js';

/** What the searcher needs from the app's dependencies. */
export interface VectorSearchDeps {
  readonly config: Pick<
    Config,
    | 'TEXT_PROPERTY'
    | 'SEARCH_TEXT_MAX_CHARS'
    | 'QUERY_VECTOR_CACHE_SIZE'
    | 'RETRIEVAL_MODE'
    | 'GRAPHDB_GRAPH'
    | 'EMBEDDING_MODEL'
    | 'VECTOR_INDEX_NAME'
  >;
  readonly graph: GraphStore;
  readonly embedders: EmbedderPool;
}

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

/** How long an index's record is reused by searches, in ms (a build in another process is seen within this). */
export const PLAN_TTL_MS = 5_000;

/** Options of {@link createVectorSearcher}. */
export interface VectorSearcherOptions {
  /** Node property holding the text; default `TEXT_PROPERTY`. */
  textProperty?: string;
  /** Weight of the vector scores in hybrid mode, 0..1; default {@link HYBRID_ALPHA}. bench:quality compares others. */
  alpha?: number;
  /** Vector-index chunk hits asked per wanted node in `vector` mode; default {@link OVERFETCH}. bench:search --recall compares others. */
  overfetch?: number;
  /**
   * Weigh hits by the share of the query's words they hold (src/graph/dialect/search-query.ts TERM_SHARE):
   * `names` (default, {@link TERM_SHARE_DEFAULT}), chunks that are a name alone, in the full-text
   * list and in the vector lists (vector mode, hybrid; by ½ + ½ · share: NAME_SHARE); `all`, every
   * full-text hit too (the default before issue 50); `none`, the scores alone. bench:quality compares them.
   */
  termShare?: 'none' | 'names' | 'all';
  /** How hybrid fuses its two lists (src/graph/dialect/search-query.ts `Fusion`); default {@link HYBRID_FUSION}. bench:quality compares them. */
  fusion?: Fusion;
  /** Query embedding (cache and coalescing); default one of `QUERY_VECTOR_CACHE_SIZE` vectors over `deps.embedders`. */
  queryVectors?: QueryVectors;
}

/**
 * An index's record as searches use it, with the fields its carried values give a filter, and
 * whether its names' vector index is asked (`names`: it exists and holds a name).
 */
type IndexView = SearchView & {
  carried: { carry: NonNullable<SearchView['carry']>; fields: ReturnType<typeof carriedFields> } | null;
  names: boolean;
};

/** Whether `index` holds a name chunk ({@link HAS_NAMES}); true when that cannot be read (the full-text index missing during a build). */
async function holdsNames(store: GraphStore, graph: string, index: string): Promise<boolean> {
  try {
    const records = await withAutoRead(store, graph, (read) => read(HAS_NAMES, { ftIndex: fulltextIndexName(index) }));
    return records[0]?.get('any') !== false;
  } catch {
    return true;
  }
}

/** Each index's chunk count (where a filtered search stops widening), read at most once per {@link FILTER_NAMES_TTL_MS}. */
function createChunkCounter(store: GraphStore): (graph: string, index: string) => Promise<number> {
  const counts = createTtlCache<number>({ ttlMs: FILTER_NAMES_TTL_MS });
  return (graph, index) =>
    counts.get(JSON.stringify([graph, index]), async () => {
      const records = await withAutoRead(store, graph, (read) => read(indexStatements(index).countChunks));
      return Number(records[0]?.get('n') ?? 0);
    });
}

/**
 * Each index's record as searches use it, read once per {@link PLAN_TTL_MS}; a build in this
 * process is seen at once (its record count is part of the key), one elsewhere within the TTL.
 */
function createViewReader(store: GraphStore, textProperty: string): (graph: string, index: string) => Promise<IndexView> {
  const views = createTtlCache<IndexView>({ ttlMs: PLAN_TTL_MS });
  return (graph, index) =>
    views.get(JSON.stringify([graph, index, metaWrites(graph, index)]), async () => {
      const view = searchView(await readIndexMeta(store.driver, graph, index), textProperty);
      // Filtering inside the index needs the chunks' carried values and a server that still takes `SEARCH`.
      const carry = view.carry && (await store.server().catch(() => null))?.vectorFilters ? view.carry : null;
      // An index of text alone has an empty names' index: not asked (one HNSW query fewer), until a sync adds a name (seen within the TTL).
      const names = view.namesIndex && (await holdsNames(store, graph, index));
      // Built once per record read, not per search.
      return { ...view, carry, carried: carry ? { carry, fields: carriedFields(carry) } : null, names };
    });
}

/** A request with its defaults filled in. */
type PlannedRequest = SearchRequest & { mode: RetrievalMode; neighbors: number };

/** The 422 for a `top_k` out of range. */
function checkTopK(topK: number): void {
  if (Number.isInteger(topK) && topK >= 1 && topK <= MAX_TOP_K) return;
  throw new DomainError('invalid', 'validation', `top_k must be an integer from 1 to ${MAX_TOP_K}`, {
    errors: [{ path: 'topK', message: `must be an integer from 1 to ${MAX_TOP_K}` }],
  });
}

/** Builds the searcher every caller uses. */
export function createVectorSearcher(deps: VectorSearchDeps, opts: VectorSearcherOptions = {}): VectorSearcher {
  const { config } = deps;
  const textProperty = opts.textProperty ?? config.TEXT_PROPERTY;
  const overfetch = opts.overfetch ?? OVERFETCH;
  const settings: RoundSettings = {
    alpha: opts.alpha ?? HYBRID_ALPHA,
    termShare: opts.termShare ?? TERM_SHARE_DEFAULT,
    fusion: opts.fusion ?? HYBRID_FUSION,
    textChars: config.SEARCH_TEXT_MAX_CHARS,
    defaultGraph: config.GRAPHDB_GRAPH,
  };
  // A query with no known token embeds to zeros (null here), which has no cosine similarity to anything.
  const queryVectors = opts.queryVectors ?? createQueryVectors({ embedders: deps.embedders, size: config.QUERY_VECTOR_CACHE_SIZE });
  // Filtered searches only: the graph's names (to refuse unknown ones: ./filter-names.ts) and each index's size (to stop widening).
  const checkNames = createFilterNameCheck(deps.graph, FILTER_NAMES_TTL_MS);
  const chunkCount = createChunkCounter(deps.graph);
  const memory = createListMemory();
  const viewOf = createViewReader(deps.graph, textProperty);

  /** Plans and runs one search over `index`. */
  const searchIndex = async (read: AutoRead, req: PlannedRequest, index: string, compiled: CompiledFilter | null) => {
    const { query, graph, model, topK, mode, neighbors, labels, where } = req;
    const forms = queryForms(query, mode);
    const vector = forms.embed ? await queryVectors.get(model, query) : null;
    const view = await viewOf(graph, index);
    const filter = compiled && applyFilter(compiled, view.carried, labels, where);
    if (filter) req.onFilterPath?.(filterPath(filter));
    const hasVector = vector !== null;
    // A filter's lists are remembered per index and mode (./filter.ts ListMemory).
    const key =
      filter && JSON.stringify([graph, index, runnableMode(forms.mode, hasVector, forms.q !== null), filter.inIndex, filter.post]);
    const plan = planSearch({ forms, hasVector, topK, overfetch, filter, remembered: key ? memory.get(key) : undefined });
    if (!plan.mode) return [];
    const o: RoundOptions = {
      read,
      graph,
      index,
      view,
      names: view.names,
      mode: plan.mode,
      query,
      q: forms.q,
      vector,
      topK,
      neighbors,
      lists: plan.lists,
      filter,
      settings,
    };
    if (!filter || !key) return (await runPlanned(o, plan)).nodes;
    return searchFiltered(o, plan, filter, {
      limit: async () => Math.min(MAX_FILTER_CANDIDATES, await chunkCount(graph, index)),
      remember: (lists) => memory.set(key, { k: lists.k / topK, kf: lists.kf / topK }),
    });
  };

  return {
    async search(req: SearchRequest): Promise<SourceNode[]> {
      const { graph, model, labels, where } = req;
      if (!findModel(model)) throw unknownModel(model);
      checkTopK(req.topK);
      await assertGraph(deps.graph, graph);
      const compiled = compileFilter(labels, where);
      if (compiled) await checkNames(graph, { labels, where });
      const index = resolveIndexName(config, graph, model);
      const mode: RetrievalMode = req.mode ?? config.RETRIEVAL_MODE;
      // Auto-commit reads (src/graph/access/auto-read.ts): one round trip per query.
      try {
        return await withAutoRead(deps.graph, graph, (read) =>
          searchIndex(read, { ...req, mode, neighbors: req.neighbors ?? 0 }, index, compiled),
        );
      } catch (err) {
        if (missingIndexKind(err)) throw noIndex(graph, model, index);
        throw err;
      }
    },
  };
}
