/**
 * Live job events for SSE clients. One subscriber connection per app instance carries every
 * job any of its clients follows (ref-counted SUBSCRIBE per job channel), so a thousand open
 * streams cost one Redis connection, not a thousand blocking ones. Events are published by
 * the worker's scripts (`job:{id}:live`), whichever instance runs the job.
 */
import type { Redis } from 'ioredis';
import type { SeqEvent } from '../store/jobs.js';
import { createKeys } from '../store/keys.js';
import type { KvStore } from '../store/redis.js';

/** A listener of one job's live events. */
export type JobEventListener = (event: SeqEvent) => void;

/** Fan-out of live job events inside one app instance. */
export interface JobEventHub {
  /**
   * Starts delivering `jobId`'s new events to `listener`; resolves once the subscription is
   * active (events published after that are delivered). Returns the unsubscribe function.
   */
  subscribe(jobId: string, listener: JobEventListener): Promise<() => void>;
  /** Channels subscribed now (for tests and metrics). */
  channels(): number;
}

interface Channel {
  listeners: Set<JobEventListener>;
  ready: Promise<unknown>;
}

/** The hub over `kv`; its subscriber connection is opened on first use and closed with `kv`. */
export function createJobEventHub(kv: KvStore): JobEventHub {
  const keys = createKeys(kv.prefix);
  const channels = new Map<string, Channel>();
  let sub: Redis | undefined;

  const subscriber = () => {
    if (!sub) {
      sub = kv.blockingClient();
      sub.on('message', (channel: string, message: string) => {
        const ch = channels.get(channel);
        if (!ch) return;
        let parsed: SeqEvent;
        try {
          parsed = JSON.parse(message) as SeqEvent;
        } catch {
          return;
        }
        for (const l of ch.listeners) l(parsed);
      });
    }
    return sub;
  };

  return {
    channels: () => channels.size,
    async subscribe(jobId, listener) {
      const name = keys.jobLive(jobId);
      let ch = channels.get(name);
      if (!ch) {
        ch = { listeners: new Set(), ready: subscriber().subscribe(name) };
        channels.set(name, ch);
      }
      ch.listeners.add(listener);
      try {
        await ch.ready;
      } catch (err) {
        ch.listeners.delete(listener);
        if (!ch.listeners.size && channels.get(name) === ch) channels.delete(name);
        throw err;
      }
      let done = false;
      return () => {
        if (done) return;
        done = true;
        const cur = channels.get(name);
        if (!cur) return;
        cur.listeners.delete(listener);
        if (cur.listeners.size) return;
        channels.delete(name);
        sub?.unsubscribe(name).catch(() => {});
      };
    },
  };
}
