/**
 * Config for tests, shared by unit and integration suites: it names the local servers
 * (TEST_GRAPHDB_PORT, TEST_KVSTORE_URL) but connects to nothing itself.
 */
import { randomUUID } from 'node:crypto';
import { loadConfig, type Config } from '../../src/config.js';

/** Config for tests: the local servers, quiet logs, a private data directory. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    GRAPHDB_PORT: process.env.TEST_GRAPHDB_PORT ?? '1234',
    KVSTORE_URL: process.env.TEST_KVSTORE_URL ?? 'redis://127.0.0.1:6379/0',
    GRAPHDB_URL: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATA_DIR: `test-output/data-${randomUUID().slice(0, 8)}`,
    // Small generated models (scripts/gen/gen-test-models.mjs, run by the vitest global setup).
    MODELS_DIR: 'test-output/models',
    // Suites share one database: a build indexes its own text property only, unless a suite
    // turns discovery on for a graph of its own labels (`INDEX_LABELS`).
    INDEX_DISCOVER: 'false',
    // Syncs run only where a suite starts them.
    INDEX_SYNC_INTERVAL_MS: '0',
    // The full check, as the sync suites test it; the change-log suite asks for the plugin.
    INDEX_CHANGE_SOURCE: 'scan',
    ...env,
  });
}
