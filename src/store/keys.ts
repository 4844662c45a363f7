/**
 * The data model in the key-value store (chat, workers, rate limits, index-build locks): every key and every lifetime in one place.
 * All keys start with the store's prefix (`KV_PREFIX`, default `gc:`; it must not contain `{`). Values are strings.
 *
 * | Key | Type | Holds | Lifetime |
 * |---|---|---|---|
 * | `user:{user_id}` | hash | `user_id`, `created_at` | none |
 * | `user:{user_id}:sessions` | list | session IDs, newest first, no cap; dead IDs dropped when read | none |
 * | `anon:<anon_id>` | hash | `user_id`, `created_at` (of this anonymous ID) | 3 days |
 * | `session:{t}:<session_id>` | hash | `session_id`, `user_id`, `created_at`, `name`, `pending_job_id` | 7 days, renewed on every write |
 * | `session:{t}:<session_id>:messages` | list | Message JSON, oldest first | as the session |
 * | `session:{t}:<session_id>:pending` | list | JobEvent JSON of the running job (`pending_events`) | as the session |
 * | `job:{t}:<job_id>` | hash | JobRecord fields (`result` as JSON) + `attempts`, `llm` | 10 min, renewed by events and the finished record |
 * | `job:{t}:<job_id>:events` | list | `{type, data}` JSON; an event's SSE id is its 1-based position | as the job |
 * | `job:{t}:<job_id>:live` | pub/sub channel (classic PUBLISH: every cluster node relays it) | `{seq, event}` JSON of each new event | — |
 * | `{q}:queue` | list | job IDs; producers LPUSH, workers BLMOVE RIGHT → LEFT (first in, first out) | none |
 * | `{q}:worker:<id>:processing` | list | job IDs a worker has taken and not finished | none |
 * | `{q}:worker:<id>:alive` | string | heartbeat | the worker lease (`WORKER_LEASE_MS`) |
 * | `{q}:workers` | set | worker IDs that may hold jobs | none |
 * | `lock:<name>` | string | short lock (recovery of one dead worker) | seconds |
 * | `index-build:<index>` | string | token of the build holding the index (src/store/build-lock.ts) | `INDEX_LOCK_TTL_MS`, refreshed while held |
 * | `examples:<graph>` | list | agent examples added through the dev API or the CLI, `{question, cypher, note?, added_at}` JSON, oldest first (src/store/examples.ts) | none |
 * | `index-sync:<graph>` | hash | the sync's state: `bookmark` (the graph was in step at it), `checked_at`, `synced_at`, `behind_since`, `last` (JSON), `error` (src/vector-index/sync/loop.ts) | none |
 * | `rl:{user_id}:req` | sorted set | one member per accepted request, score = ms | 10 min after the last write |
 * | `rl:{user_id}:tok` | sorted set | `{ms}:{rand}:{tokens}` per recorded usage, score = ms | 10 min after the last write |
 *
 * ## Hash slots (Redis Cluster)
 *
 * Braces are hash tags: a cluster places keys by the text inside the first `{…}` only, and a
 * script or multi-key command must touch one slot. So every script below touches one tag:
 * - `{t}` is the session tag, the first 8 hex digits of the session ID ({@link slotTag}). A job
 *   ID is generated with its session's first 8 digits (the rest stays random: still a v4 UUID
 *   with ~90 random bits), and a session created for a job takes the candidate session's digits,
 *   so SUBMIT, TAKE, PUBLISH and FINISH find job and session in one slot, and `GET
 *   /chat/job/{job_id}` knows the slot from the job ID alone.
 * - `{user_id}`: the user, its session list and its rate limits (the ADMIT script).
 * - `{q}`: the queue, the processing lists, the leases and the worker set, so BLMOVE, the
 *   requeue move and FORGET stay atomic. One slot serves tens of thousands of queue operations
 *   a second, far above what model-bound workers take, so the queue is not sharded. It stays a
 *   list with per-worker processing lists rather than a stream with a consumer group: both give
 *   first in, first out and recovery of a dead consumer's jobs, but XAUTOCLAIM would hand a job
 *   on by idle time alone, while the lease here tells a slow job from a dead worker, and the
 *   attempt count and the move back to the queue are already one script.
 *
 * Steps that span tags run one after the other, ordered so that a crash between them loses no
 * accepted job and runs none twice (a single Redis runs the same steps):
 * - Submit: bound check (LLEN) → SUBMIT script (job + session) → LPUSH on the queue → 202. A
 *   failed LPUSH ends the job in error and answers 503; a crash before it leaves no accepted job
 *   (no 202 was sent), only a pending job record that expires with its 10 minutes.
 * - Finish: the user's session list (idempotent) → FINISH script (job + session; 0 when already
 *   finished) → LREM of the processing list. A crash after the script leaves a finished job on a
 *   processing list: recovery finds it finished and drops it, so nothing runs twice.
 * - Requeue (recovery): job script (status back to `pending`, or gone/finished/exhausted) → queue
 *   script (LREM from the processing list and RPUSH on the queue, both or neither). A crash
 *   between leaves the job on the dead worker's list, and the next recovery moves it.
 * Keys named before hash tags (`session:<id>`, `job:<id>`, `queue`, …) are not migrated: sessions
 * and jobs stored before the upgrade are not visible after it.
 */

