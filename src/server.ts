/**
 * Start-up shared by the runtime entries: parse config, build the dependencies once, serve the
 * app, and shut down in order (stop accepting, then close the drivers). Runtime-neutral: the
 * entry passes in how to listen and how to read static files.
 */
import { createNamesByMeaning } from './lib/names-by-meaning.js';
import { createApp } from './app.js';
import { startChatWorker } from './chat/service.js';
import { loadConfig, type Config } from './config.js';
import type { AppDeps, AssetLoader } from './deps.js';
import { createEmbeddersFromConfig } from './embeddings/embedders.js';
import { createVectorSearcher } from './vector-index/search/searcher.js';
import { startIndexSync } from './vector-index/sync/loop.js';
import { searchableProperties } from './vector-index/index/record.js';
import { createGraphStore } from './graph/access/driver.js';
import { createSkeletonCache } from './graph/shape/skeleton-cache.js';
import { createLogger } from './lib/log.js';
import { createLlmClients } from './llm/clients.js';
import { createJobEventHub } from './store/job-events.js';
import { createJobStore } from './store/jobs.js';
import { createRateLimiter } from './store/rate-limit.js';
import { createSessionStore } from './store/sessions.js';
import { createUserStore } from './store/users.js';
import { createKvStore } from './store/redis.js';
import { createUiApp } from './ui/app.js';
import { createAgentExamples } from './examples/examples.js';
import { createExampleStore } from './store/examples.js';

/** A fetch handler, as every runtime's server takes it. */
export type FetchHandler = (req: Request) => Response | Promise<Response>;

/** A listening server. */
export interface ServerHandle {
  close(): Promise<void>;
}

/** How a runtime listens: `serve(handler, port, host)` resolves once it accepts connections on that address. */
export type Serve = (fetch: FetchHandler, port: number, host: string) => Promise<ServerHandle>;

/** What a runtime entry provides. */
export interface StartOptions {
  env: Record<string, string | undefined>;
  serve: Serve;
  assets: AssetLoader;
  runtime: string;
  /** The runtime's client for outbound calls to the embedding server (default: the global `fetch`). */
  fetch?: typeof fetch;
}

/** A running service; `stop()` is idempotent. */
export interface RunningService {
  config: Config;
  deps: AppDeps;
  stop(): Promise<void>;
}

/** Builds the real dependencies from config; `fetch` as in {@link StartOptions}. */
export function createDeps(config: Config, assets: AssetLoader, opts: { runtime?: string; fetch?: typeof fetch } = {}): AppDeps {
  const { runtime = 'node', fetch } = opts;
  const log = createLogger(config.LOG_LEVEL, { runtime });
  const base = {
    config,
    log,
    assets,
    graph: createGraphStore(config),
    kv: createKvStore({ url: config.KVSTORE_URL, prefix: config.KV_PREFIX }),
    embedders: createEmbeddersFromConfig(config, { fetch }),
    llm: createLlmClients(config),
  };
  const skeleton = createSkeletonCache({
    graph: base.graph,
    log,
    maxChars: config.SKELETON_MAX_CHARS,
    refreshMs: config.SKELETON_REFRESH_MS,
    // The overview names the properties search finds nodes by, as the configured index recorded them.
    skeleton: { searchable: (db) => searchableProperties(base.graph.driver, db, config.VECTOR_INDEX_NAME) },
  });
  const { kv } = base;
  // The search's model: in-process by default, so a name is embedded in microseconds.
  const meaning = createNamesByMeaning(async (texts) => (await base.embedders.get(config.EMBEDDING_MODEL)).embed(texts));
  return {
    ...base,
    search: createVectorSearcher(base),
    skeleton,
    meaning,
    examples: createAgentExamples({ ...base, skeleton, meaning, store: createExampleStore(kv) }),
    jobs: createJobStore(kv, { maxPending: config.QUEUE_MAX_PENDING }),
    users: createUserStore(kv),
    sessions: createSessionStore(kv),
    limiter: createRateLimiter(kv, { limits: { requests: config.CHAT_RATE_LIMIT_REQUESTS, tokens: config.CHAT_RATE_LIMIT_TOKENS } }),
    events: createJobEventHub(kv),
  };
}

/**
 * Parses config and starts serving.
 * @throws ConfigError with a one-line message when the environment is invalid.
 */
export async function startService(opts: StartOptions): Promise<RunningService> {
  const config = loadConfig(opts.env);
  const stopSignal = new AbortController();
  const deps: AppDeps = { ...createDeps(config, opts.assets, opts), stopping: stopSignal.signal };
  const app = createApp(deps);
  // SERVICE_ROLE: `all` serves and runs the chat worker, `api` only serves, `worker` only works.
  const serving = config.SERVICE_ROLE !== 'worker';
  const server = serving ? await opts.serve(app.fetch, config.PORT, config.HOST) : undefined;
  if (server) deps.log.info('listening', { host: config.HOST, port: config.PORT, graph: config.GRAPHDB_GRAPH });
  // The web chat UI: same process, its /api/* calls go to the API app in-process.
  const uiServer = serving ? await opts.serve(createUiApp(deps, app.fetch).fetch, config.UI_PORT, config.HOST) : undefined;
  if (uiServer) deps.log.info('ui listening', { port: config.UI_PORT });
  const worker = config.SERVICE_ROLE === 'api' ? undefined : await startChatWorker(deps);
  // Indexes follow the graph's own writes (created, changed, deleted nodes); workers do it, one at a time per index.
  const sync = worker && config.INDEX_SYNC_INTERVAL_MS > 0 ? startIndexSync(deps) : undefined;
  // The examples checked against the graph now (rejections logged), not awaited either.
  deps.examples?.load(config.GRAPHDB_GRAPH).catch((err) => deps.log.warn('examples not checked', { error: err }));
  // The agent's graph skeleton, not awaited: a graph database that is down must not stop start-up.
  if (worker) deps.skeleton.refresh(config.GRAPHDB_GRAPH).catch((err) => deps.log.warn('graph skeleton not computed', { error: err }));
  // What the graph server can do (version, Cypher 25, vector index filters), learned now, not awaited either.
  deps.graph.server().then(
    (server) => deps.log.info('graph server', { ...server }),
    (err) => deps.log.warn('graph server not probed', { error: err }),
  );

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      deps.log.info('shutting down');
      stopSignal.abort();
      // The worker finishes its running jobs (up to WORKER_SHUTDOWN_MS) while the servers drain;
      // then the event streams still open end, so the servers can close (clients resume elsewhere).
      const drained = (async () => {
        await Promise.all([worker?.stop(), sync?.stop()]);
        deps.events.shutdown();
      })();
      await Promise.allSettled([server?.close(), uiServer?.close(), drained]);
      await Promise.allSettled([deps.graph.close(), deps.kv.close(), deps.embedders.close()]);
    })());
  return { config, deps, stop };
}
