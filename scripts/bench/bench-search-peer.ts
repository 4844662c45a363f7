/**
 * `npm run bench:search -- --peer`: `POST /vector/search` beside the floor the in-process
 * libraries are compared with, measured in the same run against the same model server.
 *
 * - floor: one `/embeddings` call to the model server, then the raw
 *   `db.index.vector.queryNodes(index, top_k, vector)` (chunk rows, no grouping), in this
 *   process: what LangChain's `Neo4jVector` or neo4j-graphrag's `VectorRetriever` do per query
 *   (./lib/floor.ts). Issue 50's targets are set against it.
 * - floor-http: the same behind a plain `node:http` server in a process of its own
 *   (./bench-floor-server.ts): what the floor costs once it too answers over HTTP, the hop any
 *   service makes and the in-process floor does not. Shown beside the targets, not part of them.
 * - `vector` and `hybrid`: the service over HTTP (the API in a child process), with its
 *   query-vector cache off, so that it too sends exactly one embedding request per query.
 *
 * Every round sends each of the `--queries` pathway titles once per system, at 1 client and at
 * `--clients` clients; the systems' order rotates from round to round, so that load from other
 * work on the machine falls on all of them alike. Latencies are pooled over the rounds; the load
 * average is printed with every round. The model server is all-MiniLM-L6-v2
 * (../shared/tools/minilm-server) started here on a free port and stopped afterwards, unless
 * `--model-server <url>` (or PEER_MODEL_SERVER) names a running OpenAI-compatible one.
 *
 * Options: --rounds <n> (5), --queries <n> (200), --clients <n> (8), --top-k <k> (10),
 * --model-server <url>, --python <path> (MINILM_VENV/bin/python, default .local/minilm-venv),
 * --model-dir <path> (MINILM_MODEL_DIR, default .local/minilm-model), --model-threads <n> (the model
 * server's numpy threads, default 1: ./lib/model-server.ts says why), --profile (the API runs
 * with --cpu-prof; the profile lands in test-output/profiles/), --recall 1,2,4 (instead of the load
 * rounds: recall and latency by over-fetch factor, scripts/bench/lib/overfetch-recall.ts), --neo4j-pid <pid>
 * (NEO4J_PID: its CPU is counted too), --baseline <dir> (a checkout of an earlier commit, with its
 * node_modules: its API is measured too, as `vector@baseline` and `hybrid@baseline`), --cache (the
 * service keeps its query-vector cache on: from the second round on, repeats skip the embedding), --index <name> and
 * --text-property <prop> (an index built before, e.g. bench:quality's `bench_quality_all_minilm` over `wp_quality_text`).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createEmbeddersFromConfig } from '../../src/embeddings/embedders.js';
import { createGraphStore } from '../../src/graph/access/driver.js';
import { WIKIPATHWAYS_PROP, benchConfig, describeMachine, fmt } from './bench-common.js';
import { floorSearch } from './lib/floor.js';
import { startModelServer } from './lib/model-server.js';
import { overfetchRecall } from './lib/overfetch-recall.js';
import { ensureWikiPathwaysIndex, runLoad, startSearchServer, type LoadResult } from './lib/search-bench.js';
import { cpuReading } from './lib/proc-cpu.js';
import { pct } from './lib/stats.js';
import { DEFAULT_DIR } from '../load-wikipathways.js';

const MODEL = 'all-minilm';
const INDEX = 'bench_wikipathways_all_minilm';
/** `floor`, `floor-http`, the service's `vector` and `hybrid`, and with --baseline the same two of another checkout. */
type System = string;
/** The floor behind a plain HTTP server in a process of its own (scripts/bench/bench-floor-server.ts). */
const HTTP_FLOOR = 'floor-http';

/** Figures of one system at one concurrency, pooled over the rounds. */
interface Pooled {
  latencies: number[];
  errors: number;
  seconds: number;
  count: number;
  /** CPU milliseconds per process over the runs. */
  cpu: Record<string, number>;
}

