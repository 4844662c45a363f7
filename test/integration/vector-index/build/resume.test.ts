/**
 * An interrupted build: `build-index` (the real CLI, bundled from src/) is killed with SIGKILL
 * half-way; its lock blocks a second build until the TTL runs out; the re-run completes from the
 * CSV cache (`batches_skipped > 0`) and leaves exactly the chunk nodes an uninterrupted build
 * writes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, rm } from 'node:fs/promises';
import { build as esbuild } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheDir } from '../../../../src/vector-index/build/csv-cache.js';
import { buildVectorIndex } from '../../../../src/vector-index/build/build.js';
import { buildLockKey } from '../../../../src/store/build-lock.js';
import { chunkLabel, quoteName } from '../../../../src/graph/dialect/names.js';
import { generateProse } from '../../../../scripts/bench/bench-prose.js';
import { createTestDeps } from '../../helpers/deps.js';
import { createIndexFixture, createTextNodes, dropIndexFixture, indexContent } from '../../helpers/index-fixtures.js';

const MODEL = 'minishlab/potion-base-32M';
const f = createIndexFixture(MODEL, { CHUNK_TOKENS: '48', CHUNK_OVERLAP_TOKENS: '8', INDEX_BATCH_SIZE: '8' });
const deps = createTestDeps(f.env);
const driver = deps.graph.driver;
const cli = `${f.dataDir}/cli.mjs`;
const csvCount = async () => (await readdir(cacheDir(f.dataDir, f.index)).catch(() => [])).filter((n) => n.endsWith('.csv')).length;

/** Starts the CLI with the suite's config (same key prefix, so the same lock key). */
function startCli(args: string[] = []): { child: ChildProcess; out: () => string; err: () => string; exit: Promise<number | null> } {
  const child = spawn(process.execPath, [cli, 'build-index', '--graph', 'neo4j', '--model', MODEL, ...args], {
    env: {
      ...process.env,
      ...f.env,
      GRAPHDB_URL: '127.0.0.1',
      GRAPHDB_PORT: process.env.TEST_GRAPHDB_PORT ?? '1234',
      KVSTORE_URL: process.env.TEST_KVSTORE_URL ?? 'redis://127.0.0.1:6379/0',
      KV_PREFIX: deps.kv.prefix,
      MODELS_DIR: deps.config.MODELS_DIR,
      LOG_LEVEL: 'warn',
      // As the suite's own builds: this suite's text property only, not every label of the shared database.
      INDEX_DISCOVER: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exit };
}

beforeAll(async () => {
  await esbuild({
    entryPoints: ['src/cli/main.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile: cli,
    logLevel: 'error',
  });
  await createTextNodes(
    driver,
    f,
    Array.from({ length: 500 }, (_, i) => generateProse(5000 + i, 200, 2000)),
  );
});
afterAll(async () => {
  await dropIndexFixture(driver, f);
  await deps.close();
});

// Two builds of ~400 batches each; on a loaded 2-core machine one took over 30 s (a clean-clone CI run).
describe('interrupted build', { timeout: 120_000 }, () => {
  let resumed: string[] = [];

  it('resumes after the builder is killed half-way, skipping the cached batches', async () => {
    const run = startCli();
    // Kill once a good number of batches are cached, well before the end (~400 batches).
    const deadline = Date.now() + 60_000;
    while ((await csvCount()) < 25) {
      expect(Date.now()).toBeLessThan(deadline);
      expect(run.child.exitCode, run.err()).toBeNull();
      await new Promise((r) => setTimeout(r, 10));
    }
    run.child.kill('SIGKILL');
    await run.exit;
    const cachedAtKill = await csvCount();
    const chunksAtKill = (await indexContent(driver, f.index)).length;

    // The dead builder's lock is still there, but its Redis connection is gone: the next build
    // takes over at once instead of waiting for the lock's TTL (30 s by default).
    expect(await deps.kv.redis.pttl(buildLockKey(deps.kv, f.index))).toBeGreaterThan(0);
    const r = await buildVectorIndex(deps, { graph: 'neo4j', model: MODEL });
    expect(r.batches_skipped).toBeGreaterThanOrEqual(cachedAtKill);
    expect(r.batches_computed).toBeGreaterThan(0);
    expect(r.batches_computed + r.batches_skipped).toBe(r.batches_total);
    resumed = await indexContent(driver, f.index);
    expect(resumed).toHaveLength(r.total_chunks);
    expect(chunksAtKill).toBeLessThan(r.total_chunks / 2); // it really was killed half-way
  });

  it('leaves the same index content as an uninterrupted build', async () => {
    const run = (q: string) => driver.executeQuery(q, {}, { database: 'neo4j' });
    await run(`MATCH (c:${quoteName(chunkLabel(f.index))}) DELETE c`);
    await run(`DROP INDEX ${quoteName(f.index)} IF EXISTS`);
    await rm(cacheDir(f.dataDir, f.index), { recursive: true, force: true });

    const r = await buildVectorIndex(deps, { graph: 'neo4j', model: MODEL });
    expect(r.batches_skipped).toBe(0);
    const fresh = await indexContent(driver, f.index);
    expect(fresh.length).toBeGreaterThan(0);
    expect(fresh).toEqual(resumed);
  });

  it('the CLI prints plain progress lines off a terminal and the result as JSON', async () => {
    const run = startCli(['--batch-size', '8']);
    expect(await run.exit).toBe(0);
    const result = JSON.parse(run.out());
    expect(result).toMatchObject({ index_name: f.index, batches_computed: 0 });
    expect(result.batches_skipped).toBe(result.batches_total);
    expect(run.err()).toMatch(/^build-index: embedding +\d+% .*chunks\/s · ETA/m);
    expect(run.err()).toMatch(/^build-index: indexing .*vector index/m);
    expect(run.err()).not.toContain('\r');
  });

  it('the CLI rejects bad arguments with its usage', async () => {
    const run = startCli(['--batch-size', 'many']);
    expect(await run.exit).toBe(2);
    expect(run.err()).toContain('usage: scripts/build-index');
  });
});
