/**
 * What the graph database server can do, asked of the server itself rather than assumed from
 * the 5.26 LTS the project is built on: its version and edition (`dbms.components()`), whether
 * it takes `CYPHER 25` queries (the calendar releases, 2025.06 and later), whether its vector
 * indexes take filter properties (`CREATE VECTOR INDEX … WITH [c.p]`, Cypher 25, 2026.x) and
 * which Cypher version a query without a `CYPHER` prefix runs as on the configured graph.
 * Learned at start (src/server.ts), shown by `GET /status`, read through `GraphStore.server()`.
 */
import neo4j, { type Driver } from 'neo4j-driver';
import type { Status } from '../../contract/status.js';
import { withTimeout } from '../../lib/timeout.js';

/** The server's capabilities. */
export interface ServerInfo {
  /** Kernel version: `5.26.30`, `2026.09.0`, … */
  version: string;
  /** `community` or `enterprise` (Aura reports `enterprise`). */
  edition: string;
  /** The server takes queries prefixed with `CYPHER 25`. */
  cypher25: boolean;
  /** Vector indexes take filter properties: `CREATE VECTOR INDEX … WITH [c.p]` (in Cypher 25). */
  vectorFilters: boolean;
  /** The Cypher version unprefixed queries run as on the configured graph (`'5'`, `'25'`), or null when the server would not say. */
  defaultCypher: string | null;
}

/** Each probe query gets this long on the server (ms). */
const QUERY_TIMEOUT_MS = 5_000;

/**
 * Plans (never runs) the creation of a filtered vector index: a syntax error where vector
 * indexes take no filter properties. `EXPLAIN` of a schema command creates nothing.
 */
const VECTOR_FILTERS_PROBE =
  'CYPHER 25 EXPLAIN CREATE VECTOR INDEX `__probe_vector_filters` IF NOT EXISTS FOR (c:`__Probe`) ON (c.embedding) WITH [c.p] ' +
  'OPTIONS {indexConfig: {`vector.dimensions`: 2}}';

/** True when the server refuses a statement as such (syntax, argument, permission) rather than failing to answer. */
const refused = (err: unknown) => /^Neo\.ClientError\./.test(String((err as { code?: unknown } | null)?.code ?? ''));

/** Learns what the server behind `driver` can do, for graph `database`; rejects when it does not answer. */
export async function probeServer(driver: Driver, database: string): Promise<ServerInfo> {
  const config = { database, routing: neo4j.routing.READ, transactionConfig: { timeout: QUERY_TIMEOUT_MS } };
  /** Whether `cypher` runs; false when the server refuses it. */
  const accepts = (cypher: string) =>
    driver.executeQuery(cypher, {}, config).then(
      () => true,
      (err: unknown) => {
        if (refused(err)) return false;
        throw err;
      },
    );

  const { records } = await driver.executeQuery(
    'CALL dbms.components() YIELD name, versions, edition RETURN name, versions, edition',
    {},
    config,
  );
  const component = (name: string) => records.find((r) => r.get('name') === name);
  const kernel = component('Neo4j Kernel') ?? records[0];
  const versions = (kernel?.get('versions') as string[] | undefined) ?? [];
  // The calendar releases list the Cypher versions they take; 5.x lists none (and takes only 5).
  const cypherVersions = component('Cypher')?.get('versions') as string[] | undefined;
  const cypher25 = cypherVersions ? cypherVersions.includes('25') : await accepts('CYPHER 25 RETURN 1');
  return {
    version: versions[0] ?? 'unknown',
    edition: String(kernel?.get('edition') ?? 'unknown'),
    cypher25,
    vectorFilters: cypher25 && (await accepts(VECTOR_FILTERS_PROBE)),
    defaultCypher: cypher25 ? await defaultCypherOf(driver, database) : '5',
  };
}

/** `SHOW DATABASES`' `defaultLanguage` (`CYPHER 25` → `'25'`); null when it cannot be read. */
async function defaultCypherOf(driver: Driver, database: string): Promise<string | null> {
  try {
    const { records } = await driver.executeQuery(
      'SHOW DATABASES YIELD name, defaultLanguage WHERE name = $name RETURN defaultLanguage',
      { name: database },
      { database: 'system', routing: neo4j.routing.READ, transactionConfig: { timeout: QUERY_TIMEOUT_MS } },
    );
    const language = records[0]?.get('defaultLanguage');
    return typeof language === 'string' ? language.replace(/^CYPHER\s*/i, '') : null;
  } catch (err) {
    if (refused(err)) return null;
    throw err;
  }
}

/**
 * {@link probeServer} memoised: callers share one probe in flight, an answer is kept for
 * `ttlMs` (default 10 min: a managed server such as Aura is upgraded in place) and a failure
 * is not kept, so the next call asks again.
 */
export function createServerInfo(driver: Driver, database: string, ttlMs = 600_000): () => Promise<ServerInfo> {
  let last: { at: number; info: Promise<ServerInfo> } | undefined;
  return () => {
    if (last && Date.now() - last.at <= ttlMs) return last.info;
    const entry = { at: Date.now(), info: probeServer(driver, database) };
    last = entry;
    entry.info.catch(() => {
      if (last === entry) last = undefined;
    });
    return entry.info;
  };
}

/** The `GET /status` form of {@link ServerInfo} (`graph.server`): undefined when the server has not answered within `timeoutMs`. */
export async function serverStatus(graph: { server(): Promise<ServerInfo> }, timeoutMs: number): Promise<Status['graph']['server']> {
  const info = await withTimeout(graph.server(), timeoutMs, 'graph server').catch(() => null);
  return info
    ? {
        version: info.version,
        edition: info.edition,
        cypher25: info.cypher25,
        vector_filters: info.vectorFilters,
        default_cypher: info.defaultCypher,
      }
    : undefined;
}