/** Runs the peer comparison with the given command-line arguments (see the file comment). */
export async function peerBench(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      rounds: { type: 'string' },
      queries: { type: 'string' },
      clients: { type: 'string' },
      'top-k': { type: 'string' },
      'model-server': { type: 'string' },
      python: { type: 'string' },
      'model-dir': { type: 'string' },
      'model-threads': { type: 'string' },
      profile: { type: 'boolean' },
      recall: { type: 'string' },
      'neo4j-pid': { type: 'string' },
      baseline: { type: 'string' },
      cache: { type: 'boolean' },
      index: { type: 'string' },
      'text-property': { type: 'string' },
    },
  });
  const rounds = Number(values.rounds ?? 5);
  const clients = [1, Number(values.clients ?? 8)];
  const topK = Number(values['top-k'] ?? 10);
  const titles = readFileSync(`${DEFAULT_DIR}/pathways.jsonl`, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => String((JSON.parse(l) as { title: string }).title));
  // Distinct titles spread over the file: every query is a real name with relevant nodes.
  const distinct = [...new Set(titles)];
  const n = Math.min(Number(values.queries ?? 200), distinct.length);
  const queries = Array.from({ length: n }, (_, i) => distinct[Math.floor((i * distinct.length) / n)]!);

  // `--index`, `--text-property`: an index already built over other text (bench:quality's, 553 chunks with or without names).
  const index = values.index ?? INDEX;
  const textProperty = values['text-property'] ?? WIKIPATHWAYS_PROP;
  const modelServer = await startModelServer({
    url: values['model-server'] ?? process.env.PEER_MODEL_SERVER,
    python: values.python,
    modelDir: values['model-dir'],
    threads: values['model-threads'] ? Number(values['model-threads']) : undefined,
  });
  const env = {
    TEXT_PROPERTY: textProperty,
    EMBEDDING_MODEL: MODEL,
    VECTOR_INDEX_NAME: index,
    GRAPHDB_GRAPH: 'neo4j',
    LOCAL_LLM_BASE_URL: modelServer.url,
    // Each query costs one embedding request, as it does the floor (rounds repeat the queries);
    // --cache shows what the service's query-vector LRU makes of the repeats.
    QUERY_VECTOR_CACHE_SIZE: values.cache ? '1024' : '0',
  };
  const config = benchConfig('models', env);
  const graph = createGraphStore(config);
  const embedders = createEmbeddersFromConfig(config);
  const db = config.GRAPHDB_GRAPH;
  let stopApi: (() => Promise<void>) | undefined;
  // Ctrl-C: stop the child processes (APIs, model server) too, not only this one.
  process.once('SIGINT', () => {
    void Promise.allSettled([stopApi?.(), modelServer.stop()]).then(() => process.exit(130));
  });
  try {
    console.log(`machine: ${await describeMachine(graph.driver, db)}`);
    console.log(`model server: ${modelServer.description}`);
    await ensureWikiPathwaysIndex({ config, graph, embedders }, MODEL);
    const { records } = await graph.driver.executeQuery(`MATCH (c:\`__Chunk_${index}\`) RETURN count(c) AS n`, {}, { database: db });
    console.log(
      `index:   ${index}, ${fmt(records[0]?.get('n') ?? 0)} chunks; ${n} distinct pathway titles; top_k ${topK}; ` +
        `${rounds} rounds × clients ${clients.join(' and ')}`,
    );
    if (values.recall) {
      const factors = values.recall.split(',').map(Number);
      await overfetchRecall({ deps: { config, graph, embedders }, model: MODEL, queries, topK, factors });
      return;
    }
    const api = await startSearchServer(
      { ...env, GRAPHDB_URL: config.GRAPHDB_URL, GRAPHDB_PORT: String(config.GRAPHDB_PORT) },
      values.profile ? ['--cpu-prof', `--cpu-prof-dir=${process.cwd()}/test-output/profiles`] : [],
    );
    const apiEnv = { ...env, GRAPHDB_URL: config.GRAPHDB_URL, GRAPHDB_PORT: String(config.GRAPHDB_PORT) };
    const base = values.baseline ? await startSearchServer(apiEnv, [], values.baseline) : undefined;
    const embeddingsUrl = `${modelServer.url.replace(/\/+$/, '')}/embeddings`;
    const floorEnv = { FLOOR_EMBEDDINGS_URL: embeddingsUrl, FLOOR_MODEL: MODEL, FLOOR_INDEX: index, FLOOR_TOP_K: String(topK) };
    const httpFloor = await startSearchServer({ ...apiEnv, ...floorEnv }, [], undefined, 'scripts/bench/bench-floor-server.ts');
    stopApi = () => Promise.all([api.stop(), base?.stop(), httpFloor.stop()]).then(() => {});

    /** POSTs `body` as JSON; fails unless the answer is a 200 with a non-empty list. */
    const postForList = async (url: string, body: unknown) => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const list = (await res.json()) as unknown[];
      if (res.status !== 200 || !list.length) throw new Error(`status ${res.status}`);
    };
    const serviceCall = (port: number, mode: 'vector' | 'hybrid') => (i: number) =>
      postForList(`http://127.0.0.1:${port}/vector/search`, { query: queries[i % n], graph_name: db, model: MODEL, top_k: topK, mode });
    const target = { driver: graph.driver, database: db, embeddingsUrl, model: MODEL, index, topK };
    const floor = async (i: number) => {
      await floorSearch(target, queries[i % n]!);
    };
    const floorHttp = (i: number) => postForList(`http://127.0.0.1:${httpFloor.port}/`, { query: queries[i % n] });
    const calls: Record<System, (i: number) => Promise<void>> = {
      floor,
      [HTTP_FLOOR]: floorHttp,
      vector: serviceCall(api.port, 'vector'),
      hybrid: serviceCall(api.port, 'hybrid'),
      ...(base ? { 'vector@baseline': serviceCall(base.port, 'vector'), 'hybrid@baseline': serviceCall(base.port, 'hybrid') } : {}),
    };
    const systems = Object.keys(calls);

    // Warm-up outside the figures: JIT, connection pools, index pages, the model's first batches.
    for (const s of systems) for (let i = 0; i < 100; i++) await calls[s]!(i);

    const neo4jPid = values['neo4j-pid'] ?? process.env.NEO4J_PID;
    const pids: Record<string, number> = {
      'bench (clients, floor)': process.pid,
      api: api.pid,
      'floor over HTTP': httpFloor.pid,
      ...(base ? { 'api (baseline)': base.pid } : {}),
      ...(modelServer.pid ? { 'model server': modelServer.pid } : {}),
      ...(neo4jPid ? { neo4j: Number(neo4jPid) } : {}),
    };
    const pooled = new Map<string, Pooled>();
    for (let r = 0; r < rounds; r++) {
      const order = systems.map((_, j) => systems[(j + r) % systems.length]!);
      const line: string[] = [];
      for (const c of clients) {
        for (const s of order) {
          const cpu = cpuReading(pids);
          const res: LoadResult = await runLoad(calls[s]!, { clients: c, count: n });
          const p = pooled.get(`${s}/${c}`) ?? { latencies: [], errors: 0, seconds: 0, count: 0, cpu: {} };
          for (const [name, ms] of Object.entries(cpu.since())) p.cpu[name] = (p.cpu[name] ?? 0) + ms;
          p.latencies.push(...res.latencies);
          p.errors += res.errors;
          p.seconds += res.seconds;
          p.count += res.latencies.length;
          pooled.set(`${s}/${c}`, p);
          line.push(`${s}×${c} ${fmt(res.latencies.length / res.seconds)}/s`);
        }
      }
      console.log(`round ${r + 1}/${rounds} (load average ${loadavg()[0]!.toFixed(2)}): ${line.join(' · ')}`);
    }
    printSummary(pooled, systems, clients, n * rounds);
    printCpu(pooled, systems, clients, Object.keys(pids));
  } finally {
    await stopApi?.();
    await Promise.allSettled([graph.close(), embedders.close(), modelServer.stop()]);
  }
}

