/**
 * Read-only Cypher for outside callers (the agent's `graph_query` tool and the MCP endpoint),
 * in layers: a text deny-list, an `EXPLAIN` whose query type must be a read and whose plan
 * must not reach outside the graph, then a READ access-mode transaction (the database itself
 * refuses writes) with a server-side timeout. Results are streamed: the first `maxRows` rows
 * are kept, later ones only counted (up to `countLimit`), then cut to `maxChars` of JSON.
 * Independent of the chat code.
 */
import neo4j, { Neo4jError, type Plan } from 'neo4j-driver';
import type { Config } from '../../config.js';
import { isDependencyDown } from '../../errors.js';
import { type GraphStore, isTransactionTimeout } from '../access/driver.js';
import type { Json } from '../access/plain-json.js';
import { checkRanges } from './read-cost.js';
import { checkPlan, checkQueryText, codeOf, QueryRefusedError } from './read-guard.js';
import type { QueryNotice } from '../../contract/graph.js';
import { noticeLine, queryNotices, withMeaning } from './query-notices.js';
import type { NamesByMeaning } from '../../lib/names-by-meaning.js';
import type { GraphCollector } from '../access/result-graph.js';
import type { SkeletonCache } from '../shape/skeleton-cache.js';
import type { SkeletonData } from '../shape/skeleton.js';
import { boundText } from '../../lib/text.js';
import { TimeoutError, withTimeout } from '../../lib/timeout.js';
import { looksEmpty, temporalHint, UNPARSABLE_TEMPORAL, valueNotices } from './value-notices.js';
import { valueSampler, type ValueSampler } from './value-samples.js';
import { cutsOf, fitChars, inOneTransaction, readRows, type RowsRead } from './read-rows.js';

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
  /**
   * Queries run at once per graph store (config `GRAPH_QUERY_MAX_CONCURRENT`); more wait for a
   * slot, and beyond {@link WAITERS_PER_SLOT} waiting per slot they are refused as busy. Default unbounded.
   */
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

/** How long past its timeout a query may still run before it is terminated by its tag. */
export const STRAGGLER_GRACE_MS = 1_000;

/** Terminates the transactions tagged `tag` (metadata `graph_query`); best effort. */
async function terminateTagged(graph: GraphStore, database: string, tag: string): Promise<void> {
  try {
    const { records } = await graph.driver.executeQuery(
      'SHOW TRANSACTIONS YIELD transactionId, metaData WHERE metaData.graph_query = $tag RETURN transactionId',
      { tag },
      { database },
    );
    const ids = records.map((r) => r.get('transactionId') as string);
    if (ids.length) await graph.driver.executeQuery('TERMINATE TRANSACTIONS $ids', { ids }, { database });
  } catch {
    // Not allowed (a user without the privilege) or the database is gone: the close still cuts it off.
  }
}

/** Calls waiting for a slot, per allowed concurrent query, before more are refused as busy. */
export const WAITERS_PER_SLOT = 8;

/** Running queries and the callers waiting for a slot, per graph store (one per process). */
const gates = new WeakMap<GraphStore, { running: number; waiting: Array<() => void> }>();

/** Waits for a slot among `max` (refusing when too many wait already); returns its release. */
async function takeSlot(graph: GraphStore, max: number): Promise<() => void> {
  const gate = gates.get(graph) ?? { running: 0, waiting: [] };
  gates.set(graph, gate);
  if (gate.running >= max) {
    if (gate.waiting.length >= max * WAITERS_PER_SLOT) {
      throw new ReadQueryError(
        `${gate.running} graph queries are running and ${gate.waiting.length} are waiting, the most this server takes; retry in a few seconds`,
        'busy',
      );
    }
    // Each running query ends within its timeout (and the watchdog's grace), so the wait is bounded.
    await new Promise<void>((resolve) => gate.waiting.push(resolve));
  } else {
    gate.running++;
  }
  return () => {
    const next = gate.waiting.shift();
    if (next)
      next(); // the slot passes straight to the next caller
    else gate.running--;
  };
}

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
  /** What the database and the schema say about the query (unknown names, reversed patterns, …); absent when nothing. */
  notices?: QueryNotice[];
}

