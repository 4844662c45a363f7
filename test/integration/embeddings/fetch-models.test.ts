/**
 * scripts/fetch-models against a local stand-in for the Hugging Face hub (the real one is not
 * reachable here): listing via the API, size and sha256 checks, resume after an interrupted
 * download, and the offline message and exit code.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_MODELS_DIR } from '../../helpers/models-setup.js';

const run = promisify(execFile);
const REPO = 'minishlab/potion-base-8M';
const SRC = `${TEST_MODELS_DIR}/${REPO}`;
const FILES = ['config.json', 'tokenizer.json', 'model.safetensors'];
const OUT = 'test-output/fetch-models';

interface Hub {
  requests: { path: string; range?: string }[];
  /** Bytes after which the next model.safetensors download is cut off. */
  cutAfter?: number;
  /** Serve a corrupted model.safetensors (same size, different bytes). */
  corrupt?: boolean;
}
const hub: Hub = { requests: [] };
let server: Server;
let endpoint: string;

async function fetchModels(env: Record<string, string> = {}) {
  try {
    const r = await run('node', ['scripts/fetch-models.mjs', '--dir', OUT, REPO], {
      env: { ...process.env, HF_ENDPOINT: endpoint, ...env },
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    hub.requests.push({ path: url.pathname, range: req.headers.range });
    if (url.pathname === `/api/models/${REPO}`) {
      const siblings = [...FILES, 'README.md']
        .filter((f) => f !== 'README.md')
        .map((f) => {
          const bytes = readFileSync(`${SRC}/${f}`);
          const lfs = f.endsWith('.safetensors')
            ? { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }
            : undefined;
          return { rfilename: f, size: bytes.length, lfs };
        });
      res.setHeader('content-type', 'application/json');
      return res.end(JSON.stringify({ id: REPO, siblings }));
    }
    const prefix = `/${REPO}/resolve/main/`;
    if (!url.pathname.startsWith(prefix)) return res.writeHead(404).end();
    let body = readFileSync(`${SRC}/${url.pathname.slice(prefix.length)}`);
    if (hub.corrupt && url.pathname.endsWith('.safetensors')) body = Buffer.from(body.map((b) => b ^ 1));
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const from = m ? Number(m[1]) : 0;
    if (m) res.writeHead(206, { 'content-range': `bytes ${from}-${body.length - 1}/${body.length}`, 'content-length': body.length - from });
    else res.writeHead(200, { 'content-length': body.length });
    const cut = url.pathname.endsWith('.safetensors') ? hub.cutAfter : undefined;
    if (cut !== undefined) {
      hub.cutAfter = undefined;
      res.write(body.subarray(from, from + cut), () => res.destroy());
      return;
    }
    res.end(body.subarray(from));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  rmSync(OUT, { recursive: true, force: true });
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(OUT, { recursive: true, force: true });
});

describe('scripts/fetch-models', () => {
  it('resumes an interrupted download with a Range request and verifies the result', async () => {
    hub.cutAfter = 1_000_000;
    const first = await fetchModels();
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('model.safetensors: download interrupted');
    expect(existsSync(`${OUT}/${REPO}/model.safetensors.part`)).toBe(true);
    expect(existsSync(`${OUT}/${REPO}/model.safetensors`)).toBe(false);
    // The connection is cut after 1 MB is sent; what reached the .part file before the reset
    // may be a little less, and the resume must start exactly there.
    const kept = statSync(`${OUT}/${REPO}/model.safetensors.part`).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThanOrEqual(1_000_000);

    hub.requests.length = 0;
    const second = await fetchModels();
    expect(second.code, second.stderr).toBe(0);
    const resume = hub.requests.find((r) => r.path.endsWith('model.safetensors'));
    expect(resume?.range).toBe(`bytes=${kept}-`);
    for (const f of FILES) expect(readFileSync(`${OUT}/${REPO}/${f}`).equals(readFileSync(`${SRC}/${f}`))).toBe(true);
    expect(existsSync(`${OUT}/${REPO}/model.safetensors.part`)).toBe(false);
  });

  it('skips files already present and verified', async () => {
    hub.requests.length = 0;
    const r = await fetchModels();
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('already present and verified');
    expect(hub.requests.filter((q) => q.path.includes('/resolve/'))).toEqual([]);
  });

  it('rejects a file whose sha256 differs from the listing', async () => {
    rmSync(`${OUT}/${REPO}/model.safetensors`);
    hub.corrupt = true;
    const r = await fetchModels();
    hub.corrupt = false;
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/model\.safetensors: sha256 [0-9a-f]+ does not match/);
    expect(existsSync(`${OUT}/${REPO}/model.safetensors`)).toBe(false);
  });

  it('says clearly that the hub is unreachable and exits 2', async () => {
    const dead = createServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    const port = (dead.address() as AddressInfo).port;
    await new Promise((r) => dead.close(r));
    const r = await fetchModels({ HF_ENDPOINT: `http://127.0.0.1:${port}` });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`cannot reach http://127.0.0.1:${port}`);
    expect(r.stderr).toContain('not reachable from this machine');
  });

  it('refuses names outside the in-process registry', async () => {
    const r = await run('node', ['scripts/fetch-models.mjs', 'all-minilm']).catch((e: { code: number; stderr: string }) => e);
    expect((r as { code: number }).code).toBe(64);
    expect((r as { stderr: string }).stderr).toContain('in-process models: minishlab/potion-base-8M');
  });
});
