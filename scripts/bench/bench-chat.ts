/**
 * Chat throughput benchmark (`npm run bench:chat`): the API on a real HTTP port and the chat
 * worker, the scripted model answering at once, and a fixed in-memory vector search (search
 * itself has its own benchmark). 32 clients each submit a lookup question and follow the job's
 * SSE stream until `job_done`, 2,000 jobs in all. The clients and the scripted model run in a
 * second thread (their own event loop), as they would be other machines.
 *
 * Prints jobs/s, p50/p90/p99 from submission to `job_done` seen on SSE, Redis round trips per
 * job (counted in the client library: one per command sent alone, one per pipeline or MULTI),
 * commands the server ran per job (INFO commandstats, including those inside Lua scripts),
 * event-loop use, and the latency of one client alone. With 32 clients each waiting for its
 * job before the next, latency under load is clients / throughput (Little's law).
 *
 * Environment: BENCH_JOBS (2000), BENCH_CLIENTS (32), BENCH_WORKERS=n (n workers, each in a
 * thread of its own with its own store connections, as `SERVICE_ROLE=worker` processes; 0 = the
 * worker shares the API's thread), BENCH_SPLIT=1 (= BENCH_WORKERS=1), BENCH_CLUSTER=1 (the local
 * Redis Cluster of scripts/services/redis-cluster.sh), WORKER_CONCURRENCY (32 here), KVSTORE_URL.
 */
import { serve } from '@hono/node-server';
import { Cluster, Pipeline, Redis } from 'ioredis';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData, type MessagePort } from 'node:worker_threads';
import { createApp } from '../../src/app.js';
import { createLookupHandler } from '../../src/chat/lookup.js';
import { createChatWorker } from '../../src/chat/worker.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createLogger } from '../../src/lib/log.js';
import { createLlmClients } from '../../src/llm/clients.js';
import { createJobEventHub } from '../../src/store/job-events.js';
import { createJobStore } from '../../src/store/jobs.js';
import { createJobQueue } from '../../src/store/queue.js';
import { createRateLimiter } from '../../src/store/rate-limit.js';
import { createKvStore } from '../../src/store/redis.js';
import { createDeps } from '../../src/server.js';
import { deletePrefix } from '../../test/integration/helpers/deps.js';
import { routerReply, startLlmServer } from '../../test/helpers/llm-server.js';
import { pct } from './lib/stats.js';

const JOBS = Number(process.env.BENCH_JOBS ?? 2_000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 32);
const WORKERS = Number(process.env.BENCH_WORKERS ?? (process.env.BENCH_SPLIT === '1' ? 1 : 0));
const CLUSTER_URL = 'redis+cluster://127.0.0.1:7101,127.0.0.1:7102,127.0.0.1:7103';

// Round-trip counter (per thread): a command sent alone is one round trip; a pipeline/MULTI one.
let roundTrips = 0;
const origSend = Redis.prototype.sendCommand;
Redis.prototype.sendCommand = function (this: Redis, command: any, stream?: any, ...rest: any[]) {
  if (!stream) roundTrips++;
  return (origSend as any).call(this, command, stream, ...rest);
} as typeof origSend;
const origExec = Pipeline.prototype.exec;
Pipeline.prototype.exec = function (this: Pipeline, ...args: any[]) {
  roundTrips++;
  return (origExec as any).apply(this, args);
} as typeof origExec;

const NODES = [
  {
    dbId: 1,
    displayName: 'Insulin receptor',
    text: 'The insulin receptor binds insulin at the plasma membrane.',
    score: 0.9,
    labels: ['Protein'],
  },
  { dbId: 2, displayName: 'Glucose transporter', text: 'GLUT4 transports glucose into muscle cells.', score: 0.8, labels: ['Protein'] },
];

/** A chat worker over its own store connection, as a worker process has. */
function startWorker(config: Config) {
  const kv = createKvStore({ url: config.KVSTORE_URL, prefix: config.KV_PREFIX });
  const worker = createChatWorker({
    queue: createJobQueue(kv),
    jobs: createJobStore(kv),
    limiter: createRateLimiter(kv),
    events: createJobEventHub(kv),
    config,
    log: createLogger('silent'),
    llm: createLlmClients(config),
    handlers: { lookup: createLookupHandler({ search: { search: async () => NODES }, model: config.EMBEDDING_MODEL, topK: 5 }) },
  });
  return { worker, kv, started: worker.start() };
}

/** Request/answer over a worker thread's port. */
const ask = <T>(port: MessagePort | Worker, msg: unknown) =>
  new Promise<T>((resolve) => {
    port.once('message', (m: T) => resolve(m));
    (port as Worker).postMessage(msg);
  });

/** The worker thread (BENCH_SPLIT=1). */
async function workerThread(port: MessagePort, config: Config) {
  const { worker, kv, started } = startWorker(config);
  await started;
  port.postMessage({ ready: true });
  port.on('message', async (m: { trips?: boolean; stop?: boolean }) => {
    if (m.trips) port.postMessage({ trips: roundTrips });
    if (m.stop) {
      await worker.stop();
      await kv.close();
      port.postMessage({ stopped: true });
      port.close();
    }
  });
}

