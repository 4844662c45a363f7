/**
 * Test dependencies against the real Neo4j and Redis started by `scripts/services/services.sh`
 * (Bolt 1234, Redis 6379 unless TEST_GRAPHDB_PORT / TEST_KVSTORE_URL say otherwise). Every
 * call gets its own Redis key prefix; `close()` deletes that prefix's keys.
 */
import { randomUUID } from 'node:crypto';
import { Cluster } from 'ioredis';
import { fileURLToPath } from 'node:url';
import { readFile } from 'node:fs/promises';
import { createApp } from '../../../src/app.js';
import type { AppDeps } from '../../../src/deps.js';
import { createDeps } from '../../../src/server.js';
import type { KvStore } from '../../../src/store/redis.js';
import { testConfig } from '../../helpers/test-config.js';

export { testConfig };

const PUBLIC = new URL('../../../dist/public/', import.meta.url);

/** Reads built static files (run `npm run build` first; `npm test` does). */
export const testAssets = (path: string) =>
  readFile(fileURLToPath(new URL(path, PUBLIC))).then(
    (b) => new Uint8Array(b),
    () => null,
  );

/** Deletes every key under the store's prefix: on each master of a cluster, one key at a time there. */
export async function deletePrefix(kv: KvStore): Promise<void> {
  const nodes = kv.redis instanceof Cluster ? kv.redis.nodes('master') : [kv.redis];
  for (const node of nodes) {
    const keys = await node.keys(`${kv.prefix}*`);
    // Keys of several slots cannot go in one DEL on a cluster; the cluster client routes each.
    await Promise.all(keys.map((k) => kv.redis.del(k)));
  }
}

/** Test deps plus a cleanup that removes the test's Redis keys and closes the clients. */
export interface TestDeps extends AppDeps {
  close(): Promise<void>;
}

/** Builds the real deps (`createDeps`, as the server does) with a unique key prefix. */
export function createTestDeps(env: Record<string, string> = {}): TestDeps {
  const deps = createDeps(testConfig({ KV_PREFIX: `test:${randomUUID().slice(0, 8)}:`, ...env }), testAssets);
  const { kv, graph, embedders } = deps;
  return {
    ...deps,
    async close() {
      try {
        await deletePrefix(kv);
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
