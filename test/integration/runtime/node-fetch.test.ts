/**
 * The Node entry's outbound fetch (src/runtime/node-fetch.ts) against a real HTTP server: what
 * the server embedder needs of it (JSON both ways, statuses and Retry-After, time-outs, refused
 * and cut connections), and keep-alive reuse.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CHUNKING } from '../../../src/embeddings/chunking.js';
import { findModel } from '../../../src/contract/models.js';
import { createServerEmbedder } from '../../../src/embeddings/server-embedder.js';
import { createNodeFetch } from '../../../src/runtime/node-fetch.js';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;
let handler: Handler;
let server: Server;
let base: string;
let connections = 0;
const nodeFetch = createNodeFetch();

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => handler(req, body, res));
  });
  server.on('connection', () => connections++);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  nodeFetch.destroy();
  server.closeAllConnections();
  server.close();
});

describe('node fetch', () => {
  it('sends method, headers and body, and returns status, headers and body', async () => {
    handler = (req, body, res) => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-seen': `${req.method} ${req.url} ${req.headers['x-key']}` });
      res.end(JSON.stringify({ echo: JSON.parse(body) }));
    };
    const res = await nodeFetch(`${base}/v1/x?q=1`, { method: 'POST', headers: { 'x-key': 'k1' }, body: JSON.stringify({ a: [1, 2] }) });
    expect(res.status).toBe(201);
    expect(res.ok).toBe(true);
    expect(res.headers.get('x-seen')).toBe('POST /v1/x?q=1 k1');
    expect(await res.json()).toEqual({ echo: { a: [1, 2] } });
    // The body was received whole: every reader gives the same bytes.
    const bytes = Buffer.byteLength(JSON.stringify({ echo: { a: [1, 2] } }));
    expect((await res.arrayBuffer()).byteLength).toBe(bytes);
    expect((await res.blob()).size).toBe(bytes);
  });

  it('keeps the connection open between calls', async () => {
    handler = (_req, _body, res) => res.end('ok');
    await (await nodeFetch(`${base}/a`)).text();
    const before = connections;
    for (let i = 0; i < 5; i++) expect(await (await nodeFetch(`${base}/a`)).text()).toBe('ok');
    expect(connections).toBe(before);
  });

  it('gives the server embedder what it needs: 429 with Retry-After, then vectors', async () => {
    let calls = 0;
    handler = (_req, body, res) => {
      if (++calls === 1) {
        res.writeHead(429, { 'retry-after': '0' });
        res.end('slow down');
        return;
      }
      const { input } = JSON.parse(body) as { input: string[] };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: input.map((_, index) => ({ index, embedding: Array.from({ length: 384 }, (_, i) => i + index) })) }));
    };
    const waits: number[] = [];
    const embedder = createServerEmbedder({
      entry: findModel('all-minilm')!,
      baseUrl: `${base}/v1`,
      chunking: DEFAULT_CHUNKING,
      fetch: nodeFetch,
      sleep: async (ms) => void waits.push(ms),
    });
    const out = await embedder.embed(['one', 'two']);
    expect(calls).toBe(2);
    expect(waits).toEqual([0]);
    expect(out).toHaveLength(2);
    expect(Math.hypot(...out[1]!)).toBeCloseTo(1, 5);
  });

  it('rejects when the signal fires before the answer, and the next call still works', async () => {
    handler = (_req, _body, res) => setTimeout(() => res.end('late'), 500);
    await expect(nodeFetch(`${base}/slow`, { signal: AbortSignal.timeout(50) })).rejects.toThrow();
    handler = (_req, _body, res) => res.end('ok');
    expect(await (await nodeFetch(`${base}/a`)).text()).toBe('ok');
  });

  it('rejects a response cut off before its end rather than returning half a body', async () => {
    handler = (_req, _body, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('{"data":[');
      setTimeout(() => res.socket?.destroy(), 20);
    };
    await expect(nodeFetch(`${base}/cut`).then((r) => r.text())).rejects.toThrow();
  });

  it('rejects when nothing listens', async () => {
    const idle = createServer();
    idle.listen(0, '127.0.0.1');
    await once(idle, 'listening');
    const port = (idle.address() as AddressInfo).port;
    idle.close();
    await expect(nodeFetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
  });
});
