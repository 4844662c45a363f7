/**
 * The search filter (src/contract/search-filter.ts) as a Neo4j Cypher predicate over node `n`.
 * Neo4j-specific like the rest of src/graph/dialect.ts (type predicates `IS :: DATE`, `date()`,
 * `datetime()`), kept apart because it is a compiler rather than a list of statements.
 *
 * Nothing the caller wrote is spliced into the text: property names are read as `n[$param]`
 * and labels and values are parameters, so a name like ``x` OR 1=1`` is just a property the
 * node does not have. The text depends only on the filter's shape (operators, nesting, which
 * values are dates), so Neo4j's query cache serves repeated shapes.
 */
import { type FilterCondition, type SearchFilter, temporalKind } from '../../contract/search-filter.js';

/** A compiled filter: a predicate over `n` and its parameters (all named `flt_…`). */
export interface CompiledFilter {
  cypher: string;
  params: Record<string, unknown>;
}

/** A date-like string property: its first ten characters are the day (ISO order sorts as text). */
const ISO_DAY_PREFIX = `'\\\\d{4}-\\\\d{2}-\\\\d{2}.*'`;

/**
 * `x op v` for an ISO date value (`date`: day precision) or date-time value (`datetime`):
 * date/datetime properties compare as temporal values (a local date-time, or a date, taken as
 * UTC), ISO-looking strings as text; anything else is null, which fails the test.
 */
function temporalTest(x: string, op: string, v: string, kind: 'date' | 'datetime'): string {
  if (kind === 'date') {
    return `CASE WHEN ${x} IS :: DATE THEN ${x} ${op} date(${v})
  WHEN ${x} IS :: ZONED DATETIME OR ${x} IS :: LOCAL DATETIME THEN date(${x}) ${op} date(${v})
  WHEN ${x} IS :: STRING AND ${x} =~ ${ISO_DAY_PREFIX} THEN left(${x}, 10) ${op} ${v} END`;
  }
  return `CASE WHEN ${x} IS :: ZONED DATETIME THEN ${x} ${op} datetime(${v})
  WHEN ${x} IS :: LOCAL DATETIME THEN datetime({datetime: ${x}}) ${op} datetime(${v})
  WHEN ${x} IS :: DATE THEN datetime({date: ${x}}) ${op} datetime(${v})
  WHEN ${x} IS :: STRING AND ${x} =~ ${ISO_DAY_PREFIX} THEN ${x} ${op} ${v} END`;
}

/** One condition; `i` numbers its parameters. */
function conditionCypher(c: FilterCondition, i: number, params: Record<string, unknown>): string {
  const key = `flt_k${i}`;
  const val = `flt_v${i}`;
  params[key] = c.property;
  const x = `n[$${key}]`;
  if (c.op === 'exists') return `${x} IS NOT NULL`;
  params[val] = c.value;
  if (c.op === 'in') return `CASE WHEN ${x} IS :: LIST<ANY> THEN any(e IN ${x} WHERE e IN $${val}) ELSE ${x} IN $${val} END`;
  const kind = temporalKind(c.value);
  if (kind) return temporalTest(x, c.op, `$${val}`, kind);
  if (c.op === '=') return `CASE WHEN ${x} IS :: LIST<ANY> THEN $${val} IN ${x} ELSE ${x} = $${val} END`;
  return `${x} ${c.op} $${val}`;
}

function filterCypher(f: SearchFilter, params: Record<string, unknown>, next: { i: number }): string {
  if ('op' in f) return `(${conditionCypher(f, next.i++, params)})`;
  const [joiner, list] = 'and' in f ? [' AND ', f.and] : [' OR ', f.or];
  return `(${list.map((item) => filterCypher(item as SearchFilter, params, next)).join(joiner)})`;
}

/**
 * The predicate for `labels` (any of them) and `where`, or null when neither is given (the
 * search then runs its unfiltered query unchanged).
 */
export function compileFilter(labels: readonly string[] | undefined, where: SearchFilter | undefined): CompiledFilter | null {
  const params: Record<string, unknown> = {};
  const parts: string[] = [];
  if (labels?.length) {
    params.flt_labels = [...labels];
    parts.push('any(l IN labels(n) WHERE l IN $flt_labels)');
  }
  if (where) parts.push(filterCypher(where, params, { i: 0 }));
  return parts.length ? { cypher: parts.join(' AND '), params } : null;
}