/** Lifetimes and limits of the contract, in seconds unless the name says otherwise. */
export const LIFETIMES = Object.freeze({
  /** Anonymous ID mapping and its cookie: 3 days. */
  anonSeconds: 259_200,
  /** An anonymous ID this old or older is rotated by `/chat/bootstrap-anon`: 2 hours. */
  anonRotateSeconds: 7_200,
  /** Chat session after its last write: 7 days. */
  sessionSeconds: 604_800,
  /** Job record: 10 minutes. */
  jobSeconds: 600,
  /** Sliding rate-limit window; records expire this long after their last write: 10 minutes. */
  rateWindowSeconds: 600,
});

/** The contract's per-user limits on `POST /chat/message` (with `x-anon-id`) per sliding window: the defaults of `CHAT_RATE_LIMIT_REQUESTS` and `CHAT_RATE_LIMIT_TOKENS`. */
export const RATE_LIMITS = Object.freeze({ requests: 20, tokens: 500_000 });

/** Messages of history passed to a model: the last 10 message pairs. */
export const HISTORY_MESSAGES = 20;

/** The hash tag of a session or job ID: its first 8 characters (8 hex digits for our UUIDs). */
export function slotTag(id: string): string {
  return id.slice(0, 8);
}

/** True when `id` starts with 8 lowercase hex digits (every ID this service generates). */
export const hasSlotTag = (id: string): boolean => /^[0-9a-f]{8}/.test(id);

/** A random v4 UUID that starts with `tag` (8 hex digits), so it shares that tag's slot. */
export function uuidWithTag(tag: string): string {
  return tag + crypto.randomUUID().slice(8);
}

/** Key builders bound to one prefix. */
export interface Keys {
  user(userId: string): string;
  userSessions(userId: string): string;
  anon(anonId: string): string;
  session(sessionId: string): string;
  sessionMessages(sessionId: string): string;
  sessionPending(sessionId: string): string;
  /** The session's three keys (record, messages, pending events), in that order. */
  sessionAll(sessionId: string): string[];
  job(jobId: string): string;
  jobEvents(jobId: string): string;
  jobLive(jobId: string): string;
  queue(): string;
  processing(workerId: string): string;
  alive(workerId: string): string;
  workers(): string;
  lock(name: string): string;
  indexBuild(indexName: string): string;
  /** The index sync's state of one graph. */
  indexSync(graph: string): string;
  /** The agent examples of one graph added at run time (src/store/examples.ts). */
  examples(graph: string): string;
  rateRequests(userId: string): string;
  rateTokens(userId: string): string;
  /** A fixed-window counter of one client address for one kind of request (e.g. `mint`). */
  rateAddress(kind: string, address: string): string;
}

/** The key layout for `prefix` (see the table above). */
export function createKeys(prefix: string): Keys {
  const keys: Keys = {
    user: (id) => `${prefix}user:{${id}}`,
    userSessions: (id) => `${prefix}user:{${id}}:sessions`,
    anon: (id) => `${prefix}anon:${id}`,
    session: (id) => `${prefix}session:{${slotTag(id)}}:${id}`,
    sessionMessages: (id) => `${keys.session(id)}:messages`,
    sessionPending: (id) => `${keys.session(id)}:pending`,
    sessionAll: (id) => [keys.session(id), keys.sessionMessages(id), keys.sessionPending(id)],
    job: (id) => `${prefix}job:{${slotTag(id)}}:${id}`,
    jobEvents: (id) => `${keys.job(id)}:events`,
    jobLive: (id) => `${keys.job(id)}:live`,
    queue: () => `${prefix}{q}:queue`,
    processing: (id) => `${prefix}{q}:worker:${id}:processing`,
    alive: (id) => `${prefix}{q}:worker:${id}:alive`,
    workers: () => `${prefix}{q}:workers`,
    lock: (name) => `${prefix}lock:${name}`,
    indexBuild: (name) => `${prefix}index-build:${name}`,
    indexSync: (graph) => `${prefix}index-sync:${graph}`,
    examples: (graph) => `${prefix}examples:${graph}`,
    rateRequests: (id) => `${prefix}rl:{${id}}:req`,
    rateTokens: (id) => `${prefix}rl:{${id}}:tok`,
    rateAddress: (kind, address) => `${prefix}rl:addr:${kind}:${address}`,
  };
  return keys;
}

/** Current time as Unix seconds (float), the contract's `created_at`. */
export function nowSeconds(): number {
  return Date.now() / 1000;
}
