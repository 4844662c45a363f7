/**
 * `npm run bench:search`: `POST /vector/search` over the WikiPathways index (built by
 * bench:index; built here from the cache when missing) under 16 concurrent clients for 30 s,
 * then the same load on the raw Cypher vector query alone (query vectors computed beforehand),
 * so the service's own overhead (HTTP, validation, embedding the query, JSON) is the difference.
 * The API runs in a child process; the clients share the machine with it and with Neo4j. A
 * short single-client run of each shows the overhead without queueing for the two cores.
 *
 * Options: --seconds <s> (30), --clients <n> (16), --top-k <k> (5), --keep (leave the WikiPathways
 * graph and index when this run had to create them; by default they are removed afterwards).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import neo4j from 'neo4j-driver';
import { createEmbeddersFromConfig } from '../src/embeddings/embedders.js';
import { buildVectorIndex } from '../src/vector-index/index-build.js';
import { VECTOR_SEARCH } from '../src/graph/dialect.js';
import { createGraphStore } from '../src/graph/driver.js';
import { createLogger } from '../src/lib/log.js';
import { createKvStore } from '../src/store/redis.js';
import { dropSearchIndex } from '../src/vector-index/index-writer.js';
import { BENCH_MODEL, WIKIPATHWAYS_INDEX, WIKIPATHWAYS_PROP, benchConfig, benchModels, describeMachine, fmt } from './bench-common.js';
import { pct } from './lib/stats.js';
import { DEFAULT_DIR, dropWikiPathways, loadWikiPathways } from './load-wikipathways.js';

const { values } = parseArgs({
  options: { seconds: { type: 'string' }, clients: { type: 'string' }, 'top-k': { type: 'string' }, keep: { type: 'boolean' } },
});
const SECONDS = Number(values.seconds ?? 30);
const CLIENTS = Number(values.clients ?? 16);
const TOP_K = Number(values['top-k'] ?? 5);
const models = benchModels();
// The service resolves (neo4j, BENCH_MODEL) to the bench index through VECTOR_INDEX_NAME.
const env = {
  TEXT_PROPERTY: WIKIPATHWAYS_PROP,
  EMBEDDING_MODEL: BENCH_MODEL,
  VECTOR_INDEX_NAME: WIKIPATHWAYS_INDEX,
  GRAPHDB_GRAPH: 'neo4j',
};
const config = benchConfig(models.dir, env);
const graph = createGraphStore(config);
const embedders = createEmbeddersFromConfig(config);
const db = config.GRAPHDB_GRAPH;

/** Pathway titles as queries: real phrasing, and every one has relevant nodes. */
const queries = readFileSync(`${DEFAULT_DIR}/pathways.jsonl`, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => String((JSON.parse(l) as { title: string }).title))
  .filter((_, i) => i % 7 === 0);

/** Makes sure the index is there; true when this run created it (and should remove it). */
async function ensureIndex(): Promise<boolean> {
  const { records } = await graph.driver.executeQuery(
    'SHOW VECTOR INDEXES YIELD name, state WHERE name = $n RETURN state',
    { n: WIKIPATHWAYS_INDEX },
    { database: db },
  );
  if (records[0]?.get('state') === 'ONLINE') return false;
  console.log('WikiPathways index missing: loading the data and building it (cached batches are reused)');
  await loadWikiPathways(graph.driver, { database: db, textProperty: WIKIPATHWAYS_PROP });
  const kv = createKvStore({ url: config.KVSTORE_URL, prefix: 'bench:' });
  try {
    await buildVectorIndex({ config, graph, kv, embedders, log: createLogger('warn') }, { graph: db, model: BENCH_MODEL });
  } finally {
    await kv.close();
  }
  return true;
}

/** Runs `clients` loops of `call` for `seconds`; returns sorted latencies in ms and the count of failures. */
async function load(
  call: (i: number) => Promise<void>,
  clients = CLIENTS,
  seconds = SECONDS,
): Promise<{ latencies: number[]; errors: number; seconds: number }> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
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

