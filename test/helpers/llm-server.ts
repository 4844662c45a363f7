/**
 * A scripted OpenAI-compatible HTTP server for tests: a real `node:http` server on a random
 * port. Each `POST /v1/chat/completions` takes the next reply from a script queue (content,
 * tool calls, usage, latency, an HTTP error status, or a raw/garbage body); when the queue is
 * empty the configurable default reply answers. `POST /v1/embeddings` returns deterministic
 * unit vectors. Every request is recorded for assertions.
 *
 * ```ts
 * const llm = await startLlmServer();
 * llm.script(routerReply('lookup', 0.9), { content: 'Hello' });
 * llm.fail(429, 2);                       // the next two calls answer 429
 * const config = testConfig({ LOCAL_LLM_BASE_URL: llm.url }); // test/helpers/test-config.ts
 * ...
 * expect(llm.chatRequests()[0]!.body.model).toBe('qwen2.5:1.5b');
 * await llm.close();
 * ```
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { quirkAnswer, reportedPromptTokens, streamsUsage, type QuirkProfile } from './llm-quirks.js';

/** A tool call the scripted model makes; `arguments` objects are JSON-encoded for you. */
export interface ScriptedToolCall {
  /** Default `call_<n>`. */
  id?: string;
  name: string;
  arguments: string | Record<string, unknown>;
}

/** One scripted answer to a chat-completions request. */
export interface ScriptedReply {
  /** Assistant text (default `''`; `null` when only tool calls are returned). */
  content?: string | null;
  tool_calls?: ScriptedToolCall[];
  /** Token usage; default `{prompt_tokens: 10, completion_tokens: 5}`; `null` omits it. */
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
  /** Default `tool_calls` when there are tool calls, else `stop`. */
  finish_reason?: string;
  /** Delay before answering, in ms (added to the server-wide latency). */
  latencyMs?: number;
  /** HTTP status; anything but 200 answers with an OpenAI-style error body (or `raw`). */
  status?: number;
  /** A raw response body sent as-is (malformed JSON, garbage), with `status` (default 200). */
  raw?: string;
  /** Extra response headers (e.g. `retry-after`). */
  headers?: Record<string, string>;
  /** When the request streams: a pause between the content's pieces (one per word), in ms. */
  pieceDelayMs?: number;
}

/** A scripted item: a fixed reply, or a function of the recorded request. */
export type ScriptItem = ScriptedReply | ((req: RecordedRequest) => ScriptedReply);

/** A request the server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body, or `undefined` when it was not JSON. */
  body: any;
  receivedAt: number;
}

/** Options of {@link startLlmServer}. */
export interface LlmServerOptions {
  /** Answer when the script is empty (default: `{content: 'ok'}`). */
  defaultReply?: ScriptItem;
  /** Latency added to every response, in ms (default 0). */
  latencyMs?: number;
  /** Embedding dimensions when the request has no `dimensions` (default 384). */
  embeddingDimensions?: number;
  /** Keep at most this many recorded requests (default 10,000; benchmarks lower it). */
  maxRecorded?: number;
  /** When set, any request without `Authorization: Bearer <apiKey>` answers 401, as hosted APIs do. */
  apiKey?: string;
  /** Behave like a real server's quirks (test/helpers/llm-quirks.ts); default `none`. */
  quirks?: QuirkProfile;
}

