/**
 * The SSE stream of one job, written by the service's one SSE writer (src/lib/sse.ts).
 * {@link openJobEventStream} subscribes to live events first, then reads whether the job exists
 * together with its stored events after `Last-Event-ID` (one round trip), so nothing published
 * in between is missed. The stream replays those, forwards live ones in order (filling any gap
 * from the store), sends `: ping` every `pingMs`, and closes after `job_done` or `job_error`.
 * Cancelling the stream (the client went away) drops the subscription and the timers.
 */
import { createSseStream, sseFrame, type SseStream } from '../lib/sse.js';
import type { JobStore, SeqEvent } from '../store/jobs.js';
import type { JobEventHub } from '../store/job-events.js';

/** Options of {@link openJobEventStream}. */
export interface JobStreamOptions {
  jobs: Pick<JobStore, 'open' | 'events'>;
  hub: Pick<JobEventHub, 'subscribe'>;
  jobId: string;
  /** Events up to this seq were already seen (`Last-Event-ID`); default 0. */
  afterSeq?: number;
  /** Interval of `: ping` comments in ms; each ping also re-reads the store as a safety net. */
  pingMs: number;
  /** Aborts the stream (e.g. the request's signal). */
  signal?: AbortSignal;
}

/** True for the events that end a job's stream. */
export const isFinal = (type: string) => type === 'job_done' || type === 'job_error';

/** Parses a `Last-Event-ID` value; anything but a non-negative integer counts as none. */
export function parseLastEventId(value: string | null | undefined): number {
  if (!value || !/^\d{1,9}$/.test(value.trim())) return 0;
  return Number(value.trim());
}

/** One job's stream: the last seq sent, and live events waiting for their turn. */
class JobEventStream {
  readonly sse: SseStream;
  private last: number;
  /** Live events not yet sent; they wait here until the stored ones are replayed. */
  private buffered: SeqEvent[] = [];
  private replayed = false;
  /** Serialises writers (replay, live events, pings) so frames stay in seq order. */
  private chain: Promise<void> = Promise.resolve();
  private unsubscribe = () => {};

  constructor(private readonly opts: JobStreamOptions) {
    this.last = opts.afterSeq ?? 0;
    this.sse = createSseStream({ pingMs: opts.pingMs, signal: opts.signal, onEnd: () => this.unsubscribe() });
  }

  /** Subscribes, replays the stored events and starts the pings; false when the job does not exist. */
  async open(): Promise<boolean> {
    const { jobs, hub, jobId } = this.opts;
    let opened: Awaited<ReturnType<JobStore['open']>>;
    try {
      this.unsubscribe = await hub.subscribe(
        jobId,
        (e) => {
          this.buffered.push(e);
          if (this.replayed) this.enqueue(() => this.drain());
        },
        () => this.sse.close(),
      );
      // Aborted while subscribing: the stream's end came before there was anything to drop.
      if (this.sse.ended) this.unsubscribe();
      opened = await jobs.open(jobId, this.last);
    } catch (err) {
      this.sse.close();
      throw err;
    }
    if (!opened.exists) {
      this.sse.close();
      return false;
    }
    this.send(opened.events, ': stream open\n\n');
    // Resumed after the final event (Last-Event-ID at or past it): nothing more will come.
    if (opened.finished) this.sse.close();
    if (this.sse.ended) return true;
    this.replayed = true;
    if (this.buffered.length) this.enqueue(() => this.drain());
    this.sse.startPings(() => this.enqueue(() => this.recheck()));
    return true;
  }

  private enqueue(work: () => Promise<void>) {
    this.chain = this.chain.then(() => (this.sse.ended ? undefined : work())).catch(() => this.sse.close());
  }

  /** Writes the new ones of `events` as one chunk (one socket write), after `prefix`. */
  private send(events: SeqEvent[], prefix = '') {
    let text = prefix;
    let final = false;
    for (const e of events) {
      if (this.sse.ended || final || e.seq <= this.last) continue;
      this.last = e.seq;
      text += sseFrame(e);
      final = isFinal(e.event.type);
    }
    if (text) this.sse.write(text);
    if (final) this.sse.close();
  }

  /** Sends the buffered live events, or the stored ones after a gap (an event not delivered live). */
  private async drain() {
    const batch = this.buffered.sort((a, b) => a.seq - b.seq);
    this.buffered = [];
    const fresh = batch.filter((e) => e.seq > this.last);
    if (fresh.every((e, i) => e.seq === this.last + 1 + i)) return this.send(fresh);
    this.send(await this.opts.jobs.events(this.opts.jobId, this.last));
  }

  /**
   * At each ping, one round trip: missed events, and whether the job still exists (expired
   * while the client waited: nothing more will come).
   */
  private async recheck() {
    const { exists, finished, events } = await this.opts.jobs.open(this.opts.jobId, this.last);
    this.send(events);
    if (!exists || finished) this.sse.close();
  }
}

/**
 * Opens the stream of a job; null when the job does not exist (or expired). The stream ends by
 * itself after the final event.
 */
export async function openJobEventStream(opts: JobStreamOptions): Promise<ReadableStream<Uint8Array> | null> {
  const stream = new JobEventStream(opts);
  return (await stream.open()) ? stream.sse.body : null;
}
