/**
 * The one Server-Sent Events writer of the service's streams (a job's events, an index build's
 * progress): a web-standard ReadableStream body, numbered frames, `: ping` keep-alive comments,
 * and one end however it comes (the stream's own last event, the request's abort, or the client
 * cancelling the body).
 */

/**
 * One SSE frame: `id: <seq>`, `event: <type>`, `data: <JSON>` in that order, then a blank line.
 * A job's events carry their stored seq; any other stream numbers its own.
 */
export function sseFrame(e: { seq: number; event: { type: string; data?: unknown } }): string {
  return `id: ${e.seq}\nevent: ${e.event.type}\ndata: ${JSON.stringify(e.event.data ?? {})}\n\n`;
}

/** Options of {@link createSseStream}. */
export interface SseStreamOptions {
  /** Interval of `: ping` comments in ms, once {@link SseStream.startPings} is called. */
  pingMs: number;
  /** Ends the stream when aborted (the request's signal, where the runtime fires it on disconnect). */
  signal?: AbortSignal;
  /** Called once when the stream ends, whichever side ended it (drop subscriptions here). */
  onEnd?: () => void;
}

/** A stream made by {@link createSseStream}. */
export interface SseStream {
  /** The response body. */
  readonly body: ReadableStream<Uint8Array>;
  /** True once the stream ended: writes are then ignored. */
  readonly ended: boolean;
  /** Writes raw SSE text (frames, comments) as one chunk; a body the client cancelled ends the stream. */
  write(text: string): void;
  /** Sends `: ping` every `pingMs` until the end, calling `onPing` after each. */
  startPings(onPing?: () => void): void;
  /** Ends the stream and closes the body (idempotent). */
  close(): void;
}

/**
 * Opens an SSE body, ready for writes at once (so that what happens before the response is
 * returned has somewhere to go). Hono's `streamSSE` (hono/streaming) is not used because it
 * writes `id:` after `data:` (our frames are `id:` first, byte for byte), sets its own
 * `Content-Type`/`Cache-Control` over ours (`no-transform`, `x-accel-buffering: no` in
 * SSE_HEADERS) plus `Connection` and `Transfer-Encoding`, has no keep-alive comments, and turns
 * a thrown error into an `event: error` with a bare message instead of our streams' own ends.
 */
export function createSseStream(opts: SseStreamOptions): SseStream {
  const enc = new TextEncoder();
  let ctrl!: ReadableStreamDefaultController<Uint8Array>;
  let ended = false;
  let pinger: ReturnType<typeof setInterval> | undefined;
  /** Ends without closing the body (the client cancelled it); false when already ended. */
  const end = () => {
    if (ended) return false;
    ended = true;
    clearInterval(pinger);
    opts.signal?.removeEventListener('abort', close);
    opts.onEnd?.();
    return true;
  };
  function close() {
    if (!end()) return;
    try {
      ctrl.close();
    } catch {
      // Already cancelled by the client.
    }
  }
  const write = (text: string) => {
    if (ended) return;
    try {
      ctrl.enqueue(enc.encode(text));
    } catch {
      end();
    }
  };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      ctrl = c;
    },
    cancel() {
      end();
    },
  });
  if (opts.signal?.aborted) close();
  else opts.signal?.addEventListener('abort', close, { once: true });
  return {
    body,
    get ended() {
      return ended;
    },
    write,
    startPings(onPing) {
      if (ended) return;
      pinger = setInterval(() => {
        write(': ping\n\n');
        onPing?.();
      }, opts.pingMs);
    },
    close,
  };
}
