/**
 * Live MCP sessions, in memory: a session id maps to its own MCP server and transport. Memory
 * is bounded three times: a session unused for `idleMs` is closed; a client address at
 * `maxPerClient` sessions closes its own least recently used one (so one caller opening
 * thousands cannot push everyone else's out); and at `maxSessions` a new session closes the
 * least recently used one. Its client then gets 404 "Session not found", which the MCP
 * specification tells clients to answer by initializing again.
 *
 * Expiry is checked on every request and by a sweep timer that exists only while sessions do
 * (and is unref'd where the runtime allows), so an idle app holds no timer.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

/** One live session. */
export interface McpSession {
  readonly server: McpServer;
  readonly transport: WebStandardStreamableHTTPServerTransport;
}

/** Options of {@link createMcpSessionStore}. */
export interface McpSessionStoreOptions {
  /** Idle time in ms after which a session is closed (config `MCP_SESSION_IDLE_MS`). */
  idleMs: number;
  /** Sessions kept at most (config `MCP_MAX_SESSIONS`). */
  maxSessions: number;
  /** Sessions kept at most per client address (config `MCP_MAX_SESSIONS_PER_CLIENT`). */
  maxPerClient: number;
  /** Clock in ms; tests pass their own. */
  now?: () => number;
  /** Called with the reason when the store closes a session (idle or evicted). */
  onExpire?: (id: string, reason: 'idle' | 'evicted') => void;
}

/** The session map with its bounds. */
export interface McpSessionStore {
  /** The live session of that id (marking it used), or undefined when unknown or expired. */
  get(id: string): McpSession | undefined;
  /**
   * Adds a session of `client` (its address), first closing that client's least recently used
   * one when it is at its cap, else the least recently used of all when the store is full.
   */
  add(id: string, session: McpSession, client: string): void;
  /** Forgets a session that closed itself (DELETE, transport closed). */
  remove(id: string): void;
  /** Closes every idle session now. */
  sweep(): void;
  /** Live sessions. */
  readonly size: number;
  /** Closes every session and stops the timer. */
  closeAll(): Promise<void>;
}

interface Entry extends McpSession {
  lastUsed: number;
  client: string;
}

/** Builds an empty store. */
export function createMcpSessionStore(opts: McpSessionStoreOptions): McpSessionStore {
  const now = opts.now ?? Date.now;
  // A Map iterates in insertion order; re-inserting on use keeps the least recently used first.
  const sessions = new Map<string, Entry>();
  const perClient = new Map<string, number>();
  let timer: ReturnType<typeof setInterval> | undefined;

  const forget = (id: string) => {
    const entry = sessions.get(id);
    if (!entry) return;
    sessions.delete(id);
    const n = (perClient.get(entry.client) ?? 1) - 1;
    if (n > 0) perClient.set(entry.client, n);
    else perClient.delete(entry.client);
  };

  const close = (id: string, entry: Entry, reason: 'idle' | 'evicted') => {
    forget(id);
    opts.onExpire?.(id, reason);
    // Closing the server closes its transport: open SSE streams end, pending requests are dropped.
    void entry.server.close().catch(() => {});
    stopTimerWhenEmpty();
  };

  const stopTimerWhenEmpty = () => {
    if (sessions.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };

  const sweep = () => {
    const cutoff = now() - opts.idleMs;
    for (const [id, entry] of sessions) {
      if (entry.lastUsed > cutoff) break; // the rest were used later
      close(id, entry, 'idle');
    }
  };

  return {
    get(id) {
      sweep();
      const entry = sessions.get(id);
      if (!entry) return undefined;
      entry.lastUsed = now();
      sessions.delete(id);
      sessions.set(id, entry);
      return entry;
    },
    add(id, session, client) {
      sweep();
      for (const [oldId, entry] of sessions) {
        if ((perClient.get(client) ?? 0) < opts.maxPerClient) break;
        if (entry.client === client) close(oldId, entry, 'evicted');
      }
      for (const [oldId, entry] of sessions) {
        if (sessions.size < opts.maxSessions) break;
        close(oldId, entry, 'evicted');
      }
      sessions.set(id, { ...session, lastUsed: now(), client });
      perClient.set(client, (perClient.get(client) ?? 0) + 1);
      if (timer === undefined) {
        timer = setInterval(sweep, Math.max(1_000, Math.min(opts.idleMs, 60_000)));
        // Node and Bun: the sweep alone must not keep a process (or a test run) alive.
        (timer as { unref?: () => void }).unref?.();
      }
    },
    remove(id) {
      forget(id);
      stopTimerWhenEmpty();
    },
    sweep,
    get size() {
      return sessions.size;
    },
    async closeAll() {
      const all = [...sessions.values()];
      sessions.clear();
      perClient.clear();
      stopTimerWhenEmpty();
      await Promise.allSettled(all.map((e) => e.server.close()));
    },
  };
}
