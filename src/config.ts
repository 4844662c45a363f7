/**
 * Configuration: the environment parsed once with zod at start-up. A bad value stops the
 * process with one line naming the variable; modules receive the frozen result and never read
 * the environment themselves.
 */
import { z } from 'zod';
import { DEFAULT_MODEL, MODEL_NAMES, indexName } from './contract/models.js';
import { PROVIDERS } from './contract/providers.js';
import { RETRIEVAL_MODES } from './contract/search.js';

const provider = z.enum(PROVIDERS);
const port = z
  .string()
  .regex(/^\d+$/, 'expected a port number 1..65535')
  .transform(Number)
  .pipe(z.number().int().min(1, 'expected a port number 1..65535').max(65535, 'expected a port number 1..65535'));
const url = z.url();
/** The Bolt URI schemes neo4j-driver speaks: direct (bolt) or routing (neo4j), plain, TLS or TLS with a self-signed certificate. */
const GRAPHDB_SCHEMES = /^(bolt|neo4j)(\+s|\+ssc)?:\/\//i;
/** Empty strings count as unset, as they do in most `.env` files. */
const unsetIfEmpty = (v: unknown) => (v === '' ? undefined : v);
/** An optional count of tokens (unset or empty: a default decided after parsing). */
const optionalInt = z.preprocess(unsetIfEmpty, z.coerce.number().int().min(256).optional());
const flag = z
  .enum(['true', 'false'])
  .default('false')
  .transform((v) => v === 'true');
/** A comma-separated list; empty entries dropped. */
const list = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  );

