/**
 * Chat throughput benchmark (`npm run bench:chat`): the API on a real HTTP port, the worker in
 * the same process, the scripted model answering at once, and a fixed in-memory vector search
 * (the search itself is measured by its own benchmark). 32 clients each submit a lookup
 * question and follow the job's SSE stream until `job_done`, 2,000 jobs in all.
 *
 * Prints jobs/s, p50/p90/p99 from submission to `job_done` seen on SSE, Redis round trips per
 * job (counted in the client library: one per command sent alone, one per pipeline or
 * MULTI), commands the server ran per job (INFO commandstats, including those inside Lua
 * scripts), and CPU / event-loop use to show what limits it.
 *
 * With 32 clients each waiting for its job before submitting the next, latency under load is
 * clients / throughput (Little's law); the last line is the latency of one client alone.
 *
 * Environment: BENCH_JOBS (2000), BENCH_CLIENTS (32), WORKER_CONCURRENCY (32 here),
 * KVSTORE_URL (redis://127.0.0.1:6379/0).
 */
import { serve } from '@hono/node-server';
import { Pipeline, Redis } from 'ioredis';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { createApp } from '../src/app.js';
import { createLookupHandler } from '../src/chat/lookup.js';
import { createChatWorker } from '../src/chat/worker.js';
import { loadConfig } from '../src/config.js';
import { createDeps } from '../src/server.js';
import { routerReply, startLlmServer } from '../test/helpers/llm-server.js';

const JOBS = Number(process.env.BENCH_JOBS ?? 2_000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 32);

// Round-trip counter: a command sent alone is one round trip; a pipeline/MULTI is one.
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

/** The load side, in its own thread (own event loop and core): the scripted model and the clients. */
async function loadThread() {
  const port = parentPort!;
  const llm = await startLlmServer({ defaultReply: routerReply('lookup', 0.95, 'bench'), maxRecorded: 10 });
  port.postMessage({ llmUrl: llm.url });
  const base = await new Promise<string>((r) => port.once('message', (m: { base: string }) => r(m.base)));

  /** One job: submit, follow its stream to job_done; returns ms from submission. */
  const oneJob = async (i: number): Promise<number> => {
    const t0 = performance.now();
    const res = await fetch(`${base}/chat/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: `What is node ${i}?` }),
    });
    if (res.status !== 202) throw new Error(`submit: ${res.status} ${await res.text()}`);
    const { job_id } = (await res.json()) as { job_id: string };
    const stream = await fetch(`${base}/chat/job/${job_id}/stream`);
    const reader = stream.body!.getReader();
    const dec = new TextDecoder();
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += dec.decode(value, { stream: true });
      if (text.includes('event: job_done')) break;
    }
    const ms = performance.now() - t0;
    await reader.cancel().catch(() => {});
    if (!text.includes('event: job_done')) throw new Error(`job ${job_id} ended without job_done: ${text.slice(-200)}`);
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
    if (m.run) port.postMessage({ latencies: await run(...m.run) });
    if (m.close) {
      await llm.close();
      port.close();
    }
  });
  port.postMessage({ ready: true });
}

if (!isMainThread) {
  await loadThread();
} else {
  await main();
}

async function main() {
const load = new Worker(new URL(import.meta.url));
const nextMessage = <T>() => new Promise<T>((r) => load.once('message', r));
const { llmUrl } = await nextMessage<{ llmUrl: string }>();
const config = loadConfig({
  LOG_LEVEL: 'silent',
  KVSTORE_URL: 'redis://127.0.0.1:6379/0',
  WORKER_CONCURRENCY: '32',
  ...process.env,
  LOCAL_LLM_BASE_URL: llmUrl,
  KV_PREFIX: `bench:${crypto.randomUUID().slice(0, 8)}:`,
  SERVICE_ROLE: 'all',
});
const deps = createDeps(config, async () => null, 'node');
const nodes = [
  { dbId: 1, displayName: 'Insulin receptor', text: 'The insulin receptor binds insulin at the plasma membrane.', score: 0.9, labels: ['Protein'] },
  { dbId: 2, displayName: 'Glucose transporter', text: 'GLUT4 transports glucose into muscle cells.', score: 0.8, labels: ['Protein'] },
];
const worker = createChatWorker({
  kv: deps.kv,
  config,
  log: deps.log,
  llm: deps.llm,
  handlers: { lookup: createLookupHandler({ search: { search: async () => nodes }, model: config.EMBEDDING_MODEL, topK: 5 }) },
});
await worker.start();
const server = serve({ fetch: createApp(deps).fetch, port: 0, hostname: '127.0.0.1' });
await new Promise((r) => server.once('listening', r));
const ready = nextMessage();
load.postMessage({ base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
await ready;
const run = async (total: number, clients: number) => {
  const reply = nextMessage<{ latencies: number[] }>();
  load.postMessage({ run: [total, clients] });
  return (await reply).latencies;
};

const commandCount = async () => {
  const info = await deps.kv.redis.info('commandstats');
  return [...info.matchAll(/calls=(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
};
const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

await run(Math.min(200, JOBS), CLIENTS); // warm-up: JIT, connections, script cache
const cmd0 = await commandCount();
roundTrips = 0;
const cpu0 = process.cpuUsage();
const elu0 = performance.eventLoopUtilization();
const t0 = performance.now();
const lat = (await run(JOBS, CLIENTS)).sort((a, b) => a - b);
const secs = (performance.now() - t0) / 1000;
const trips = roundTrips;
const cmds = (await commandCount()) - cmd0 - 1;
const cpu = process.cpuUsage(cpu0);
const elu = performance.eventLoopUtilization(elu0);

console.log(`bench:chat  ${JOBS} lookup jobs, ${CLIENTS} clients, worker concurrency ${config.WORKER_CONCURRENCY}`);
console.log(`  throughput      ${(JOBS / secs).toFixed(0)} jobs/s  (${secs.toFixed(2)} s)`);
console.log(`  submit→job_done p50 ${pct(lat, 50).toFixed(1)} ms  p90 ${pct(lat, 90).toFixed(1)} ms  p99 ${pct(lat, 99).toFixed(1)} ms`);
console.log(`  redis           ${(trips / JOBS).toFixed(1)} round trips/job (client side), ${(cmds / JOBS).toFixed(1)} commands/job (server, incl. Lua)`);
console.log(
  `  service thread  event loop busy ${(elu.utilization * 100).toFixed(0)}%; process CPU ${(((cpu.user + cpu.system) / 1e6 / secs) * 100).toFixed(0)}% of one core (service + load thread)`,
);
console.log('  (API and worker share one event loop; the clients and the scripted model run in a second thread)');
const solo = (await run(200, 1)).sort((a, b) => a - b);
console.log(`  one client      p50 ${pct(solo, 50).toFixed(1)} ms  p99 ${pct(solo, 99).toFixed(1)} ms  (latency without queueing, 200 jobs)`);

await worker.stop();
await new Promise((r) => server.close(r));
const keys = await deps.kv.redis.keys(`${config.KV_PREFIX}*`);
for (let i = 0; i < keys.length; i += 500) await deps.kv.redis.del(...keys.slice(i, i + 500));
load.postMessage({ close: true });
await new Promise((r) => load.once('exit', r));
await Promise.allSettled([deps.kv.close(), deps.graph.close(), deps.embedders.close()]);
}
