/**
 * Chat sessions: a hash (`session_id`, `user_id`, `created_at`, `name`, `pending_job_id`),
 * the messages list and the running job's `pending_events` list, all living 7 days after the
 * last write. Writes made while a job runs or ends are in `jobs.ts` (atomic scripts); this
 * module reads, renames, deletes and lists.
 */
import type { JobEvent, Message } from '../contract/chat.js';
import type { KvStore } from './redis.js';
import { createKeys, LIFETIMES } from './keys.js';
import { defineScript } from './script.js';

/** A session as stored (the contract's ChatSession). */
export interface ChatSession {
  session_id: string;
  user_id: string | null;
  messages: Message[];
  pending_job_id: string | null;
  pending_events: JobEvent[];
  name: string | null;
  created_at: number | null;
}

/** Session reads and user-facing writes. */
export interface SessionStore {
  /** The session, or null when it expired or never existed. */
  load(sessionId: string): Promise<ChatSession | null>;
  /** Sets the name and renews the session; false when the session does not exist. */
  rename(sessionId: string, name: string): Promise<boolean>;
  /** Deletes the session (idempotent) and, given a user, removes it from the user's list. */
  remove(sessionId: string, userId?: string): Promise<void>;
  /** The user's live session IDs, newest first; dead IDs are dropped from the list. */
  listForUser(userId: string): Promise<string[]>;
}

const RENAME = defineScript(
  'gcSessionRename',
  `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'name', ARGV[1])
for i = 1, 3 do redis.call('EXPIRE', KEYS[i], ARGV[2]) end
return 1
`,
);

/** Longest derived session title, in characters. */
const TITLE_CHARS = 60;

/**
 * The display name: the name set by PATCH, else a title from the first user message, else
 * "New chat".
 */
export function sessionName(session: Pick<ChatSession, 'name' | 'messages'>): string {
  if (session.name) return session.name;
  const first = session.messages
    .find((m) => m.role === 'user')
    ?.content.replace(/\s+/g, ' ')
    .trim();
  if (!first) return 'New chat';
  return first.length <= TITLE_CHARS ? first : `${first.slice(0, TITLE_CHARS - 1).trimEnd()}…`;
}

const parseAll = <T>(items: string[]): T[] => items.map((s) => JSON.parse(s) as T);

/** The session store over `kv`. */
export function createSessionStore(kv: KvStore): SessionStore {
  const keys = createKeys(kv.prefix);
  const redis = kv.redis;

  return {
    async load(sessionId) {
      const res = await redis
        .pipeline()
        .hgetall(keys.session(sessionId))
        .lrange(keys.sessionMessages(sessionId), 0, -1)
        .lrange(keys.sessionPending(sessionId), 0, -1)
        .exec();
      const [h, m, p] = (res ?? []).map(([err, v]) => {
        if (err) throw err;
        return v;
      }) as [Record<string, string>, string[], string[]];
      if (!h?.session_id) return null;
      return {
        session_id: h.session_id,
        user_id: h.user_id || null,
        messages: parseAll<Message>(m),
        pending_job_id: h.pending_job_id || null,
        pending_events: parseAll<JobEvent>(p),
        name: h.name || null,
        created_at: h.created_at ? Number(h.created_at) : null,
      };
    },
    async rename(sessionId, name) {
      return (await RENAME(redis, keys.sessionAll(sessionId), [name, LIFETIMES.sessionSeconds])) === 1;
    },
    async remove(sessionId, userId) {
      // The session's keys share a slot, the user's list has its own: two commands, and a
      // crash between leaves a dead ID that the next listing drops.
      await redis.del(...keys.sessionAll(sessionId));
      if (userId) await redis.lrem(keys.userSessions(userId), 0, sessionId);
    },
    async listForUser(userId) {
      const listKey = keys.userSessions(userId);
      const ids = await redis.lrange(listKey, 0, -1);
      // One EXISTS per session (each sits in its session's slot); ioredis sends them together.
      const exists = await Promise.all(ids.map((id) => redis.exists(keys.session(id))));
      const dead = ids.filter((_, i) => exists[i] !== 1);
      await Promise.all(dead.map((id) => redis.lrem(listKey, 0, id)));
      return ids.filter((_, i) => exists[i] === 1);
    },
  };
}
