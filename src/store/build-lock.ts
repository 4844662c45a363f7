/**
 * One build per index at a time, across processes (the server and the CLI): a Redis lock
 * `<prefix>index-build:<index name>` holding a random token, set with NX and a TTL that a timer
 * refreshes while the build runs. A crashed builder stops refreshing, so its lock expires after
 * one TTL instead of blocking the index forever.
 */
import { AppError } from '../errors.js';
import { createKeys } from './keys.js';
import type { KvStore } from './redis.js';
import { defineScript } from './script.js';

/** A held build lock. */
export interface BuildLock {
  /** Throws 409 when the lock was lost (expired while the process was stalled). */
  assertHeld(): void;
  /** Stops refreshing and deletes the lock if it is still ours. Idempotent. */
  release(): Promise<void>;
}

/** Deletes the key only while it still holds our token. */
const release = defineScript(
  'gcBuildLockRelease',
  `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`,
);
/** Extends the TTL only while the key still holds our token. */
const refresh = defineScript(
  'gcBuildLockRefresh',
  `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`,
);

/** The lock key of an index (`index-build:{index}` in src/store/keys.ts). */
export function buildLockKey(kv: Pick<KvStore, 'prefix'>, indexName: string): string {
  return createKeys(kv.prefix).indexBuild(indexName);
}

/** The 409 for a second build of the same index. */
export function buildRunning(indexName: string): AppError {
  return new AppError(409, 'build-running', `a build of vector index "${indexName}" is already running; retry when it has finished`);
}

/**
 * Takes the lock of `indexName` or throws 409 when another build holds it.
 * @param ttlMs lock lifetime; refreshed every `ttlMs / 3` while held.
 */
export async function acquireBuildLock(kv: KvStore, indexName: string, ttlMs: number): Promise<BuildLock> {
  const key = buildLockKey(kv, indexName);
  const token = crypto.randomUUID();
  const ok = await kv.redis.set(key, token, 'PX', ttlMs, 'NX');
  if (ok !== 'OK') throw buildRunning(indexName);

  let lost = false;
  let released = false;
  const timer = setInterval(
    () => {
      refresh(kv.redis, [key], [token, ttlMs]).then(
        (n) => {
          if (n === 0 && !released) lost = true;
        },
        // A failed refresh is retried on the next tick; the TTL covers two misses.
        () => {},
      );
    },
    Math.max(50, Math.floor(ttlMs / 3)),
  );
  // Never keep a finished CLI process alive just for the refresh timer.
  (timer as { unref?: () => void }).unref?.();

  return {
    assertHeld() {
      if (lost) throw new AppError(409, 'build-lock-lost', `the build lock of vector index "${indexName}" expired; run the build again`);
    },
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      await release(kv.redis, [key], [token]).catch(() => {});
    },
  };
}
