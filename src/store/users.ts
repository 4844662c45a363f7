/**
 * Users and anonymous identities: a user (`user_id`, `created_at`) never expires; an anonymous
 * ID (a URL-safe token from 32 random bytes) maps to `{user_id, created_at}` for 3 days and is
 * rotated once it is 2 hours old.
 */
import type { KvStore } from './redis.js';
import { createKeys, LIFETIMES, nowSeconds } from './keys.js';
import { trimChar } from '../lib/text.js';

/** A resolved anonymous ID. */
export interface AnonMapping {
  userId: string;
  /** When this anonymous ID was issued, Unix seconds. */
  createdAt: number;
}

/** Outcome of {@link UserStore.bootstrap}. */
export interface Bootstrap {
  anonId: string;
  userId: string;
  /** `created` (new user), `kept` (cookie unchanged) or `rotated` (new ID for the same user). */
  outcome: 'created' | 'kept' | 'rotated';
}

/** Users and anonymous-ID mappings. */
export interface UserStore {
  /** The user behind an anonymous ID, or null when unknown or expired. */
  resolve(anonId: string): Promise<AnonMapping | null>;
  /** The cookie logic of `GET /chat/bootstrap-anon` for the current cookie value (if any). */
  bootstrap(cookie: string | undefined, now?: number): Promise<Bootstrap>;
}

/** A URL-safe random token from 32 random bytes (base64url, no padding; 43 characters). */
export function newAnonId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return trimChar(btoa(bin).replace(/\+/g, '-').replace(/\//g, '_'), '=');
}

/** Sets the key's lifetime to ARGV[1] seconds unless it already lives longer (or has none yet). */
const EXTEND_TTL = `local t = redis.call('TTL', KEYS[1])
if t == -1 or (t >= 0 and t < tonumber(ARGV[1])) then return redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return 0`;

/** Anonymous IDs look like this; anything else is unknown without asking the store. */
const ANON_ID = /^[A-Za-z0-9_-]{16,128}$/;

/** The user store over `kv`. */
export function createUserStore(kv: KvStore): UserStore {
  const keys = createKeys(kv.prefix);
  const redis = kv.redis;

  const resolve = async (anonId: string): Promise<AnonMapping | null> => {
    if (!ANON_ID.test(anonId)) return null;
    const [userId, createdAt] = await redis.hmget(keys.anon(anonId), 'user_id', 'created_at');
    return userId ? { userId, createdAt: Number(createdAt) } : null;
  };

  /**
   * Writes a new anonymous ID for `userId` (its own slot) after extending the user's lifetime
   * (the user's slot): a crash between leaves a user without a new ID, never an ID without a user.
   */
  const issue = async (userId: string, now: number, user?: Record<string, string>) => {
    const tx = redis.multi();
    if (user) tx.hset(keys.user(userId), user);
    // A user lives as long as its newest anonymous ID or session (LIST_SESSION_LUA extends it
    // for sessions), so minted identities never pile up in the store.
    for (const key of [keys.user(userId), keys.userSessions(userId)]) tx.call('EVAL', EXTEND_TTL, 1, key, LIFETIMES.anonSeconds);
    await tx.exec();
    const anonId = newAnonId();
    await redis
      .multi()
      .hset(keys.anon(anonId), { user_id: userId, created_at: String(now) })
      .expire(keys.anon(anonId), LIFETIMES.anonSeconds)
      .exec();
    return anonId;
  };

  return {
    resolve,
    async bootstrap(cookie, now = nowSeconds()) {
      const known = cookie ? await resolve(cookie) : null;
      if (known && now - known.createdAt < LIFETIMES.anonRotateSeconds) {
        return { anonId: cookie!, userId: known.userId, outcome: 'kept' };
      }
      if (known) {
        const anonId = await issue(known.userId, now);
        await redis.del(keys.anon(cookie!));
        return { anonId, userId: known.userId, outcome: 'rotated' };
      }
      const userId = crypto.randomUUID();
      const anonId = await issue(userId, now, { user_id: userId, created_at: String(now) });
      return { anonId, userId, outcome: 'created' };
    },
  };
}
