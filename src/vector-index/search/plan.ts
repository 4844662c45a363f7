/**
 * How a search is planned, without a database: which mode runs (a mode without its input falls
 * back to the one that has it), how many chunk hits each list asks for, where a filter applies
 * (inside the vector index, after it, or both), what runs instead when the index lacks its
 * full-text half, and how a filtered search widens its lists round by round. ./searcher.ts
 * reads the index's record and embeds the query, then runs what these functions decide.
 *
 * Over-fetch and fusion weights are chosen from measurements (docs/benchmarks.md, "Retrieval
 * quality" and "Search against the libraries' floor"); the code keeps the rule.
 */
import type { RetrievalMode } from '../../contract/search.js';
import type { SearchFilter } from '../../contract/search-filter.js';
import type { Fusion } from '../../graph/dialect/search-query.js';
import type { CompiledFilter } from '../../graph/filters/filter-cypher.js';
import { type CarriedFields, splitFilter } from '../../graph/filters/filter-index.js';
import { type CarryPlan, inIndexOverfetch, labelField, propField } from '../index/carry.js';
import { MAX_FILTER_CANDIDATES, nextCandidateCount } from './filter.js';
import { toLuceneQuery } from './fulltext-query.js';
import type { FilterPath } from './types.js';

/**
 * Vector-index chunk hits asked per wanted node in `vector` mode. Two jobs: several chunks of
 * one node may rank high (one entry per node is kept), and Neo4j's HNSW search uses the number
 * asked as its beam, so it is also the recall knob: this is the smallest factor that reaches
 * the saturated recall at top_k 5 and 10, and the database time hardly moves with it.
 */
export const OVERFETCH = 6;

/**
 * Chunk hits asked of each list per wanted node in `fulltext` and `hybrid` mode. Lucene's top
 * hits are exact, so for full-text this only covers several chunks of one node; hybrid's weight
 * was tuned with both lists at this length, and a longer vector list cost it a little.
 */
export const LIST_OVERFETCH = 4;

/**
 * Weight of the vector scores in hybrid mode (the full-text scores get the rest): close to the
 * best single mode on every measured set, and of the weights that are, the one leaving the most
 * to meaning (paraphrases, which no set measures).
 */
export const HYBRID_ALPHA = 0.3;

/**
 * How hybrid puts its lists on one scale (src/graph/dialect/search-query.ts `Fusion`): `z`, how far a
 * node stands above the rest of each list; at least as good as the better list on every measured set.
 */
export const HYBRID_FUSION: Fusion = 'z';

/**
 * Which hits are weighed by the share of the query's words they hold (src/graph/dialect/search-query.ts
 * TERM_SHARE): name chunks only, so an index of text alone ranks by BM25 and the vectors as before
 * the rule (on every text it cost questions 0.025 recall@1; docs/benchmarks.md, issue 50).
 */
export const TERM_SHARE_DEFAULT: 'none' | 'names' | 'all' = 'names';

/**
 * Name chunks asked of the names' vector index per wanted node, unfiltered, and the fewest asked.
 * A name is a node's only chunk, so no over-fetch covers several chunks of one node; what is
 * left is HNSW's beam (the number asked), whose recall@10 is 0.933 at 20 against 0.947 at 50
 * ("Search recall by requested k" in docs/benchmarks.md). Names compete with texts only in the
 * fused ranking, so at most `topK` of them are shown.
 */
export const NAMES_OVERFETCH = 2;
export const MIN_NAMES = 20;

/**
 * Name chunks asked of the names' index in a round with `lists`: `topK` × {@link NAMES_OVERFETCH},
 * at least {@link MIN_NAMES}, never more than the texts' `k` (top_k 10: 20 instead of 60 in
 * vector mode, 40 in hybrid); a filtered search asks `k`, as it asks the texts, so that a full
 * names' list widens the rounds as a full texts' list does.
 */
export function namesCount(lists: Lists, topK: number, filtered: boolean): number {
  return filtered ? lists.k : Math.min(lists.k, Math.max(MIN_NAMES, candidateCount(topK, NAMES_OVERFETCH)));
}

/** Chunk hits asked of an index for `topK` nodes: `topK × overfetch`, rounded up. */
export function candidateCount(topK: number, overfetch = OVERFETCH): number {
  return Math.ceil(topK * overfetch);
}

/** Chunk hits asked of each list in one round: `k` of the vector index, `kf` of the full-text index. */
export interface Lists {
  k: number;
  kf: number;
}

/** A filter as a search applies it: inside the index (a predicate over chunk `c`) and after it (over node `n`). */
export interface AppliedFilter {
  inIndex: CompiledFilter | null;
  post: CompiledFilter | null;
  /** What the index's chunks carry, when `inIndex` is set. */
  carry?: CarryPlan;
}

/** What the mode needs before the query is embedded: the Lucene query, and whether to embed at all. */
export interface QueryForms {
  /** The mode after a full-text query without an indexable word became `vector`. */
  mode: RetrievalMode;
  /** The Lucene query; null in vector mode or for a query without a word. */
  q: string | null;
  /** Whether the query must be embedded. */
  embed: boolean;
}

