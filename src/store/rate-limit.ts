/**
 * Per-user rate limits on `POST /chat/message`: 20 requests and 500,000 tokens per sliding
 * 10-minute window. Each limit is a sorted set of timestamped entries; one Lua script trims
 * both windows, checks the request limit, then the token limit, and only then records the
 * request, so concurrent requests from one user are admitted exactly up to the limit.
 */
import type { KvStore } from './redis.js';
import { createKeys, LIFETIMES, RATE_LIMITS } from './keys.js';
import { defineScript } from './script.js';

// Token entries are `{ms}:{rand}:{tokens}`; the count is read back from the member itself.
const ADMIT = defineScript(
  'gcRateAdmit',
  `
local now = tonumber(ARGV[1])
local win = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - win)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - win)
local n = redis.call('ZCARD', KEYS[1])
if n >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {1, tonumber(oldest[2]) + win - now}
end
local max = tonumber(ARGV[4])
local toks = redis.call('ZRANGE', KEYS[2], 0, -1, 'WITHSCORES')
local sum = 0
for i = 1, #toks, 2 do sum = sum + tonumber(string.match(toks[i], ':(%d+)$')) end
if sum >= max then
  for i = 1, #toks, 2 do
    sum = sum - tonumber(string.match(toks[i], ':(%d+)$'))
    if sum < max then return {2, tonumber(toks[i + 1]) + win - now} end
  end
  return {2, win}
end
redis.call('ZADD', KEYS[1], now, ARGV[5])
redis.call('PEXPIRE', KEYS[1], win)
return {0, n + 1}
`,
);

/** Outcome of {@link RateLimiter.admit}. */
export type Admission = { ok: true; requests: number } | { ok: false; limit: 'requests' | 'tokens'; retryAfterSeconds: number };

/** The per-user limits. */
export interface RateLimiter {
  /** Checks the request limit, then the token limit, and counts the request when both pass. */
  admit(userId: string): Promise<Admission>;
  /** Records tokens a user's job consumed (no-op for 0). */
  recordTokens(userId: string, tokens: number): Promise<void>;
  /**
   * Counts one `kind` request of a client address in a fixed window of `windowMs`; refused
   * beyond `limit` (the key expires with its window, so addresses leave nothing behind).
   */
  hitAddress(
    kind: string,
    address: string,
    limit: number,
    windowMs: number,
  ): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }>;
}

/** Options of {@link createRateLimiter}. */
export interface RateLimiterOptions {
  /** Clock in ms (tests move it). */
  now?: () => number;
  limits?: { requests: number; tokens: number };
  windowMs?: number;
}

/** INCR with the window's expiry set on the first hit; returns {count, ms left}. */
const HIT = defineScript(
  'gcRateHit',
  `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}`,
);

const rand = () => Math.random().toString(36).slice(2, 10);

/** Rate limits stored in `kv` (keys `rl:{user}:req` and `rl:{user}:tok`). */
export function createRateLimiter(kv: KvStore, opts: RateLimiterOptions = {}): RateLimiter {
  const keys = createKeys(kv.prefix);
  const now = opts.now ?? Date.now;
  const limits = opts.limits ?? RATE_LIMITS;
  const windowMs = opts.windowMs ?? LIFETIMES.rateWindowSeconds * 1000;
  return {
    async admit(userId) {
      const t = now();
      const reply = (await ADMIT(
        kv.redis,
        [keys.rateRequests(userId), keys.rateTokens(userId)],
        [t, windowMs, limits.requests, limits.tokens, `${t}:${rand()}`],
      )) as [number, number];
      const [code, value] = reply;
      if (code === 0) return { ok: true, requests: value };
      return {
        ok: false,
        limit: code === 1 ? 'requests' : 'tokens',
        retryAfterSeconds: Math.max(1, Math.ceil(value / 1000)),
      };
    },
    async hitAddress(kind, address, limit, windowMs) {
      const key = keys.rateAddress(kind, address);
      const [count, ttl] = (await HIT(kv.redis, [key], [windowMs])) as [number, number];
      return count <= limit ? { ok: true } : { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(ttl / 1000)) };
    },
    async recordTokens(userId, tokens) {
      if (!(tokens > 0)) return;
      const t = now();
      const key = keys.rateTokens(userId);
      await kv.redis
        .multi()
        .zadd(key, t, `${t}:${rand()}:${Math.round(tokens)}`)
        .pexpire(key, windowMs)
        .exec();
    },
  };
}
