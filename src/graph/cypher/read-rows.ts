/**
 * The rows of a `graph_query` (./read-query.ts): read in a transaction of their own, streamed
 * with the first `maxRows` kept as JSON and later ones only counted, then cut to a number of
 * characters, and the note that says what was cut.
 */
import type { Session, Transaction } from 'neo4j-driver';
import { toPlainJson, type Json } from '../access/plain-json.js';
import { codePointPrefix } from '../../lib/text.js';

/**
 * Runs `work` in one transaction of `session` and commits it. One attempt, never the managed
 * retries of executeRead: a query that failed on the memory limit (a transient error) must not
 * run a second time.
 */
export async function inOneTransaction<T>(
  session: Session,
  config: { timeout: number; metadata: Record<string, string> },
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  const tx = session.beginTransaction(config);
  try {
    const out = await work(tx);
    await tx.commit();
    return out;
  } finally {
    if (tx.isOpen()) await tx.rollback().catch(() => {});
  }
}

/** What the rows' transaction read, before the row and character caps are applied. */
export interface RowsRead {
  columns: string[];
  rows: Record<string, Json>[];
  /** The raw values of `rows`, for the graph collector. */
  raw: unknown[][];
  total: number;
  exact: boolean;
  valuesCut: number;
}

/** Streams the rows of `cypher`: the first `maxRows` kept as JSON, later ones only counted up to `countLimit`. */
export async function readRows(
  tx: Transaction,
  cypher: string,
  params: Record<string, unknown>,
  maxRows: number,
  countLimit: number,
  collect: boolean,
): Promise<RowsRead> {
  const result = tx.run(cypher, params);
  const keys = [...(await result.keys())];
  // A column is named by its expression (`RETURN '<a long literal>'`): the names shown are bounded too.
  const columns = columnNames(keys);
  const out: RowsRead = { columns, rows: [], raw: [], total: 0, exact: true, valuesCut: 0 };
  const onCut = () => out.valuesCut++;
  for await (const record of result) {
    out.total++;
    if (out.rows.length < maxRows) {
      // fromEntries: a column named `__proto__` stays a column (an assignment would set the prototype).
      out.rows.push(Object.fromEntries(keys.map((key, i) => [columns[i]!, toPlainJson(record.get(key), { onCut })])));
      if (collect) out.raw.push(keys.map((key) => record.get(key)));
    } else if (out.total > countLimit) {
      out.exact = false;
      out.total = countLimit;
      break; // cancels the rest of the stream
    }
  }
  return out;
}

/** Characters of a column name kept. */
const COLUMN_CHARS = 200;

/** Column names cut to {@link COLUMN_CHARS}, each still unique. */
function columnNames(keys: string[]): string[] {
  const seen = new Set<string>();
  return keys.map((key, i) => {
    let name = key.length > COLUMN_CHARS ? `${codePointPrefix(key, COLUMN_CHARS)}… [column ${i + 1}]` : key;
    if (seen.has(name)) name = `${name} [column ${i + 1}]`;
    seen.add(name);
    return name;
  });
}

/**
 * Keeps whole rows while their JSON fits in `maxChars`; at least one row, cut if it alone is
 * too long (`rowCut`).
 */
export function fitChars(rows: Record<string, Json>[], maxChars: number): { kept: Record<string, Json>[]; rowCut: boolean } {
  let used = 2;
  const kept: Record<string, Json>[] = [];
  for (const row of rows) {
    const size = JSON.stringify(row).length + 1;
    if (used + size > maxChars) {
      if (kept.length > 0) break;
      return { kept: [{ _row: `${JSON.stringify(row).slice(0, maxChars - 40)}… [row cut]` }], rowCut: true };
    }
    used += size;
    kept.push(row);
  }
  return { kept, rowCut: false };
}

/** Options of {@link cutsOf}: the caps a result was cut to. */
export interface RowCaps {
  maxRows: number;
  maxChars: number;
  /** Rows counted past `maxRows` before counting stopped. */
  countLimit: number;
}

/**
 * What was left out of `read` once `kept` rows remain ({@link fitChars}, `rowCut` when the one
 * row kept was cut): rows, with the cap that cut them, and long string values; empty when nothing.
 */
export function cutsOf(read: RowsRead, kept: number, rowCut: boolean, { maxRows, maxChars, countLimit }: RowCaps): string[] {
  const { rows, total, exact } = read;
  const rowsLeftOut = kept < total || !exact;
  const of = exact ? `${total}` : `more than ${countLimit}`;
  const why = kept < rows.length || rowCut ? `the ${maxChars}-character cap` : `the ${maxRows}-row cap`;
  return [
    ...(rowsLeftOut || rowCut ? [`showing ${kept} of ${of} rows${rowCut ? ', cut' : ''} (${why})`] : []),
    ...(read.valuesCut ? [`${read.valuesCut} long string value${read.valuesCut > 1 ? 's' : ''} cut (see "more characters")`] : []),
  ];
}
