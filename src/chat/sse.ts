/**
 * The SSE stream of one job as a web-standard ReadableStream. {@link openJobEventStream}
 * subscribes to live events first, then reads whether the job exists together with its stored
 * events after `Last-Event-ID` (one round trip), so nothing published in between is missed.
 * The stream replays those, forwards live ones in order (filling any gap from the store),
 * sends `: ping` every `pingMs`, and closes after `job_done` or `job_error`. Framing per
 * event: `id: <seq>`, `event: <type>`, `data: <JSON>`. Cancelling the stream (the client went
 * away) drops the subscription and the timers.
 */
import type { JobStore, SeqEvent } from '../store/jobs.js';
import type { JobEventHub } from '../store/job-events.js';

/** Options of {@link openJobEventStream}. */
export interface JobStreamOptions {
  jobs: JobStore;
  hub: JobEventHub;
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

/** One SSE frame: a job event, or any other stream's numbered event (the index build's progress). */
export function sseFrame(e: { seq: number; event: { type: string; data?: unknown } }): string {
  return `id: ${e.seq}\nevent: ${e.event.type}\ndata: ${JSON.stringify(e.event.data ?? {})}\n\n`;
}

/** Parses a `Last-Event-ID` value; anything but a non-negative integer counts as none. */
export function parseLastEventId(value: string | null | undefined): number {
  if (!value || !/^\d{1,9}$/.test(value.trim())) return 0;
  return Number(value.trim());
}

/**
 * Opens the stream of a job; null when the job does not exist (or expired). The stream ends by
 * itself after the final event.
 */
export async function openJobEventStream(opts: JobStreamOptions): Promise<ReadableStream<Uint8Array> | null> {
  const enc = new TextEncoder();
  let last = opts.afterSeq ?? 0;
  let closed = false;
  let pinger: ReturnType<typeof setInterval> | undefined;
  let buffered: SeqEvent[] = [];
  // Serialises writers (replay, live events, pings) so frames stay in seq order.
  let chain: Promise<void> = Promise.resolve();
  let ctrl: ReadableStreamDefaultController<Uint8Array> | undefined;

  const enqueueWork = (work: () => Promise<void>) => {
    chain = chain.then(() => (closed ? undefined : work())).catch(() => finish());
  };
  // Live events that arrive before the stream starts wait in `buffered`.
  const unsubscribe = await opts.hub.subscribe(
    opts.jobId,
    (e) => {
      buffered.push(e);
      if (ctrl) enqueueWork(drain);
    },
    () => finish(),
  );
  let opened: Awaited<ReturnType<JobStore['open']>>;
  try {
    opened = await opts.jobs.open(opts.jobId, last);
  } catch (err) {
    unsubscribe();
    throw err;
  }
  if (!opened.exists) {
    unsubscribe();
    return null;
  }

  const cleanup = () => {
    closed = true;
    clearInterval(pinger);
    unsubscribe();
    opts.signal?.removeEventListener('abort', onAbort);
  };
  function finish() {
    if (closed) return;
    cleanup();
    try {
      ctrl?.close();
    } catch {
      // Already cancelled by the client.
    }
  }
  const onAbort = () => finish();

  const write = (text: string) => {
    if (closed || !ctrl) return;
    try {
      ctrl.enqueue(enc.encode(text));
    } catch {
      cleanup();
    }
  };
  /** Writes the new ones of `events` as one chunk (one socket write), after `prefix`. */
  const send = (events: SeqEvent[], prefix = '') => {
    let text = prefix;
    let final = false;
    for (const e of events) {
      if (closed || final || e.seq <= last) continue;
      last = e.seq;
      text += sseFrame(e);
      final = isFinal(e.event.type);
    }
    if (text) write(text);
    if (final) finish();
  };
  /** Sends stored events after `last` (gaps, and the ping-time safety net). */
  const catchUp = async () => send(await opts.jobs.events(opts.jobId, last));
  async function drain() {
    const batch = buffered.sort((a, b) => a.seq - b.seq);
    buffered = [];
    const fresh = batch.filter((e) => e.seq > last);
    // A gap (an event published but not delivered live) is filled from the store.
    if (!fresh.every((e, i) => e.seq === last + 1 + i)) return catchUp();
    send(fresh);
  }

  return new ReadableStream<Uint8Array>({
    start(controller) {
      ctrl = controller;
      if (opts.signal?.aborted) return finish();
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      send(opened.events, ': stream open\n\n');
      // Resumed after the final event (Last-Event-ID at or past it): nothing more will come.
      if (opened.finished) finish();
      if (closed) return;
      if (buffered.length) enqueueWork(drain);
      pinger = setInterval(() => {
        write(': ping\n\n');
        enqueueWork(async () => {
          // One round trip: missed events, and whether the job still exists (expired while
          // the client waited: nothing more will come).
          const { exists, finished, events } = await opts.jobs.open(opts.jobId, last);
          send(events);
          if (!exists || finished) finish();
        });
      }, opts.pingMs);
    },
    cancel() {
      cleanup();
    },
  });
}
