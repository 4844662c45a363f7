/**
 * Why a `where` filter was refused, in one line naming the place and the rule. The filter's
 * schema is a union of shapes, and a union that fails can only say "none of the shapes fit";
 * this walks the raw JSON the way the shapes read it and names the first rule it breaks (the
 * operator list, a limit with the count that passed it, a value's type, a date's range).
 */

/** Conditions one `where` may hold in all, across its groups. */
export const MAX_FILTER_CONDITIONS = 20;

/** Values one `in` condition may list. */
export const MAX_IN_VALUES = 100;

/** The operators of a condition, in the order the documentation lists them. */
export const FILTER_OPS = ['=', '<>', '<', '<=', '>', '>=', 'in', 'exists'] as const;

/** Longest property name and longest string value, in characters. */
export const MAX_PROPERTY_CHARS = 200;
export const MAX_STRING_VALUE_CHARS = 1000;

/** The fallback when no rule below explains the failure. */
export const GROUP_ERROR = 'expected a condition {"property", "op", "value"} or a group {"and": [...]} / {"or": [...]}';

/** `YYYY-MM-DD`. */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/**
 * `YYYY-MM-DDThh:mm[:ss[.fraction]][Z|±hh[:]mm]`, hours 00-23 and minutes 00-59; the offset's
 * range (±18:00, as Neo4j's `datetime()` and java.time take it) is checked apart, to name it.
 */
const ISO_DATETIME = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-](\d{2}):?([0-5]\d))?$/;

/** Largest zone offset Neo4j accepts, in minutes (java.time.ZoneOffset: ±18:00). */
const MAX_OFFSET_MINUTES = 18 * 60;

/** True for a real calendar day `YYYY-MM-DD` (not 2001-02-29), years 0000-9999. */
export function isCalendarDay(s: string): boolean {
  const m = ISO_DATE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
  const t = new Date(0);
  t.setUTCFullYear(y, mo - 1, d);
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** What is wrong with a date or date-time string, or null when it is one Neo4j takes. */
export function temporalProblem(s: string): string | null {
  if (ISO_DATE.test(s)) return isCalendarDay(s) ? null : `${JSON.stringify(s)} is not a calendar day`;
  const m = ISO_DATETIME.exec(s);
  if (!m) {
    return 'must be a number, an ISO date (2000-01-31) or an ISO date-time (2000-01-31T12:00:00Z, zone offset within ±18:00)';
  }
  if (!isCalendarDay(m[1]!)) return `${JSON.stringify(m[1])} is not a calendar day`;
  if (m[6] !== undefined && Number(m[6]) * 60 + Number(m[7]) > MAX_OFFSET_MINUTES) {
    return `zone offset ${m[5]} is beyond ±18:00, the largest a date-time may have`;
  }
  return null;
}

const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: unknown) => typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string';

/** What is wrong with a scalar value (`=`, `<>`, an `in` item), or null. */
function scalarProblem(v: unknown): string | null {
  if (v === null) return 'must be a string, number or boolean, not null (op "exists" tests whether a property is there)';
  if (!isScalar(v)) return `must be a string, number or boolean (got ${typeOf(v)})`;
  if (typeof v === 'string' && v.length > MAX_STRING_VALUE_CHARS) return `at most ${MAX_STRING_VALUE_CHARS} characters`;
  return null;
}

/** A problem at a path relative to `where`. */
export interface FilterProblem {
  path: (string | number)[];
  message: string;
}

function conditionProblem(c: Record<string, unknown>, path: (string | number)[]): FilterProblem | null {
  const at = (key: string | number, message: string, more: (string | number)[] = []) => ({ path: [...path, key, ...more], message });
  const op = c.op;
  if (!(FILTER_OPS as readonly unknown[]).includes(op)) {
    return at('op', `must be one of ${FILTER_OPS.map((o) => JSON.stringify(o)).join(', ')} (got ${JSON.stringify(op) ?? 'nothing'})`);
  }
  const p = c.property;
  if (typeof p !== 'string' || !p || p.length > MAX_PROPERTY_CHARS) {
    return at('property', `must be a property name of 1..${MAX_PROPERTY_CHARS} characters (got ${typeOf(p)})`);
  }
  const v = c.value;
  if (op === 'exists') return null;
  if (v === undefined) return at('value', `op ${JSON.stringify(op)} needs a value`);
  if (op === '=' || op === '<>') {
    const problem = scalarProblem(v);
    return problem ? at('value', problem) : null;
  }
  if (op === 'in') {
    if (!Array.isArray(v)) return at('value', `op "in" takes a list of 1..${MAX_IN_VALUES} values (got ${typeOf(v)})`);
    if (!v.length || v.length > MAX_IN_VALUES) return at('value', `op "in" takes 1..${MAX_IN_VALUES} values (got ${v.length})`);
    for (const [i, item] of v.entries()) {
      const problem = scalarProblem(item);
      if (problem) return at('value', problem, [i]);
    }
    return null;
  }
  if (typeof v === 'number') return null;
  if (typeof v !== 'string') return at('value', `op ${JSON.stringify(op)} compares with a number or an ISO date string (got ${typeOf(v)})`);
  const problem = temporalProblem(v);
  return problem ? at('value', problem) : null;
}

/** Counts the conditions of a (possibly bad) filter, for the limit message. */
function countConditions(v: unknown): number {
  if (!isObject(v)) return 0;
  const list = Array.isArray(v.and) ? v.and : Array.isArray(v.or) ? v.or : null;
  return list ? list.reduce((n: number, item) => n + countConditions(item), 0) : 1;
}

function walk(v: unknown, depth: number, path: (string | number)[]): FilterProblem | null {
  if (!isObject(v)) return { path, message: `${GROUP_ERROR} (got ${typeOf(v)})` };
  const group = 'and' in v ? 'and' : 'or' in v ? 'or' : null;
  if (!group) return 'op' in v || 'property' in v ? conditionProblem(v, path) : { path, message: GROUP_ERROR };
  if (Object.keys(v).length !== 1) return { path, message: 'a group has one key, "and" or "or", and nothing else' };
  if (depth >= 2) return { path, message: 'groups nest two levels at most: a group, then groups of conditions' };
  const list = v[group];
  if (!Array.isArray(list) || !list.length)
    return { path: [...path, group], message: `"${group}" takes a list of 1..${MAX_FILTER_CONDITIONS} items` };
  if (list.length > MAX_FILTER_CONDITIONS) {
    return { path: [...path, group], message: `at most ${MAX_FILTER_CONDITIONS} conditions in all (got ${list.length} items)` };
  }
  for (const [i, item] of list.entries()) {
    const problem = walk(item, depth + 1, [...path, group, i]);
    if (problem) return problem;
  }
  return null;
}

/** The first rule a raw `where` breaks, with its path under `where`; null when none does. */
export function explainFilter(where: unknown): FilterProblem | null {
  const problem = walk(where, 0, []);
  if (problem) return problem;
  const n = countConditions(where);
  return n > MAX_FILTER_CONDITIONS ? { path: [], message: `at most ${MAX_FILTER_CONDITIONS} conditions in all (got ${n})` } : null;
}

/** {@link explainFilter} as one line, the path first (`and.2.op: must be one of …`). */
export function describeFilterProblem(where: unknown): string {
  const p = explainFilter(where);
  if (!p) return GROUP_ERROR;
  return p.path.length ? `${p.path.join('.')}: ${p.message}` : p.message;
}
