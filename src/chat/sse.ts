/**
 * The SSE stream of one job as a web-standard ReadableStream: it subscribes to live events
 * first, then replays the stored events after `Last-Event-ID`, then forwards live ones in
 * order (filling any gap from the store), sends `: ping` every `pingMs`, and closes after
 * `job_done` or `job_error`. Framing per event: `id: <seq>`, `event: <type>`, `data: <JSON>`.
 * Cancelling the stream (the client went away) drops the subscription and the timers.
 */
import type { JobStore, SeqEvent } from '../store/jobs.js';
import type { JobEventHub } from './events.js';

/** Options of {@link createJobEventStream}. */
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

/** One SSE frame. */
export function sseFrame(e: SeqEvent): string {
  return `id: ${e.seq}\nevent: ${e.event.type}\ndata: ${JSON.stringify(e.event.data ?? {})}\n\n`;
}

/** Parses a `Last-Event-ID` value; anything but a non-negative integer counts as none. */
export function parseLastEventId(value: string | null | undefined): number {
  if (!value || !/^\d{1,9}$/.test(value.trim())) return 0;
  return Number(value.trim());
}

/** Builds the stream; it ends by itself after the final event. */
export function createJobEventStream(opts: JobStreamOptions): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let last = opts.afterSeq ?? 0;
  let closed = false;
  let unsubscribe: (() => void) | undefined;
  let pinger: ReturnType<typeof setInterval> | undefined;
  let buffered: SeqEvent[] = [];
  // Serialises writers (replay, live events, pings) so frames stay in seq order.
  let chain: Promise<void> = Promise.resolve();
  let ctrl!: ReadableStreamDefaultController<Uint8Array>;

  const cleanup = () => {
    closed = true;
    clearInterval(pinger);
    unsubscribe?.();
    opts.signal?.removeEventListener('abort', onAbort);
  };
  const finish = () => {
    if (closed) return;
    cleanup();
    try {
      ctrl.close();
    } catch {
      // Already cancelled by the client.
    }
  };
  const onAbort = () => finish();

  const write = (text: string) => {
    if (closed) return;
    try {
      ctrl.enqueue(enc.encode(text));
    } catch {
      cleanup();
    }
  };
  const send = (events: SeqEvent[]) => {
    for (const e of events) {
      if (closed || e.seq <= last) continue;
      last = e.seq;
      write(sseFrame(e));
      if (isFinal(e.event.type)) return finish();
    }
  };
  /** Sends stored events after `last` (replay, gaps, and the ping-time safety net). */
  const catchUp = async () => send(await opts.jobs.events(opts.jobId, last));
  const drain = async () => {
    const batch = buffered.sort((a, b) => a.seq - b.seq);
    buffered = [];
    for (const e of batch) {
      if (closed) return;
      if (e.seq > last + 1) await catchUp();
      send([e]);
    }
  };
  const enqueueWork = (work: () => Promise<void>) => {
    chain = chain.then(() => (closed ? undefined : work())).catch(() => finish());
  };

  return new ReadableStream<Uint8Array>({
    async start(controller) {
      ctrl = controller;
      if (opts.signal?.aborted) return finish();
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      write(': stream open\n\n');
      try {
        const unsub = await opts.hub.subscribe(opts.jobId, (e) => {
          buffered.push(e);
          enqueueWork(drain);
        });
        if (closed) return unsub();
        unsubscribe = unsub;
      } catch {
        return finish();
      }
      enqueueWork(catchUp);
      pinger = setInterval(() => {
        write(': ping\n\n');
        enqueueWork(async () => {
          await catchUp();
          // The job expired while the client waited: nothing more will come.
          if (!closed && !(await opts.jobs.get(opts.jobId))) finish();
        });
      }, opts.pingMs);
    },
    cancel() {
      cleanup();
    },
  });
}