/** Options of {@link runReadQuery}. */
export interface ReadQueryOptions {
  /** Receives the nodes, relationships and paths of the rows returned (not of those cut). */
  graph?: GraphCollector;
  /**
   * The schema the query is checked against for its notices (the skeleton cache). Without it
   * the database's warnings are still passed on, with no suggested names.
   */
  schema?: Pick<SkeletonCache, 'schema'>;
  /** Suggests names by meaning for unknown names no spelling rule matched (src/lib/names-by-meaning.ts). */
  meaning?: NamesByMeaning;
  /**
   * Checks the compared values of an empty result against the graph's (src/graph/cypher/value-notices.ts);
   * default on with the process's sampler of `graph` (only with `schema`, as the other checks); false turns it off.
   */
  values?: ValueSampler | false;
}

/** How long a query waits for a schema that is not cached yet, when the database warned about a name. */
const SCHEMA_WAIT_MS = 3_000;

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

function toReadQueryError(err: unknown, limits: ReadQueryLimits): ReadQueryError {
  if (err instanceof ReadQueryError) return err;
  if (err instanceof QueryRefusedError) return new ReadQueryError(err.message, 'refused');
  if (err instanceof Neo4jError) {
    if (isTransactionTimeout(err)) {
      return new ReadQueryError(timeoutMessage(limits), 'timeout', { cause: err });
    }
    if (/MemoryPoolOutOfMemoryError/.test(err.code)) {
      return new ReadQueryError(
        'the query needs more memory than one query may use; aggregate (count, sum) instead of collecting, or add LIMIT',
        'refused',
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
 * Runs `cypher` read-only against `database`, with the notices of its `EXPLAIN` (see
 * src/graph/cypher/query-notices.ts). With `graph`, the nodes, relationships and paths of the rows
 * returned (not of those cut) are also handed to that collector. The call answers within the
 * timeout and a small margin ({@link ANSWER_MARGIN_MS}), whatever the database does.
 * @throws ReadQueryError — `refused` by policy, `unknown-graph`, `timeout`, `cypher` with the
 * database's message, or `unavailable`.
 */
export async function runReadQuery(
  graph: GraphStore,
  database: string,
  cypher: string,
  params: Record<string, unknown> = {},
  limits: ReadQueryLimits,
  options: ReadQueryOptions = {},
): Promise<ReadQueryResult> {
  let started = Date.now();
  let release: (() => void) | undefined;
  try {
    release = await takeSlot(graph, limits.maxConcurrent ?? Number.POSITIVE_INFINITY);
    // The caller's time runs from when its query may start: a wait for a slot is not spent on the query or its checks.
    started = Date.now();
    const work = readQuery({ graph, database, cypher, params, limits, options, started });
    work.catch(() => {}); // a late failure after the answer went out is not unhandled
    const answer = await withTimeout(work, limits.timeoutMs + ANSWER_MARGIN_MS, 'graph query');
    return boundResult(answer);
  } catch (err) {
    const error =
      err instanceof TimeoutError
        ? new ReadQueryError(timeoutMessage(limits), 'timeout', { cause: err })
        : await withHint(toReadQueryError(err, limits), { graph, database, cypher, params, limits, options, started });
    throw new ReadQueryError(boundText(error.message, ERROR_CHARS), error.kind, { cause: error.cause });
  } finally {
    release?.();
  }
}

/** One call of {@link runReadQuery}: its arguments, and when the caller's time started. */
interface QueryCall {
  graph: GraphStore;
  database: string;
  cypher: string;
  params: Record<string, unknown>;
  limits: ReadQueryLimits;
  options: ReadQueryOptions;
  /** `Date.now()` once the query had its slot. */
  started: number;
}

/** How far past its timeout a call may answer: the watchdog's grace and a second for the database to let go. */
export const ANSWER_MARGIN_MS = STRAGGLER_GRACE_MS + 1_000;
/** Characters of an error message at most (the database's may repeat a value of megabytes). */
export const ERROR_CHARS = 2_000;
/** Characters of a notice's message and of its name and each suggestion at most. */
export const NOTICE_CHARS = 600;

const timeoutMessage = (limits: ReadQueryLimits) =>
  `the query was stopped after the ${limits.timeoutMs} ms timeout; make it cheaper (add LIMIT, anchor the MATCH on a label and property, avoid cartesian products)`;

/** The notices with every text bounded: a notice may quote names and values the caller wrote. */
function boundResult(result: ReadQueryResult): ReadQueryResult {
  if (!result.notices) return result;
  const cut = (text: string) => boundText(text, NOTICE_CHARS);
  const notices = result.notices.map((n) => ({
    ...n,
    message: cut(n.message),
    ...(n.name !== undefined ? { name: cut(n.name) } : {}),
    ...(n.suggestions ? { suggestions: n.suggestions.slice(0, 10).map(cut) } : {}),
  }));
  return { ...result, notices };
}

/** The value sampler a query's checks use: the one given, else the process's for `graph` (only with a schema), or none. */
const samplerOf = (graph: GraphStore, { schema, values }: Pick<ReadQueryOptions, 'schema' | 'values'>): ValueSampler | false =>
  values ?? (schema ? valueSampler(graph) : false);

/**
 * `date(o.orderDate)` on "1996-07-04 00:00:00.000" fails: the error says what the strings look
 * like and what parses them, if that can be read in what is left of the caller's time.
 */
async function withHint(
  error: ReadQueryError,
  { graph, database, cypher, params, limits, options, started }: QueryCall,
): Promise<ReadQueryError> {
  const sampler = samplerOf(graph, options);
  const left = started + limits.timeoutMs - Date.now();
  if (!sampler || error.kind !== 'cypher' || !UNPARSABLE_TEMPORAL.test(error.message) || left <= 0) return error;
  const hint = await withTimeout(temporalHint(cypher, params, { sampler, database, timeoutMs: left }), left).catch(() => undefined);
  return hint ? new ReadQueryError(`${error.message}\n${hint}`, 'cypher', { cause: error.cause }) : error;
}

/** What a query's session read: its rows, the schema its notices are checked against, and those notices (still coming). */
interface SessionRead {
  read: RowsRead;
  schema: SkeletonData | null;
  noticesBy: Promise<QueryNotice[]>;
}

/** The `EXPLAIN` (its plan checked), the schema and the notices, then the rows: each in a transaction of its own, in one READ session. */
async function readInSession({ graph, database, cypher, params, limits, options }: QueryCall, countLimit: number): Promise<SessionRead> {
  const session = graph.driver.session({ database, defaultAccessMode: neo4j.session.READ });
  // The server's timeout marks the transaction; if it still runs a second later, terminate it
  // by its tag and drop the connection, so no query outlives its timeout by more than that.
  const tag = crypto.randomUUID();
  const watchdog = setTimeout(() => {
    void terminateTagged(graph, database, tag).finally(() => session.close().catch(() => {}));
  }, limits.timeoutMs + STRAGGLER_GRACE_MS);
  try {
    const txConfig = { timeout: limits.timeoutMs, metadata: { graph_query: tag } };
    const explained = await inOneTransaction(session, txConfig, (tx) => tx.run(EXPLAIN + cypher, params));
    checkPlan(explained.summary.queryType, explained.summary.plan as Plan | false, database);
    // Unknown names are worth a short wait for the schema (their suggestions come from it);
    // otherwise a schema not cached yet only skips the pattern checks of this one query.
    const warned = explained.summary.notifications.some((n) => /Unknown/.test(n.code));
    const schema = (await options.schema?.schema(database, warned ? SCHEMA_WAIT_MS : 0)) ?? null;
    // Names by meaning are looked up while the query runs: they cost the query no time.
    const noticesBy = withMeaning(queryNotices(cypher, explained.summary, schema), schema, options.meaning);
    noticesBy.catch(() => {}); // awaited by the caller; a failing query must not leave it unhandled
    const read = await inOneTransaction(session, txConfig, (tx) =>
      readRows(tx, cypher, params, limits.maxRows, countLimit, !!options.graph),
    );
    return { read, schema, noticesBy };
  } finally {
    clearTimeout(watchdog);
    await session.close();
  }
}

/**
 * `notices` with those of the values an empty (or all-zero) result compared against the graph's,
 * and a note when some could not be checked in the time left. Only an empty result is checked: a
 * query that found rows found values the graph holds. A name or pattern notice that explains it
 * comes first: the model fixes one thing at a time. The rows are read and their transaction
 * closed: the checks cannot cost the caller its result.
 */
async function withValueNotices(
  { graph, database, cypher, params, limits, options, started }: QueryCall,
  read: RowsRead,
  schema: SkeletonData | null,
  notices: QueryNotice[],
): Promise<{ notices: QueryNotice[]; notes: string[] }> {
  const sampler = samplerOf(graph, options);
  if (!sampler || !read.exact || !looksEmpty(read.rows) || notices.some((n) => n.explainsEmpty)) return { notices, notes: [] };
  const known = schema ? { labels: schema.labels.map((l) => l.label), types: schema.types, keys: schema.propertyKeys } : undefined;
  const left = started + limits.timeoutMs - Date.now();
  const checked = await valueNotices(cypher, params, { sampler, database, timeoutMs: Math.max(0, left), known });
  const notes = checked.unchecked
    ? [
        `${checked.unchecked} compared value${checked.unchecked > 1 ? 's were' : ' was'} not checked against the graph: no time was left within the ${limits.timeoutMs} ms timeout`,
      ]
    : [];
  return { notices: [...notices, ...checked.notices], notes };
}

/** The checks, the `EXPLAIN`, the rows' transaction, then the value notices in transactions of their own. */
async function readQuery(call: QueryCall): Promise<ReadQueryResult> {
  const { graph, database, cypher, params, limits, options } = call;
  const countLimit = Math.max(limits.countLimit ?? 10_000, limits.maxRows);
  checkQueryText(cypher);
  checkRanges(codeOf(cypher), params);
  if (!(await graph.hasGraph(database))) {
    throw new ReadQueryError(`graph "${database}" does not exist on this server`, 'unknown-graph');
  }
  const { read, schema, noticesBy } = await readInSession(call, countLimit);
  const { kept, rowCut } = fitChars(read.rows, limits.maxChars);
  for (const values of read.raw.slice(0, kept.length)) options.graph?.add(values);
  const cuts = cutsOf(read, kept.length, rowCut, { maxRows: limits.maxRows, maxChars: limits.maxChars, countLimit });
  const checked = await withValueNotices(call, read, schema, await noticesBy);
  const notes = [
    ...(cuts.length ? [`${cuts.join('; ')}; aggregate, project fewer properties or add LIMIT/ORDER BY to see what matters`] : []),
    ...checked.notes,
  ];
  return {
    columns: read.columns,
    rows: kept,
    totalRows: read.total,
    totalIsExact: read.exact,
    truncated: cuts.length > 0,
    ...(checked.notices.length ? { notices: checked.notices } : {}),
    ...(notes.length ? { note: notes.join('; ') } : {}),
  };
}

/** The model-facing text of a result: JSON rows, then the truncation note and the notices. */
export function formatReadQueryResult(result: ReadQueryResult): string {
  const notices = noticeLine(result.notices ?? [], result.rows.length);
  const tail = notices ? `\n${notices}` : '';
  if (result.rows.length === 0) return `No rows. Columns: ${result.columns.join(', ') || '(none)'}${tail}`;
  const body = JSON.stringify(result.rows);
  return `${result.note ? `${body}\n(${result.note})` : body}${tail}`;
}
