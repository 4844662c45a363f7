/**
 * Soak test (`npm run bench:soak`): the service as `npm start` runs it (its own Node process,
 * API + UI + worker), the scripted model answering, and SOAK_CLIENTS virtual users for
 * SOAK_SECONDS (default 300) of mixed traffic: each user gets an identity from
 * /chat/bootstrap-anon (its own X-Forwarded-For address, TRUST_PROXY=true), sends chat messages
 * and polls them to the end, lists and reads its sessions, reads /health and /config, and calls
 * MCP `graph_query`; after 10 messages it leaves and a new user takes its place.
 *
 * Prints requests/s, status counts (5xx must be 0; 429 are limits doing their job), p50/p99
 * per request kind, the server's RSS at start and end, and the Redis keys of the run at start
 * and end with those that have no lifetime, grouped by pattern.
 *
 * Environment: SOAK_SECONDS (300), SOAK_CLIENTS (32), KVSTORE_URL (redis://127.0.0.1:6379/0),
 * GRAPHDB_PORT (1234). Needs the services of `scripts/services/services.sh start`.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { routerReply, startLlmServer } from '../../test/helpers/llm-server.js';
import { pct } from './lib/stats.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 300);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 32);
const KV_URL = process.env.KVSTORE_URL ?? 'redis://127.0.0.1:6379/0';
const PREFIX = `soak:${crypto.randomUUID().slice(0, 8)}:`;
const PORT = 18_000 + (process.pid % 1_000);

const latencies = new Map<string, number[]>();
const statuses = new Map<number, number>();

/** One timed request; `kind` groups the latencies. */
async function timed(kind: string, url: string, init: RequestInit = {}): Promise<Response> {
  const t0 = performance.now();
  const res = await fetch(url, init);
  const body = await res.arrayBuffer();
  (latencies.get(kind) ?? latencies.set(kind, []).get(kind)!).push(performance.now() - t0);
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  return new Response(body, { status: res.status, headers: res.headers });
}

const rssMb = async (pid: number) => {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};

