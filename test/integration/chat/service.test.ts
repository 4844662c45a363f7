/** `startService` roles: `worker` runs the chat worker without serving, `api` serves without it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app.js';
import { startService, type Serve } from '../../../src/server.js';
import { createTestDeps, type TestDeps } from '../helpers/deps.js';
import { routerReply, startLlmServer, type LlmServer } from '../../helpers/llm-server.js';

let llm: LlmServer;
let api: TestDeps;
beforeAll(async () => {
  llm = await startLlmServer({ defaultReply: routerReply('lookup', 0.9) });
});
afterAll(async () => {
  await api?.close();
  await llm.close();
});

const env = (role: string, prefix: string) => ({
  GRAPHDB_URL: '127.0.0.1',
  GRAPHDB_PORT: process.env.TEST_GRAPHDB_PORT ?? '1234',
  KVSTORE_URL: process.env.TEST_KVSTORE_URL ?? 'redis://127.0.0.1:6379/0',
  KV_PREFIX: prefix,
  LOCAL_LLM_BASE_URL: llm.url,
  LOG_LEVEL: 'silent',
  MODELS_DIR: 'test-output/models',
  // The real vector search: results when an index for this model exists, else a clear error.
  EMBEDDING_MODEL: 'minishlab/potion-base-8M',
  SERVICE_ROLE: role,
  WORKER_SHUTDOWN_MS: '1000',
});

describe('SERVICE_ROLE', () => {
  it('worker: takes jobs and serves nothing; api: serves and takes none', async () => {
    api = createTestDeps();
    const prefix = api.kv.prefix;
    const ports: number[] = [];
    const serve: Serve = async (_fetch, port) => {
      ports.push(port);
      return { close: async () => {} };
    };

    const apiOnly = await startService({ env: env('api', prefix), serve, assets: async () => null, runtime: 'node' });
    expect(ports).toHaveLength(2);
    const app = createApp(api);
    const submit = async () => {
      const res = await app.request('/chat/message', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'Who is Ada?' }),
      });
      return ((await res.json()) as { job_id: string }).job_id;
    };
    const status = async (id: string) => ((await (await app.request(`/chat/job/${id}`)).json()) as { status: string }).status;
    const queued = await submit();
    await new Promise((r) => setTimeout(r, 300));
    expect(await status(queued)).toBe('pending');
    await apiOnly.stop();

    const workerOnly = await startService({ env: env('worker', prefix), serve, assets: async () => null, runtime: 'node' });
    expect(ports).toHaveLength(2);
    try {
      const until = Date.now() + 10_000;
      while (['pending', 'running'].includes(await status(queued)) && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
      // The worker ran it: routed, then the real vector search (done, or an error naming the missing index).
      const job = (await (await app.request(`/chat/job/${queued}`)).json()) as { status: string; error?: string };
      expect(job.status === 'done' || /index/i.test(job.error ?? '')).toBe(true);
      expect(llm.chatRequests().length).toBeGreaterThan(0);
    } finally {
      await workerOnly.stop();
    }
  });
});
