/**
 * One build per index at a time, across processes (the server and the CLI): a Redis lock
 * `<prefix>index-build:<index name>` holding a random token and the holder's Redis client ID,
 * set with NX and a TTL that a timer refreshes while the build runs. A builder that crashed
 * has lost its Redis connection, so the next build sees the holder gone (`CLIENT LIST ID`) and
 * takes over at once; where that command is not allowed (some hosted Redis), the lock expires
 * after one TTL. On a cluster, client IDs are per node: both questions go to the node that holds
 * the lock's slot, over the connection that wrote the lock.
 */
import { Cluster, type Redis } from 'ioredis';
import { DomainError } from '../errors.js';
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
/** Extends the TTL, with the holder's current client ID, only while the key still holds our token. */
const refresh = defineScript(
  'gcBuildLockRefresh',
  `local v = redis.call('get', KEYS[1])
   if v and string.sub(v, 1, string.len(ARGV[1]) + 1) == ARGV[1] .. ' ' then
     return redis.call('set', KEYS[1], ARGV[1] .. ' ' .. ARGV[3], 'PX', ARGV[2], 'XX') and 1 or 0
   end
   return 0`,
);

/** The connection that serves `key`: the client itself, or a cluster's connection to the key's node. */
async function nodeOf(kv: KvStore, key: string): Promise<Redis> {
  const r = kv.redis;
  if (!(r instanceof Cluster)) return r;
  const owner = r.slots[await r.cluster('KEYSLOT', key)]?.[0];
  const node = r.nodes('master').find((n) => `${n.options.host}:${n.options.port}` === owner);
  if (!node) throw new Error('the lock key has no known node');
  return node;
}

/** The ID of the connection that writes `key`; a reconnect gets a new one (the refresh records it). */
const clientId = (kv: KvStore, key: string): Promise<string> =>
  nodeOf(kv, key)
    .then((n) => n.client('ID') as Promise<number>)
    .then(String, () => '-'); // '-': CLIENT is disabled.

/** True when the lock value names a client that is no longer connected. */
async function holderGone(kv: KvStore, key: string, value: string | null): Promise<boolean> {
  const id = value?.split(' ')[1];
  if (!id || !/^\d+$/.test(id)) return false;
  try {
    return ((await (await nodeOf(kv, key)).client('LIST', 'ID', id)) as string).trim() === '';
  } catch {
    return false; // CLIENT disabled: the TTL decides.
  }
}

/** The lock key of an index (`index-build:{index}` in src/store/keys.ts). */
export function buildLockKey(kv: Pick<KvStore, 'prefix'>, indexName: string): string {
  return createKeys(kv.prefix).indexBuild(indexName);
}

/** The 409 for a second build of the same index. */
export function buildRunning(indexName: string): DomainError {
  return new DomainError(
    'conflict',
    'build-running',
    `a build of vector index "${indexName}" is already running; retry when it has finished`,
  );
}

/**
 * Takes the lock of `indexName` or throws 409 when another build holds it.
 * @param ttlMs lock lifetime; refreshed every `ttlMs / 3` while held.
 */
export async function acquireBuildLock(kv: KvStore, indexName: string, ttlMs: number): Promise<BuildLock> {
  const key = buildLockKey(kv, indexName);
  const token = crypto.randomUUID();
  const take = async () => (await kv.redis.set(key, `${token} ${await clientId(kv, key)}`, 'PX', ttlMs, 'NX')) === 'OK';
  if (!(await take())) {
    const held = await kv.redis.get(key);
    // A dead holder's lock is deleted only if it is still that holder's (compare-and-delete).
    if (!(await holderGone(kv, key, held)) || !(await release(kv.redis, [key], [held!])) || !(await take())) throw buildRunning(indexName);
  }

  let lost = false;
  let released = false;
  const timer = setInterval(
    () => {
      clientId(kv, key)
        .then((id) => refresh(kv.redis, [key], [token, ttlMs, id]))
        .then(
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
      if (lost)
        throw new DomainError('conflict', 'build-lock-lost', `the build lock of vector index "${indexName}" expired; run the build again`);
    },
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      const held = await kv.redis.get(key).catch(() => null);
      if (held?.startsWith(`${token} `)) await release(kv.redis, [key], [held]).catch(() => {});
    },
  };
}
