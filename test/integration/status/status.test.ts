/**
 * `GET /status` against the real Neo4j and Redis: what it reports before and after an index is
 * built, without model files, with a language model that answers, lacks the model or is not
 * there, and with the graph database down; each missing piece comes with its fix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Status, StatusCheck } from '../../../src/contract/status.js';
import { createJobQueue } from '../../../src/store/queue.js';
import { buildVectorIndex } from '../../../src/vector-index/build/build.js';
import { createTestApp, createTestDeps } from '../helpers/deps.js';
import { startLlmServer, type LlmServer } from '../../helpers/llm-server.js';
import { createIndexFixture, createTextNodes, dropIndexFixture } from '../helpers/index-fixtures.js';

const fixture = createIndexFixture();
let llm: LlmServer;

const statusOf = async (env: Record<string, string> = {}) => {
  const { app, deps } = createTestApp({ LOCAL_LLM_BASE_URL: llm.url, ...fixture.env, ...env });
  try {
    const t = performance.now();
    const res = await app.request('/status');
    expect(res.status).toBe(200);
    return { body: (await res.json()) as Status, ms: performance.now() - t, deps };
  } finally {
    await deps.close();
  }
};
const check = (s: Status, id: StatusCheck['id']) => s.checks.find((c) => c.id === id);

beforeAll(async () => {
  llm = await startLlmServer();
  const deps = createTestDeps(fixture.env);
  await createTextNodes(deps.graph.driver, fixture, [
    'Ada Lovelace wrote the first program.',
    'Charles Babbage designed engines.',
    'Text three.',
  ]);
  await deps.close();
});
afterAll(async () => {
  const deps = createTestDeps(fixture.env);
  await dropIndexFixture(deps.graph.driver, fixture);
  await deps.close();
  await llm?.close();
});

describe('GET /status', () => {
  it('before a build: counts, no index, no worker, the router model not pulled; each with its fix', async () => {
    const { body } = await statusOf();
    expect(body.ready).toBe(false);
    expect(body.graph).toMatchObject({ name: 'neo4j', reachable: true, text_nodes: 3 });
    // What the server can do (src/graph/access/server-info.ts; its own suite checks the values per version).
    expect(body.graph.server).toMatchObject({ version: expect.stringMatching(/^\d+\.\d+\.\d+$/), edition: 'community' });
    expect(check(body, 'graphdb')?.detail).toContain(`(Neo4j ${body.graph.server?.version} community)`);
    expect(body.graph.nodes).toBeGreaterThanOrEqual(3);
    expect(body.indexes).toEqual([
      expect.objectContaining({
        model: 'minishlab/potion-base-32M',
        index_name: fixture.index,
        vector: 'missing',
        fulltext: 'missing',
        configured: true,
      }),
    ]);
    expect(body.embedding_models.find((m) => m.model === 'minishlab/potion-base-32M')?.files).toBe('present');
    expect(body.embedding_models.find((m) => m.model === 'all-minilm')?.files).toBe('not-needed');
    expect(check(body, 'graphdb')).toMatchObject({ ok: true });
    expect(check(body, 'graph')).toMatchObject({ ok: true });
    expect(check(body, 'model-files')).toMatchObject({ ok: true });
    expect(check(body, 'index')).toMatchObject({ ok: false, required: true });
    expect(check(body, 'index')?.fix).toContain(`scripts/build-index --graph neo4j --model minishlab/potion-base-32M`);
    expect(check(body, 'workers')).toMatchObject({ ok: false, required: true });
    // The scripted server lists only the model "scripted".
    expect(body.language_models).toEqual([
      expect.objectContaining({ role: 'router', provider: 'local', model: 'qwen2.5:1.5b', state: 'unknown-model' }),
      expect.objectContaining({ role: 'agent', provider: 'local', state: 'unknown-model' }),
    ]);
    expect(check(body, 'router-model')).toMatchObject({ ok: false, required: false });
    expect(check(body, 'router-model')?.fix).toContain('ollama pull qwen2.5:1.5b');
    expect(body.queue).toEqual({ pending: 0, workers: 0 });
  });

  it('after a build and with a worker alive and models that answer: ready', async () => {
    const deps = createTestDeps(fixture.env);
    await buildVectorIndex(deps, { graph: 'neo4j', model: 'minishlab/potion-base-32M' });
    await deps.close();
    const env = { LOCAL_LLM_AGENT_MODEL: 'scripted', LOCAL_LLM_ROUTER_MODEL: 'scripted:latest' };
    const { app, deps: appDeps } = createTestApp({ LOCAL_LLM_BASE_URL: llm.url, ...fixture.env, ...env });
    try {
      await createJobQueue(appDeps.kv).heartbeat('status-test-worker', 10_000);
      const body = (await (await app.request('/status')).json()) as Status;
      expect(body.indexes.find((i) => i.configured)).toMatchObject({ vector: 'online', fulltext: 'online', population_percent: 100 });
      expect(body.queue).toEqual({ pending: 0, workers: 1 });
      expect(body.language_models.map((m) => m.state)).toEqual(['ok', 'ok']);
      expect(body.checks.filter((c) => !c.ok)).toEqual([]);
      expect(body.checks.every((c) => c.fix === undefined)).toBe(true);
      expect(body.ready).toBe(true);
    } finally {
      await appDeps.close();
    }
  });

  it('without model files: says where they go and how to fetch them', async () => {
    const { body } = await statusOf({ MODELS_DIR: 'test-output/no-models-here' });
    expect(check(body, 'model-files')).toMatchObject({ ok: false, required: true });
    expect(check(body, 'model-files')?.fix).toContain('scripts/fetch-models minishlab/potion-base-32M');
    expect(body.ready).toBe(false);
  });

  it('a model server that is not there, and a hosted key that is refused', async () => {
    const hosted = await startLlmServer({ apiKey: 'right' });
    const { body } = await statusOf({
      LOCAL_LLM_BASE_URL: 'http://127.0.0.1:1/v1',
      LLM_PROVIDER: 'hosted',
      ROUTER_PROVIDER: 'local',
      HOSTED_LLM_BASE_URL: hosted.url,
      HOSTED_LLM_API_KEY: 'wrong',
    }).finally(() => hosted.close());
    expect(body.language_models).toEqual([
      expect.objectContaining({ role: 'router', provider: 'local', state: 'unreachable' }),
      expect.objectContaining({ role: 'agent', provider: 'hosted', state: 'key-refused' }),
    ]);
    expect(check(body, 'router-model')?.fix).toContain('ollama serve');
    expect(check(body, 'agent-model')?.fix).toContain('HOSTED_LLM_API_KEY');
  });

  it('the graph database down: answers quickly, says how to start it', async () => {
    const { body, ms } = await statusOf({ GRAPHDB_PORT: '1' });
    expect(ms).toBeLessThan(4_000);
    expect(body.graph).toMatchObject({ reachable: false, nodes: null, text_nodes: null });
    expect(body.graph.server).toBeUndefined();
    expect(check(body, 'graphdb')).toMatchObject({ ok: false });
    expect(check(body, 'graphdb')?.fix).toContain('npm run services:start');
    expect(check(body, 'index')).toBeUndefined();
    expect(body.ready).toBe(false);
  });
});
