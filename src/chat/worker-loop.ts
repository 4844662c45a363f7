/**
 * The chat worker's run loop: takes jobs first in, first out and runs up to `concurrency` at
 * once, each with an abort signal of its own, so that shutdown aborts exactly the model calls of
 * the jobs still running and a job ended elsewhere (cancelled by its owner) stops at once.
 */
import type { Logger } from '../lib/log.js';
import { sleep } from '../lib/timeout.js';
import type { JobEventHub } from '../store/job-events.js';
import type { JobStore } from '../store/jobs.js';
import type { JobQueue } from '../store/queue.js';
import { ROUTING_STARTED, runJob, type JobRunnerDeps } from './run-job.js';
import { isFinal } from './sse.js';

/** What a {@link WorkerLoop} needs. */
export interface WorkerLoopDeps {
  workerId: string;
  queue: JobQueue;
  jobs: Pick<JobStore, 'take'>;
  events: Pick<JobEventHub, 'subscribe'>;
  runner: JobRunnerDeps;
  /** Jobs run at once (`WORKER_CONCURRENCY`). */
  concurrency: number;
  log: Logger;
}

const SHUTTING_DOWN = () => new Error('the worker is shutting down');

/** The loop of one worker and the jobs it runs. */
export class WorkerLoop {
  /** IDs of the jobs this worker is running now. */
  readonly running = new Set<string>();
  /** Runs in flight. */
  private readonly active = new Set<Promise<void>>();
  /** One per running job (see {@link runTaken}). */
  private readonly controllers = new Set<AbortController>();
  private aborting = false;
  private stopping = false;
  private wake: () => void = () => {};
  private readonly stopRequested = new Promise<void>((r) => (this.wake = r));
  private loop: Promise<void> | undefined;

  constructor(private readonly deps: WorkerLoopDeps) {}

  /** Starts taking jobs. */
  start(): void {
    this.loop ??= this.run();
  }

  /** Stops taking jobs and resolves when the loop has ended; running jobs go on. */
  async stopTaking(): Promise<void> {
    this.stopping = true;
    this.wake();
    // Unblocks the pending BLMOVE; a job moved at that instant is reclaimed by the lease's release.
    this.deps.queue.interrupt();
    await this.loop;
  }

  /** Waits up to `ms` for the running jobs to end; the number still running after. */
  async settle(ms: number): Promise<number> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const graceOver = new Promise<void>((r) => (timer = setTimeout(r, ms)));
    await Promise.race([Promise.allSettled([...this.active]), graceOver]);
    clearTimeout(timer);
    return this.active.size;
  }

  /** Aborts every running job (and any taken from now on), then waits up to 2 s for them to end. */
  async abortAll(): Promise<void> {
    const all = Promise.allSettled([...this.active]);
    this.aborting = true;
    for (const c of this.controllers) c.abort(SHUTTING_DOWN());
    await Promise.race([all, sleep(2_000)]);
  }

  private async run() {
    const { queue, workerId, log } = this.deps;
    while (!this.stopping) {
      if (this.active.size >= this.deps.concurrency) {
        await Promise.race([...this.active, this.stopRequested]);
        continue;
      }
      let jobId: string | null;
      try {
        jobId = await queue.next(workerId, 1);
      } catch (err) {
        if (this.stopping) break;
        log.warn('queue read failed', { error: err });
        await sleep(500);
        continue;
      }
      if (!jobId) continue;
      const p: Promise<void> = this.runOne(jobId)
        .catch((err) => log.error('job run failed', { jobId, error: err }))
        .finally(() => this.active.delete(p));
      this.active.add(p);
    }
  }

  private async runOne(jobId: string) {
    this.running.add(jobId);
    try {
      await this.runTaken(jobId);
    } finally {
      this.running.delete(jobId);
    }
  }

  private async runTaken(jobId: string) {
    const { queue, jobs, workerId } = this.deps;
    const taken = await jobs.take(jobId, ROUTING_STARTED);
    if (!taken) {
      // Expired while queued, or already finished by a recovering worker.
      await queue.drop(jobId, workerId);
      return;
    }
    // A signal per job, so that shutdown (and a job's own end) aborts exactly its model calls.
    const jobAbort = new AbortController();
    if (this.aborting) jobAbort.abort(SHUTTING_DOWN());
    this.controllers.add(jobAbort);
    // A final event this worker did not write means the job was ended elsewhere (cancelled):
    // stop its model calls now rather than at its next event. Our own final event comes after
    // runJob's last write, when aborting changes nothing.
    let endedElsewhere = false;
    const unsubscribe = await this.deps.events
      .subscribe(jobId, (e) => {
        if (!isFinal(e.event.type)) return;
        endedElsewhere = true;
        jobAbort.abort(new Error('the job was cancelled'));
      })
      .catch(() => undefined);
    try {
      await runJob(this.deps.runner, taken.job, taken.history, workerId, jobAbort.signal);
    } finally {
      unsubscribe?.();
      this.controllers.delete(jobAbort);
    }
    // The cancel wrote the job's end; only this worker's list still names it.
    if (endedElsewhere) await queue.drop(jobId, workerId).catch(() => undefined);
  }
}
