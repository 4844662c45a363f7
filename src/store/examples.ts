/**
 * Agent examples added at run time (`POST /dev/examples`, `node dist/cli.js examples add`): one
 * list per graph, `<prefix>examples:<graph>` (./keys.ts), each entry `{question, cypher, note?,
 * added_at}` as JSON, oldest first. The store, not a file: every API and worker process of a
 * deployment reads the same list (a file would be on one machine's disk), and it survives
 * restarts as chat sessions do. The examples file (`EXAMPLES_FILE`) stays the reviewed source
 * that ships with a deployment and is never written.
 */
import { createKeys } from './keys.js';
import type { KvStore } from './redis.js';

/** One stored example, as added. */
export interface StoredExample {
  question: string;
  cypher: string;
  note?: string;
  /** Unix ms. */
  added_at: number;
}

/** The run-time examples of each graph. */
export interface ExampleStore {
  /** Every example of `graph`, oldest first; entries that are not JSON objects come back as their raw text. */
  list(graph: string): Promise<Array<StoredExample | string>>;
  /** Appends one; resolves to its 1-based position. */
  add(graph: string, example: Omit<StoredExample, 'added_at'>): Promise<number>;
  /** How many there are: one round trip, so that every process notices another's additions. */
  count(graph: string): Promise<number>;
  /** Deletes them all (tests, and a clean start). */
  clear(graph: string): Promise<void>;
}

/** The store over `kv`. */
export function createExampleStore(kv: KvStore): ExampleStore {
  const keys = createKeys(kv.prefix);
  return {
    async list(graph) {
      const raw = await kv.redis.lrange(keys.examples(graph), 0, -1);
      return raw.map((text) => {
        try {
          const value = JSON.parse(text) as unknown;
          return value && typeof value === 'object' && !Array.isArray(value) ? (value as StoredExample) : text;
        } catch {
          return text;
        }
      });
    },
    add(graph, example) {
      const entry: StoredExample = { ...example, added_at: Date.now() };
      return kv.redis.rpush(keys.examples(graph), JSON.stringify(entry));
    },
    count: (graph) => kv.redis.llen(keys.examples(graph)),
    async clear(graph) {
      await kv.redis.del(keys.examples(graph));
    },
  };
}
