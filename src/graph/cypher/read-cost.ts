/**
 * Refuses, by its text, work Neo4j cannot stop once it starts. A transaction's timeout and
 * memory limit are checked between rows and on tracked allocations, but not while one
 * expression is evaluated: a `reduce()` over a few million values keeps a core busy for minutes
 * past its timeout, and a list comprehension over tens of millions exhausts the heap and leaves
 * the server wedged (docs/benchmarks.md, "Queries too large to plan"). Such expressions are
 * built from `range()`, so its size is bounded here (except right after `UNWIND` in a query
 * that gathers nothing into memory: rows are checked one by one): each `range()` whose bounds
 * are literals or parameters may produce at most {@link MAX_RANGE} values, and all of them
 * together (they may nest) at most {@link MAX_RANGE_PRODUCT}. A bound computed from data
 * (`range(0, size(p) - 1)`) is bounded by the graph and allowed.
 */
import { QueryRefusedError } from './read-guard.js';

/** Values one `range()` may produce. */
export const MAX_RANGE = 100_000;
/** Values all `range()` calls of one query may produce, multiplied (nesting multiplies). */
export const MAX_RANGE_PRODUCT = 1_000_000;

/** The top-level arguments of the call whose `(` is at `open` in `code`. */
function callArgs(code: string, open: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open; i < code.length; i++) {
    const ch = code[i];
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      if (--depth === 0) {
        args.push(code.slice(start, i).trim());
        return args;
      }
    } else if (ch === ',' && depth === 1) {
      args.push(code.slice(start, i).trim());
      start = i + 1;
    }
  }
  return args;
}

/** The integer an argument names (a literal or a parameter), or null when computed. */
function integerOf(arg: string, params: Record<string, unknown>): number | null {
  if (/^[-+]?\d[\d_]*$/.test(arg)) return Number(arg.replace(/_/g, ''));
  if (/^0x[0-9a-f]+$/i.test(arg)) return Number.parseInt(arg, 16);
  const param = /^\$`?([A-Za-z_]\w*)`?$/.exec(arg);
  if (param) {
    const v = params[param[1]!];
    if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
    if (typeof v === 'bigint') return Number(v);
  }
  return null;
}

/**
 * Throws when `range()` calls in `code` (strings and comments blanked) would produce more
 * values than the bounds allow.
 * @throws QueryRefusedError naming the call and the bound.
 */
export function checkRanges(code: string, params: Record<string, unknown> = {}): void {
  let product = 1;
  // Rows from `UNWIND range(…)` are checked against the timeout one by one, so they may be
  // many; but gathered into memory (collect, DISTINCT, ORDER BY) they are not, and run far past
  // the timeout (docs/benchmarks.md, "Queries too large to plan"). Then they count like any other range().
  const gathers = /\b(collect\s*\(|DISTINCT\b|ORDER\s+BY\b)/i.test(code);
  for (const m of code.matchAll(/\brange\s*\(/gi)) {
    if (!gathers && /\bUNWIND\s*$/i.test(code.slice(Math.max(0, m.index - 20), m.index))) continue;
    const [from, to, step = '1'] = callArgs(code, m.index + m[0].length - 1);
    const a = integerOf(from ?? '', params);
    const b = integerOf(to ?? '', params);
    const s = integerOf(step, params);
    if (a === null || b === null || s === null || s === 0) continue;
    const size = Math.max(0, Math.floor((b - a) / s) + 1);
    if (size > MAX_RANGE) {
      throw new QueryRefusedError(
        `refused: range(${from}, ${to}${step === '1' ? '' : `, ${step}`}) makes ${size} values; at most ${MAX_RANGE} are allowed, because Neo4j cannot stop one expression once it runs`,
      );
    }
    product *= Math.max(1, size);
    if (product > MAX_RANGE_PRODUCT) {
      throw new QueryRefusedError(`refused: the query's range() calls make more than ${MAX_RANGE_PRODUCT} values together`);
    }
  }
}
