/**
 * The real service for end-to-end tests: the built bundle (`node dist/node.js`) as a child
 * process on free ports, against the local Neo4j and Redis (its own key prefix, whose keys are
 * deleted on stop) and a scripted model server in this test process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/** A running service. */
export interface E2eServer {
  apiUrl: string;
  uiUrl: string;
  /** The Redis key prefix of this server (`KV_PREFIX`). */
  prefix: string;
  redis: Redis;
  /** Everything the process printed, for failure messages. */
  output(): string;
  /** Stops the process (idempotent) and deletes its Redis keys. */
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, child: ChildProcess, output: () => string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output()}`);
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`server did not answer ${url} within ${timeoutMs} ms:\n${output()}`);
}

/** Starts `node dist/node.js` with `env` on top of the test defaults. */
export async function startE2eServer(env: Record<string, string> = {}): Promise<E2eServer> {
  if (!existsSync('dist/node.js')) throw new Error('dist/node.js is missing: run `npx tsup` first (npm run test:e2e does)');
  const [port, uiPort] = [await freePort(), await freePort()];
  const prefix = `e2e:${randomUUID().slice(0, 8)}:`;
  const kvUrl = process.env.TEST_KVSTORE_URL ?? 'redis://127.0.0.1:6379/0';
  const child = spawn(process.execPath, ['dist/node.js'], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      UI_PORT: String(uiPort),
      UI_URL: `http://127.0.0.1:${uiPort}/`,
      GRAPHDB_URL: '127.0.0.1',
      GRAPHDB_PORT: process.env.TEST_GRAPHDB_PORT ?? '1234',
      KVSTORE_URL: kvUrl,
      KV_PREFIX: prefix,
      LOG_LEVEL: 'warn',
      DATA_DIR: `test-output/e2e-data-${prefix.slice(4, 12)}`,
      MODELS_DIR: 'test-output/models',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const output = () => out;
  const apiUrl = `http://127.0.0.1:${port}`;
  const uiUrl = `http://127.0.0.1:${uiPort}`;
  const redis = new Redis(kvUrl.replace(/^valkey/, 'redis'), { lazyConnect: false, maxRetriesPerRequest: 1 });
  try {
    await waitFor(`${apiUrl}/health`, child, output);
    await waitFor(`${uiUrl}/`, child, output);
  } catch (err) {
    child.kill('SIGKILL');
    redis.disconnect();
    throw err;
  }

  let stopping: Promise<void> | undefined;
  return {
    apiUrl,
    uiUrl,
    prefix,
    redis,
    output,
    stop: () =>
      (stopping ??= (async () => {
        if (child.exitCode === null) {
          const exited = new Promise((r) => child.once('exit', r));
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(timer);
        }
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
          if (keys.length) await redis.del(...keys);
          cursor = next;
        } while (cursor !== '0');
        await redis.quit();
      })()),
  };
}