/** The floors' rows in the summary; every other system is the service's. */
const LABELS: Record<string, string> = {
  floor: 'floor: embedding + raw queryNodes',
  [HTTP_FLOOR]: 'floor over HTTP (node:http, own process)',
};

function printSummary(pooled: Map<string, Pooled>, systems: System[], clients: number[], expected: number) {
  const [one, many] = clients as [number, number];
  const fig = (s: System) => {
    const a = pooled.get(`${s}/${one}`)!;
    const b = pooled.get(`${s}/${many}`)!;
    for (const p of [a, b]) p.latencies.sort((x, y) => x - y);
    return {
      p50one: pct(a.latencies, 50),
      p99one: pct(a.latencies, 99),
      p50: pct(b.latencies, 50),
      p99: pct(b.latencies, 99),
      qps: b.count / b.seconds,
      errors: a.errors + b.errors,
    };
  };
  const f = Object.fromEntries(systems.map((s) => [s, fig(s)]));
  const floorFig = f.floor!;
  console.log(`\n| system | ${one} client p50 / p99 ms | ${many} clients p50 / p99 ms | ${many} clients queries/s | failed |`);
  console.log('|---|---:|---:|---:|---:|');
  for (const s of systems) {
    const x = f[s]!;
    console.log(
      `| ${LABELS[s] ?? `POST /vector/search ${s}`} | ${fmt(x.p50one, 1)} / ${fmt(x.p99one, 1)} | ` +
        `${fmt(x.p50, 1)} / ${fmt(x.p99, 1)} | ${fmt(x.qps, 1)} | ${x.errors} of ${expected * 2} |`,
    );
  }
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  // Issue 50's targets (issue 16's were 95 % of the floor's rate and 1.3 × its p99).
  console.log("targets (issue 50): 1 client p50 ≤ the floor's + 3 ms; 8 clients ≥ 150 % of its queries/s, p99 ≤ its p99");
  const httpFloor = f[HTTP_FLOOR];
  if (httpFloor)
    console.log(`${HTTP_FLOOR}: 1 client p50 ${fmt(httpFloor.p50one - floorFig.p50one, 1)} ms over the floor (the HTTP hop alone)`);
  for (const s of systems.filter((x) => !(x in LABELS))) {
    const x = f[s]!;
    const overHttp = httpFloor ? ` (${fmt(x.p50one - httpFloor.p50one, 1)} over ${HTTP_FLOOR})` : '';
    console.log(
      `${s}: 1 client p50 ${fmt(x.p50one - floorFig.p50one, 1)} ms over the floor${overHttp} (≤ 3: ${verdict(x.p50one <= floorFig.p50one + 3)}); ` +
        `${many} clients ${fmt((100 * x.qps) / floorFig.qps)} % of the floor's queries/s (≥ 150: ${verdict(x.qps >= 1.5 * floorFig.qps)}), ` +
        `p99 ${fmt(x.p99 / floorFig.p99, 2)} × the floor's (≤ 1: ${verdict(x.p99 <= floorFig.p99)})`,
    );
  }
  const v = f.vector!;
  const h = f.hybrid!;
  const ratios = [h.p50one / v.p50one, h.p99one / v.p99one, h.p50 / v.p50, h.p99 / v.p99, v.qps / h.qps];
  console.log(
    `hybrid / vector: ${ratios.map((x) => fmt(x, 2)).join(' · ')} (1-client p50, p99; ${many}-client p50, p99; queries/s inverted) ` +
      `(each ≤ 1.2: ${verdict(ratios.every((x) => x <= 1.2))})`,
  );
}

/** CPU milliseconds per query of each process, by system and clients. */
function printCpu(pooled: Map<string, Pooled>, systems: System[], clients: number[], names: string[]) {
  console.log(`\nCPU ms per query (user + system, /proc): | system | clients | ${names.join(' | ')} | total |`);
  for (const s of systems) {
    for (const c of clients) {
      const p = pooled.get(`${s}/${c}`)!;
      const per = names.map((name) => (p.cpu[name] ?? Number.NaN) / p.count);
      const total = per.reduce((a, b) => a + (Number.isNaN(b) ? 0 : b), 0);
      console.log(`| ${s} | ${c} | ${per.map((x) => fmt(x, 2)).join(' | ')} | ${fmt(total, 2)} |`);
    }
  }
}
