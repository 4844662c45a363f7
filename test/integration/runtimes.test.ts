/**
 * The same dist/ bundle under Node, Bun and Deno: each starts, answers /health from the real
 * Neo4j and Redis, reports its idle memory, and exits cleanly on SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';

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

describe.each(Object.entries(RUNTIMES))('the bundle under %s', (name, [cmd, ...args]) => {
  it('serves /health and stops on SIGTERM', async () => {
    const port = await freePort();
    const uiPort = await freePort();
    const child = spawn(cmd!, args, {
      env: {
        ...process.env,
        PORT: String(port),
        UI_PORT: String(uiPort),
        GRAPHDB_URL: '127.0.0.1',
        KVSTORE_URL: 'redis://127.0.0.1:6379/0',
        LOG_LEVEL: 'warn',
        DATA_DIR: 'test-output/data-runtimes',
        SERVICE_ROLE: 'api',
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
      await new Promise((r) => setTimeout(r, 1_000));
      console.log(`${name}: idle RSS ${rssMb(child.pid!).toFixed(1)} MB`);
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
