/** Promise helpers for bounding calls to other servers. */

/** Thrown by {@link withTimeout} when the deadline passes first. */
export class TimeoutError extends Error {
  override name = 'TimeoutError';
}

/**
 * Resolves like `promise`, or rejects with {@link TimeoutError} after `ms` milliseconds.
 * The timer is cleared either way so it never keeps a process alive.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, what = 'operation'): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
