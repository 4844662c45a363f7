/**
 * Live job events for SSE clients. One subscriber connection per key-value store (so per app
 * instance) holds one pattern subscription to every job's live channel (`job:*:live`), and
 * hands each message to the streams of that job open here. A thousand open streams cost one
 * Redis connection and no per-stream SUBSCRIBE round trips; events published for jobs nobody
 * follows on this instance are dropped after one map lookup. Events are published by the
 * worker's scripts, whichever instance runs the job.
 *
 * On a Redis Cluster the scripts' classic PUBLISH reaches every node over the cluster bus, so
 * the one pattern subscription (on whichever node ioredis picks) still sees every job. Sharded
 * pub/sub (SPUBLISH/SSUBSCRIBE) keeps a message on its slot's node, which avoids the bus's
 * delay of tens of milliseconds, but it has no pattern form: every stream, and every job a
 * worker runs (it listens for a cancel), would cost an SSUBSCRIBE and an SUNSUBSCRIBE round
 * trip, and fewer jobs a second, on a single server as on a cluster (docs/benchmarks.md, "Chat
 * jobs on a Redis Cluster"). Tens of milliseconds on a live event are not visible in a chat, so
 * classic pub/sub is used; the bus copies each event to every node, which matters only with many
 * nodes and many thousands of events a second.
 * A lost live message is harmless either way: streams re-read the stored events.
 */

import type { SeqEvent } from './jobs.js';
import { createKeys } from './keys.js';
import type { KvClient, KvStore } from './redis.js';

/** A listener of one job's live events. */
export type JobEventListener = (event: SeqEvent) => void;

/** Fan-out of live job events inside one app instance. */
export interface JobEventHub {
  /**
   * Starts delivering `jobId`'s new events to `listener`; resolves once the subscription is
   * active (events published after that are delivered). Returns the unsubscribe function.
   */
  subscribe(jobId: string, listener: JobEventListener, onShutdown?: () => void): Promise<() => void>;
  /** Listeners registered now (for tests and metrics). */
  listeners(): number;
  /**
   * Calls every subscriber's `onShutdown` (streams end, so HTTP servers can close; clients
   * reconnect with `Last-Event-ID` to another instance).
   */
  shutdown(): void;
}

/** Escapes glob characters so a key prefix matches only itself in a pattern. */
const globEscape = (s: string) => s.replace(/[*?[\]\\]/g, '\\$&');

/**
 * The hub over `kv`; build one per store (createDeps does). Its connection is opened on first
 * use and closed with `kv`.
 */
export function createJobEventHub(kv: KvStore): JobEventHub {
  const keys = createKeys(kv.prefix);
  const byChannel = new Map<string, Set<JobEventListener>>();
  const closers = new Set<() => void>();
  let sub: KvClient | undefined;
  let ready: Promise<unknown> | undefined;

  const connect = () => {
    if (!ready) {
      sub = kv.blockingClient();
      sub.on('pmessage', (_pattern: string, channel: string, message: string) => {
        const set = byChannel.get(channel);
        if (!set) return;
        let parsed: SeqEvent;
        try {
          parsed = JSON.parse(message) as SeqEvent;
        } catch {
          return;
        }
        for (const l of set) l(parsed);
      });
      // ioredis re-subscribes after a reconnect; streams re-read the store at each ping for
      // anything published while the connection was down.
      ready = sub.psubscribe(globEscape(kv.prefix) + keys.jobLive('*').slice(kv.prefix.length));
      ready.catch(() => (ready = undefined));
    }
    return ready;
  };

  return {
    listeners: () => [...byChannel.values()].reduce((n, s) => n + s.size, 0),
    shutdown() {
      for (const close of [...closers]) close();
    },
    async subscribe(jobId, listener, onShutdown) {
      const channel = keys.jobLive(jobId);
      let set = byChannel.get(channel);
      if (!set) {
        set = new Set();
        byChannel.set(channel, set);
      }
      set.add(listener);
      if (onShutdown) closers.add(onShutdown);
      const remove = () => {
        if (onShutdown) closers.delete(onShutdown);
        const cur = byChannel.get(channel);
        if (!cur) return;
        cur.delete(listener);
        if (!cur.size) byChannel.delete(channel);
      };
      try {
        await connect();
      } catch (err) {
        remove();
        throw err;
      }
      return remove;
    },
  };
}
