/**
 * Many API and worker processes on a Redis Cluster (scripts/services/redis-cluster.sh; override with
 * TEST_KVSTORE_CLUSTER_URL): two API processes and two worker processes share one key prefix.
 * A job accepted by one API is streamed live by the other; a worker killed with SIGKILL mid-job
 * loses nothing and runs nothing twice; one user's requests spread over both APIs are admitted
 * exactly up to the per-user limit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeys, RATE_LIMITS } from '../../../src/store/keys.js';
import { routerReply } from '../../helpers/llm-server.js';
import { parseSse } from '../../helpers/sse.js';
import { startHarness, type Harness } from '../helpers/chat-harness.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const OUT = `${ROOT}test-output/chat-multiprocess`;
const CLUSTER = process.env.TEST_KVSTORE_CLUSTER_URL ?? 'redis+cluster://127.0.0.1:7101,127.0.0.1:7102,127.0.0.1:7103';
const LEASE_MS = 800;

let h: Harness;
let keys: ReturnType<typeof createKeys>;
const children = new Set<ChildProcess>();
let apis: string[] = [];
let workers: Array<{ child: ChildProcess; workerId: string }> = [];

/** Starts a child process and resolves with the first match of `ready` on its output. */
function startChild(file: string, ready: RegExp): Promise<{ child: ChildProcess; value: string }> {
  const child = spawn(process.execPath, [`${OUT}/${file}.js`], {
    env: {
      ...process.env,
      KVSTORE_URL: CLUSTER,
      KV_PREFIX: h.deps.kv.prefix,
      LOCAL_LLM_BASE_URL: h.llm.url,
      WORKER_LEASE_MS: String(LEASE_MS),
      GRAPHDB_URL: '127.0.0.1',
      GRAPHDB_PORT: h.deps.config.GRAPHDB_PORT.toString(),
      MODELS_DIR: h.deps.config.MODELS_DIR,
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
    child.stdout!.on('data', (b: Buffer) => {
      const m = ready.exec(b.toString());
      if (m) resolve({ child, value: m[1]! });
    });
  });
}

const startWorker = async () => {
  const { child, value } = await startChild('chat-worker-child', /ready (\S+)/);
  return { child, workerId: value };
};

beforeAll(async () => {
  await build({
    config: false,
    entry: {
      'chat-worker-child': `${ROOT}test/integration/helpers/chat-worker-child.ts`,
      'chat-api-child': `${ROOT}test/integration/helpers/chat-api-child.ts`,
    },
    outDir: OUT,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    silent: true,
    clean: false,
  });
  // In-process: the scripted model server, the key prefix and its cleanup; no worker of its own.
  h = await startHarness({ worker: false, env: { KVSTORE_URL: CLUSTER } });
  keys = createKeys(h.deps.kv.prefix);
  apis = (await Promise.all([0, 1].map(() => startChild('chat-api-child', /listening (\d+)/)))).map(
    ({ value }) => `http://127.0.0.1:${value}`,
  );
  workers = await Promise.all([startWorker(), startWorker()]);
}, 60_000);

afterAll(async () => {
  for (const c of children) c.kill('SIGTERM');
  await h?.close();
});

const post = (api: string, message: string, headers: Record<string, string> = {}) =>
  fetch(`${api}/chat/message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ message }),
  });

const submit = async (api: string, message: string) => {
  const res = await post(api, message);
  expect(res.status).toBe(202);
  return (await res.json()) as { job_id: string; session_id: string };
};

/** Reads a job's SSE stream from `api` to its end. */
const stream = async (api: string, jobId: string) => {
  const res = await fetch(`${api}/chat/job/${jobId}/stream`, { signal: AbortSignal.timeout(30_000) });
  expect(res.status).toBe(200);
  return parseSse(await res.text()).filter((f) => f.event);
};

const waitFor = async (check: () => Promise<boolean>, ms = 15_000) => {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('two APIs and two workers on a Redis Cluster', () => {
  it('streams a job accepted by one API from the other, live', async () => {
    h.llm.script({ ...routerReply('lookup', 0.9), latencyMs: 500 });
    const sub = await submit(apis[0]!, 'Ada, across processes?');
    const started = Date.now();
    const frames = await stream(apis[1]!, sub.job_id);
    expect(frames.map((f) => f.event)).toEqual(['routing_started', 'routing_done', 'job_done']);
    expect(frames.map((f) => f.id)).toEqual([1, 2, 3]);
    // Connected before the model answered: the last events came live through the cluster.
    expect(Date.now() - started).toBeGreaterThan(300);
    const session = (await (await fetch(`${apis[0]}/chat/session/${sub.session_id}`)).json()) as { messages: unknown[] };
    expect(session.messages).toHaveLength(2);
  });

  it('loses nothing and runs nothing twice when a worker is killed mid-job', async () => {
    // Every router call waits, so both workers hold jobs when one of them is killed.
    for (let i = 0; i < 6; i++) h.llm.script({ ...routerReply('lookup', 0.9), latencyMs: 1_500 });
    const calls = h.llm.chatRequests().length;
    const subs = await Promise.all(Array.from({ length: 6 }, (_, i) => submit(apis[i % 2]!, `Ada, question ${i}?`)));
    const holding = async (w: { workerId: string }) => h.deps.kv.redis.llen(keys.processing(w.workerId));
    await waitFor(async () => (await holding(workers[0]!)) > 0 && (await holding(workers[1]!)) > 0);
    const victim = workers[0]!;
    // Killed once each job it holds is inside its router call.
    await waitFor(async () => h.llm.chatRequests().length - calls >= (await holding(workers[0]!)) + (await holding(workers[1]!)));
    const taken = await h.deps.kv.redis.lrange(keys.processing(victim.workerId), 0, -1);
    victim.child.kill('SIGKILL');
    await new Promise((r) => victim.child.once('exit', r));

    for (const sub of subs) {
      const frames = await stream(apis[1]!, sub.job_id);
      expect(frames.filter((f) => f.event === 'job_done' || f.event === 'job_error').map((f) => f.event)).toEqual(['job_done']);
      const session = (await (await fetch(`${apis[0]}/chat/session/${sub.session_id}`)).json()) as { messages: unknown[] };
      // One question and one answer: the killed attempt wrote nothing to the session.
      expect(session.messages).toHaveLength(2);
    }
    for (const jobId of taken) expect(await h.deps.kv.redis.hget(keys.job(jobId), 'attempts')).toBe('2');
    // One router call per job, plus one more for each job the killed worker held: no other re-run.
    expect(h.llm.chatRequests().length - calls).toBe(subs.length + taken.length);
    expect(await h.deps.kv.redis.llen(keys.processing(victim.workerId))).toBe(0);
    expect(await h.deps.kv.redis.llen(keys.queue())).toBe(0);
    workers[0] = await startWorker();
  }, 60_000);

  it('keeps one user to the request limit when the requests are spread over both APIs', async () => {
    const res = await fetch(`${apis[0]}/chat/bootstrap-anon`, { redirect: 'manual' });
    const anon = /anon_id=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
    expect(anon).toBeTruthy();
    const n = RATE_LIMITS.requests + 6;
    const statuses = await Promise.all(
      Array.from({ length: n }, (_, i) => post(apis[i % 2]!, `limit ${i}`, { 'x-anon-id': anon! }).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 202)).toHaveLength(RATE_LIMITS.requests);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
  }, 30_000);
});
