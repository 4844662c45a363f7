/**
 * Keeps one formatted skeleton per graph. Start-up calls `refresh()` without awaiting it, so a
 * database that is down delays nothing; the agent reads `current()`, which never waits long:
 * a stale skeleton is served while a refresh runs in the background.
 */
import type { Logger } from '../lib/log.js';
import { withTimeout } from '../lib/timeout.js';
import type { GraphStore } from './driver.js';
import { computeSkeleton, formatSkeleton, type SkeletonOptions } from './skeleton.js';

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
}

/** Builds an empty cache. */
export function createSkeletonCache(opts: SkeletonCacheOptions): SkeletonCache {
  const refreshMs = opts.refreshMs ?? 600_000;
  const cached = new Map<string, { text: string; at: number }>();
  const running = new Map<string, Promise<string>>();

  const refresh = (graph: string): Promise<string> => {
    let p = running.get(graph);
    if (!p) {
      p = computeSkeleton(opts.graph, graph, opts.skeleton)
        .then((data) => {
          const text = formatSkeleton(data, opts.maxChars);
          cached.set(graph, { text, at: Date.now() });
          opts.log?.debug('skeleton computed', { graph, chars: text.length });
          return text;
        })
        .finally(() => running.delete(graph));
      running.set(graph, p);
    }
    return p;
  };

  const background = (graph: string) => refresh(graph).catch((err) => opts.log?.warn('skeleton refresh failed', { graph, error: err }));

  return {
    refresh,
    peek: (graph) => cached.get(graph)?.text ?? null,
    async current(graph, waitMs = 3_000) {
      const hit = cached.get(graph);
      if (hit) {
        if (Date.now() - hit.at > refreshMs) void background(graph);
        return hit.text;
      }
      try {
        return await withTimeout(refresh(graph), waitMs, 'skeleton');
      } catch (err) {
        opts.log?.warn('skeleton unavailable', { graph, error: err });
        return null;
      }
    },
  };
}
