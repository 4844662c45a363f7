/**
 * The embedding model server of the peer benchmark: a running OpenAI-compatible one when a URL
 * is given, else all-MiniLM-L6-v2 (../shared/tools/minilm-server/server.py) started on a free
 * port from the venv and weights that its setup.sh makes, and stopped by `stop`.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

/** Options of {@link startModelServer}. */
export interface ModelServerOptions {
  /** Base URL of a running server (`…/v1`): used as is, never stopped. */
  url?: string;
  /** Python of the venv; default `$MINILM_VENV/bin/python`, `MINILM_VENV` defaulting to `.local/minilm-venv`. */
  python?: string;
  /** Model folder; default `MINILM_MODEL_DIR`, else `.local/minilm-model`. */
  modelDir?: string;
  /**
   * Threads of its numpy (OpenBLAS/OpenMP), default 1. Their library's threads spin for a while
   * after each embedding: on a machine of two cores, two of them take the cores from the API and
   * Neo4j just when a search goes on after its embedding (docs/benchmarks.md, "Speed, where the time over the floor goes").
   */
  threads?: number;
}

/** A model server for the bench. */
export interface ModelServer {
  /** OpenAI-compatible base URL, `http://127.0.0.1:<port>/v1`. */
  url: string;
  description: string;
  /** Its process id when started here. */
  pid?: number;
  stop(): Promise<void>;
}

const SERVER = resolve(process.cwd(), '../shared/tools/minilm-server/server.py');

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((ok) => srv.listen(0, '127.0.0.1', ok));
  const { port } = srv.address() as { port: number };
  await new Promise((ok) => srv.close(ok));
  return port;
}

/** Starts (or adopts) the model server; resolves once it answers `GET /v1/models`. */
export async function startModelServer(opts: ModelServerOptions): Promise<ModelServer> {
  if (opts.url) return { url: opts.url, description: `${opts.url} (given)`, stop: async () => {} };
  const python = opts.python ?? `${process.env.MINILM_VENV ?? '.local/minilm-venv'}/bin/python`;
  const modelDir = opts.modelDir ?? process.env.MINILM_MODEL_DIR ?? '.local/minilm-model';
  if (!existsSync(python) || !existsSync(`${modelDir}/model.safetensors`)) {
    throw new Error(
      `no minilm venv or weights (${python}, ${modelDir}): run ../shared/tools/minilm-server/setup.sh, ` +
        'pass --python and --model-dir, or --model-server <url>',
    );
  }
  const port = await freePort();
  const threads = String(opts.threads ?? 1);
  const env = { ...process.env, OMP_NUM_THREADS: threads, OPENBLAS_NUM_THREADS: threads, MKL_NUM_THREADS: threads };
  const child = spawn(python, [SERVER, modelDir, String(port)], { stdio: ['ignore', 'pipe', 'inherit'], env });
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  await new Promise<void>((ok, fail) => {
    child.stdout!.on('data', (d: Buffer) => {
      if (String(d).includes(`:${port}`)) ok();
    });
    child.once('exit', (code) => fail(new Error(`model server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/v1`,
    description: `all-MiniLM-L6-v2 (${SERVER}, started here on port ${port}, pid ${child.pid}, ${threads} thread(s))`,
    pid: child.pid,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