/** Keys of this run, and those without a lifetime grouped by pattern (ids replaced by `*`). */
async function keyCensus(redis: Redis) {
  let cursor = '0';
  let total = 0;
  const forever = new Map<string, number>();
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${PREFIX}*`, 'COUNT', 1000);
    cursor = next;
    total += keys.length;
    const ttls = await Promise.all(keys.map((k) => redis.ttl(k)));
    keys.forEach((k, i) => {
      if (ttls[i] !== -1) return;
      const pattern = k.slice(PREFIX.length).replace(/[0-9a-f-]{36}|[A-Za-z0-9_-]{43}/g, '*');
      forever.set(pattern, (forever.get(pattern) ?? 0) + 1);
    });
  } while (cursor !== '0');
  return { total, forever };
}

async function main() {
  const llm = await startLlmServer({ defaultReply: routerReply('agent', 0.9, 'soak'), maxRecorded: 10 });
  const base = `http://127.0.0.1:${PORT}`;
  const server = spawn(process.execPath, ['scripts/run-ts.mjs', 'src/runtime/node.ts'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      UI_PORT: String(PORT + 1),
      KVSTORE_URL: KV_URL,
      KV_PREFIX: PREFIX,
      GRAPHDB_URL: '127.0.0.1',
      GRAPHDB_PORT: process.env.GRAPHDB_PORT ?? '1234',
      LOCAL_LLM_BASE_URL: llm.url,
      LOG_LEVEL: 'error',
      TRUST_PROXY: 'true',
      ANON_LIMITS: 'address',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const redis = new Redis(KV_URL);
  try {
    for (let i = 0; ; i++) {
      if (i > 300) throw new Error('the server did not answer /health within 60 s');
      const ok = await fetch(`${base}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const rss0 = await rssMb(server.pid!);
    const keys0 = await keyCensus(redis);
    const until = performance.now() + SECONDS * 1000;
    let users = 0;

    const user = async (n: number) => {
      const headers = { 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` };
      const boot = await timed('bootstrap', `${base}/chat/bootstrap-anon`, { headers, redirect: 'manual' });
      const anon = /anon_id=([^;]+)/.exec(boot.headers.get('set-cookie') ?? '')?.[1];
      if (!anon) return;
      const me = { ...headers, 'x-anon-id': anon, 'content-type': 'application/json' };
      let session: string | undefined;
      for (let m = 0; m < 10 && performance.now() < until; m++) {
        const sub = await timed('message', `${base}/chat/message`, {
          method: 'POST',
          headers: me,
          body: JSON.stringify({ message: `question ${m} of user ${n}`, session_id: session }),
        });
        if (sub.status !== 202) continue;
        const { job_id, session_id } = (await sub.json()) as { job_id: string; session_id: string };
        session = session_id;
        for (let p = 0; p < 100; p++) {
          const job = (await (await timed('poll', `${base}/chat/job/${job_id}`, { headers: me })).json()) as { status: string };
          if (job.status === 'done' || job.status === 'error') break;
          await new Promise((r) => setTimeout(r, 50));
        }
        await timed('sessions', `${base}/chat/sessions?anon_id=${encodeURIComponent(anon)}`, { headers });
        await timed('session', `${base}/chat/session/${session_id}`, { headers: me });
        await timed('health', `${base}/health`, { headers });
        await timed('config', `${base}/config`, { headers });
        await timed('mcp', `${base}/mcp`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: m,
            method: 'tools/call',
            params: { name: 'graph_query', arguments: { cypher_query: 'MATCH (n) RETURN count(n) AS nodes' } },
          }),
        });
      }
    };
    const t0 = performance.now();
    const rssSamples: number[] = [];
    const sampler = setInterval(() => void rssMb(server.pid!).then((mb) => rssSamples.push(mb)), Math.max(1_000, (SECONDS * 1000) / 10));
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (performance.now() < until) await user(users++);
      }),
    );
    const secs = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    await new Promise((r) => setTimeout(r, 2_000)); // last jobs finish
    const rss1 = await rssMb(server.pid!);
    const keys1 = await keyCensus(redis);

    const all = [...latencies.values()].flat().sort((a, b) => a - b);
    const count = (f: (s: number) => boolean) => [...statuses].filter(([s]) => f(s)).reduce((n, [, c]) => n + c, 0);
    console.log(`bench:soak  ${SECONDS} s, ${CLIENTS} concurrent users, ${users} identities in all`);
    console.log(
      `  requests       ${all.length} (${(all.length / secs).toFixed(0)}/s), p50 ${pct(all, 50).toFixed(1)} ms, p99 ${pct(all, 99).toFixed(1)} ms`,
    );
    console.log(
      `  statuses       ${[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([s, c]) => `${s}×${c}`)
        .join('  ')}`,
    );
    console.log(`  5xx            ${count((s) => s >= 500)}  (error rate ${((count((s) => s >= 500) / all.length) * 100).toFixed(2)}%)`);
    for (const [kind, l] of [...latencies].sort()) {
      l.sort((a, b) => a - b);
      console.log(`  ${kind.padEnd(14)} n=${String(l.length).padEnd(6)} p50 ${pct(l, 50).toFixed(1)} ms  p99 ${pct(l, 99).toFixed(1)} ms`);
    }
    console.log(
      `  server RSS     ${rss0.toFixed(0)} MB at start, ${rss1.toFixed(0)} MB at end; during: ${rssSamples.map((mb) => mb.toFixed(0)).join(' ')}`,
    );
    console.log(
      `  redis keys     ${keys0.total} at start, ${keys1.total} at end; without a lifetime: ${keys1.forever.size ? [...keys1.forever].map(([p, n]) => `${p}×${n}`).join(', ') : 'none'}`,
    );
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    // The run's keys go; what is left without a lifetime was reported above.
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${PREFIX}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
    redis.disconnect();
    await llm.close();
  }
}

await main();
