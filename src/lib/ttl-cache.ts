/**
 * A small cache of promised values with an age limit: concurrent reads of one key share one
 * load, and a failed load is dropped so the next read tries again.
 */

/** Values by key, each reused for a while. */
export interface TtlCache<T> {
  /**
   * The value of `key`: `load()` is called when it is absent or older than the age limit, or
   * than `maxAgeMs` when given. The caller passes the loader, so it closes over the call's own
   * arguments (a key is only a name for them).
   */
  get(key: string, load: () => Promise<T>, maxAgeMs?: number): Promise<T>;
}

/** Options of {@link createTtlCache}. */
export interface TtlCacheOptions {
  /** Age limit of a value, in ms. */
  ttlMs: number;
  /** Keys kept at most; the oldest goes first. Default 100. */
  maxKeys?: number;
  now?: () => number;
}

/** An empty cache. */
export function createTtlCache<T>(opts: TtlCacheOptions): TtlCache<T> {
  const now = opts.now ?? Date.now;
  const maxKeys = opts.maxKeys ?? 100;
  const entries = new Map<string, { at: number; value: Promise<T> }>();
  return {
    get(key, load, maxAgeMs = opts.ttlMs) {
      const hit = entries.get(key);
      if (hit && now() - hit.at < Math.min(maxAgeMs, opts.ttlMs)) return hit.value;
      const value = load();
      entries.delete(key);
      entries.set(key, { at: now(), value });
      if (entries.size > maxKeys) entries.delete(entries.keys().next().value as string);
      value.catch(() => {
        if (entries.get(key)?.value === value) entries.delete(key);
      });
      return value;
    },
  };
}
