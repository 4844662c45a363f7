/**
 * No job is lost or left `running`: a worker process killed mid-job (SIGKILL of a child
 * process) has its job retried by another worker; a job whose worker died twice ends in
 * `error`; shutdown finishes running jobs, or puts them back on the queue past its grace period.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleTestChild } from '../helpers/child-process.js';
import { createChatWorker, MAX_ATTEMPTS, WORKER_LOST } from '../../../src/chat/worker.js';
import { NOT_QUEUED, createJobStore } from '../../../src/store/jobs.js';
import { createKeys } from '../../../src/store/keys.js';
import { createJobQueue } from '../../../src/store/queue.js';
import { routerReply } from '../../helpers/llm-server.js';
import { startHarness, type Harness } from '../helpers/chat-harness.js';

let CHILD: string;

let h: Harness;
let keys: ReturnType<typeof createKeys>;
beforeAll(async () => {
  CHILD = await bundleTestChild('chat-worker-child');
  h = await startHarness({ worker: false });
  keys = createKeys(h.deps.kv.prefix);
});
afterAll(() => h.close());

const status = async (jobId: string) => ((await (await h.app.request(`/chat/job/${jobId}`)).json()) as any).status as string;
const waitFor = async (check: () => Promise<boolean>, ms = 10_000) => {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

function startChild(): Promise<{ child: ChildProcess; workerId: string }> {
  const child = spawn(process.execPath, [CHILD], {
    env: {
      ...process.env,
      KVSTORE_URL: h.deps.config.KVSTORE_URL,
      KV_PREFIX: h.deps.kv.prefix,
      LOCAL_LLM_BASE_URL: h.llm.url,
      WORKER_LEASE_MS: String(h.deps.config.WORKER_LEASE_MS),
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker child exited with ${code}`)));
    child.stdout!.on('data', (b: Buffer) => {
      const m = /ready (\S+)/.exec(b.toString());
      if (m) resolve({ child, workerId: m[1]! });
    });
  });
}

describe('worker recovery', () => {
  it('retries the job of a worker process killed mid-job', async () => {
    h.llm.script({ ...routerReply('lookup', 0.9), latencyMs: 60_000 });
    const sub = await h.submit('Ada, interrupted?');
    const { child, workerId } = await startChild();
    // Killed while its router call is in flight (the scripted reply is being delayed).
    await waitFor(async () => h.llm.chatRequests().length === 1);
    expect(await status(sub.job_id)).toBe('running');
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(await h.deps.kv.redis.lrange(keys.processing(workerId), 0, -1)).toEqual([sub.job_id]);

    const worker = await h.startWorker();
    const job = await h.waitJob(sub.job_id, 15_000);
    expect(job.status).toBe('done');
    expect(await h.deps.kv.redis.hget(keys.job(sub.job_id), 'attempts')).toBe(String(MAX_ATTEMPTS));
    expect(await h.deps.kv.redis.llen(keys.processing(workerId))).toBe(0);
    expect(await h.deps.kv.redis.sismember(keys.workers(), workerId)).toBe(0);
    const { frames } = await h.stream(sub.job_id);
    // The first attempt's routing_started stays in the stream; the retry runs to the end.
    expect(frames.filter((f) => f.event).map((f) => f.event)).toEqual(['routing_started', 'routing_started', 'routing_done', 'job_done']);
    await worker.stop();
  });

  it('ends a job in error when its worker died on the retry too', async () => {
    const sub = await h.submit('Ada, twice interrupted?');
    const dead = 'dead-worker';
    await h.deps.kv.redis.lmove(keys.queue(), keys.processing(dead), 'RIGHT', 'LEFT');
    await h.deps.kv.redis.hset(keys.job(sub.job_id), { status: 'running', attempts: String(MAX_ATTEMPTS) });
    await h.deps.kv.redis.sadd(keys.workers(), dead);
    const worker = await h.startWorker();
    const job = await h.waitJob(sub.job_id);
    expect(job).toEqual({ job_id: sub.job_id, status: 'error', error: WORKER_LOST });
    const { frames } = await h.stream(sub.job_id);
    expect(frames.filter((f) => f.event).map((f) => f.event)).toEqual(['job_error']);
    expect(await h.deps.kv.redis.exists(keys.processing(dead))).toBe(0);
    await worker.stop();
  });
});

describe('graceful shutdown', () => {
  it('finishes running jobs before stopping', async () => {
    const worker = await h.startWorker();
    h.llm.script({ ...routerReply('lookup', 0.9), latencyMs: 400 });
    const sub = await h.submit('Ada, before shutdown?');
    await waitFor(async () => (await status(sub.job_id)) === 'running');
    await worker.stop();
    expect(await status(sub.job_id)).toBe('done');
    expect(await h.deps.kv.redis.sismember(keys.workers(), worker.id)).toBe(0);
  });

  it('puts a job still running after the grace period back on the queue', async () => {
    const worker = createChatWorker({
      ...h.deps,
      queue: createJobQueue(h.deps.kv),
      config: { ...h.deps.config, WORKER_SHUTDOWN_MS: 100 },
      handlers: { lookup: async () => ({ answer: 'x', sources: [], token_usage: null }) },
    });
    await worker.start();
    h.llm.script({ ...routerReply('lookup', 0.9), latencyMs: 5_000 });
    const sub = await h.submit('Ada, too slow?');
    await waitFor(async () => (await status(sub.job_id)) === 'running');
    const started = Date.now();
    await worker.stop();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await status(sub.job_id)).toBe('pending');
    expect(await h.deps.kv.redis.lrange(keys.queue(), 0, -1)).toEqual([sub.job_id]);

    const next = await h.startWorker();
    expect((await h.waitJob(sub.job_id)).status).toBe('done');
    await next.stop();
  });
});

describe('submission', () => {
  it('ends a stored job in error when it cannot be queued, so its session does not wait on it', async () => {
    const first = await h.submit('Ada, the first question?');
    // Queueing fails (the queue key holds a string: WRONGTYPE) after the job was stored.
    await h.deps.kv.redis.lpop(keys.queue());
    await h.deps.kv.redis.set(keys.queue(), 'not a list');
    try {
      // Without a queue bound (its LLEN would fail first).
      const jobs = createJobStore(h.deps.kv);
      await expect(jobs.submit({ message: 'Ada, again?', sessionId: first.session_id, userId: null, llm: {} })).rejects.toThrow(
        /WRONGTYPE/,
      );
    } finally {
      await h.deps.kv.redis.del(keys.queue());
    }
    expect((await h.deps.sessions.load(first.session_id))?.pending_job_id).toBeNull();
    // The job that was not queued is over, with the reason (its ID shares the session's slot tag).
    const pattern = `${keys.job(first.session_id).slice(0, -first.session_id.length)}*`;
    const nodes = h.deps.kv.redis instanceof Cluster ? h.deps.kv.redis.nodes('master') : [h.deps.kv.redis];
    const found = (await Promise.all(nodes.map((n) => n.keys(pattern)))).flat();
    const stored = found.filter((k) => k !== keys.job(first.job_id) && !k.endsWith(':events'));
    expect(stored).toHaveLength(1);
    expect(await h.deps.kv.redis.hmget(stored[0]!, 'status', 'error')).toEqual(['error', NOT_QUEUED]);
  });
});
