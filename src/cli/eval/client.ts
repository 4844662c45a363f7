/**
 * The chat API as `eval` uses it, over HTTP like any client: an anonymous identity from
 * `GET /chat/bootstrap-anon`, `POST /chat/message` (429 and 503 waited out as `Retry-After`
 * says, so the service's limits slow a run down rather than fail it), the job's SSE stream
 * (resumed with `Last-Event-ID` when it drops) and `POST /chat/job/{id}/cancel`.
 */
import { createParser } from 'eventsource-parser';
import { sleep } from '../../lib/timeout.js';
import { trimChar } from '../../lib/text.js';

/** The service could not be reached at all (nothing listening, DNS, not this service). */
export class ServiceDownError extends Error {
  override name = 'ServiceDownError';
}

/** `POST /chat/message` was refused with a status other than 429/503; the question fails. */
export class RefusedError extends Error {
  override name = 'RefusedError';
}

/** Options of {@link createChatClient}. */
export interface ChatClientOptions {
  /** Base address of the API, e.g. `http://localhost:8000`. */
  url: string;
  fetch?: typeof fetch;
  /** Told about each wait for a 429/503 (for the progress line). */
  onWait?: (seconds: number, why: string) => void;
  /** Longest single wait for `Retry-After`, in seconds (default 900: above the 10-minute rate window). */
  maxWaitSeconds?: number;
  /** Extra headers of every `POST /chat/message` (`x-agent-examples: off` for a run without examples). */
  messageHeaders?: Record<string, string>;
}

/** A job accepted by the service. */
export interface Submitted {
  jobId: string;
  sessionId: string;
  /** Time spent waiting out 429/503 answers, in ms. */
  waitedMs: number;
}

/** An event of a job stream as received: its type and parsed data. */
export interface StreamEvent {
  type: string;
  data: Record<string, unknown>;
}

const FINAL = new Set(['job_done', 'job_error']);

/** The problem detail of an error answer (RFC 9457), else its status line. */
async function describeRefusal(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { detail?: string; title?: string };
    return `HTTP ${res.status}: ${body.detail ?? body.title ?? text}`;
  } catch {
    return `HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}`;
  }
}

/** What the client's calls share: the service's address, the run's identity, and 429/503 waits. */
interface Transport {
  readonly base: string;
  /** The anonymous identity sent as `x-anon-id` ('' before `bootstrap()`). */
  anonId: string;
  /** `fetch`, with a connection failure turned into {@link ServiceDownError}. */
  call(path: string, init?: RequestInit): Promise<Response>;
  /** `extra` with the identity header. */
  headers(extra?: Record<string, string>): Record<string, string>;
  /** Waits as a 429/503 answer asks; true when it was one of those. */
  waitOut(res: Response, signal?: AbortSignal): Promise<boolean>;
}

function createTransport(opts: ChatClientOptions): Transport {
  const base = trimChar(opts.url, '/');
  const doFetch = opts.fetch ?? fetch;
  const maxWait = opts.maxWaitSeconds ?? 900;
  const t: Transport = {
    base,
    anonId: '',
    async call(path, init = {}) {
      try {
        return await doFetch(`${base}${path}`, init);
      } catch (err) {
        if (init.signal?.aborted) throw err;
        const cause = (err as { cause?: { code?: string; message?: string } }).cause;
        throw new ServiceDownError(`the service at ${base} does not answer (${cause?.code ?? cause?.message ?? (err as Error).message})`);
      }
    },
    headers: (extra = {}) => ({ ...(t.anonId ? { 'x-anon-id': t.anonId } : {}), ...extra }),
    async waitOut(res, signal) {
      if (res.status !== 429 && res.status !== 503) return false;
      const seconds = Math.min(maxWait, Math.max(1, Number(res.headers.get('retry-after')) || 5));
      const why = await describeRefusal(res);
      opts.onWait?.(seconds, why);
      await sleep(seconds * 1000, signal);
      return true;
    },
  };
  return t;
}

/** Where a job's stream got to: the last event id seen, and drops in a row without progress. */
interface FollowState {
  lastId: number;
  failures: number;
}

