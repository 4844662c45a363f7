/**
 * The part of a search filter a filtered vector index can apply itself (Neo4j's calendar
 * releases, `SEARCH c IN (VECTOR INDEX … WHERE …)`), over the values carried on chunk node `c`
 * (src/vector-index/index/carry.ts), and the rest, applied to the source node as before
 * (./filter-cypher.ts).
 *
 * `SEARCH … WHERE` takes property predicates joined by AND, per property one exact value (`=`,
 * `IN`, `IS NOT NULL`) or a range of at most one lower and one upper bound; no OR, NOT or `<>`,
 * and property names written out (never `c[$p]`). Checked on 2026.09.0. A condition goes into
 * the index only where the index gives exactly what the post-filter would:
 * - `=`, `in`, `exists` on a property no indexed node holds as a list (the post-filter's `=` on
 *   a list means "contains"; lists are not carried), with a value that is not an ISO date (the
 *   post-filter compares those as dates across types);
 * - `<`, `<=`, `>`, `>=` with a number (a list or a string compared with a number is false on
 *   both sides);
 * - `labels` with one label that is carried.
 * Everything else, and any `or` of more than one item, is left to the post-filter.
 */
import { type FilterCondition, type SearchFilter, temporalKind } from '../../contract/search-filter.js';
import { type CompiledFilter, compileFilter } from './filter-cypher.js';
import { quoteName } from '../dialect/names.js';

/** What the index's chunks carry, by source name (labels, properties) and the chunk property holding each. */
export interface CarriedFields {
  labels: ReadonlyMap<string, string>;
  properties: ReadonlyMap<string, string>;
  /** Carried properties some node holds as a list: only ranges on them go into the index. */
  lists: ReadonlySet<string>;
}

/** A filter split between the vector index and the post-filter. */
export interface SplitFilter {
  /** Predicate over chunk `c` for `SEARCH … WHERE`, with its parameters (`idx_…`); null: nothing in the index. */
  index: CompiledFilter | null;
  /** Predicate over source node `n` for what the index cannot apply; null: nothing left. */
  residual: CompiledFilter | null;
}

const EXACT = new Set(['=', 'in', 'exists']);
const LOWER = new Set(['>', '>=']);

/** Splits `labels` and `where` into the index's part and the rest. */
export function splitFilter(labels: readonly string[] | undefined, where: SearchFilter | undefined, carried: CarriedFields): SplitFilter {
  const params: Record<string, unknown> = {};
  const parts: string[] = [];
  let restLabels = labels;
  const labelField = labels?.length === 1 ? carried.labels.get(labels[0]!) : undefined;
  if (labelField) {
    parts.push(`c.${quoteName(labelField)} = true`);
    restLabels = undefined;
  }
  // Items joined by AND: the conditions of a top-level `and`, or the one condition (or one-item `or`).
  const items: readonly SearchFilter[] | null = !where
    ? []
    : 'op' in where
      ? [where]
      : 'and' in where
        ? (where.and as SearchFilter[])
        : where.or.length === 1
          ? [where.or[0] as SearchFilter]
          : null;
  const rest: SearchFilter[] = items ? [] : [where!];
  // Per property: 'exact' once, or one lower and one upper bound.
  const used = new Map<string, Set<string>>();
  for (const item of items ?? []) {
    const field = 'op' in item ? indexable(item, carried) : null;
    const c = item as FilterCondition;
    const slot = field ? (EXACT.has(c.op) ? 'exact' : LOWER.has(c.op) ? 'lower' : 'upper') : null;
    const taken = used.get(c.property) ?? new Set<string>();
    if (!field || !slot || taken.has(slot) || taken.has('exact') || (slot === 'exact' && taken.size)) {
      rest.push(item);
      continue;
    }
    taken.add(slot);
    used.set(c.property, taken);
    const p = `idx_${parts.length}`;
    const x = `c.${quoteName(field)}`;
    if (c.op === 'exists') parts.push(`${x} IS NOT NULL`);
    else {
      params[p] = c.value;
      parts.push(c.op === 'in' ? `${x} IN $${p}` : `${x} ${c.op} $${p}`);
    }
  }
  const residualWhere: SearchFilter | undefined =
    rest.length === 0 ? undefined : rest.length === 1 ? rest[0] : ({ and: rest } as SearchFilter);
  return {
    index: parts.length ? { cypher: parts.join(' AND '), params } : null,
    residual: compileFilter(restLabels, residualWhere),
  };
}

/** The chunk property a condition can be tested on inside the index, or null. */
function indexable(c: FilterCondition, carried: CarriedFields): string | null {
  const field = carried.properties.get(c.property);
  if (!field) return null;
  if (c.op === '<>') return null;
  if (c.op === 'exists' || c.op === 'in' || c.op === '=') {
    if (carried.lists.has(c.property)) return null;
    return c.op === '=' && temporalKind(c.value) ? null : field;
  }
  return typeof c.value === 'number' ? field : null;
}
