/**
 * The contract's language-model retry policy: an HTTP 429 answer is retried up to 3 times with
 * 2 seconds between tries. Other failures are not retried here (the caller decides).
 */
import type { JobEvent } from '../contract/chat.js';
import { sleep } from '../lib/timeout.js';

/** Options of {@link withLlmRetry}. */
export interface LlmRetryOptions {
  /** Retries after the first try (default 3). */
  retries?: number;
  /** Wait between tries in ms (default 2,000; config `LLM_RETRY_DELAY_MS`). */
  delayMs?: number;
  /** Stops waiting and rethrows when aborted. */
  signal?: AbortSignal;
  /** Called (and awaited) before each wait: a log line, or an event telling the user why nothing moves. */
  onRetry?: (attempt: number, err: unknown) => void | Promise<void>;
}

/** True when `err` is an HTTP 429 answer (an `openai` RateLimitError or anything with status 429). */
export function isRateLimited(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { status?: unknown }).status === 429;
}

/**
 * Runs `call`, retrying on HTTP 429 up to `retries` times with `delayMs` between tries.
 * @returns the first successful result.
 * @throws the last error when it is not a 429 or the retries are used up.
 */
export async function withLlmRetry<T>(call: () => Promise<T>, opts: LlmRetryOptions = {}): Promise<T> {
  const retries = opts.retries ?? 3;
  const delayMs = opts.delayMs ?? 2_000;
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (!isRateLimited(err) || attempt >= retries) throw err;
      await opts.onRetry?.(attempt + 1, err);
      await sleep(delayMs, opts.signal);
    }
  }
}

/** The `model_retry` job event: a 429 is being waited out, so the user knows why nothing moves. */
export function modelRetry(model: string, attempt: number, waitMs: number, retries = 3): JobEvent {
  return {
    type: 'model_retry',
    data: { model, attempt, retries, wait_ms: waitMs, reason: 'the language model answered HTTP 429 (rate limited)' },
  };
}
