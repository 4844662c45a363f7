/**
 * The key-value client: ioredis built once at start-up. Commands fail fast when the server is
 * gone (a few reconnect attempts, then an error the app maps to 503) instead of queueing forever.
 */
import { Redis, type RedisOptions } from 'ioredis';
import { withTimeout } from '../lib/timeout.js';

/** What the app needs from the key-value store. */
export interface KvStore {
  readonly redis: Redis;
  /** Prefix of every key this app writes (tests use their own). */
  readonly prefix: string;
  /** True when PING answers within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<boolean>;
  /** A second connection for blocking commands (queue pops), closed with the store. */
  blockingClient(): Redis;
  close(): Promise<void>;
}

/** Options of {@link createKvStore}. */
export interface KvStoreOptions {
  /** `valkey://`, `valkeys://`, `redis://` or `rediss://` URL with an optional `/db` path. */
  url: string;
  /** Key prefix, default `gc:`. */
  prefix?: string;
}

/** ioredis options from a store URL: `valkey(s)://` is read as `redis(s)://`. */
export function redisOptions(url: string): RedisOptions {
  const u = new URL(url.replace(/^valkey/, 'redis'));
  const db = Number(u.pathname.replace(/^\//, '') || 0);
  return {
    host: u.hostname || 'localhost',
    port: Number(u.port || 6379),
    db: Number.isInteger(db) ? db : 0,
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    tls: u.protocol === 'rediss:' ? {} : undefined,
  };
}

/** Builds the client; it connects in the background and reconnects on its own. */
export function createKvStore(opts: KvStoreOptions): KvStore {
  const base: RedisOptions = {
    ...redisOptions(opts.url),
    connectTimeout: 2_000,
    maxRetriesPerRequest: 1,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  };
  const redis = new Redis(base);
  const extra: Redis[] = [];
  // An unreachable server is reported by health and by 503s; the default handler would only
  // print "Unhandled error event" noise.
  redis.on('error', () => {});
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
      const c = new Redis({ ...base, maxRetriesPerRequest: null });
      c.on('error', () => {});
      extra.push(c);
      return c;
    },
    async close() {
      await Promise.allSettled([redis, ...extra].map((c) => c.quit().catch(() => c.disconnect())));
    },
  };
}