/** The query's forms for `mode`: a full-text query with no indexable word is searched by meaning instead. */
export function queryForms(query: string, mode: RetrievalMode): QueryForms {
  const q = mode === 'vector' ? null : toLuceneQuery(query);
  const effective: RetrievalMode = mode === 'fulltext' && !q ? 'vector' : mode;
  return { mode: effective, q, embed: effective !== 'fulltext' };
}

/**
 * The mode that runs, given what the query has: hybrid with only one of its two lists is that
 * list's mode; null when the mode has nothing to search with (a query with no known token in
 * vector mode), which finds nothing.
 */
export function runnableMode(mode: RetrievalMode, hasVector: boolean, hasQ: boolean): RetrievalMode | null {
  const m = mode === 'hybrid' && !hasVector ? 'fulltext' : mode === 'hybrid' && !hasQ ? 'vector' : mode;
  return (m === 'vector' && !hasVector) || (m === 'fulltext' && !hasQ) ? null : m;
}

/** The chunk properties of a recorded carry, by source name (src/graph/filters/filter-index.ts). */
export function carriedFields(carry: CarryPlan): CarriedFields {
  return {
    labels: new Map(carry.labels.map((l) => [l, labelField(l)])),
    properties: new Map(carry.properties.map((p) => [p, propField(p)])),
    lists: new Set(carry.lists),
  };
}

/**
 * How a search applies its filter: when the index's chunks carry filter values (and the server
 * filters inside a vector index), the part the vector index can take goes into it; the rest, or
 * all of it, is tested on the source nodes after.
 */
export function applyFilter(
  filter: CompiledFilter,
  carried: { carry: CarryPlan; fields: CarriedFields } | null,
  labels: readonly string[] | undefined,
  where: SearchFilter | undefined,
): AppliedFilter {
  if (!carried) return { inIndex: null, post: filter };
  const split = splitFilter(labels, where, carried.fields);
  return split.index ? { inIndex: split.index, post: split.residual, carry: carried.carry } : { inIndex: null, post: filter };
}

/** Which path a filter took, for the caller (`Search-Filter` header of `POST /vector/search`). */
export function filterPath(f: AppliedFilter): FilterPath {
  return f.inIndex ? (f.post ? 'index+post' : 'index') : 'post';
}

/** The lists of a first round: `topK` × the mode's over-fetch, fewer when the index applies the filter (../index/carry.ts). */
export function firstLists(mode: RetrievalMode, topK: number, overfetch = OVERFETCH, inIndex?: CarryPlan): Lists {
  const most = mode === 'vector' ? overfetch : LIST_OVERFETCH;
  return {
    k: candidateCount(topK, inIndex ? inIndexOverfetch(inIndex, most) : most),
    kf: candidateCount(topK, LIST_OVERFETCH),
  };
}

/** What a search runs: the mode, the lists of its first round, its filter, and what runs if the full-text index is missing. */
export interface SearchPlan {
  /** Null: nothing to search with; the answer is empty. */
  mode: RetrievalMode | null;
  lists: Lists;
  filter: AppliedFilter | null;
  /**
   * The mode to run when the full-text index is missing (an index made before it existed, or
   * one dropped by hand): hybrid searches by meaning until the next build adds it; null: none.
   */
  fallback: RetrievalMode | null;
}

/** Everything {@link planSearch} decides from. */
export interface PlanInput {
  forms: QueryForms;
  /** Whether the query embedded to a vector (a query with no known token does not). */
  hasVector: boolean;
  topK: number;
  overfetch?: number;
  filter: AppliedFilter | null;
  /** Lists per wanted node this filter needed last time ({@link ListMemory} in ./filter.ts), if seen. */
  remembered?: Lists;
}

/** The plan of one search. */
export function planSearch({ forms, hasVector, topK, overfetch = OVERFETCH, filter, remembered }: PlanInput): SearchPlan {
  const mode = runnableMode(forms.mode, hasVector, forms.q !== null);
  const first = firstLists(mode ?? 'vector', topK, overfetch, filter?.carry);
  const cap = (n: number) => Math.min(MAX_FILTER_CANDIDATES, Math.ceil(n));
  const lists = remembered ? { k: cap(Math.max(first.k, remembered.k * topK)), kf: cap(Math.max(first.kf, remembered.kf * topK)) } : first;
  return { mode, lists, filter, fallback: mode === 'hybrid' ? 'vector' : null };
}

/** What one round of a filtered search found. */
export interface Round {
  lists: Lists;
  /** Nodes that passed. */
  found: number;
  /** Chunks the vector index returned (filter inside the index); null when the index did not say. */
  chunkHits: number | null;
}

/** Whether a round of a filtered search is the last: enough nodes passed, or the index applied the whole filter and had no more chunks to give. */
export function roundSuffices(filter: AppliedFilter, topK: number, round: Round): boolean {
  const exhausted = !filter.post && round.chunkHits != null && round.chunkHits < round.lists.k;
  return round.found >= topK || exhausted;
}

/**
 * The lists of the next round after one that fell short, or null when the lists already cover
 * `limit` (the index's chunks, at most {@link MAX_FILTER_CANDIDATES}).
 */
export function widen({ lists, found }: Round, topK: number, limit: number): Lists | null {
  if (lists.k >= limit && lists.kf >= limit) return null;
  const grow = (k: number) => nextCandidateCount(k, topK, found, Math.max(k, limit));
  return { k: grow(lists.k), kf: grow(lists.kf) };
}