/** Reads one connection of a job's stream into `onEvent`; true when the final event came. */
async function readStream(body: ReadableStream<Uint8Array>, state: FollowState, onEvent: (e: StreamEvent) => void): Promise<boolean> {
  let finished = false;
  const parser = createParser({
    onEvent(msg) {
      const id = Number(msg.id);
      if (Number.isInteger(id)) {
        if (id <= state.lastId) return;
        state.lastId = id;
      }
      state.failures = 0;
      const data = JSON.parse(msg.data) as Record<string, unknown>;
      const type = msg.event ?? 'message';
      onEvent({ type, data });
      if (FINAL.has(type)) finished = true;
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    if (finished) break;
  }
  return finished;
}

/** `follow` of {@link createChatClient}. */
async function followJob(t: Transport, jobId: string, onEvent: (e: StreamEvent) => void, signal?: AbortSignal): Promise<void> {
  const state: FollowState = { lastId: 0, failures: 0 };
  for (;;) {
    try {
      const res = await t.call(`/chat/job/${encodeURIComponent(jobId)}/stream`, {
        headers: t.headers({ accept: 'text/event-stream', ...(state.lastId ? { 'last-event-id': String(state.lastId) } : {}) }),
        signal,
      });
      if (res.status === 404) throw new RefusedError(`the job's stream answered ${await describeRefusal(res)}`);
      if (!res.ok || !res.body) throw new Error(`the job's stream answered ${await describeRefusal(res)}`);
      if (await readStream(res.body, state, onEvent)) return;
      throw new Error('the job stream closed before the job ended');
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      if (err instanceof ServiceDownError || err instanceof RefusedError || ++state.failures > 5) throw err;
    }
    await sleep(Math.min(8000, 250 * 2 ** state.failures), signal);
  }
}

/** A client of one running service under one anonymous identity (call `bootstrap()` first). */
export function createChatClient(opts: ChatClientOptions) {
  const http = createTransport(opts);
  const { base, call, headers, waitOut } = http;

  return {
    /**
     * Gets an anonymous identity of its own for the run.
     * @throws ServiceDownError when nothing answers, or the answer is not this service's.
     */
    async bootstrap(signal?: AbortSignal): Promise<string> {
      for (;;) {
        const res = await call('/chat/bootstrap-anon', { redirect: 'manual', signal });
        if (await waitOut(res, signal)) continue;
        const cookies = res.headers.getSetCookie?.() ?? [res.headers.get('set-cookie') ?? ''];
        const id = cookies.map((c) => /(?:^|\s|,)anon_id=([^;]+)/.exec(c)?.[1]).find(Boolean);
        if (res.status !== 302 || !id) {
          throw new ServiceDownError(
            `${base}/chat/bootstrap-anon answered HTTP ${res.status} without an anon_id cookie: is --url the chat API (port 8000, not the UI)?`,
          );
        }
        http.anonId = decodeURIComponent(id);
        return http.anonId;
      }
    },

    /**
     * Sends one message, waiting out 429 and 503.
     * @throws RefusedError for any other refusal; ServiceDownError when nothing answers.
     */
    async submit(message: string, sessionId: string | null, signal?: AbortSignal): Promise<Submitted> {
      const started = performance.now();
      let waitedMs = 0;
      for (;;) {
        const t = performance.now();
        const res = await call('/chat/message', {
          method: 'POST',
          headers: headers({ 'content-type': 'application/json', ...opts.messageHeaders }),
          body: JSON.stringify({ message, ...(sessionId ? { session_id: sessionId } : {}) }),
          signal,
        });
        if (await waitOut(res, signal)) {
          waitedMs += performance.now() - t;
          continue;
        }
        if (res.status !== 202) throw new RefusedError(await describeRefusal(res));
        const body = (await res.json()) as { job_id: string; session_id: string };
        return { jobId: body.job_id, sessionId: body.session_id, waitedMs: Math.min(waitedMs, performance.now() - started) };
      }
    },

    /**
     * Follows a job's events into `onEvent` until `job_done` or `job_error`; a dropped stream is
     * resumed after the last event seen (up to 5 times in a row without progress).
     * @throws the signal's reason when it aborts; an Error when the stream cannot be followed.
     */
    follow: (jobId: string, onEvent: (e: StreamEvent) => void, signal?: AbortSignal): Promise<void> =>
      followJob(http, jobId, onEvent, signal),

    /** `GET /config` (models, providers, limits) for the report; null when it does not answer. */
    async serviceConfig(): Promise<Record<string, unknown> | null> {
      return call('/config')
        .then((r) => (r.ok ? (r.json() as Promise<Record<string, unknown>>) : null))
        .catch(() => null);
    },

    /** Stops a job (a timed-out question should not keep a worker busy); failures are ignored. */
    async cancel(jobId: string): Promise<void> {
      await call(`/chat/job/${encodeURIComponent(jobId)}/cancel`, { method: 'POST', headers: headers() })
        .then((r) => r.body?.cancel())
        .catch(() => undefined);
    },
  };
}

/** A client made by {@link createChatClient}. */
export type ChatClient = ReturnType<typeof createChatClient>;
