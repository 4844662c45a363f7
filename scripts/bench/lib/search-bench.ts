/**
 * Pieces both modes of `bench:search` share: the WikiPathways index (built when missing), the
 * API in a child process, a closed-loop load generator and its report line.
 */
import { spawn } from 'node:child_process';
import type { Config } from '../../../src/config.js';
import type { EmbedderPool } from '../../../src/embeddings/embedders.js';
import type { GraphStore } from '../../../src/graph/access/driver.js';
import { createLogger } from '../../../src/lib/log.js';
import { createKvStore } from '../../../src/store/redis.js';
import { buildVectorIndex } from '../../../src/vector-index/build/build.js';
import { fmt } from '../bench-common.js';
import { loadWikiPathways } from '../../load-wikipathways.js';
import { pct } from './stats.js';

/** Latencies of one load run, sorted ascending (ms), with failures and wall time. */
export interface LoadResult {
  latencies: number[];
  errors: number;
  seconds: number;
}

/** What {@link ensureWikiPathwaysIndex} created, and a run should remove when it ends. */
export interface Created {
  index: boolean;
  /** The WikiPathways nodes: false when they were in the graph before this run. */
  graph: boolean;
}

/**
 * Makes sure the WikiPathways index of `config` (VECTOR_INDEX_NAME, TEXT_PROPERTY) is online
 * and says what it created. A first build with a slow model server takes
 * minutes; later ones reuse the CSV batch cache under DATA_DIR.
 */
export async function ensureWikiPathwaysIndex(
  deps: { config: Config; graph: GraphStore; embedders: EmbedderPool },
  model: string,
): Promise<Created> {
  const { config, graph } = deps;
  const db = config.GRAPHDB_GRAPH;
  const index = config.VECTOR_INDEX_NAME!;
  const { records } = await graph.driver.executeQuery(
    'SHOW VECTOR INDEXES YIELD name, state WHERE name = $n RETURN state',
    { n: index },
    { database: db },
  );
  // An index whose pathways were dropped would answer with nothing: it counts as missing.
  const pathways = await graph.driver.executeQuery('MATCH (p:Pathway) RETURN count(p) > 0 AS any', {}, { database: db });
  const loaded = pathways.records[0]?.get('any') === true;
  if (records[0]?.get('state') === 'ONLINE' && loaded) return { index: false, graph: false };
  console.log(`index ${index} missing: loading WikiPathways and building it (cached batches are reused)`);
  // MERGE: completes a graph another run loaded in part, which then stays when this run ends.
  await loadWikiPathways(graph.driver, { database: db, textProperty: config.TEXT_PROPERTY });
  const kv = createKvStore({ url: config.KVSTORE_URL, prefix: 'bench:' });
  try {
    await buildVectorIndex({ ...deps, kv, log: createLogger('warn') }, { graph: db, model });
  } finally {
    await kv.close();
  }
  return { index: true, graph: !loaded };
}

/**
 * Runs `clients` closed loops of `call(i)` (i counts up across clients) until `seconds` pass
 * or, with `count`, until calls 0..count-1 are all made (each exactly once).
 */
export async function runLoad(
  call: (i: number) => Promise<void>,
  opts: { clients: number; seconds?: number; count?: number },
): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const end = opts.seconds === undefined ? Infinity : started + opts.seconds * 1000;
  const more = () => performance.now() < end && (opts.count === undefined || next < opts.count);
  await Promise.all(
    Array.from({ length: opts.clients }, async () => {
      while (more()) {
        const i = next++;
        const t = performance.now();
        try {
          await call(i);
          latencies.push(performance.now() - t);
        } catch {
          errors++;
        }
      }
    }),
  );
  return { latencies: latencies.sort((a, b) => a - b), errors, seconds: (performance.now() - started) / 1000 };
}

/** Prints a load result under `title`; returns its p50, p99 and mean (ms). */
export function report(title: string, r: LoadResult) {
  const mean = r.latencies.reduce((a, b) => a + b, 0) / r.latencies.length;
  console.log(`\n## ${title}`);
  console.log(
    `  requests      ${fmt(r.latencies.length)} ok, ${r.errors} failed, in ${fmt(r.seconds, 1)} s → ${fmt(r.latencies.length / r.seconds)} req/s`,
  );
  console.log(
    `  latency (ms)  p50 ${fmt(pct(r.latencies, 50), 1)} · p90 ${fmt(pct(r.latencies, 90), 1)} · p99 ${fmt(pct(r.latencies, 99), 1)} · mean ${fmt(mean, 1)}`,
  );
  return { p50: pct(r.latencies, 50), p99: pct(r.latencies, 99), mean };
}

/**
 * Starts the API alone (scripts/bench/bench-search-server.ts), or another `script` that prints
 * `listening <port>`, in a child process with `env` on top of this one's; resolves once it
 * listens. Extra `nodeArgs` (e.g. `--cpu-prof`) go to its Node; `cwd` runs another checkout's
 * code (a baseline).
 */
export async function startSearchServer(
  env: Record<string, string>,
  nodeArgs: string[] = [],
  cwd?: string,
  script = 'scripts/bench/bench-search-server.ts',
): Promise<{ port: number; pid: number; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [...nodeArgs, 'scripts/run-ts.mjs', script], {
    cwd,
    env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /listening (\d+)/.exec(String(d));
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return {
    port,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