/** The load thread: the scripted model and the clients. */
async function loadThread(port: MessagePort) {
  const llm = await startLlmServer({ defaultReply: routerReply('lookup', 0.95, 'bench'), maxRecorded: 10 });
  const base = await ask<string>(port, { llmUrl: llm.url });

  const oneJob = async (i: number): Promise<number> => {
    const t0 = performance.now();
    const res = await fetch(`${base}/chat/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: `What is node ${i}?` }),
    });
    if (res.status !== 202) throw new Error(`submit: ${res.status} ${await res.text()}`);
    const { job_id } = (await res.json()) as { job_id: string };
    const reader = (await fetch(`${base}/chat/job/${job_id}/stream`)).body!.getReader();
    const dec = new TextDecoder();
    let text = '';
    while (!text.includes('event: job_done')) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`job ${job_id} ended without job_done: ${text.slice(-200)}`);
      text += dec.decode(value, { stream: true });
    }
    const ms = performance.now() - t0;
    await reader.cancel().catch(() => {});
    return ms;
  };
  const run = async (total: number, clients: number) => {
    const latencies: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (next < total) latencies.push(await oneJob(next++));
      }),
    );
    return latencies;
  };
  port.on('message', async (m: { run?: [number, number]; close?: boolean }) => {
    if (m.run) port.postMessage(await run(...m.run));
    if (m.close) {
      await llm.close();
      port.close();
    }
  });
  port.postMessage('ready');
}

/** The API (and, without BENCH_WORKERS, the worker) in the main thread; drives the phases and prints. */
async function main() {
  const load = new Worker(new URL(import.meta.url), { workerData: { role: 'load' } });
  const { llmUrl } = await new Promise<{ llmUrl: string }>((r) => load.once('message', r));
  const env = {
    LOG_LEVEL: 'silent',
    KVSTORE_URL: process.env.BENCH_CLUSTER === '1' ? CLUSTER_URL : 'redis://127.0.0.1:6379/0',
    WORKER_CONCURRENCY: '32',
    ...process.env,
    LOCAL_LLM_BASE_URL: llmUrl,
    KV_PREFIX: `bench:${crypto.randomUUID().slice(0, 8)}:`,
  };
  const config = loadConfig(env);
  const deps = createDeps(config, async () => null);
  const threads = Array.from({ length: WORKERS }, () => new Worker(new URL(import.meta.url), { workerData: { role: 'worker', env } }));
  const local = WORKERS ? undefined : startWorker(config);
  await Promise.all(threads.map((w) => new Promise((r) => w.once('message', r))));
  await local?.started;
  const server = serve({ fetch: createApp(deps).fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((r) => server.once('listening', r));
  await ask(load, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const run = (total: number, clients: number) => ask<number[]>(load, { run: [total, clients] });
  const trips = async () => {
    let n = roundTrips;
    for (const w of threads) n += (await ask<{ trips: number }>(w, { trips: true })).trips;
    return n;
  };
  // Every master of a cluster runs its share of the commands.
  const commands = async () => {
    let n = 0;
    for (const node of deps.kv.redis instanceof Cluster ? deps.kv.redis.nodes('master') : [deps.kv.redis]) {
      const info = await node.info('commandstats');
      n += [...info.matchAll(/calls=(\d+)/g)].reduce((s, m) => s + Number(m[1]), 0);
    }
    return n;
  };
  const masters = deps.kv.redis instanceof Cluster ? deps.kv.redis.nodes('master').length : 1;

  await run(Math.min(200, JOBS), CLIENTS); // warm-up: JIT, connections, script cache
  const cmd0 = await commands();
  const trips0 = await trips();
  const elu0 = performance.eventLoopUtilization();
  const t0 = performance.now();
  const lat = (await run(JOBS, CLIENTS)).sort((a, b) => a - b);
  const secs = (performance.now() - t0) / 1000;
  const elu = performance.eventLoopUtilization(elu0);
  // The counting itself: one trip per worker thread asked, one INFO per master.
  const tripsPerJob = ((await trips()) - trips0 - threads.length) / JOBS;
  const cmdsPerJob = ((await commands()) - cmd0 - masters) / JOBS;
  const solo = (await run(200, 1)).sort((a, b) => a - b);

  console.log(
    `bench:chat  ${JOBS} lookup jobs, ${CLIENTS} clients, worker concurrency ${config.WORKER_CONCURRENCY}, ${
      WORKERS ? `${WORKERS} worker thread(s)` : 'worker in the API thread'
    }, ${masters > 1 ? `Redis Cluster of ${masters} masters` : 'single Redis'}`,
  );
  console.log(`  throughput      ${(JOBS / secs).toFixed(0)} jobs/s  (${secs.toFixed(2)} s)`);
  console.log(`  submit→job_done p50 ${pct(lat, 50).toFixed(1)} ms  p90 ${pct(lat, 90).toFixed(1)} ms  p99 ${pct(lat, 99).toFixed(1)} ms`);
  console.log(
    `  redis           ${tripsPerJob.toFixed(1)} round trips/job (client side), ${cmdsPerJob.toFixed(1)} commands/job (server, incl. Lua)`,
  );
  console.log(`  API thread      event loop busy ${(elu.utilization * 100).toFixed(0)}%${WORKERS ? '' : ' (API and worker share it)'}`);
  console.log(
    `  one client      p50 ${pct(solo, 50).toFixed(1)} ms  p99 ${pct(solo, 99).toFixed(1)} ms  (latency without queueing, 200 jobs)`,
  );

  await Promise.all(threads.map((w) => ask(w, { stop: true })));
  await local?.worker.stop();
  await local?.kv.close();
  await new Promise((r) => server.close(r));
  await deletePrefix(deps.kv);
  load.postMessage({ close: true });
  await new Promise((r) => load.once('exit', r));
  await Promise.allSettled([deps.kv.close(), deps.graph.close(), deps.embedders.close()]);
}

if (isMainThread) await main();
else if (workerData.role === 'load') await loadThread(parentPort!);
else await workerThread(parentPort!, loadConfig(workerData.env));
