/**
 * Follows a job's SSE stream (`/api/chat/job/{id}/stream`) with fetch, so that the page sees
 * status codes and decides how to reconnect. A dropped stream is resumed with `Last-Event-ID`;
 * events already seen (by sequence number) are skipped if the server replays them.
 */
import { createParser } from 'eventsource-parser';
import type { JobEvent } from '../../contract/chat.js';

/** Connection state shown next to the progress. */
export type StreamState = 'connecting' | 'open' | 'reconnecting';

/** Callbacks of {@link followJob}. */
export interface FollowHandlers {
  onEvent(event: JobEvent): void;
  onState(state: StreamState, attempt: number): void;
  /** A comment line arrived (the server's `: ping`): the stream is alive though quiet. */
  onComment?(): void;
}

/** Options of {@link followJob}. */
export interface FollowOptions {
  signal?: AbortSignal;
  /** Reconnects in a row without receiving an event before giving up (default 6). */
  maxRetries?: number;
  /** First back-off in ms, doubled per attempt, capped at 8 s (default 500). */
  backoffMs?: number;
}

/** How following ended: a final event arrived, the job is unknown (404), or the stream kept failing. */
export type FollowOutcome = 'finished' | 'gone' | 'lost';

const FINAL = new Set(['job_done', 'job_error']);

/** Waits `ms`, or less when `signal` aborts first; the abort listener is let go either way. */
export const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      window.clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = window.setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

/** Streams the job's events into `handlers` until the final one. */
export async function followJob(jobId: string, handlers: FollowHandlers, opts: FollowOptions = {}): Promise<FollowOutcome> {
  const maxRetries = opts.maxRetries ?? 6;
  const backoff = opts.backoffMs ?? 500;
  let lastId = -1;
  let failures = 0;
  while (!opts.signal?.aborted) {
    handlers.onState(failures ? 'reconnecting' : 'connecting', failures);
    let finished = false;
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (lastId >= 0) headers['last-event-id'] = String(lastId);
      const res = await fetch(`/api/chat/job/${encodeURIComponent(jobId)}/stream`, {
        headers,
        credentials: 'same-origin',
        signal: opts.signal,
        cache: 'no-store',
      });
      if (res.status === 404) return 'gone';
      if (!res.ok || !res.body) throw new Error(`stream answered HTTP ${res.status}`);
      handlers.onState('open', failures);
      const parser = createParser({
        onComment: () => handlers.onComment?.(),
        onEvent(msg) {
          const id = msg.id !== undefined && /^\d+$/.test(msg.id) ? Number(msg.id) : undefined;
          if (id !== undefined) {
            if (id <= lastId) return;
            lastId = id;
          }
          failures = 0;
          let data: Record<string, unknown> = {};
          try {
            data = JSON.parse(msg.data) as Record<string, unknown>;
          } catch {
            data = { text: msg.data };
          }
          const type = msg.event ?? 'message';
          // The server's events as the contract types them; not validated here, to keep zod out of
          // the page bundle (describeEvent shows an unknown type raw).
          handlers.onEvent({ type, data } as JobEvent);
          if (FINAL.has(type)) finished = true;
        },
      });
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      while (!finished) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
      if (finished) {
        await reader.cancel().catch(() => {});
        return 'finished';
      }
    } catch {
      // A network failure mid-stream is handled like an early end: reconnect below.
      if (opts.signal?.aborted) break;
    }
    // The stream ended or failed before the final event: resume where it stopped.
    failures += 1;
    if (failures > maxRetries) return 'lost';
    handlers.onState('reconnecting', failures);
    await wait(Math.min(backoff * 2 ** (failures - 1), 8_000), opts.signal);
  }
  return 'lost';
}
