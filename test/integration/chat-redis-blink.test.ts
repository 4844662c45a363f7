/**
 * Nothing accepted is lost when Redis goes away for a while: jobs running while the project's
 * own Redis (a private instance on a spare port, started and stopped with scripts/redis.sh)
 * is down all end `done` or `error` once it is back.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { routerReply } from '../helpers/llm-server.js';
import { startHarness, type Harness } from './chat-harness.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PORT = String(16_000 + (process.pid % 1_000));
const DIR = `${ROOT}.local/redis-blink-${PORT}`;
const redis = (cmd: 'start' | 'stop') =>
  execFileSync('bash', [`${ROOT}scripts/redis.sh`, cmd], {
    env: { ...process.env, REDIS_PORT: PORT, REDIS_DIR: DIR },
    stdio: 'pipe',
  });

let h: Harness;
beforeAll(async () => {
  redis('start');
  h = await startHarness({ env: { KVSTORE_URL: `redis://127.0.0.1:${PORT}/0`, WORKER_CONCURRENCY: '8', WORKER_LEASE_MS: '1500' } });
}, 60_000);
afterAll(async () => {
  await h?.close();
  redis('stop');
  rmSync(DIR, { recursive: true, force: true }); // a private instance: nothing in it is kept
});

it('ends every job that ran while Redis was down once it is back', async () => {
  h.llm.script({ ...routerReply('lookup', 0.9), latencyMs: 1_500 });
  const subs = [];
  for (let i = 0; i < 8; i++) subs.push(await h.submit(`question ${i} before the blink`));
  await new Promise((r) => setTimeout(r, 300)); // the worker has taken them: they are running
  redis('stop');
  await new Promise((r) => setTimeout(r, 4_000)); // every model answer arrives while Redis is down
  redis('start');
  const ends = await Promise.all(subs.map((s) => h.waitJob(s.job_id, 60_000)));
  for (const job of ends) expect(['done', 'error']).toContain(job.status);
  expect(ends.filter((j) => j.status === 'done').length).toBeGreaterThan(0);
}, 120_000);
