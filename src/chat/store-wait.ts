/**
 * A running job's writes to the key-value store (its events, its token usage) wait out a store
 * outage instead of failing the job. A Redis restart or failover takes seconds, while the
 * model call that produced the write took as long; ending the job in `error` for it would
 * throw that work away although the store is back a moment later. One job shares one outage
 * clock: a job that has waited `limitMs` in all for one outage ends in `error` naming it.
 */
import { DomainError, isDependencyDown } from '../errors.js';
import type { Logger } from '../lib/log.js';
import { sleep } from '../lib/timeout.js';

/** The job error when the store stayed away longer than the job may wait. */
export function storeOutageMessage(limitMs: number): string {
  return `the key-value store was unreachable for more than ${Math.round(limitMs / 1000)} s while this answer was being written (JOB_STORE_WAIT_MS); send the message again`;
}

/** Options of {@link createStoreWait}. */
export interface StoreWaitOptions {
  /** Longest one outage is waited out, in ms (`JOB_STORE_WAIT_MS`). */
  limitMs: number;
  /** The job's signal: a cancel or a shutdown stops the wait at once (rejects with its reason). */
  signal: AbortSignal;
  log: Logger;
  /** First retry delay in ms, doubled up to 2 s. Default 200. */
  firstDelayMs?: number;
}

/** Runs a store write, retrying it while the store is unreachable. */
export type StoreWait = <T>(write: () => Promise<T>) => Promise<T>;

/**
 * A retrier for one job's store writes. Only "store unreachable" failures are retried; any
 * other error is thrown as it is. A write the store applied but whose reply was lost in the
 * outage is applied again (an event may show twice); the job's end is written once whatever
 * happens (the finish script checks the status).
 */
export function createStoreWait(opts: StoreWaitOptions): StoreWait {
  /** When the store first failed in the current outage; undefined while it answers. */
  let downSince: number | undefined;
  return async (write) => {
    for (let delay = opts.firstDelayMs ?? 200; ; delay = Math.min(delay * 2, 2_000)) {
      try {
        const out = await write();
        if (downSince !== undefined) opts.log.info('key-value store answers again', { waitedMs: Date.now() - downSince });
        downSince = undefined;
        return out;
      } catch (err) {
        if (opts.signal.aborted || !isDependencyDown(err)) throw err;
        downSince ??= Date.now();
        if (Date.now() - downSince + delay > opts.limitMs) {
          throw new DomainError('unavailable', 'store-outage', storeOutageMessage(opts.limitMs), { cause: err });
        }
        opts.log.warn('key-value store unreachable; the job waits', { error: err, retryInMs: delay });
        await sleep(delay, opts.signal);
      }
    }
  };
}
