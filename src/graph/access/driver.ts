/**
 * The graph client: one neo4j-driver instance built at start-up and passed to the app.
 * `graph_name` in requests is a Neo4j database name (Community edition has only `neo4j`).
 */
import neo4j, { type Driver, Neo4jError } from 'neo4j-driver';
import type { Config } from '../../config.js';
import { DomainError } from '../../errors.js';
import { withTimeout } from '../../lib/timeout.js';
import { createServerInfo, type ServerInfo } from './server-info.js';

/** What the app needs from the graph database. */
export interface GraphStore {
  readonly driver: Driver;
  /** The configured graph (`GRAPHDB_GRAPH`). */
  readonly defaultGraph: string;
  /** True when a trivial query answers within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<boolean>;
  /** True when the server has an online database of that name (cached for 30 s). */
  hasGraph(name: string): Promise<boolean>;
  /** What the server can do (version, edition, Cypher 25, vector index filters; ./server-info.ts), asked again after 10 min or a failure. */
  server(): Promise<ServerInfo>;
  close(): Promise<void>;
}

/** Options of {@link createGraphStore}; connection settings come from config. */
export type GraphStoreOptions = Pick<Config, 'GRAPHDB_URL' | 'GRAPHDB_PORT' | 'GRAPHDB_GRAPH' | 'GRAPHDB_USER' | 'GRAPHDB_PASSWORD'>;

/**
 * The driver's address: a host name becomes `bolt://host:port`; a full URI (`neo4j+s://…`,
 * `bolt+ssc://…`; config checks the scheme) is used as it is — routing, TLS and, without a port
 * of its own, the driver's default 7687, as Aura and cluster addresses are written.
 */
export function boltUrl(host: string, port: number): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? host : `bolt://${host}:${port}`;
}

/** Builds the driver. Connecting is lazy: a database that is down makes calls fail, not start-up. */
export function createGraphStore(opts: GraphStoreOptions): GraphStore {
  const auth = opts.GRAPHDB_USER ? neo4j.auth.basic(opts.GRAPHDB_USER, opts.GRAPHDB_PASSWORD) : undefined;
  // Short timeouts: a dead database must turn into a 503 quickly, never a hanging request.
  const driver = neo4j.driver(boltUrl(opts.GRAPHDB_URL, opts.GRAPHDB_PORT), auth, {
    connectionTimeout: 3_000,
    connectionAcquisitionTimeout: 5_000,
    maxTransactionRetryTime: 2_000,
    disableLosslessIntegers: true,
    logging: { level: 'error', logger: () => {} },
  });
  const known = new Map<string, { ok: boolean; at: number }>();

  return {
    driver,
    defaultGraph: opts.GRAPHDB_GRAPH,
    async ping(timeoutMs = 1_500) {
      try {
        await withTimeout(
          driver.executeQuery('RETURN 1', {}, { database: opts.GRAPHDB_GRAPH, routing: neo4j.routing.READ }),
          timeoutMs,
          'graph ping',
        );
        return true;
      } catch {
        return false;
      }
    },
    async hasGraph(name) {
      // `system` holds the server's metadata, not a graph: it only runs admin commands.
      if (name.toLowerCase() === 'system') return false;
      const hit = known.get(name);
      if (hit && Date.now() - hit.at < 30_000) return hit.ok;
      const { records } = await driver.executeQuery(
        'SHOW DATABASES YIELD name, currentStatus WHERE name = $name RETURN currentStatus',
        { name },
        { database: 'system', routing: neo4j.routing.READ },
      );
      const ok = records.some((r) => r.get('currentStatus') === 'online');
      // Names come from requests: bound the cache so arbitrary names cannot grow it forever.
      if (known.size >= 256) known.clear();
      known.set(name, { ok, at: Date.now() });
      return ok;
    },
    server: createServerInfo(driver, opts.GRAPHDB_GRAPH),
    close: () => driver.close(),
  };
}

/** Throws the 404 for a graph (Neo4j database) the server does not have. */
export async function assertGraph(graph: Pick<GraphStore, 'hasGraph'>, database: string): Promise<void> {
  if (!(await graph.hasGraph(database))) throw new DomainError('not-found', 'unknown-graph', `graph "${database}" does not exist`);
}

const TIMEOUT_CODES = /TransactionTimedOut|Transaction\.Terminated|TransactionMarkedAsFailed/;

/** True when the database stopped a transaction for its timeout (or terminated it). */
export const isTransactionTimeout = (err: unknown): boolean => err instanceof Neo4jError && TIMEOUT_CODES.test(err.code);
