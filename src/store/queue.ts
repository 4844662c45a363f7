/**
 * The reliable job queue. Producers LPUSH job IDs on `queue`; a worker BLMOVEs the oldest
 * (RIGHT) onto its own `processing` list, so a taken job is always in exactly one list. A
 * worker keeps a heartbeat key alive for its lease; when it lapses, any other worker moves the
 * dead worker's jobs back to the head of the queue (once) or ends them in `error`.
 */
import type { Redis } from 'ioredis';
import type { KvStore } from './redis.js';
import { createKeys } from './keys.js';
import { defineScript } from './script.js';

/** Outcome of {@link JobQueue.requeue}. */
export type RequeueOutcome = 'requeued' | 'gone' | 'finished' | 'exhausted';

/** Queue operations of the worker. */
export interface JobQueue {
  /**
   * Waits up to `timeoutSeconds` for the oldest job ID and moves it onto the worker's list, on
   * a connection of its own (a blocking read holds its connection).
   */
  next(workerId: string, timeoutSeconds: number): Promise<string | null>;
  /** Ends a pending {@link next} at once (it rejects) and closes its connection; for shutdown. */
  interrupt(): void;
  /** Removes a job from a worker's processing list (a job that expired while queued). */
  drop(jobId: string, workerId: string): Promise<void>;
  /** Registers the worker and renews its lease. */
  heartbeat(workerId: string, leaseMs: number): Promise<void>;
  /** Drops the worker's lease and registration (after its processing list is empty). */
  retire(workerId: string): Promise<void>;
  /** Registered workers other than `selfId` whose lease lapsed. */
  deadWorkers(selfId: string): Promise<string[]>;
  /** Job IDs on a worker's processing list. */
  processing(workerId: string): Promise<string[]>;
  /**
   * Returns an unfinished job from a processing list to the head of the queue when it has
   * been tried fewer than `maxAttempts` times; `exhausted` leaves it for the caller to fail.
   */
  requeue(jobId: string, workerId: string, maxAttempts: number): Promise<RequeueOutcome>;
  /** Takes a short lock (SET NX PX); true when this caller holds it. */
  lock(name: string, ms: number): Promise<boolean>;
  /** Unregisters a dead worker once its processing list is empty. */
  forget(workerId: string): Promise<void>;
}

const REQUEUE = defineScript(
  'gcJobRequeue',
  `
local st = redis.call('HGET', KEYS[1], 'status')
if not st then redis.call('LREM', KEYS[2], 1, ARGV[1]) return 'gone' end
if st == 'done' or st == 'error' then redis.call('LREM', KEYS[2], 1, ARGV[1]) return 'finished' end
if tonumber(redis.call('HGET', KEYS[1], 'attempts') or '0') >= tonumber(ARGV[2]) then return 'exhausted' end
redis.call('HSET', KEYS[1], 'status', 'pending')
redis.call('RPUSH', KEYS[3], ARGV[1])
redis.call('LREM', KEYS[2], 1, ARGV[1])
return 'requeued'
`,
);

const FORGET = defineScript(
  'gcWorkerForget',
  `
if redis.call('LLEN', KEYS[1]) == 0 then redis.call('SREM', KEYS[2], ARGV[1]) return 1 end
return 0
`,
);

/** The queue over `kv`. */
export function createJobQueue(kv: KvStore): JobQueue {
  const keys = createKeys(kv.prefix);
  const redis = kv.redis;
  let blocking: Redis | undefined;
  return {
    async next(workerId, timeoutSeconds) {
      blocking ??= kv.blockingClient();
      return blocking.blmove(keys.queue(), keys.processing(workerId), 'RIGHT', 'LEFT', timeoutSeconds);
    },
    interrupt() {
      blocking?.disconnect();
      blocking = undefined;
    },
    async drop(jobId, workerId) {
      await redis.lrem(keys.processing(workerId), 1, jobId);
    },
    async heartbeat(workerId, leaseMs) {
      await redis.multi().set(keys.alive(workerId), String(Date.now()), 'PX', leaseMs).sadd(keys.workers(), workerId).exec();
    },
    async retire(workerId) {
      await redis.del(keys.alive(workerId));
      await FORGET(redis, [keys.processing(workerId), keys.workers()], [workerId]);
    },
    async deadWorkers(selfId) {
      const ids = (await redis.smembers(keys.workers())).filter((id) => id !== selfId);
      if (!ids.length) return [];
      const alive = await redis.pipeline(ids.map((id) => ['exists', keys.alive(id)])).exec();
      return ids.filter((_, i) => alive?.[i]?.[1] === 0);
    },
    processing: (workerId) => redis.lrange(keys.processing(workerId), 0, -1),
    async requeue(jobId, workerId, maxAttempts) {
      return (await REQUEUE(redis, [keys.job(jobId), keys.processing(workerId), keys.queue()], [jobId, maxAttempts])) as RequeueOutcome;
    },
    async lock(name, ms) {
      return (await redis.set(keys.lock(name), '1', 'PX', ms, 'NX')) === 'OK';
    },
    async forget(workerId) {
      await FORGET(redis, [keys.processing(workerId), keys.workers()], [workerId]);
    },
  };
}
