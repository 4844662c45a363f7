/**
 * The chat worker: a background loop taking jobs first in, first out, running up to
 * `WORKER_CONCURRENCY` at once. Taken jobs sit on this worker's processing list while it holds
 * a lease (heartbeat); any worker that finds a lapsed lease puts the dead worker's jobs back on
 * the queue once, or ends them in `error`, so no accepted job is lost or left `running`.
 * `stop()` stops taking jobs, lets running ones finish up to `WORKER_SHUTDOWN_MS`, then aborts
 * the rest and puts them back on the queue. A key-value store outage is waited out: running
 * jobs pause on their writes (store-wait.ts) and no worker takes another for dead on leases that
 * lapsed in the outage.
 */
import type { Config } from '../config.js';
import type { Logger } from '../lib/log.js';
import { sleep } from '../lib/timeout.js';
import type { LlmClients } from '../llm/clients.js';
import { isFinal } from './sse.js';
import type { JobEventHub } from '../store/job-events.js';
import type { JobStore } from '../store/jobs.js';
import type { JobQueue } from '../store/queue.js';
import type { RateLimiter } from '../store/rate-limit.js';
import { ROUTING_STARTED, runJob, type ChatHandlers, type JobRunnerDeps } from './run-job.js';

/** Times a job is taken before a crash of its worker ends it in `error` (first try + one retry). */
export const MAX_ATTEMPTS = 2;

/** The job error when a job's worker died on each attempt. */
export const WORKER_LOST = 'the worker running this job stopped twice while answering it, so it was not retried again';

/** Options of {@link createChatWorker}. */
export interface ChatWorkerOptions {
  /** This worker's own queue client: it holds a blocking connection (src/store/queue.ts). */
  queue: JobQueue;
  /** The job store of the app's dependencies. */
  jobs: JobStore;
  /** The per-user limiter of the app's dependencies (token usage is charged after each job). */
  limiter: RateLimiter;
  /** Live job events: a running job that ends elsewhere (cancelled by its owner) is aborted at once. */
  events: JobEventHub;
  config: Config;
  log: Logger;
  llm: LlmClients;
  handlers: ChatHandlers;
  /** Default a random UUID. */
  workerId?: string;
}

/** A running worker. */
export interface ChatWorker {
  readonly id: string;
  /** Registers the worker, recovers jobs of dead workers and starts the loop. */
  start(): Promise<void>;
  /** Graceful shutdown (idempotent). */
  stop(): Promise<void>;
}