const EnvSchema = z.object({
  LLM_PROVIDER: provider.default('local'),
  ROUTER_PROVIDER: z.preprocess(unsetIfEmpty, provider.optional()),
  LOCAL_LLM_BASE_URL: url.default('http://localhost:11434/v1'),
  LOCAL_LLM_AGENT_MODEL: z.string().min(1).default('qwen2.5:7b'),
  LOCAL_LLM_ROUTER_MODEL: z.string().min(1).default('qwen2.5:1.5b'),
  HOSTED_LLM_BASE_URL: url.default('https://api.openai.com/v1'),
  HOSTED_LLM_API_KEY: z.string().default(''),
  HOSTED_LLM_AGENT_MODEL: z.string().min(1).default('gpt-4.1'),
  HOSTED_LLM_ROUTER_MODEL: z.string().min(1).default('gpt-4.1-mini'),
  RAG_CONFIDENCE_THRESHOLD: z.coerce.number().min(0).max(1).default(0.75),
  VECTOR_SEARCH_TOP_K: z.coerce.number().int().min(1).max(100).default(5),
  /**
   * Query vectors kept per process, least recently used dropped first (src/vector-index/search/query-vectors.ts);
   * a repeated query skips the embedding, most of a search's time with a model server. 0: off.
   */
  QUERY_VECTOR_CACHE_SIZE: z.coerce.number().int().min(0).max(1_000_000).default(1024),
  // A host name (with GRAPHDB_PORT), or a full URI for TLS and clusters: neo4j+s://x.databases.neo4j.io
  GRAPHDB_URL: z
    .string()
    .min(1)
    .refine((v) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(v) || GRAPHDB_SCHEMES.test(v), {
      message: 'a host name, or a URI with the scheme bolt, bolt+s, bolt+ssc, neo4j, neo4j+s or neo4j+ssc',
    })
    .default('localhost'),
  GRAPHDB_PORT: port.default(1234),
  GRAPHDB_GRAPH: z.string().min(1).default('neo4j'),
  GRAPHDB_USER: z.string().default(''),
  GRAPHDB_PASSWORD: z.string().default(''),
  EMBEDDING_MODEL: z.enum(MODEL_NAMES as [string, ...string[]]).default(DEFAULT_MODEL),
  VECTOR_INDEX_NAME: z.preprocess(unsetIfEmpty, z.string().optional()),
  KVSTORE_URL: z
    .string()
    .regex(/^(valkeys?|rediss?)(\+cluster)?:\/\//, 'expected a valkey://, valkeys://, redis:// or rediss:// URL, or the same with +cluster')
    .default('valkey://localhost:6379/0'),
  PORT: port.default(8000),
  UI_PORT: port.default(8501),
  UI_URL: url.default('http://localhost:8501/'),
  DATA_DIR: z.string().min(1).default('./data'),
  /** Folder of in-process model files, one `<registry name>/` each (filled by scripts/fetch-models). */
  MODELS_DIR: z.string().min(1).default('./models'),
  /** Largest chunk, in tokens (see src/embeddings/chunking.ts). */
  CHUNK_TOKENS: z.coerce.number().int().min(16).max(8192).default(256),
  /** Tokens shared by consecutive chunks of one text. */
  CHUNK_OVERLAP_TOKENS: z.coerce.number().int().min(0).max(4096).default(32),
  /** Texts per `/embeddings` request to the local model server. */
  EMBEDDING_SERVER_BATCH_SIZE: z.coerce.number().int().min(1).max(2048).default(64),
  /**
   * How the chat lookup, the agent's and MCP's `vector_search` find nodes: `vector` (embeddings),
   * `fulltext` (Lucene BM25 over the same chunks) or `hybrid` (both, fused per node).
   * `POST /vector/search` takes its own `mode` (default `vector`, the contract's behaviour).
   */
  RETRIEVAL_MODE: z.enum(RETRIEVAL_MODES).default('hybrid'),
  /**
   * Lucene analyzer of the full-text index built beside each vector index (one of Neo4j's
   * `db.index.fulltext.listAvailableAnalyzers()`). The default `standard-no-stop-words` (lower-cases,
   * splits at Unicode word boundaries, keeps every word) finds more than `english` (stems, drops
   * stop words) on every retrieval-quality set: words of names and titles match as written
   * (docs/benchmarks.md, "Retrieval quality"). A change re-creates the full-text index on the next
   * build, without re-embedding.
   */
  FULLTEXT_ANALYZER: z
    .string()
    .regex(/^[a-z][a-z0-9_-]*$/, 'expected an analyzer name such as english or standard-no-stop-words')
    .default('standard-no-stop-words'),
  /** Relationships shown per search result in the chat lookup answer, the agent's and MCP's `vector_search` (0: none). */
  SEARCH_NEIGHBORS: z.coerce.number().int().min(0).max(50).default(8),
  /**
   * Longest `text` of a search hit (REST, MCP, the agent's and the chat's sources), in characters
   * (code points), marker included; a longer text is cut with a marker naming `/graph/node`. The
   * default keeps typical node texts whole (WikiPathways descriptions: median ~500 characters; a
   * 256-token chunk is ~1,100) and a 5 MB property to 4 KB.
   */
  SEARCH_TEXT_MAX_CHARS: z.coerce.number().int().min(200).max(100_000).default(4_000),
  /** Node property whose string value is indexed (`/dev/build_vector_index`, `scripts/build-index`). */
  TEXT_PROPERTY: z.string().min(1).default('text'),
  /**
   * Labels to index, comma-separated (empty: every label). Nodes without one of them are left
   * out of builds and syncs; the build request's `labels` overrides it.
   */
  INDEX_LABELS: list,
  /**
   * The text of chosen labels, overriding discovery: `Movie=title,tagline;Person=name`. A leading
   * name-like property (or first and last name) names the node; the rest is its text, in order.
   * The build request's `properties` overrides it.
   */
  INDEX_PROPERTIES: z
    .string()
    .default('')
    .transform((v, ctx) => {
      // Entries, not `out[label] = …`: a label named `__proto__` must stay a label (an unknown
      // one, refused at start and by builds with close names), not become the object's prototype.
      const out = new Map<string, string[]>();
      for (const part of v
        .split(';')
        .map((x) => x.trim())
        .filter(Boolean)) {
        const [, label = '', rest = ''] = /^([^=]+)=(.+)$/.exec(part) ?? [];
        const props = rest
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean);
        if (!label.trim() || !props.length) {
          ctx.addIssue({ code: 'custom', message: `expected Label=prop,prop;Label=prop (at "${part}")` });
          return z.NEVER;
        }
        out.set(label.trim(), props);
      }
      return Object.fromEntries(out) as Record<string, string[]>;
    }),
  /**
   * Filter inside the vector index where the graph server can (Neo4j 2026.x: filter properties
   * declared in the vector index): chunks carry their node's labels and filter properties, and a
   * filtered search on them needs no widening (src/vector-index/index/carry.ts). false: the post-filter only.
   */
  INDEX_FILTERS: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /**
   * Properties chunks carry for filtering inside the index, comma-separated (at most 16); unset:
   * those text discovery found to be categories, numbers, dates, booleans or codes; empty: none
   * (labels are carried all the same). Read by builds; a sync keeps what its build carried.
   */
  INDEX_FILTER_PROPERTIES: z
    .string()
    .optional()
    .transform((v) =>
      v === undefined
        ? null
        : v
            .split(',')
            .map((x) => x.trim())
            .filter(Boolean),
    ),
  /** Find the text of labels without `TEXT_PROPERTY` by rule (src/graph/text/text-rules.ts); false indexes only `TEXT_PROPERTY` and `INDEX_PROPERTIES`. */
  INDEX_DISCOVER: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /**
   * How often, in ms, a worker checks whether the graph changed since its indexes were last
   * brought in step, and syncs them (created, changed and deleted nodes); 0 turns the sync off.
   */
  INDEX_SYNC_INTERVAL_MS: z.coerce
    .number()
    .int()
    .refine((n) => n === 0 || n >= 1_000, 'expected 0 (off) or at least 1000')
    .default(15_000),
  /**
   * Other registry models whose indexes of `GRAPHDB_GRAPH` the sync keeps in step, comma-separated,
   * beside `EMBEDDING_MODEL`'s (always kept). Empty by default: an index built for another model
   * (a comparison, a test) stays as built and costs the sync nothing.
   */
  INDEX_SYNC_MODELS: list,
  /**
   * Where the sync learns what changed: `auto`, the server's change-log plugin when it is
   * installed (plugin/), else `INDEX_CHANGED_PROPERTY` when it is set and indexed, else the full
   * check; `property`, that property even beside the plugin; `scan`, the full check always.
   */
  INDEX_CHANGE_SOURCE: z.enum(['auto', 'property', 'scan']).default('auto'),
  /**
   * A property the graph's writers set on every node they create or change (`updatedAt =
   * timestamp()`, or a date-time), with a range index per indexed label: without the plugin, the
   * sync follows it instead of the full check. Empty (the default): not used.
   */
  INDEX_CHANGED_PROPERTY: z.string().max(200).default(''),
  /** With a change log, how often in ms the sync follows it (the full check keeps `INDEX_SYNC_INTERVAL_MS`). */
  INDEX_SYNC_FOLLOW_MS: z.coerce.number().int().min(100).default(1_000),
  /** With a change log, how often in ms the sync runs one full check anyway (a reconcile); also after a restart or an overflow of the log. */
  INDEX_RECONCILE_MS: z.coerce.number().int().min(60_000).default(86_400_000),
  /** Chunks per index-build embedding batch on average (content-defined boundaries, a quarter to twice this; one CSV cache file and one write transaction each). */
  INDEX_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(512),
  /** Lifetime of an index build's lock in ms; refreshed while the build runs, so a crash frees it after this. */
  INDEX_LOCK_TTL_MS: z.coerce.number().int().min(100).default(30_000),
  /** How long a build waits for the new vector index to come online, in ms. */
  INDEX_ONLINE_TIMEOUT_MS: z.coerce.number().int().min(1_000).default(1_800_000),
  /** HNSW links per node of new vector indexes (Neo4j's default 16; more: better recall, slower build). */
  VECTOR_INDEX_HNSW_M: z.coerce.number().int().min(1).max(512).default(16),
  /** HNSW candidates considered per insert (Neo4j's default 100; lower builds faster, recall drops slightly). */
  VECTOR_INDEX_EF_CONSTRUCTION: z.coerce.number().int().min(1).max(3200).default(100),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** Largest accepted request body in bytes. */
  MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  /** Prefix of every key-value store key (several deployments can share one store). */
  KV_PREFIX: z.string().min(1).default('gc:'),
  /** `all` serves the API and runs the chat worker; `api` or `worker` runs one of them. */
  SERVICE_ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  /** Longest accepted chat message, in characters. */
  CHAT_MAX_MESSAGE_CHARS: z.coerce.number().int().min(1).default(8_000),
  /** Chat jobs one worker process runs at the same time. */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(4),
  /** Worker lease in ms: a worker silent this long is dead and its jobs are recovered. */
  WORKER_LEASE_MS: z.coerce.number().int().min(200).default(15_000),
  /**
   * How long a running job waits for an unreachable key-value store, in ms (a Redis restart or
   * failover): its writes are retried meanwhile and the job goes on once the store is back;
   * past this it ends in `error` naming the outage.
   */
  JOB_STORE_WAIT_MS: z.coerce.number().int().min(0).default(60_000),
  /** How long shutdown waits for running jobs, in ms, before aborting them. */
  WORKER_SHUTDOWN_MS: z.coerce.number().int().min(0).default(30_000),
  /** Interval of the `: ping` comment on job event streams, in ms. */
  SSE_PING_MS: z.coerce.number().int().min(10).default(15_000),
  /**
   * Context window of the agent's and the router's models, in tokens: every call is made to fit
   * (skeleton, older tool results, then history shortened). Unset: 8,192 for a `local`
   * provider, 128,000 for `hosted`, by the provider a call goes to (a job's `provider` override
   * included; src/llm/clients.ts). `LLM_CONTEXT_TOKENS` sets both roles.
   */
  LLM_CONTEXT_TOKENS: optionalInt,
  LLM_AGENT_CONTEXT_TOKENS: optionalInt,
  LLM_ROUTER_CONTEXT_TOKENS: optionalInt,
  /** Tokens a model may write per call (sent as `max_tokens`, which every server honours). */
  LLM_MAX_TOKENS: z.coerce.number().int().min(16).default(1_024),
  /** OpenAI-compatible server of the server-provider embedding models (`all-minilm`, …). Unset: `LOCAL_LLM_BASE_URL`. */
  EMBEDDING_BASE_URL: z.preprocess(unsetIfEmpty, url.optional()),
  /** Timeout of one language-model call, in ms. */
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).default(120_000),
  /** Wait between retries of a language-model call answered with HTTP 429, in ms. */
  LLM_RETRY_DELAY_MS: z.coerce.number().int().min(0).default(2_000),
  /** Server-side timeout of one read-only `graph_query` (agent and MCP), in ms. */
  GRAPH_QUERY_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /** Rows a `graph_query` returns at most; the result says "showing N of M rows" when cut. */
  GRAPH_QUERY_MAX_ROWS: z.coerce.number().int().min(1).max(10_000).default(100),
  /** Characters of row JSON a `graph_query` returns at most. */
  GRAPH_QUERY_MAX_CHARS: z.coerce.number().int().min(500).default(20_000),
  /** `graph_query` calls one process runs at once (agent and MCP together); more wait, too many waiting are refused as busy. */
  GRAPH_QUERY_MAX_CONCURRENT: z.coerce.number().int().min(1).max(256).default(4),
  /**
   * A JSON Lines file of examples for the agent, `{"question", "cypher", "note"?}` a line
   * (src/examples/, docs/chat-and-mcp.md "Examples"): each is checked against the graph as
   * `graph_query` checks a query, and the closest to a question go into the agent's prompt.
   * Unset: only examples added through `POST /dev/examples` or the CLI.
   */
  EXAMPLES_FILE: z.preprocess(unsetIfEmpty, z.string().optional()),
  /** Examples at most in the agent's prompt, the closest to the question, within the context budget; 0 turns them off. */
  AGENT_EXAMPLES: z.coerce.number().int().min(0).max(50).default(3),
  /** Upper bound of the graph skeleton in the agent's system prompt, in characters. */
  SKELETON_MAX_CHARS: z.coerce.number().int().min(500).default(4_000),
  /** Age after which the graph skeleton is recomputed on next use, in ms. */
  SKELETON_REFRESH_MS: z.coerce.number().int().min(1_000).default(600_000),
  /** `true`: `/mcp` keeps no sessions (every request gets a fresh MCP server; for several instances behind a load balancer). */
  MCP_STATELESS: flag,
  /** An MCP session unused this long, in ms, is closed (its client gets 404 and initializes again). */
  MCP_SESSION_IDLE_MS: z.coerce.number().int().min(1_000).default(3_600_000),
  /** MCP sessions kept at most; a new one beyond this closes the least recently used. */
  MCP_MAX_SESSIONS: z.coerce.number().int().min(1).max(100_000).default(1_000),
  /** MCP sessions kept at most per client address; a new one beyond this closes that client's least recently used. */
  MCP_MAX_SESSIONS_PER_CLIENT: z.coerce.number().int().min(1).max(100_000).default(100),
  /** Bind address of both servers; loopback unless the deployment says otherwise (the Dockerfile sets 0.0.0.0). */
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Host names, besides loopback and UI_URL's, that /mcp and state-changing routes accept in `Host` (`*`: any). */
  ALLOWED_HOSTS: list,
  /** Origins, besides loopback and UI_URL's, that may send state-changing requests and credentials (`*`: any, without credentials). */
  CORS_ORIGINS: list,
  /** Bearer token that /dev/* requires when set. */
  ADMIN_TOKEN: z.string().default(''),
  /** Bearer token that /mcp requires when set. */
  MCP_TOKEN: z.string().default(''),
  /** true: the anon_id cookie gets the `Secure` flag (serve over HTTPS). */
  COOKIE_SECURE: flag,
  /** true: the last `X-Forwarded-For` entry (what the nearest proxy saw) names the client. */
  TRUST_PROXY: flag,
  /** New anonymous identities per client address per minute (`/chat/bootstrap-anon` without a valid cookie). */
  ANON_MINT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /**
   * `address`: chat messages sent without x-anon-id share a per-address budget (the per-user
   * one); `none`: unlimited, as the contract has it. Unset: `address` as soon as any production
   * setting (tokens, COOKIE_SECURE, TRUST_PROXY, ALLOWED_HOSTS, CORS_ORIGINS) is on.
   */
  ANON_LIMITS: z.preprocess(unsetIfEmpty, z.enum(['none', 'address']).optional()),
  /**
   * `open`: a caller without x-anon-id may read (stream, rename, delete) any session or job
   * whose random UUID it holds, as the contract has it; `owner`: a session or job created under
   * an identity needs that identity. Unset: `owner` as soon as any production setting is on.
   */
  ANON_READS: z.preprocess(unsetIfEmpty, z.enum(['open', 'owner']).optional()),
  /**
   * Chat messages one user (`x-anon-id`) may send per 10-minute sliding window (the contract's
   * 20); also the per-address budget of ANON_LIMITS=address. Raise it for an evaluation run
   * (`node dist/cli.js eval`), which sends its whole question set under one identity.
   */
  CHAT_RATE_LIMIT_REQUESTS: z.coerce.number().int().min(1).default(20),
  /** Model tokens one user may spend per 10-minute sliding window (the contract's 500,000). */
  CHAT_RATE_LIMIT_TOKENS: z.coerce.number().int().min(1).default(500_000),
  /** MCP requests one client address may send per minute; 429 with Retry-After beyond. */
  MCP_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** Pending chat jobs at most; beyond this `POST /chat/message` answers 503 with Retry-After. */
  QUEUE_MAX_PENDING: z.coerce.number().int().min(1).default(10_000),
});

