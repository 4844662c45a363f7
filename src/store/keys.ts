/**
 * The data model in the key-value store (chat, workers, rate limits, index-build locks): every key and every lifetime in one place.
 * All keys start with the store's prefix (`KV_PREFIX`, default `gc:`). Values are strings.
 *
 * | Key | Type | Holds | Lifetime |
 * |---|---|---|---|
 * | `user:{user_id}` | hash | `user_id`, `created_at` | none |
 * | `user:{user_id}:sessions` | list | session IDs, newest first, no cap; dead IDs dropped when read | none |
 * | `anon:{anon_id}` | hash | `user_id`, `created_at` (of this anonymous ID) | 3 days |
 * | `session:{session_id}` | hash | `session_id`, `user_id`, `created_at`, `name`, `pending_job_id` | 7 days, renewed on every write |
 * | `session:{session_id}:messages` | list | Message JSON, oldest first | as the session |
 * | `session:{session_id}:pending` | list | JobEvent JSON of the running job (`pending_events`) | as the session |
 * | `job:{job_id}` | hash | JobRecord fields (`result` as JSON) + `attempts`, `llm` | 10 min, renewed by events and the finished record |
 * | `job:{job_id}:events` | list | `{type, data}` JSON; an event's SSE id is its 1-based position | as the job |
 * | `job:{job_id}:live` | pub/sub channel | `{seq, event}` JSON of each new event | — |
 * | `queue` | list | job IDs; producers LPUSH, workers BLMOVE RIGHT → LEFT (first in, first out) | none |
 * | `worker:{id}:processing` | list | job IDs a worker has taken and not finished | none |
 * | `worker:{id}:alive` | string | heartbeat | the worker lease (`WORKER_LEASE_MS`) |
 * | `workers` | set | worker IDs that may hold jobs | none |
 * | `lock:{name}` | string | short lock (recovery of one dead worker) | seconds |
 * | `index-build:{index}` | string | token of the build holding the index (src/store/build-lock.ts) | `INDEX_LOCK_TTL_MS`, refreshed while held |
 * | `rl:{user_id}:req` | sorted set | one member per accepted request, score = ms | 10 min after the last write |
 * | `rl:{user_id}:tok` | sorted set | `{ms}:{rand}:{tokens}` per recorded usage, score = ms | 10 min after the last write |
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

/** Per-user limits on `POST /chat/message` (with `x-anon-id`) per sliding window. */
export const RATE_LIMITS = Object.freeze({ requests: 20, tokens: 500_000 });

/** Messages of history passed to a model: the last 10 message pairs. */
export const HISTORY_MESSAGES = 20;

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
  rateRequests(userId: string): string;
  rateTokens(userId: string): string;
  /** A fixed-window counter of one client address for one kind of request (e.g. `mint`). */
  rateAddress(kind: string, address: string): string;
}

/** The key layout for `prefix` (see the table above). */
export function createKeys(prefix: string): Keys {
  const keys: Keys = {
    user: (id) => `${prefix}user:${id}`,
    userSessions: (id) => `${prefix}user:${id}:sessions`,
    anon: (id) => `${prefix}anon:${id}`,
    session: (id) => `${prefix}session:${id}`,
    sessionMessages: (id) => `${prefix}session:${id}:messages`,
    sessionPending: (id) => `${prefix}session:${id}:pending`,
    sessionAll: (id) => [keys.session(id), keys.sessionMessages(id), keys.sessionPending(id)],
    job: (id) => `${prefix}job:${id}`,
    jobEvents: (id) => `${prefix}job:${id}:events`,
    jobLive: (id) => `${prefix}job:${id}:live`,
    queue: () => `${prefix}queue`,
    processing: (id) => `${prefix}worker:${id}:processing`,
    alive: (id) => `${prefix}worker:${id}:alive`,
    workers: () => `${prefix}workers`,
    lock: (name) => `${prefix}lock:${name}`,
    indexBuild: (name) => `${prefix}index-build:${name}`,
    rateRequests: (id) => `${prefix}rl:${id}:req`,
    rateTokens: (id) => `${prefix}rl:${id}:tok`,
    rateAddress: (kind, address) => `${prefix}rl:addr:${kind}:${address}`,
  };
  return keys;
}

/** Current time as Unix seconds (float), the contract's `created_at`. */
export function nowSeconds(): number {
  return Date.now() / 1000;
}
