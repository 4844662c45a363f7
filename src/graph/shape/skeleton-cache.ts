/**
 * Keeps one formatted skeleton per graph. Start-up calls `refresh()` without awaiting it, so a
 * database that is down delays nothing; the agent reads `current()`, which never waits long:
 * a stale skeleton is served while a refresh runs in the background.
 */
import type { Logger } from '../../lib/log.js';
import { withTimeout } from '../../lib/timeout.js';
import type { GraphStore } from '../access/driver.js';
import { computeSkeleton, formatSkeleton, type SkeletonData, type SkeletonOptions } from './skeleton.js';

/** Options of {@link createSkeletonCache}. */
export interface SkeletonCacheOptions {
  graph: GraphStore;
  log?: Logger;
  /** Upper bound of the text (config `SKELETON_MAX_CHARS`, default 4,000). */
  maxChars?: number;
  /** Age in ms after which a skeleton is recomputed on next use (config `SKELETON_REFRESH_MS`, default 10 min). */
  refreshMs?: number;
  /** Passed to {@link computeSkeleton}. */
  skeleton?: SkeletonOptions;
}

/** Cached skeletons by graph name. */
export interface SkeletonCache {
  /** Computes and stores the skeleton of `graph` now (concurrent calls share one computation). */
  refresh(graph: string): Promise<string>;
  /**
   * The skeleton for a prompt: the cached one (refreshed in the background when old), or one
   * computed within `waitMs` (default 3,000), or null when the database cannot give one.
   */
  current(graph: string, waitMs?: number): Promise<string | null>;
  /** The cached skeleton, if any, without touching the database. */
  peek(graph: string): string | null;
  /**
   * The schema behind the skeleton (labels, types, property keys, patterns), for checking a
   * query against it: cached like {@link SkeletonCache.current}, computed within `waitMs`
   * (default 3,000) when there is none yet, null when the database cannot give one (or at
   * once with `waitMs` 0, computing it in the background).
   */
  schema(graph: string, waitMs?: number): Promise<SkeletonData | null>;
}

/** Builds an empty cache. */
export function createSkeletonCache(opts: SkeletonCacheOptions): SkeletonCache {
  const refreshMs = opts.refreshMs ?? 600_000;
  type Entry = { text: string; data: SkeletonData; at: number };
  const cached = new Map<string, Entry>();
  const running = new Map<string, Promise<Entry>>();

  const compute = (graph: string): Promise<Entry> => {
    let p = running.get(graph);
    if (!p) {
      p = computeSkeleton(opts.graph, graph, opts.skeleton)
        .then((data) => {
          const entry = { text: formatSkeleton(data, opts.maxChars), data, at: Date.now() };
          cached.set(graph, entry);
          opts.log?.debug('skeleton computed', { graph, chars: entry.text.length });
          return entry;
        })
        .finally(() => running.delete(graph));
      running.set(graph, p);
    }
    return p;
  };

  const background = (graph: string) => compute(graph).catch((err) => opts.log?.warn('skeleton refresh failed', { graph, error: err }));

  /** The cached entry (refreshed in the background when old), or one computed within `waitMs` (0: none, computed in the background). */
  const entry = async (graph: string, waitMs: number): Promise<Entry | null> => {
    const hit = cached.get(graph);
    if (hit) {
      if (Date.now() - hit.at > refreshMs) void background(graph);
      return hit;
    }
    if (waitMs <= 0) {
      if (!running.has(graph)) void background(graph);
      return null;
    }
    try {
      return await withTimeout(compute(graph), waitMs, 'skeleton');
    } catch (err) {
      opts.log?.warn('skeleton unavailable', { graph, error: err });
      return null;
    }
  };

  return {
    refresh: (graph) => compute(graph).then((e) => e.text),
    peek: (graph) => cached.get(graph)?.text ?? null,
    current: async (graph, waitMs = 3_000) => (await entry(graph, waitMs))?.text ?? null,
    schema: async (graph, waitMs = 3_000) => (await entry(graph, waitMs))?.data ?? null,
  };
}
