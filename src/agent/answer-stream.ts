/**
 * Turns the model's text pieces into `answer_delta` events. Models send a piece per token
 * (tens a second); each event is a Redis write and an SSE frame for every follower, so pieces
 * are gathered and sent at most every `intervalMs` — fast enough to read as typing.
 */
import type { JobEvent } from '../contract/chat.js';

/** Default gathering interval in ms. */
export const ANSWER_DELTA_INTERVAL_MS = 80;

/** A writer for one model call's text; see {@link createAnswerStream}. */
export interface AnswerStream {
  /** Adds a piece; it is sent with the next flush. Never throws. */
  push(text: string): void;
  /** Sends what is gathered and waits for every event; throws the first failed write. */
  end(): Promise<void>;
  /** Drops what is gathered (the model call failed): nothing more is sent. */
  discard(): void;
}

/** Creates a writer that emits gathered pieces in order through `emit`. */
export function createAnswerStream(emit: (event: JobEvent) => Promise<void>, intervalMs = ANSWER_DELTA_INTERVAL_MS): AnswerStream {
  let pending = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  let chain: Promise<void> = Promise.resolve();
  let failure: unknown;
  const flush = () => {
    timer = undefined;
    if (!pending) return;
    const text = pending;
    pending = '';
    // One write at a time keeps the pieces in order; a failed write is kept for end().
    chain = chain
      .then(() => emit({ type: 'answer_delta', data: { text } }))
      .catch((err: unknown) => {
        failure ??= err;
      });
  };
  return {
    push(text) {
      if (!text) return;
      pending += text;
      timer ??= setTimeout(flush, intervalMs);
    },
    async end() {
      clearTimeout(timer);
      flush();
      await chain;
      if (failure) throw failure;
    },
    discard() {
      clearTimeout(timer);
      timer = undefined;
      pending = '';
    },
  };
}
