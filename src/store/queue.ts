/**
 * The reliable job queue. Producers LPUSH job IDs on `queue`; a worker BLMOVEs the oldest
 * (RIGHT) onto its own `processing` list, so a taken job is always in exactly one list. A
 * worker keeps a heartbeat key alive for its lease; when it lapses, any other worker moves the
 * dead worker's jobs back to the head of the queue (once) or ends them in `error`.
 */

import type { KvClient, KvStore } from './redis.js';
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

/**
 * Step one of a requeue, on the job's slot: the job's fate, and `pending` again when it may
 * run once more. KEYS: job. ARGV: most attempts.
 */
const REQUEUE_JOB = defineScript(
  'gcJobRequeueRecord',
  `
local st = redis.call('HGET', KEYS[1], 'status')
if not st then return 'gone' end
if st == 'done' or st == 'error' then return 'finished' end
if tonumber(redis.call('HGET', KEYS[1], 'attempts') or '0') >= tonumber(ARGV[1]) then return 'exhausted' end
redis.call('HSET', KEYS[1], 'status', 'pending')
return 'requeued'
`,
);

/**
 * Step two, on the queue's slot: off the processing list, and back at the head of the queue when
 * requeued — both or neither, so a job is never in two lists. KEYS: processing list, queue.
 * ARGV: job id, '1' to requeue.
 */
const REQUEUE_MOVE = defineScript(
  'gcJobRequeueMove',
  `
if redis.call('LREM', KEYS[1], 1, ARGV[1]) == 1 and ARGV[2] == '1' then redis.call('RPUSH', KEYS[2], ARGV[1]) end
return 1
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
  let blocking: KvClient | undefined;
  let endRead: ((err: Error) => void) | undefined;
  return {
    next(workerId, timeoutSeconds) {
      blocking ??= kv.blockingClient();
      const read = blocking.blmove(keys.queue(), keys.processing(workerId), 'RIGHT', 'LEFT', timeoutSeconds);
      // interrupt() ends the read itself: a client between reconnection attempts (the server
      // away) keeps a queued command forever, closed or not, and a stopping worker waits on it.
      return new Promise<string | null>((resolve, reject) => {
        endRead = reject;
        read.then(resolve, reject).finally(() => {
          // Only its own: an interrupted read's command can settle after the next read began.
          if (endRead === reject) endRead = undefined;
        });
      });
    },
    interrupt() {
      blocking?.disconnect();
      blocking = undefined;
      endRead?.(new Error('the queue read was interrupted'));
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
      // A crash between the steps leaves the job on the list; the next recovery moves it.
      const outcome = (await REQUEUE_JOB(redis, [keys.job(jobId)], [maxAttempts])) as RequeueOutcome;
      if (outcome !== 'exhausted')
        await REQUEUE_MOVE(redis, [keys.processing(workerId), keys.queue()], [jobId, outcome === 'requeued' ? '1' : '0']);
      return outcome;
    },
    async lock(name, ms) {
      return (await redis.set(keys.lock(name), '1', 'PX', ms, 'NX')) === 'OK';
    },
    async forget(workerId) {
      await FORGET(redis, [keys.processing(workerId), keys.workers()], [workerId]);
    },
  };
}
