/**
 * Shared set-up of the chat integration tests: real Redis (own key prefix) and Neo4j deps, the
 * scripted model server, a fake vector searcher (fixed nodes, recorded requests), the app and
 * optionally an in-process worker; plus helpers to submit, wait and read SSE streams.
 */
import { createApp } from '../../../src/app.js';
import { createChatHandlers } from '../../../src/chat/service.js';
import type { ChatHandlers } from '../../../src/chat/run-job.js';
import { createChatWorker, type ChatWorker } from '../../../src/chat/worker.js';
import { createJobEventHub } from '../../../src/store/job-events.js';
import type { Config } from '../../../src/config.js';
import { createJobStore } from '../../../src/store/jobs.js';
import { createJobQueue } from '../../../src/store/queue.js';
import { createRateLimiter } from '../../../src/store/rate-limit.js';
import type { KvStore } from '../../../src/store/redis.js';
import { createTestDeps, type TestDeps } from './deps.js';
import { routerReply, startLlmServer, type LlmServer } from '../../helpers/llm-server.js';
import { fakeSearcher } from './chat-fixtures.js';

import { parseSse, type Frame } from '../../helpers/sse.js';

export { parseSse, type Frame };

/** Options of {@link startHarness}. */
export interface HarnessOptions {
  env?: Record<string, string>;
  /** Start an in-process worker (default true). */
  worker?: boolean;
  handlers?: Partial<ChatHandlers>;
  /** Lookup through the real vector search (`deps.search`) instead of the fake searcher. */
  realSearch?: boolean;
  /** The real tool-calling agent (over the same searcher) instead of "no agent installed". */
  realAgent?: boolean;
}

/** Starts everything a chat test needs. */
export async function startHarness(opts: HarnessOptions = {}) {
  const llm: LlmServer = await startLlmServer({ defaultReply: routerReply('lookup', 0.9, 'a narrow fact') });
  const deps: TestDeps = createTestDeps({
    LOCAL_LLM_BASE_URL: llm.url,
    SSE_PING_MS: '200',
    WORKER_LEASE_MS: '600',
    WORKER_SHUTDOWN_MS: '3000',
    LLM_RETRY_DELAY_MS: '10',
    ...opts.env,
  });
  const app = createApp(deps);
  const searcher = fakeSearcher();
  // The service's own handlers (RETRIEVAL_MODE, SEARCH_NEIGHBORS, ...), over the fake searcher unless asked.
  const service = createChatHandlers(opts.realSearch ? deps : { ...deps, search: searcher });
  const handlers: ChatHandlers = {
    lookup: service.lookup,
    ...(opts.realAgent ? { agent: service.agent } : {}),
    ...opts.handlers,
  };
  const workers: ChatWorker[] = [];
  /**
   * Starts one more in-process worker. `config` replaces the harness's; `kv` (same prefix) gives
   * it connections of its own, as a worker process has.
   */
  const startWorker = async (own: { config?: Config; kv?: KvStore } = {}) => {
    const kv = own.kv ?? deps.kv;
    const stores = own.kv ? { jobs: createJobStore(kv), limiter: createRateLimiter(kv) } : {};
    // A hub of its own, as a worker process has: the app's hub then counts only SSE streams.
    const w = createChatWorker({
      ...deps,
      ...stores,
      config: own.config ?? deps.config,
      queue: createJobQueue(kv),
      events: createJobEventHub(kv),
      handlers,
    });
    await w.start();
    workers.push(w);
    return w;
  };
  if (opts.worker !== false) await startWorker();

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    app.request('/chat/message', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  /** Submits a message and returns the 202 body (throws on another status). */
  const submit = async (
    message: string,
    extra: { session_id?: string | null; regenerate?: boolean; headers?: Record<string, string> } = {},
  ) => {
    const res = await post({ message, session_id: extra.session_id, regenerate: extra.regenerate }, extra.headers);
    if (res.status !== 202) throw new Error(`submit answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { job_id: string; session_id: string; status: string };
  };

  /** Polls a job until it is `done` or `error`. */
  const waitJob = async (jobId: string, timeoutMs = 10_000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const res = await app.request(`/chat/job/${jobId}`);
      const body = (await res.json()) as any;
      if (body.status === 'done' || body.status === 'error') return body;
      if (Date.now() > until) throw new Error(`job ${jobId} still ${body.status}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  /** Reads a job's SSE stream to its end (or `timeoutMs`) and returns the frames. */
  const stream = async (jobId: string, headers: Record<string, string> = {}, timeoutMs = 10_000) => {
    const res = await app.request(`/chat/job/${jobId}/stream`, { headers });
    if (res.status !== 200) return { status: res.status, frames: [] as Frame[], text: await res.text() };
    const reader = res.body!.getReader();
    const dec = new TextDecoder();
    let text = '';
    const timer = setTimeout(() => void reader.cancel(), timeoutMs);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += dec.decode(value, { stream: true });
    }
    clearTimeout(timer);
    return { status: res.status, frames: parseSse(text), text };
  };

  return {
    app,
    deps,
    llm,
    searcher,
    workers,
    startWorker,
    post,
    submit,
    waitJob,
    stream,
    async close() {
      await Promise.allSettled(workers.map((w) => w.stop()));
      await deps.close();
      await llm.close();
    },
  };
}

/** The harness type. */
export type Harness = Awaited<ReturnType<typeof startHarness>>;
