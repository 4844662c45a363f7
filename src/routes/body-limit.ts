/**
 * `MAX_BODY_BYTES` for the problem+json routes: a larger body is a 413 problem, and the rest of
 * it is read and thrown away first, so the connection can serve the client's next request.
 * Hono's own bodyLimit answers without reading the body; Node's server (through
 * @hono/node-server) then gives the unread body 500 ms and closes the socket under a response
 * that said keep-alive, so a client reusing connections loses its next, valid request
 * ("other side closed"). A body too large or too slow to throw away gets `Connection: close`,
 * which tells the client not to reuse the connection.
 */
import type { MiddlewareHandler } from 'hono';
import { AppError } from '../errors.js';

/** Bytes past the limit that are read and dropped to keep a connection; beyond, it is closed. */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;

/** How long dropping the rest of a body may take, in ms. */
export const DRAIN_MAX_MS = 2_000;

/** Reads and drops what is left of a body; true when it ended within the byte and time bounds. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, bytes: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), DRAIN_MAX_MS)));
  try {
    for (let left = bytes; ; ) {
      const next = await Promise.race([reader.read(), late]);
      if (next === 'late') return false;
      if (next.done) return true;
      left -= next.value.length;
      if (left < 0) return false;
    }
  } catch {
    return false; // the client went away: nothing to keep
  } finally {
    clearTimeout(timer);
    reader.cancel().catch(() => {});
  }
}

/** The body limit middleware; see the file comment. */
export function bodyLimit(maxBytes: number): MiddlewareHandler {
  const tooLarge = (drained: boolean) =>
    new AppError(413, 'body-too-large', `request body is larger than ${maxBytes} bytes`, {
      headers: drained ? undefined : { Connection: 'close' },
    });
  return async (c, next) => {
    const headers = c.req.raw.headers;
    const length = headers.has('transfer-encoding') ? undefined : headers.get('content-length');
    const declared = length == null || !Number.isFinite(Number(length)) ? undefined : Number(length);
    // A declared length the runtime holds the client to: the route reads the body itself.
    if (declared !== undefined && declared <= maxBytes) return next();
    const body = c.req.raw.body;
    if (!body) return next();
    const reader = body.getReader();
    if (declared !== undefined) {
      // Declared too large: nothing of it is needed, only the connection.
      throw tooLarge(declared <= DRAIN_MAX_BYTES && (await drain(reader, declared)));
    }
    // No declared length (chunked): read up to the limit, keep it for the route.
    const parts: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > maxBytes) throw tooLarge(await drain(reader, DRAIN_MAX_BYTES));
      parts.push(value);
    }
    const whole = new Uint8Array(size);
    let at = 0;
    for (const p of parts) {
      whole.set(p, at);
      at += p.length;
    }
    c.req.raw = new Request(c.req.raw, { body: whole });
    return next();
  };
}
