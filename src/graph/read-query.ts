/**
 * Read-only Cypher for outside callers (the agent's `graph_query` tool and the MCP endpoint),
 * in layers: a text deny-list, an `EXPLAIN` whose query type must be a read and whose plan
 * must not reach outside the graph, then a READ access-mode transaction (the database itself
 * refuses writes) with a server-side timeout. Results are streamed: the first `maxRows` rows
 * are kept, later ones only counted (up to `countLimit`), then cut to `maxChars` of JSON.
 * Independent of the chat code.
 */
import neo4j, { Neo4jError, type Plan } from 'neo4j-driver';
import type { Config } from '../config.js';
import { isDependencyDown } from '../errors.js';
import type { GraphStore } from './driver.js';
import { toPlainJson, type Json } from './plain-json.js';
import { checkRanges } from './read-cost.js';
import { checkPlan, checkQueryText, codeOf, QueryRefusedError } from './read-guard.js';

/** Bounds of one query. */
export interface ReadQueryLimits {
  /** Server-side transaction timeout in ms (config `GRAPH_QUERY_TIMEOUT_MS`, default 10,000). */
  timeoutMs: number;
  /** Rows returned at most (config `GRAPH_QUERY_MAX_ROWS`, default 100). */
  maxRows: number;
  /** Characters of row JSON returned at most (config `GRAPH_QUERY_MAX_CHARS`, default 20,000). */
  maxChars: number;
  /** Rows counted past `maxRows` before giving up counting (default 10,000). */
  countLimit?: number;
  /** Queries run at once per graph store (config `GRAPH_QUERY_MAX_CONCURRENT`); default unbounded. */
  maxConcurrent?: number;
}

/** The limits configured by the `GRAPH_QUERY_*` variables. */
export function readQueryLimits(
  config: Pick<Config, 'GRAPH_QUERY_TIMEOUT_MS' | 'GRAPH_QUERY_MAX_ROWS' | 'GRAPH_QUERY_MAX_CHARS' | 'GRAPH_QUERY_MAX_CONCURRENT'>,
): ReadQueryLimits {
  return {
    timeoutMs: config.GRAPH_QUERY_TIMEOUT_MS,
    maxRows: config.GRAPH_QUERY_MAX_ROWS,
    maxChars: config.GRAPH_QUERY_MAX_CHARS,
    maxConcurrent: config.GRAPH_QUERY_MAX_CONCURRENT,
  };
}

/** Queries running now, per graph store (one per process; tests build several). */
const running = new WeakMap<GraphStore, number>();

/** A query's rows as plain JSON. */
export interface ReadQueryResult {
  columns: string[];
  rows: Record<string, Json>[];
  /** Rows the query produced, or a lower bound when `totalIsExact` is false. */
  totalRows: number;
  totalIsExact: boolean;
  /** True when fewer rows are returned than the query produced. */
  truncated: boolean;
  /** "showing N of M rows …" when truncated, else absent. */
  note?: string;
}

