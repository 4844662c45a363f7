/**
 * The key-value client: ioredis built once at start-up, a single server (`redis://`) or a
 * Redis/Valkey Cluster (`redis+cluster://seed1:port,seed2:port`). Commands fail fast when the
 * server is gone (a few reconnect attempts, then an error the app maps to 503) instead of
 * queueing forever.
 */
import { Cluster, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';
import { withTimeout } from '../lib/timeout.js';

/** A client of either kind; every store touches one hash slot per command or script (keys.ts). */
export type KvClient = Redis | Cluster;

/** What the app needs from the key-value store. */
export interface KvStore {
  readonly redis: KvClient;
  /** Prefix of every key this app writes (tests use their own). */
  readonly prefix: string;
  /** True when PING answers within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<boolean>;
  /** A second connection for blocking commands (queue pops), closed with the store. */
  blockingClient(): KvClient;
  close(): Promise<void>;
}

/** Options of {@link createKvStore}. */
export interface KvStoreOptions {
  /**
   * `valkey://`, `valkeys://`, `redis://` or `rediss://` URL with an optional `/db` path, or a
   * cluster: the same schemes with `+cluster` and comma-separated seed nodes (db 0 only).
   */
  url: string;
  /** Key prefix, default `gc:`. */
  prefix?: string;
}

/** Where a store URL points: one server, or the seed nodes of a cluster. */
export type KvTarget =
  | { cluster: false; options: RedisOptions }
  | { cluster: true; nodes: Array<{ host: string; port: number }>; options: RedisOptions };

/** Parses a store URL; `valkey(s)` is read as `redis(s)`, `+cluster` names seed nodes. */
export function parseKvUrl(url: string): KvTarget {
  const m = /^(valkeys?|rediss?)(\+cluster)?:\/\/(?:([^@/]*)@)?([^/?#]*)(\/[^?#]*)?/.exec(url);
  if (!m) throw new Error(`not a key-value store URL: ${url}`);
  const [, scheme, cluster, auth, hosts, path] = m;
  const db = Number((path ?? '').replace(/^\//, '') || 0);
  const colon = auth?.indexOf(':') ?? -1;
  const user = colon < 0 ? auth : auth!.slice(0, colon);
  const pass = colon < 0 ? undefined : auth!.slice(colon + 1);
  const options: RedisOptions = {
    username: user ? decodeURIComponent(user) : undefined,
    password: pass ? decodeURIComponent(pass) : undefined,
    tls: scheme === 'rediss' || scheme === 'valkeys' ? {} : undefined,
  };
  const nodes = hosts!.split(',').map((hp) => {
    // `[::1]:7000` (IPv6) or `host:7000`; the port defaults to 6379.
    const u = new URL(`redis://${hp}`);
    return { host: u.hostname.replace(/^\[|\]$/g, '') || 'localhost', port: Number(u.port || 6379) };
  });
  if (cluster) {
    if (db !== 0) throw new Error('a Redis Cluster has only database 0; drop the /db part of KVSTORE_URL');
    return { cluster: true, nodes, options };
  }
  if (nodes.length !== 1) throw new Error('several hosts in KVSTORE_URL need the +cluster scheme (redis+cluster://h1:p1,h2:p2)');
  return { cluster: false, options: { ...options, ...nodes[0], db: Number.isInteger(db) ? db : 0 } };
}

/** Builds the client; it connects in the background and reconnects on its own. */
export function createKvStore(opts: KvStoreOptions): KvStore {
  const target = parseKvUrl(opts.url);
  const base: RedisOptions = {
    ...target.options,
    connectTimeout: 2_000,
    maxRetriesPerRequest: 1,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  };
  const clusterOptions = (blocking: boolean): ClusterOptions => ({
    redisOptions: { ...target.options, connectTimeout: 2_000, ...(blocking ? {} : { maxRetriesPerRequest: 1 }) },
    clusterRetryStrategy(this: Cluster, times) {
      // Commands wait in the client's own queue while no node is reachable; fail them at each
      // failed attempt (503, as a single server's client does) instead of holding requests open.
      // Blocking clients (queue reads, the event subscription) just wait for the cluster.
      if (!blocking) (this as unknown as { flushQueue(e: Error): void }).flushQueue(new Error("Cluster isn't ready: no node answers"));
      return Math.min(times * 200, 2_000);
    },
    retryDelayOnClusterDown: 200,
    slotsRefreshTimeout: 2_000,
  });
  const connect = (blocking: boolean): KvClient => {
    const c: KvClient = target.cluster
      ? new Cluster(target.nodes, clusterOptions(blocking))
      : new Redis(blocking ? { ...base, maxRetriesPerRequest: null } : base);
    // An unreachable server is reported by health and by 503s; the default handler would only
    // print "Unhandled error event" noise.
    c.on('error', () => {});
    return c;
  };
  const redis = connect(false);
  const extra: KvClient[] = [];
  return {
    redis,
    prefix: opts.prefix ?? 'gc:',
    async ping(timeoutMs = 1_000) {
      try {
        return (await withTimeout(redis.ping(), timeoutMs, 'kv ping')) === 'PONG';
      } catch {
        return false;
      }
    },
    blockingClient() {
      const c = connect(true);
      extra.push(c);
      return c;
    },

    async close() {
      // QUIT waits in the queue of a client between reconnection attempts (forever for a
      // blocking one): only a connected client is asked to quit, and not for long.
      await Promise.allSettled(
        [redis, ...extra].map(async (c) => {
          if (c.status === 'ready') {
            try {
              await withTimeout(c.quit(), 1_000, 'kv quit');
              return;
            } catch {
              // Closed below.
            }
          }
          c.disconnect();
        }),
      );
    },
  };
}
