/**
 * A chat worker's lease and the recovery of taken jobs. The worker renews its lease (heartbeat)
 * every third of `WORKER_LEASE_MS`; on each beat it puts the jobs of workers whose lease lapsed
 * back on the queue (once) or ends them in `error`, and does the same with jobs on its own list
 * whose end could not be written. A key-value store outage is waited out: no worker takes
 * another for dead on leases that lapsed in the outage.
 */
import type { Config } from '../config.js';
import type { Logger } from '../lib/log.js';
import type { JobStore } from '../store/jobs.js';
import type { JobQueue, RequeueOutcome } from '../store/queue.js';

/** Times a job is taken before a crash of its worker ends it in `error` (first try + one retry). */
export const MAX_ATTEMPTS = 2;

/** The job error when a job's worker died on each attempt. */
export const WORKER_LOST = 'the worker running this job stopped twice while answering it, so it was not retried again';

/** What a {@link WorkerLease} needs. */
export interface WorkerLeaseDeps {
  workerId: string;
  queue: JobQueue;
  jobs: Pick<JobStore, 'get' | 'finish'>;
  config: Pick<Config, 'WORKER_LEASE_MS'>;
  log: Logger;
  /** IDs of the jobs this worker is running now: its own sweep leaves them alone. */
  running: ReadonlySet<string>;
}

/**
 * Takes `jobId` off `workerId`'s processing list and puts it back on the queue, or, when it was
 * taken {@link MAX_ATTEMPTS} times, ends it in `error` ({@link WORKER_LOST}).
 */
export async function requeueOrFail(
  deps: Pick<WorkerLeaseDeps, 'queue' | 'jobs'>,
  jobId: string,
  workerId: string,
): Promise<RequeueOutcome> {
  const outcome = await deps.queue.requeue(jobId, workerId, MAX_ATTEMPTS);
  if (outcome === 'exhausted') {
    const job = await deps.jobs.get(jobId);
    if (job) await deps.jobs.finish(job, { status: 'error', error: WORKER_LOST }, workerId);
  }
  return outcome;
}

/** The lease of one worker, and its recovery sweeps. */
export class WorkerLease {
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  /** Own jobs seen unrun on the last sweep (see {@link recoverOwn}). */
  private suspects = new Set<string>();
  /**
   * After this worker lost the store, the others' leases lapsed in the outage too (the store's
   * clock ran on): judging them before they could renew would requeue jobs they are still
   * running. So, once the store answers again, every worker gets one lease first.
   */
  private storeLost = false;
  private judgeOthersAfter = 0;

  constructor(private readonly deps: WorkerLeaseDeps) {}

  /** Takes the lease, recovers dead workers' jobs and starts the heartbeat. */
  async start(): Promise<void> {
    const { queue, workerId, config, log } = this.deps;
    try {
      await queue.heartbeat(workerId, config.WORKER_LEASE_MS);
      await this.recoverDead();
    } catch (err) {
      // The store may be down at start-up: the loop and the heartbeat keep retrying.
      this.storeLost = true;
      log.warn('worker start-up could not reach the key-value store', { error: err });
    }
    this.heartbeat = setInterval(() => void this.tick(), Math.max(100, Math.floor(config.WORKER_LEASE_MS / 3)));
  }

  /** Stops the heartbeat, puts this worker's remaining jobs back on the queue and gives up the lease. */
  async release(): Promise<void> {
    clearInterval(this.heartbeat);
    try {
      await this.reclaim(this.deps.workerId);
      await this.deps.queue.retire(this.deps.workerId);
    } catch (err) {
      this.deps.log.warn('could not release jobs at shutdown', { error: err });
    }
  }

  private async tick() {
    const { queue, workerId, config, log } = this.deps;
    try {
      await queue.heartbeat(workerId, config.WORKER_LEASE_MS);
    } catch (err) {
      this.storeLost = true;
      log.warn('worker heartbeat failed', { error: err });
      return;
    }
    if (this.storeLost) {
      this.storeLost = false;
      this.judgeOthersAfter = Date.now() + config.WORKER_LEASE_MS;
    }
    try {
      if (Date.now() >= this.judgeOthersAfter) await this.recoverDead();
      await this.recoverOwn();
    } catch (err) {
      log.warn('worker recovery sweep failed', { error: err });
    }
  }

  /** Puts jobs of `workerId`'s processing list back on the queue, or fails them when exhausted. */
  private async reclaim(workerId: string) {
    for (const jobId of await this.deps.queue.processing(workerId)) {
      const outcome = await requeueOrFail(this.deps, jobId, workerId);
      this.deps.log.info('reclaimed job', { jobId, from: workerId, outcome });
    }
  }

  private async recoverDead() {
    const { queue, workerId, config } = this.deps;
    for (const dead of await queue.deadWorkers(workerId)) {
      if (!(await queue.lock(`recover:${dead}`, config.WORKER_LEASE_MS))) continue;
      await this.reclaim(dead);
      await queue.forget(dead);
    }
  }

  /**
   * Jobs on this worker's own processing list that it is not running: their end could not be
   * written while the key-value store was down (run-job.ts gives up after a while). Seen on two
   * sweeps in a row (not a job moved there an instant ago), they go back on the queue.
   */
  private async recoverOwn() {
    const { queue, workerId, running, log } = this.deps;
    const orphans = (await queue.processing(workerId)).filter((jobId) => !running.has(jobId));
    const confirmed = orphans.filter((jobId) => this.suspects.has(jobId));
    this.suspects = new Set(orphans.filter((jobId) => !confirmed.includes(jobId)));
    for (const jobId of confirmed) {
      const outcome = await requeueOrFail(this.deps, jobId, workerId);
      log.warn('requeued a job whose end was not recorded', { jobId, outcome });
    }
  }
}
