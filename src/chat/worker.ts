/**
 * The chat worker: a background loop taking jobs first in, first out, running up to
 * `WORKER_CONCURRENCY` at once (worker-loop.ts). Taken jobs sit on this worker's processing list
 * while it holds a lease (heartbeat); any worker that finds a lapsed lease puts the dead worker's
 * jobs back on the queue once, or ends them in `error`, so no accepted job is lost or left
 * `running` (worker-lease.ts). `stop()` stops taking jobs, lets running ones finish up to
 * `WORKER_SHUTDOWN_MS`, then aborts the rest and puts them back on the queue. A key-value store
 * outage is waited out: running jobs pause on their writes (store-wait.ts) and no worker takes
 * another for dead on leases that lapsed in the outage.
 */
import type { Config } from '../config.js';
import type { Logger } from '../lib/log.js';
import type { JobEventHub } from '../store/job-events.js';
import type { JobStore } from '../store/jobs.js';
import type { JobQueue } from '../store/queue.js';
import type { ChatHandlers, JobRunnerDeps } from './run-job.js';
import { WorkerLease } from './worker-lease.js';
import { WorkerLoop } from './worker-loop.js';

export { MAX_ATTEMPTS, WORKER_LOST } from './worker-lease.js';

/** Options of {@link createChatWorker}. */
export interface ChatWorkerOptions {
  /** This worker's own queue client: it holds a blocking connection (src/store/queue.ts). */
  queue: JobQueue;
  /** The job store of the app's dependencies. */
  jobs: Pick<JobStore, 'take' | 'get' | 'finish' | 'publish'>;
  /** The per-user limiter of the app's dependencies (token usage is charged after each job). */
  limiter: JobRunnerDeps['limiter'];
  /** Live job events: a running job that ends elsewhere (cancelled by its owner) is aborted at once. */
  events: Pick<JobEventHub, 'subscribe'>;
  config: Pick<Config, 'WORKER_CONCURRENCY' | 'WORKER_LEASE_MS' | 'WORKER_SHUTDOWN_MS'> & JobRunnerDeps['config'];
  log: Logger;
  llm: JobRunnerDeps['llm'];
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

/**
 * Stops `loop` taking jobs, gives the running ones `graceMs` to end, aborts the rest, then
 * releases the lease (the aborted jobs go back on the queue).
 */
async function shutdown(loop: WorkerLoop, lease: WorkerLease, graceMs: number, log: Logger): Promise<void> {
  await loop.stopTaking();
  const left = await loop.settle(graceMs);
  if (left) {
    log.warn('aborting running jobs at shutdown', { jobs: left });
    await loop.abortAll();
  }
  await lease.release();
  log.info('chat worker stopped');
}

/** Builds a worker; call `start()` to run it. */
export function createChatWorker(opts: ChatWorkerOptions): ChatWorker {
  const { queue, jobs, config } = opts;
  const id = opts.workerId ?? crypto.randomUUID();
  const log = opts.log.child({ worker: id });
  const runner: JobRunnerDeps = { config, log, llm: opts.llm, jobs, limiter: opts.limiter, handlers: opts.handlers };
  const loop = new WorkerLoop({
    workerId: id,
    queue,
    jobs,
    events: opts.events,
    runner,
    concurrency: config.WORKER_CONCURRENCY,
    log,
  });
  const lease = new WorkerLease({ workerId: id, queue, jobs, config, log, running: loop.running });
  let started = false;
  let stopped: Promise<void> | undefined;
  return {
    id,
    async start() {
      if (started) return;
      started = true;
      await lease.start();
      loop.start();
      log.info('chat worker started', { concurrency: config.WORKER_CONCURRENCY });
    },
    stop() {
      stopped ??= shutdown(loop, lease, config.WORKER_SHUTDOWN_MS, log);
      return stopped;
    },
  };
}
