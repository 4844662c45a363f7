/**
 * Test dependencies against the real Neo4j and Redis started by `scripts/services.sh`
 * (Bolt 1234, Redis 6379 unless TEST_GRAPHDB_PORT / TEST_KVSTORE_URL say otherwise). Every
 * call gets its own Redis key prefix; `close()` deletes that prefix's keys.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { readFile } from 'node:fs/promises';
import { createApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { AppDeps } from '../../src/deps.js';
import { createEmbeddersFromConfig } from '../../src/embeddings/embedders.js';
import { createVectorSearcher } from '../../src/embeddings/vector-search.js';
import { createGraphStore } from '../../src/graph/driver.js';
import { createSkeletonCache } from '../../src/graph/skeleton-cache.js';
import { createLogger } from '../../src/lib/log.js';
import { createLlmClients } from '../../src/llm/clients.js';
import { createKvStore } from '../../src/store/redis.js';

/** Config for tests: the local servers, quiet logs, a private data directory. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    GRAPHDB_PORT: process.env.TEST_GRAPHDB_PORT ?? '1234',
    KVSTORE_URL: process.env.TEST_KVSTORE_URL ?? 'redis://127.0.0.1:6379/0',
    GRAPHDB_URL: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATA_DIR: `test-output/data-${randomUUID().slice(0, 8)}`,
    // Small generated models (scripts/gen-test-models.mjs, run by the vitest global setup).
    MODELS_DIR: 'test-output/models',
    ...env,
  });
}

const PUBLIC = new URL('../../dist/public/', import.meta.url);

/** Reads built static files (run `npm run build` first; `npm test` does). */
export const testAssets = (path: string) =>
  readFile(fileURLToPath(new URL(path, PUBLIC))).then((b) => new Uint8Array(b), () => null);

/** Test deps plus a cleanup that removes the test's Redis keys and closes the clients. */
export interface TestDeps extends AppDeps {
  close(): Promise<void>;
}

/** Builds real deps with a unique key prefix. */
export function createTestDeps(env: Record<string, string> = {}): TestDeps {
  const config = testConfig(env);
  const prefix = `test:${randomUUID().slice(0, 8)}:`;
  const kv = createKvStore({ url: config.KVSTORE_URL, prefix });
  const graph = createGraphStore(config);
  const embedders = createEmbeddersFromConfig(config);
  return {
    config,
    graph,
    kv,
    log: createLogger('silent'),
    assets: testAssets,
    embedders,
    llm: createLlmClients(config),
    search: createVectorSearcher({ config, graph, embedders }),
    skeleton: createSkeletonCache({ graph, maxChars: config.SKELETON_MAX_CHARS, refreshMs: config.SKELETON_REFRESH_MS }),
    async close() {
      try {
        const keys = await kv.redis.keys(`${prefix}*`);
        if (keys.length) await kv.redis.del(...keys);
      } catch {
        // The server may be the one a test pointed at a dead port.
      }
      await Promise.allSettled([kv.close(), graph.close(), embedders.close()]);
    },
  };
}

/** An app over fresh test deps. */
export function createTestApp(env: Record<string, string> = {}) {
  const deps = createTestDeps(env);
  return { app: createApp(deps), deps };
}