/** Why a query did not run or failed; `message` is meant for the caller (a model or a person). */
export class ReadQueryError extends Error {
  override name = 'ReadQueryError';
  constructor(
    message: string,
    /** `refused` (policy), `unknown-graph`, `timeout`, `cypher` (database error), `unavailable`, `busy` (too many at once). */
    readonly kind: 'refused' | 'unknown-graph' | 'timeout' | 'cypher' | 'unavailable' | 'busy',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const TIMEOUT_CODES = /TransactionTimedOut|Transaction\.Terminated|TransactionMarkedAsFailed/;

function toReadQueryError(err: unknown, limits: ReadQueryLimits): ReadQueryError {
  if (err instanceof ReadQueryError) return err;
  if (err instanceof QueryRefusedError) return new ReadQueryError(err.message, 'refused');
  if (err instanceof Neo4jError) {
    if (TIMEOUT_CODES.test(err.code)) {
      return new ReadQueryError(
        `the query was stopped after the ${limits.timeoutMs} ms timeout; make it cheaper (add LIMIT, anchor the MATCH on a label and property, avoid cartesian products)`,
        'timeout',
        { cause: err },
      );
    }
    if (isDependencyDown(err)) {
      return new ReadQueryError('the graph database is unavailable; try again shortly', 'unavailable', { cause: err });
    }
    if (/AccessMode|Forbidden/.test(err.code)) {
      return new ReadQueryError(`refused: graph_query is read-only (${err.message.split('\n')[0]})`, 'refused', { cause: err });
    }
    return new ReadQueryError(unprefix(err.message.trim()), 'cypher', { cause: err });
  }
  return new ReadQueryError(err instanceof Error ? err.message : String(err), 'cypher', { cause: err });
}

const EXPLAIN = 'EXPLAIN ';

/** Removes our `EXPLAIN ` prefix from a syntax error so its line, column and caret match the caller's query. */
function unprefix(message: string): string {
  if (!message.includes(`"${EXPLAIN}`)) return message;
  return message
    .replace(
      /\(line 1, column (\d+) \(offset: (\d+)\)\)/,
      (_, col: string, off: string) =>
        `(line 1, column ${Math.max(1, Number(col) - EXPLAIN.length)} (offset: ${Math.max(0, Number(off) - EXPLAIN.length)}))`,
    )
    .replace(`"${EXPLAIN}`, '"')
    .replace(new RegExp(`\\n {${EXPLAIN.length}}( *\\^)`), '\n$1');
}

/**
 * Keeps whole rows while their JSON fits in `maxChars`; at least one row, cut if it alone is
 * too long (`rowCut`).
 */
function fitChars(rows: Record<string, Json>[], maxChars: number): { kept: Record<string, Json>[]; rowCut: boolean } {
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

/**
 * Runs `cypher` read-only against `database`.
 * @throws ReadQueryError — `refused` by policy, `unknown-graph`, `timeout`, `cypher` with the
 * database's message, or `unavailable`.
 */
export async function runReadQuery(
  graph: GraphStore,
  database: string,
  cypher: string,
  params: Record<string, unknown> = {},
  limits: ReadQueryLimits,
): Promise<ReadQueryResult> {
  const countLimit = Math.max(limits.countLimit ?? 10_000, limits.maxRows);
  const now = running.get(graph) ?? 0;
  if (now >= (limits.maxConcurrent ?? Number.POSITIVE_INFINITY)) {
    throw new ReadQueryError(`${now} graph queries are running, the most this server runs at once; retry in a few seconds`, 'busy');
  }
  running.set(graph, now + 1);
  try {
    checkQueryText(cypher);
    checkRanges(codeOf(cypher), params);
    if (!(await graph.hasGraph(database))) {
      throw new ReadQueryError(`graph "${database}" does not exist on this server`, 'unknown-graph');
    }
    const session = graph.driver.session({ database, defaultAccessMode: neo4j.session.READ });
    try {
      const txConfig = { timeout: limits.timeoutMs };
      const explained = await session.executeRead((tx) => tx.run(EXPLAIN + cypher, params), txConfig);
      checkPlan(explained.summary.queryType, explained.summary.plan as Plan | false, database);

      return await session.executeRead(async (tx) => {
        const result = tx.run(cypher, params);
        const columns = [...(await result.keys())];
        const rows: Record<string, Json>[] = [];
        let total = 0;
        let exact = true;
        let valuesCut = 0;
        const onCut = () => valuesCut++;
        for await (const record of result) {
          total++;
          if (rows.length < limits.maxRows) {
            const row: Record<string, Json> = {};
            for (const key of columns) row[key] = toPlainJson(record.get(key), { onCut });
            rows.push(row);
          } else if (total > countLimit) {
            exact = false;
            total = countLimit;
            break; // cancels the rest of the stream
          }
        }
        const { kept, rowCut } = fitChars(rows, limits.maxChars);
        const rowsLeftOut = kept.length < total || !exact;
        const of = exact ? `${total}` : `more than ${countLimit}`;
        const why = kept.length < rows.length || rowCut ? `the ${limits.maxChars}-character cap` : `the ${limits.maxRows}-row cap`;
        const notes = [
          ...(rowsLeftOut || rowCut ? [`showing ${kept.length} of ${of} rows${rowCut ? ', cut' : ''} (${why})`] : []),
          ...(valuesCut ? [`${valuesCut} long string value${valuesCut > 1 ? 's' : ''} cut (see "more characters")`] : []),
        ];
        return {
          columns,
          rows: kept,
          totalRows: total,
          totalIsExact: exact,
          truncated: notes.length > 0,
          ...(notes.length
            ? { note: `${notes.join('; ')}; aggregate, project fewer properties or add LIMIT/ORDER BY to see what matters` }
            : {}),
        };
      }, txConfig);
    } finally {
      await session.close();
    }
  } catch (err) {
    throw toReadQueryError(err, limits);
  } finally {
    running.set(graph, (running.get(graph) ?? 1) - 1);
  }
}

/** The model-facing text of a result: JSON rows, then the truncation note. */
export function formatReadQueryResult(result: ReadQueryResult): string {
  if (result.rows.length === 0) return `No rows. Columns: ${result.columns.join(', ') || '(none)'}`;
  const body = JSON.stringify(result.rows);
  return result.note ? `${body}\n(${result.note})` : body;
}
