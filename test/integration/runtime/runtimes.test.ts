/**
 * The same dist/ bundle under Node, Bun and Deno: each starts the whole service (API, web UI
 * and chat worker), answers /health from the real Neo4j and Redis and serves the UI page,
 * reports its idle memory, and exits cleanly on SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routerReply, startLlmServer, type LlmServer } from '../../helpers/llm-server.js';

const RUNTIMES: Record<string, string[]> = {
  node: [process.execPath, 'dist/node.js'],
  bun: ['node_modules/.bin/bun', 'dist/bun.js'],
  deno: ['node_modules/.bin/deno', 'run', '--allow-all', 'dist/deno.js'],
};

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function waitForHealth(port: number, child: ChildProcess, log: () => string): Promise<Response> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${log()}`);
    try {
      return await fetch(`http://127.0.0.1:${port}/health`);
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`no answer on ${port}: ${log()}`);
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

let llm: LlmServer;
beforeAll(async () => {
  llm = await startLlmServer();
});
afterAll(() => llm.close());

/** Sends a message and reads its job's SSE stream to the end (the server closes it). */
async function askThroughStream(port: number): Promise<string> {
  const base = `http://127.0.0.1:${port}`;
  const sub = await fetch(`${base}/chat/message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'How are missions and agencies connected?' }),
  });
  expect(sub.status).toBe(202);
  const { job_id } = (await sub.json()) as { job_id: string };
  const stream = await fetch(`${base}/chat/job/${job_id}/stream`, { signal: AbortSignal.timeout(20_000) });
  expect(stream.headers.get('content-type')).toContain('text/event-stream');
  return stream.text();
}

describe.each(Object.entries(RUNTIMES))('the bundle under %s', (name, [cmd, ...args]) => {
  it('serves /health and the UI, answers a chat job through its worker, and stops on SIGTERM', async () => {
    const prefix = `test:rt-${name}-${process.pid}:`;
    const port = await freePort();
    const uiPort = await freePort();
    const child = spawn(cmd!, args, {
      env: {
        ...process.env,
        PORT: String(port),
        UI_PORT: String(uiPort),
        GRAPHDB_URL: '127.0.0.1',
        KVSTORE_URL: 'redis://127.0.0.1:6379/0',
        LOG_LEVEL: 'info',
        DATA_DIR: 'test-output/data-runtimes',
        KV_PREFIX: prefix,
        LOCAL_LLM_BASE_URL: llm.url,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    try {
      const res = await waitForHealth(port, child, () => out);
      expect(await res.json()).toEqual({ status: 'ok', graphdb: 'ok', kvstore: 'ok' });
      expect(res.status).toBe(200);
      const ui = await fetch(`http://127.0.0.1:${uiPort}/`);
      expect(ui.status).toBe(200);
      expect(await ui.text()).toContain('<html');
      // Router → agent → one model answer without tool calls: the worker, Redis and the
      // openai client all run under this runtime.
      llm.script(routerReply('agent', 0.9), { content: `Answered under ${name}.` });
      const events = await askThroughStream(port);
      expect(events).toMatch(/event: routing_done[\s\S]*event: agent_step[\s\S]*event: job_done/);
      expect(events).toContain(`Answered under ${name}.`);
      await new Promise((r) => setTimeout(r, 1_000));
      console.log(`${name}: idle RSS ${rssMb(child.pid!).toFixed(1)} MB`);
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      const redis = new Redis('redis://127.0.0.1:6379/0');
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    }
  });
});

describe('a bad configuration', () => {
  it('stops start-up with one line naming the variable', async () => {
    const child = spawn(process.execPath, ['dist/node.js'], {
      env: { ...process.env, GRAPHDB_PORT: 'abc' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    expect(code).toBe(1);
    expect(stderr).toBe('config error: GRAPHDB_PORT: expected a port number 1..65535 (got "abc")\n');
  });
});
