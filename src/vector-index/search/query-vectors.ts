/**
 * Query vectors for search: each (model, query text) is embedded once while a request for it is
 * in flight (concurrent identical queries share one embedding call: a chat lookup and the
 * agent's first search, or several users asking the same thing) and kept in a small LRU after.
 *
 * With a model server the embedding is most of a search's time (≈ 18 ms for a title with
 * all-MiniLM-L6-v2 against ≈ 3 ms for the database); a repeated query skips it.
 *
 * Keyed by model name and text only: a vector depends on nothing else (not on the index, its
 * name or when it was built), so a rebuild, even of the same index name with another model,
 * never meets a stale entry. Results are not cached: they change with the graph.
 *
 * Distinct queries of one model are micro-batched (see `createBatcher`): concurrent searches
 * share one embedding call, and an idle service sends a query at once.
 */
import type { EmbedderPool } from '../../embeddings/embedders.js';

/** Longest query text kept in the cache, in characters (a pasted chat message is not worth keeping). */
export const MAX_CACHED_QUERY_CHARS = 1_000;

/** Queries embedded together at most (one `/embeddings` request or one ONNX run). */
export const MAX_QUERY_BATCH = 32;

/** Options of {@link createQueryVectors}. */
export interface QueryVectorsOptions {
  embedders: EmbedderPool;
  /** Vectors kept (least recently used dropped first); 0 turns the cache off, coalescing stays. */
  size: number;
  /** Queries per embedding call at most (default {@link MAX_QUERY_BATCH}); 1 turns micro-batching off. */
  maxBatch?: number;
}

/** Embeds search queries. */
export interface QueryVectors {
  /** The query's vector, or null when it has no known token (a zero vector matches nothing). */
  get(model: string, query: string): Promise<readonly number[] | null>;
}

type Waiter = { query: string; resolve: (v: readonly number[] | null) => void; reject: (err: unknown) => void };

/**
 * Whether a call can go out now, with `flying` the sizes of the calls in flight and `waiting`
 * the queries waiting: at once when none is in flight, so one client waits for nothing; beside
 * one call, once as many queries wait as it carries; never beside two. The model server then
 * has the next call in hand when one ends, instead of idling while our answer reaches us and
 * the next request reaches it, and under steady load two groups of about the same size take
 * turns: the model embeds one while the other's searches run. Sending whatever waited when a
 * call ended settled instead into the split the first call made (one query, then all the
 * others), with the model idle during the large group's searches (docs/benchmarks.md, "Two
 * calls in hand").
 */
export function mayCall(flying: readonly number[], waiting: number): boolean {
  return waiting > 0 && (flying.length === 0 || (flying.length === 1 && waiting >= flying[0]!));
}

/**
 * Micro-batching per model: a query that arrives while embedding calls of its model are in
 * flight waits (see {@link mayCall}), then the waiting queries go out in one call (up to
 * `maxBatch`). Under load the model server answers one request of n texts instead of n
 * requests, which costs it far less than n times one (one HTTP exchange, one padded matrix
 * product).
 */
function createBatcher(embedders: EmbedderPool, maxBatch: number) {
  /** Per model: the sizes of the calls in flight, and the queries waiting. */
  const models = new Map<string, { flying: number[]; waiting: Waiter[] }>();

  const flush = (model: string) => {
    const m = models.get(model)!;
    while (mayCall(m.flying, m.waiting.length)) send(model, m, m.waiting.splice(0, maxBatch));
  };

  const send = (model: string, m: { flying: number[] }, batch: Waiter[]) => {
    m.flying.push(batch.length);
    void (async () => {
      try {
        const embedder = await embedders.get(model);
        const vectors = await embedder.embed(batch.map((w) => w.query));
        batch.forEach((w, i) => {
          const v = vectors[i];
          w.resolve(v?.some((x) => x !== 0) ? Array.from(v) : null);
        });
      } catch (err) {
        for (const w of batch) w.reject(err);
      } finally {
        m.flying.splice(m.flying.indexOf(batch.length), 1);
        flush(model);
      }
    })();
  };

  return (model: string, query: string): Promise<readonly number[] | null> =>
    new Promise((resolve, reject) => {
      const m = models.get(model) ?? { flying: [], waiting: [] };
      models.set(model, m);
      m.waiting.push({ query, resolve, reject });
      flush(model);
    });
}

/** Builds the cache. */
export function createQueryVectors({ embedders, size, maxBatch = MAX_QUERY_BATCH }: QueryVectorsOptions): QueryVectors {
  // A Map iterates in insertion order: re-inserting on a hit makes its first key the least recent.
  const cache = new Map<string, readonly number[] | null>();
  const inFlight = new Map<string, Promise<readonly number[] | null>>();
  const embed = createBatcher(embedders, Math.max(1, maxBatch));
  const remember = (key: string, query: string, vector: readonly number[] | null) => {
    if (size <= 0 || query.length > MAX_CACHED_QUERY_CHARS) return;
    cache.set(key, vector);
    if (cache.size > size) cache.delete(cache.keys().next().value!);
  };

  return {
    get(model, query) {
      const key = `${model}\n${query}`;
      if (cache.has(key)) {
        const vector = cache.get(key)!;
        cache.delete(key);
        cache.set(key, vector);
        return Promise.resolve(vector);
      }
      let pending = inFlight.get(key);
      if (!pending) {
        pending = embed(model, query).then(
          (vector) => {
            inFlight.delete(key);
            remember(key, query, vector);
            return vector;
          },
          (err: unknown) => {
            // A failure is not kept: the next request asks the model again.
            inFlight.delete(key);
            throw err;
          },
        );
        inFlight.set(key, pending);
      }
      return pending;
    },
  };
}