function report(title: string, r: { latencies: number[]; errors: number; seconds: number }) {
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

async function startServer(): Promise<{ port: number; stop: () => void }> {
  const child = spawn(process.execPath, ['scripts/run-ts.mjs', 'scripts/bench-search-server.ts'], {
    env: { ...process.env, ...env, MODELS_DIR: models.dir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /listening (\d+)/.exec(String(d));
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { port, stop: () => child.kill('SIGTERM') };
}

let created = false;
try {
  console.log(`machine: ${await describeMachine(graph.driver, db)}`);
  console.log(`model:   ${models.description}`);
  created = await ensureIndex();
  const { records } = await graph.driver.executeQuery(
    `MATCH (c:\`__Chunk_${WIKIPATHWAYS_INDEX}\`) RETURN count(c) AS n`,
    {},
    { database: db },
  );
  console.log(
    `index:   ${WIKIPATHWAYS_INDEX}, ${fmt(records[0]?.get('n') ?? 0)} chunks; ${queries.length} distinct queries (pathway titles); ${CLIENTS} clients × ${SECONDS} s; top_k ${TOP_K}`,
  );

  const server = await startServer();
  const url = `http://127.0.0.1:${server.port}/vector/search`;
  const post = async (i: number) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: queries[i % queries.length], graph_name: db, model: BENCH_MODEL, top_k: TOP_K }),
    });
    const body = (await res.json()) as unknown[];
    if (res.status !== 200 || !body.length) throw new Error(`status ${res.status}`);
  };
  const single = Math.min(10, SECONDS);
  let service, serviceOne;
  try {
    for (let i = 0; i < 50; i++) await post(i); // warm-up: JIT, connection pools, index pages
    serviceOne = report(`POST /vector/search, 1 client, ${single} s`, await load(post, 1, single));
    service = report(`POST /vector/search (HTTP, end to end), ${CLIENTS} clients`, await load(post));
  } finally {
    server.stop();
  }

  const embedder = await embedders.get(BENCH_MODEL);
  const vectors = (await embedder.embed(queries)).map((v) => Array.from(v));
  // The same query and the same auto-commit call the service makes, minus everything else.
  const raw = async (i: number) => {
    const session = graph.driver.session({ database: db, defaultAccessMode: neo4j.session.READ });
    try {
      await session.run(VECTOR_SEARCH, {
        index: WIKIPATHWAYS_INDEX,
        k: neo4j.int(TOP_K * 4),
        topK: neo4j.int(TOP_K),
        vector: vectors[i % vectors.length],
        prop: WIKIPATHWAYS_PROP,
      });
    } finally {
      await session.close();
    }
  };
  for (let i = 0; i < 50; i++) await raw(i);
  const cypherOne = report(`raw Cypher vector query, 1 client, ${single} s`, await load(raw, 1, single));
  const cypher = report(`raw Cypher vector query (driver, in the clients' process), ${CLIENTS} clients`, await load(raw));
  console.log(
    `\nservice overhead, 1 client:      p50 ${fmt(serviceOne.p50 - cypherOne.p50, 2)} ms · mean ${fmt(serviceOne.mean - cypherOne.mean, 2)} ms per request`,
  );
  console.log(
    `service overhead, ${CLIENTS} clients: p50 ${fmt(service.p50 - cypher.p50, 1)} ms · mean ${fmt(service.mean - cypher.mean, 1)} ms per request`,
  );
} finally {
  if (created && !values.keep) {
    await dropSearchIndex(graph.driver, db, WIKIPATHWAYS_INDEX);
    await dropWikiPathways(graph.driver, db);
    console.log('\nWikiPathways graph and index removed (--keep keeps them)');
  }
  await Promise.allSettled([graph.close(), embedders.close()]);
}
