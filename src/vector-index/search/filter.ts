/**
 * What a filtered search does beyond compiling its filter (src/graph/filters/filter-cypher.ts): it
 * checks the filter's labels and property names against the graph, so a name the graph lacks
 * is answered with that fact and close names rather than an empty list, and it widens the
 * candidate lists until enough nodes pass the filter.
 *
 * Why widening: Neo4j 5.26's `db.index.vector.queryNodes` takes no filter, and chunk nodes
 * carry none of their source node's labels or properties, so the index cannot filter for us.
 * The filter is applied to the candidates; when fewer than `top_k` nodes pass, the search asks
 * the index again for more ({@link nextCandidateCount}) until `top_k` pass, the lists hold every
 * chunk of the index, or {@link MAX_FILTER_CANDIDATES} is reached.
 */
import type { FieldError } from '../../contract/problem.js';
import { filterConditions, type SearchFilter } from '../../contract/search-filter.js';
import { DomainError } from '../../errors.js';
import type { GraphNames } from '../../graph/shape/graph-names.js';
import { graphPropertyNames, INDEX_NODE_PROPERTIES, isIndexProperty, isReservedName } from '../../graph/shape/internal-names.js';
import { closeNames } from '../../lib/close-names.js';

/** The filter fields of a search request. */
export interface SearchFilterFields {
  /** Nodes with any of these labels. */
  labels?: readonly string[];
  /** Nodes whose properties pass (src/contract/search-filter.ts). */
  where?: SearchFilter;
}

/**
 * Most chunk hits a filtered search asks of one list. Beyond it a very selective filter returns
 * fewer than `top_k` nodes even when more match: asking HNSW for tens of thousands of hits costs
 * more than a search should (docs/benchmarks.md, "Filtered search").
 */
export const MAX_FILTER_CANDIDATES = 10_000;

/** Growth of the candidate count between two rounds, at least and at most. */
const MIN_GROWTH = 2;
const MAX_GROWTH = 16;

/**
 * The candidate count of the next round after `k` candidates gave `found` of `topK` wanted
 * nodes: scaled by the share that passed (with half again as margin), ×2 at least and ×16 at
 * most (nothing passed), capped at `limit`.
 */
export function nextCandidateCount(k: number, topK: number, found: number, limit: number): number {
  const growth = Math.min(MAX_GROWTH, Math.max(MIN_GROWTH, (1.5 * topK) / Math.max(found, 0.1)));
  return Math.min(limit, Math.ceil(k * growth));
}

/** Filters whose candidate lists are remembered ({@link createListMemory}). */
export const REMEMBERED_FILTERS = 256;

/** Candidate lists that served a filter before, per `top_k` wanted: the first round of the next search with it. */
export interface ListMemory {
  /** Lists per wanted node that sufficed last time (or reached the limit), if this filter was seen. */
  get(key: string): { k: number; kf: number } | undefined;
  set(key: string, perNode: { k: number; kf: number }): void;
}

/**
 * The last {@link REMEMBERED_FILTERS} filters' lists. Why: a selective filter (a rare species)
 * needs two rounds when it starts from the unfiltered lists, about 2.7× the time of one; an
 * agent or a user narrowing a search repeats the same filter, and its next search then takes
 * one round with the lists it needed (docs/benchmarks.md, "Filtered search").
 */
export function createListMemory(max = REMEMBERED_FILTERS): ListMemory {
  const entries = new Map<string, { k: number; kf: number }>();
  return {
    get: (key) => entries.get(key),
    set(key, perNode) {
      entries.delete(key);
      entries.set(key, perNode);
      if (entries.size > max) entries.delete(entries.keys().next().value as string);
    },
  };
}

/** Names listed after "the graph has" when no close one exists. */
const LISTED = 30;

function listNames(names: ReadonlySet<string>): string {
  const all = [...names].sort((a, b) => a.localeCompare(b));
  const shown = all.slice(0, LISTED).map((n) => JSON.stringify(n));
  return all.length > LISTED ? `${shown.join(', ')}, … (${all.length} in all)` : shown.join(', ') || 'none';
}

function unknownName(kind: 'label' | 'property', name: string, known: ReadonlySet<string>, path: string, why?: string): FieldError {
  const close = closeNames(name, known);
  const hint = close.length
    ? `close names: ${close.map((n) => JSON.stringify(n)).join(', ')}`
    : `the graph's ${kind === 'label' ? 'labels' : 'property keys'}: ${listNames(known)}`;
  return { path, message: `unknown ${kind} ${JSON.stringify(name)}: ${why ?? `the graph has no such ${kind}`}; ${hint}` };
}

/**
 * The plain index property names a filter uses (`batch`, `chunkText`, …: src/graph/shape/internal-names.ts),
 * which it may filter on only if some node of the graph's own holds them.
 */
export function indexNamesIn(filter: SearchFilterFields): string[] {
  const used = filter.where ? filterConditions(filter.where).map((c) => c.condition.property) : [];
  return [...new Set(used.filter((p) => INDEX_NODE_PROPERTIES.has(p)))];
}

/**
 * The filter's labels and property names that `names` lacks, as field errors with close names.
 * The index's own property names count as lacking (and are never offered), except plain ones
 * in `held`: names the graph's own nodes hold too ({@link indexNamesIn}, `readHeldNames`).
 */
export function unknownFilterNames(filter: SearchFilterFields, names: GraphNames, held: ReadonlySet<string> = new Set()): FieldError[] {
  const errors: FieldError[] = [];
  filter.labels?.forEach((label, i) => {
    if (!names.labels.has(label)) errors.push(unknownName('label', label, names.labels, `labels.${i}`));
  });
  if (filter.where) {
    let keys: ReadonlySet<string> | undefined;
    for (const { condition, path } of filterConditions(filter.where)) {
      const p = condition.property;
      if (names.propertyKeys.has(p) && (!isIndexProperty(p) || (!isReservedName(p) && held.has(p)))) continue;
      keys ??= new Set(graphPropertyNames(names.propertyKeys, held));
      const why = isIndexProperty(p) ? "a property of the search index's own nodes, not of the graph's" : undefined;
      errors.push(unknownName('property', p, keys, `${path}.property`, why));
    }
  }
  return errors;
}

/** The 422 for names the graph lacks; the message alone is enough for a model to correct its call. */
export function unknownNamesError(graph: string, errors: FieldError[]): DomainError {
  return new DomainError(
    'invalid',
    'unknown-filter-name',
    `filter names what graph "${graph}" lacks: ${errors.map((e) => e.message).join('; ')}`,
    {
      errors,
    },
  );
}