/** A running scripted server. */
export interface LlmServer {
  /** Base URL including `/v1`, for `LOCAL_LLM_BASE_URL` / `HOSTED_LLM_BASE_URL`. */
  readonly url: string;
  readonly port: number;
  /** Every request received, oldest first. */
  readonly requests: RecordedRequest[];
  /** The chat-completions requests only. */
  chatRequests(): RecordedRequest[];
  /** Appends replies to the script queue. */
  script(...items: ScriptItem[]): void;
  /** Appends `times` error replies with `status` (e.g. 429 or 500). */
  fail(status: number, times?: number, headers?: Record<string, string>): void;
  /** Replaces the default reply. */
  setDefault(item: ScriptItem): void;
  /** Sets the server-wide latency in ms. */
  setLatency(ms: number): void;
  /** Switches the quirk profile. */
  setQuirks(profile: QuirkProfile): void;
  /** Number of scripted replies not yet used. */
  pending(): number;
  /** Clears the script queue and the recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

/** A reply whose content is a router decision as JSON. */
export function routerReply(route: string, confidence: number, reasoning = 'scripted'): ScriptedReply {
  return { content: JSON.stringify({ route, confidence, reasoning }), usage: { prompt_tokens: 50, completion_tokens: 10 } };
}

/** A reply that calls one or more tools. */
export function toolCallReply(...calls: ScriptedToolCall[]): ScriptedReply {
  return { content: null, tool_calls: calls };
}

/** A deterministic unit vector for `text` (FNV-1a seed, mulberry32 stream). */
export function fakeEmbedding(text: string, dimensions: number): number[] {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  let s = h || 1;
  const out: number[] = [];
  let norm = 0;
  for (let i = 0; i < dimensions; i++) {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const v = ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
    out.push(v);
    norm += v * v;
  }
  const n = Math.sqrt(norm) || 1;
  return out.map((v) => v / n);
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

function completion(reply: ScriptedReply, model: string, seq: number) {
  const toolCalls = reply.tool_calls?.map((t, i) => ({
    id: t.id ?? `call_${seq}_${i}`,
    type: 'function' as const,
    function: { name: t.name, arguments: typeof t.arguments === 'string' ? t.arguments : JSON.stringify(t.arguments) },
  }));
  const usage = reply.usage === null ? undefined : (reply.usage ?? { prompt_tokens: 10, completion_tokens: 5 });
  return {
    id: `chatcmpl-${seq}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.content === undefined ? (toolCalls ? null : '') : reply.content,
          ...(toolCalls ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: reply.finish_reason ?? (toolCalls ? 'tool_calls' : 'stop'),
      },
    ],
    ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
  };
}

/**
 * Writes a completion as an SSE stream: the content a word per chunk (`pieceDelayMs` apart), then
 * one tool-call chunk, the finish reason, usage when asked for, and DONE.
 */
async function streamCompletion(res: ServerResponse, full: ReturnType<typeof completion>, includeUsage: boolean, pieceDelayMs = 0) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const base = { id: full.id, object: 'chat.completion.chunk', created: full.created, model: full.model };
  const choice = full.choices[0]!;
  const msg = choice.message as { content: string | null; tool_calls?: Array<Record<string, unknown>> };
  const write = (o: unknown) => res.write(`data: ${JSON.stringify(o)}\n\n`);
  const pieces = msg.content?.match(/\s*\S+\s*/g) ?? [''];
  for (const [i, content] of pieces.entries()) {
    if (i > 0 && pieceDelayMs > 0) await sleep(pieceDelayMs);
    if (res.destroyed) return;
    write({ ...base, choices: [{ index: 0, delta: { ...(i === 0 ? { role: 'assistant' } : {}), content }, finish_reason: null }] });
  }
  if (msg.tool_calls) {
    const delta = { tool_calls: msg.tool_calls.map((t, index) => ({ index, ...t })) };
    write({ ...base, choices: [{ index: 0, delta, finish_reason: null }] });
  }
  write({ ...base, choices: [{ index: 0, delta: {}, finish_reason: choice.finish_reason }] });
  if (includeUsage && full.usage) write({ ...base, choices: [], usage: full.usage });
  res.write('data: [DONE]\n\n');
  res.end();
}

/** Starts a scripted server on a random local port. */
export async function startLlmServer(opts: LlmServerOptions = {}): Promise<LlmServer> {
  const queue: ScriptItem[] = [];
  const requests: RecordedRequest[] = [];
  const maxRecorded = opts.maxRecorded ?? 10_000;
  let defaultReply: ScriptItem = opts.defaultReply ?? { content: 'ok' };
  let latency = opts.latencyMs ?? 0;
  let quirks: QuirkProfile = opts.quirks ?? 'none';
  let seq = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const text = await readBody(req);
    let body: any;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    const path = (req.url ?? '/').split('?')[0]!;
    const rec: RecordedRequest = { method: req.method ?? 'GET', path, headers: req.headers, body, receivedAt: Date.now() };
    requests.push(rec);
    if (requests.length > maxRecorded) requests.splice(0, requests.length - maxRecorded);
    if (opts.apiKey !== undefined && req.headers.authorization !== `Bearer ${opts.apiKey}`) {
      return send(res, 401, JSON.stringify({ error: { message: 'Incorrect API key provided', code: 'invalid_api_key' } }));
    }

    if (path.endsWith('/chat/completions') && req.method === 'POST') {
      // A quirk answers before the script: the scripted reply waits for a request the server takes.
      const quirk = quirkAnswer(quirks, body);
      if (quirk === 'empty-stream') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        return void res.end();
      }
      if (quirk) return send(res, quirk.status, JSON.stringify({ error: { message: quirk.message, type: 'server_error', code: null } }));
      const item = queue.length ? queue.shift()! : defaultReply;
      const reply = typeof item === 'function' ? item(rec) : item;
      const wait = latency + (reply.latencyMs ?? 0);
      if (wait > 0) await sleep(wait);
      const status = reply.status ?? 200;
      if (reply.raw !== undefined) return send(res, status, reply.raw, reply.headers);
      if (status !== 200) {
        const error = {
          message: reply.content ?? `scripted error ${status}`,
          type: status === 429 ? 'rate_limit_exceeded' : 'server_error',
          code: null,
        };
        return send(res, status, JSON.stringify({ error }), reply.headers);
      }
      const full = completion(reply, body?.model ?? 'scripted', ++seq);
      if (full.usage) full.usage.prompt_tokens = reportedPromptTokens(quirks, full.usage.prompt_tokens);
      const usageInStream = Boolean(body?.stream_options?.include_usage) && streamsUsage(quirks);
      if (body?.stream) return streamCompletion(res, full, usageInStream, reply.pieceDelayMs);
      return send(res, 200, JSON.stringify(full), reply.headers);
    }
    if (path.endsWith('/embeddings') && req.method === 'POST') {
      if (latency > 0) await sleep(latency);
      const inputs: string[] = Array.isArray(body?.input) ? body.input : [String(body?.input ?? '')];
      const dims = Number(body?.dimensions ?? opts.embeddingDimensions ?? 384);
      // The `openai` package asks for base64 (little-endian float32) unless told otherwise.
      const base64 = body?.encoding_format === 'base64';
      const data = inputs.map((t, index) => {
        const v = fakeEmbedding(String(t), dims);
        const embedding = base64 ? Buffer.from(new Float32Array(v).buffer).toString('base64') : v;
        return { object: 'embedding', index, embedding };
      });
      const tokens = inputs.reduce((n, t) => n + String(t).split(/\s+/).filter(Boolean).length, 0);
      return send(
        res,
        200,
        JSON.stringify({ object: 'list', data, model: body?.model ?? 'scripted', usage: { prompt_tokens: tokens, total_tokens: tokens } }),
      );
    }
    if (path.endsWith('/models')) {
      const id = quirks === 'ollama' ? 'scripted:latest' : 'scripted';
      return send(res, 200, JSON.stringify({ object: 'list', data: [{ id, object: 'model', owned_by: 'test' }] }));
    }
    send(res, 404, JSON.stringify({ error: { message: `no route ${path}` } }));
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err) => send(res, 500, JSON.stringify({ error: { message: String(err) } })));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    chatRequests: () => requests.filter((r) => r.path.endsWith('/chat/completions')),
    script: (...items) => void queue.push(...items),
    fail: (status, times = 1, headers) => {
      for (let i = 0; i < times; i++) queue.push({ status, headers });
    },
    setDefault: (item) => void (defaultReply = item),
    setLatency: (ms) => void (latency = ms),
    setQuirks: (profile) => void (quirks = profile),
    pending: () => queue.length,
    reset: () => {
      queue.length = 0;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