/** Builds a worker; call `start()` to run it. */
export function createChatWorker(opts: ChatWorkerOptions): ChatWorker {
  const { queue, jobs, config } = opts;
  const id = opts.workerId ?? crypto.randomUUID();
  const log = opts.log.child({ worker: id });
  const runner: JobRunnerDeps = { config, log, llm: opts.llm, jobs, limiter: opts.limiter, handlers: opts.handlers };
  const controllers = new Set<AbortController>();
  /** IDs of the jobs this worker is running now. */
  const running = new Set<string>();
  let aborting = false;
  const active = new Set<Promise<void>>();
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let loop: Promise<void> | undefined;
  let stopping = false;
  let stopped: Promise<void> | undefined;
  let wake: () => void = () => {};
  const stopRequested = new Promise<void>((r) => (wake = r));

  /** Puts jobs of `workerId`'s processing list back on the queue, or fails them when exhausted. */
  const reclaim = async (workerId: string) => {
    for (const jobId of await queue.processing(workerId)) {
      const outcome = await queue.requeue(jobId, workerId, MAX_ATTEMPTS);
      if (outcome === 'exhausted') {
        const job = await jobs.get(jobId);
        if (job) await jobs.finish(job, { status: 'error', error: WORKER_LOST }, workerId);
      }
      log.info('reclaimed job', { jobId, from: workerId, outcome });
    }
  };

  const recoverDead = async () => {
    for (const dead of await queue.deadWorkers(id)) {
      if (!(await queue.lock(`recover:${dead}`, config.WORKER_LEASE_MS))) continue;
      await reclaim(dead);
      await queue.forget(dead);
    }
  };

  /**
   * Jobs on this worker's own processing list that it is not running: their end could not be
   * written while the key-value store was down (run-job.ts gives up after a while). Seen on two
   * sweeps in a row (not a job moved there an instant ago), they go back on the queue.
   */
  let suspects = new Set<string>();
  const recoverOwn = async () => {
    const orphans = (await queue.processing(id)).filter((jobId) => !running.has(jobId));
    const confirmed = orphans.filter((jobId) => suspects.has(jobId));
    suspects = new Set(orphans.filter((jobId) => !confirmed.includes(jobId)));
    for (const jobId of confirmed) {
      const outcome = await queue.requeue(jobId, id, MAX_ATTEMPTS);
      if (outcome === 'exhausted') {
        const job = await jobs.get(jobId);
        if (job) await jobs.finish(job, { status: 'error', error: WORKER_LOST }, id);
      }
      log.warn('requeued a job whose end was not recorded', { jobId, outcome });
    }
  };

  /**
   * After this worker lost the store, the others' leases lapsed in the outage too (the store's
   * clock ran on): judging them before they could renew would requeue jobs they are still
   * running. So, once the store answers again, every worker gets one lease first.
   */
  let storeLost = false;
  let judgeOthersAfter = 0;
  const tick = async () => {
    try {
      await queue.heartbeat(id, config.WORKER_LEASE_MS);
    } catch (err) {
      storeLost = true;
      log.warn('worker heartbeat failed', { error: err });
      return;
    }
    if (storeLost) {
      storeLost = false;
      judgeOthersAfter = Date.now() + config.WORKER_LEASE_MS;
    }
    try {
      if (Date.now() >= judgeOthersAfter) await recoverDead();
      await recoverOwn();
    } catch (err) {
      log.warn('worker recovery sweep failed', { error: err });
    }
  };

  const runOne = async (jobId: string) => {
    running.add(jobId);
    try {
      await runTaken(jobId);
    } finally {
      running.delete(jobId);
    }
  };
  const runTaken = async (jobId: string) => {
    const taken = await jobs.take(jobId, ROUTING_STARTED);
    if (!taken) {
      // Expired while queued, or already finished by a recovering worker.
      await queue.drop(jobId, id);
      return;
    }
    // A signal per job, so that shutdown (and a job's own end) aborts exactly its model calls.
    const jobAbort = new AbortController();
    if (aborting) jobAbort.abort(new Error('the worker is shutting down'));
    controllers.add(jobAbort);
    // A final event this worker did not write means the job was ended elsewhere (cancelled):
    // stop its model calls now rather than at its next event. Our own final event comes after
    // runJob's last write, when aborting changes nothing.
    let endedElsewhere = false;
    const unsubscribe = await opts.events
      .subscribe(jobId, (e) => {
        if (!isFinal(e.event.type)) return;
        endedElsewhere = true;
        jobAbort.abort(new Error('the job was cancelled'));
      })
      .catch(() => undefined);
    try {
      await runJob(runner, taken.job, taken.history, id, jobAbort.signal);
    } finally {
      unsubscribe?.();
      controllers.delete(jobAbort);
    }
    // The cancel wrote the job's end; only this worker's list still names it.
    if (endedElsewhere) await queue.drop(jobId, id).catch(() => undefined);
  };

  const run = async () => {
    while (!stopping) {
      if (active.size >= config.WORKER_CONCURRENCY) {
        await Promise.race([...active, stopRequested]);
        continue;
      }
      let jobId: string | null;
      try {
        jobId = await queue.next(id, 1);
      } catch (err) {
        if (stopping) break;
        log.warn('queue read failed', { error: err });
        await sleep(500);
        continue;
      }
      if (!jobId) continue;
      const p: Promise<void> = runOne(jobId)
        .catch((err) => log.error('job run failed', { jobId, error: err }))
        .finally(() => active.delete(p));
      active.add(p);
    }
  };

  return {
    id,
    async start() {
      if (loop) return;
      try {
        await queue.heartbeat(id, config.WORKER_LEASE_MS);
        await recoverDead();
      } catch (err) {
        // The store may be down at start-up: the loop and the heartbeat keep retrying.
        storeLost = true;
        log.warn('worker start-up could not reach the key-value store', { error: err });
      }
      heartbeat = setInterval(() => void tick(), Math.max(100, Math.floor(config.WORKER_LEASE_MS / 3)));
      loop = run();
      log.info('chat worker started', { concurrency: config.WORKER_CONCURRENCY });
    },
    stop() {
      stopped ??= (async () => {
        stopping = true;
        wake();
        // Unblocks the pending BLMOVE; a job moved at that instant is reclaimed below.
        queue.interrupt();
        await loop;
        const all = Promise.allSettled([...active]);
        let timer: ReturnType<typeof setTimeout> | undefined;
        const graceOver = new Promise<void>((r) => (timer = setTimeout(r, config.WORKER_SHUTDOWN_MS)));
        await Promise.race([all, graceOver]);
        clearTimeout(timer);
        if (active.size) {
          log.warn('aborting running jobs at shutdown', { jobs: active.size });
          aborting = true;
          for (const c of controllers) c.abort(new Error('the worker is shutting down'));
          await Promise.race([all, sleep(2_000)]);
        }
        clearInterval(heartbeat);
        try {
          await reclaim(id);
          await queue.retire(id);
        } catch (err) {
          log.warn('could not release jobs at shutdown', { error: err });
        }
        log.info('chat worker stopped');
      })();
      return stopped;
    },
  };
}
