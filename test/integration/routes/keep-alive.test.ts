/**
 * A 413 keeps the connection it answered on: after a body over MAX_BODY_BYTES, the same
 * kept-alive socket serves the client's next request (a client that reuses connections used to
 * fail it with "other side closed": the server closed the socket ~500 ms after a keep-alive 413).
 * A body too large to throw away is answered with `Connection: close` instead.
 */
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/deps.js';

const { app, deps } = createTestApp();
let server: ReturnType<typeof serve>;
let port = 0;
beforeAll(async () => {
  server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((r) => server.once('listening', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await deps.close();
});

/** One raw connection: write bytes, read whole responses (status, headers, body by Content-Length), see the close. */
async function connection() {
  const sock = net.connect(port, '127.0.0.1');
  await new Promise((r) => sock.once('connect', r));
  let buf = Buffer.alloc(0);
  let closed = false;
  let wake = () => {};
  sock.on('data', (b: Buffer) => {
    buf = Buffer.concat([buf, b]);
    wake();
  });
  sock.on('close', () => {
    closed = true;
    wake();
  });
  sock.on('error', () => {});
  /** The next whole response, or null when the socket closes first. */
  const response = async (timeoutMs = 10_000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const end = buf.indexOf('\r\n\r\n');
      if (end >= 0) {
        const head = buf.subarray(0, end).toString().split('\r\n');
        const headers = Object.fromEntries(
          head.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
        );
        const length = Number(headers['content-length'] ?? 0);
        if (buf.length >= end + 4 + length) {
          const body = buf.subarray(end + 4, end + 4 + length).toString();
          buf = buf.subarray(end + 4 + length);
          return { status: Number(head[0]!.split(' ')[1]), headers, body };
        }
      }
      if (closed || Date.now() > until) return null;
      await new Promise<void>((r) => {
        wake = r;
        setTimeout(r, 50);
      });
    }
  };
  return { sock, response, isClosed: () => closed };
}

const post = (path: string, length: number | 'chunked') =>
  `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
  (length === 'chunked' ? 'Transfer-Encoding: chunked\r\n\r\n' : `Content-Length: ${length}\r\n\r\n`);
const HEALTH = 'GET /config HTTP/1.1\r\nHost: localhost\r\n\r\n';

describe('a 413 on a kept-alive connection', () => {
  it.each(['/vector/search', '/chat/message'])(
    '%s: 1.2 MB body, 413 naming the limit, then the next request on the same socket',
    async (path) => {
      const c = await connection();
      const body = Buffer.alloc(1_200_000, 'a');
      c.sock.write(post(path, body.length));
      c.sock.write(body);
      const first = await c.response();
      expect(first?.status).toBe(413);
      expect(first?.headers.connection).not.toBe('close');
      expect(JSON.parse(first!.body).detail).toBe(`request body is larger than ${deps.config.MAX_BODY_BYTES} bytes`);
      // Past the 500 ms after which the socket used to be closed.
      await new Promise((r) => setTimeout(r, 800));
      c.sock.write(HEALTH);
      const next = await c.response();
      expect(next?.status).toBe(200);
      expect(c.isClosed()).toBe(false);
      c.sock.destroy();
    },
  );

  it('chunked: the body is cut at the limit, the rest thrown away, the socket kept', async () => {
    const c = await connection();
    c.sock.write(post('/vector/search', 'chunked'));
    const chunk = Buffer.alloc(100_000, 'a');
    for (let i = 0; i < 12; i++) c.sock.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    c.sock.write('0\r\n\r\n');
    expect((await c.response())?.status).toBe(413);
    c.sock.write(HEALTH);
    expect((await c.response())?.status).toBe(200);
    c.sock.destroy();
  });

  it('a declared length too large to throw away: 413 with Connection: close, then the socket closes', async () => {
    const c = await connection();
    c.sock.write(post('/vector/search', 1_000_000_000));
    c.sock.write(Buffer.alloc(64_000, 'a'));
    const first = await c.response();
    expect(first?.status).toBe(413);
    expect(first?.headers.connection).toBe('close');
    await expect.poll(c.isClosed, { timeout: 5_000 }).toBe(true);
  });
});