type Env = z.infer<typeof EnvSchema>;

/** The parsed configuration: every variable, defaults applied, derived values filled in. */
export type Config = Readonly<
  Omit<Env, 'ROUTER_PROVIDER' | 'VECTOR_INDEX_NAME' | 'ANON_LIMITS' | 'ANON_READS' | 'EMBEDDING_BASE_URL'> & {
    ROUTER_PROVIDER: Env['LLM_PROVIDER'];
    EMBEDDING_BASE_URL: string;
    VECTOR_INDEX_NAME: string;
    ANON_LIMITS: 'none' | 'address';
    ANON_READS: 'open' | 'owner';
  }
>;

/** Thrown by {@link loadConfig}; its message is the one line to print. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses an environment (e.g. `process.env`) into a frozen {@link Config}.
 * @throws ConfigError naming the first bad variable and what is wrong with it.
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    const got = env[name];
    throw new ConfigError(`config error: ${name}: ${issue.message}${got === undefined ? '' : ` (got ${JSON.stringify(got)})`}`);
  }
  const e = parsed.data;
  const routerProvider = e.ROUTER_PROVIDER ?? e.LLM_PROVIDER;
  if ((e.LLM_PROVIDER === 'hosted' || routerProvider === 'hosted') && !e.HOSTED_LLM_API_KEY) {
    throw new ConfigError('config error: HOSTED_LLM_API_KEY: required when a provider is "hosted"');
  }
  const production =
    !!(e.ADMIN_TOKEN || e.MCP_TOKEN) || e.COOKIE_SECURE || e.TRUST_PROXY || e.ALLOWED_HOSTS.length > 0 || e.CORS_ORIGINS.length > 0;
  return Object.freeze({
    ...e,
    ANON_LIMITS: e.ANON_LIMITS ?? (production ? 'address' : 'none'),
    ANON_READS: e.ANON_READS ?? (production ? 'owner' : 'open'),
    ROUTER_PROVIDER: routerProvider,
    EMBEDDING_BASE_URL: e.EMBEDDING_BASE_URL ?? e.LOCAL_LLM_BASE_URL,
    VECTOR_INDEX_NAME: e.VECTOR_INDEX_NAME ?? indexName(e.GRAPHDB_GRAPH, e.EMBEDDING_MODEL),
  });
}

/** Prints a start-up failure as one line (config errors) or a short message, for the entries. */
export function describeStartError(err: unknown): string {
  if (err instanceof ConfigError) return err.message;
  return `start-up failed: ${err instanceof Error ? err.message : String(err)}`;
}
