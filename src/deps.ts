/**
 * The dependencies `createApp` receives. Runtime entries build the real ones; tests build the
 * same ones against servers on their own ports.
 */
import type { NamesByMeaning } from './lib/names-by-meaning.js';
import type { Config } from './config.js';
import type { EmbedderPool } from './embeddings/embedders.js';
import type { VectorSearcher } from './vector-index/search/types.js';
import type { GraphStore } from './graph/access/driver.js';
import type { SkeletonCache } from './graph/shape/skeleton-cache.js';
import type { Logger } from './lib/log.js';
import type { LlmClients } from './llm/clients.js';
import type { JobEventHub } from './store/job-events.js';
import type { JobStore } from './store/jobs.js';
import type { RateLimiter } from './store/rate-limit.js';
import type { SessionStore } from './store/sessions.js';
import type { UserStore } from './store/users.js';
import type { KvStore } from './store/redis.js';
import type { AgentExamples } from './examples/examples.js';

/** Reads a static file shipped in `dist/public/` (path relative to it), or null when absent. */
export type AssetLoader = (path: string) => Promise<Uint8Array | null>;

/** Everything the HTTP app uses. */
export interface AppDeps {
  readonly config: Config;
  readonly graph: GraphStore;
  readonly kv: KvStore;
  readonly log: Logger;
  readonly assets: AssetLoader;
  /** Embedding models, loaded on first use (src/embeddings/embedders.ts). */
  readonly embedders: EmbedderPool;
  /** Vector search over built indexes (src/vector-index/search/searcher.ts). */
  readonly search: VectorSearcher;
  /** Language-model clients of both providers (src/llm/clients.ts). */
  readonly llm: LlmClients;
  /** Chat jobs: records, events, results (src/store/jobs.ts). */
  readonly jobs: JobStore;
  /** Anonymous users and their session lists (src/store/users.ts). */
  readonly users: UserStore;
  /** Chat sessions (src/store/sessions.ts). */
  readonly sessions: SessionStore;
  /** Per-user request and token limits (src/store/rate-limit.ts). */
  readonly limiter: RateLimiter;
  /** Live job events for SSE streams, one subscriber connection per instance (src/store/job-events.ts). */
  readonly events: JobEventHub;
  /** Graph skeletons for the agent's prompt, computed at start-up (src/graph/shape/skeleton-cache.ts). */
  readonly skeleton: SkeletonCache;
  /** Names closest in meaning for query notices, over the search's embedding model (src/lib/names-by-meaning.ts). */
  readonly meaning?: NamesByMeaning;
  /** Question and Cypher examples for the agent, per graph, checked against it (src/examples/); absent in some tests. */
  readonly examples?: AgentExamples;
  /**
   * Aborted when the service starts to stop, before the servers drain: long-lived streams
   * (MCP sessions) end on it so that draining does not wait for clients. Absent in tests.
   */
  readonly stopping?: AbortSignal;
}
