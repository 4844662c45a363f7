/**
 * `npm run bench:vector-fill`: the ways to fill a Neo4j vector index with N precomputed vectors,
 * and so the insertion bound of the database for the build (issue 39 item 3). Nothing is
 * embedded while it measures: the vectors are produced once, by chunking and embedding generated
 * prose (./bench-prose.ts) with the bench's static model through the embedder pool the build
 * uses, and cached as raw Float32 in test-output/bench-data/vector-fill/ (a cache of N vectors
 * also serves any smaller N: its first rows). The exact cosine top 10 of the recall queries is
 * cached beside it.
 *
 * Each variant gets an index (and so a chunk label) of its own, `bench_fill_<variant>`, and
 * writes all N vectors with the build's Cypher (src/graph/dialect/index-statements.ts
 * `writeBatch`: CREATE + db.create.setNodeVectorProperty; the batch and node range indexes
 * created first, as the writer does), in batches of 512 with 2 write transactions in flight.
 * Chunk nodes carry no text and there is no full-text index: what is measured is the vector
 * index's fill. Variants:
 *   insert    vector index created before the writes (the build's way; HNSW m 16, ef_construction 100)
 *   populate  every node written with no vector index, then CREATE VECTOR INDEX and wait until populated
 *   ef50      as insert, ef_construction 50
 *   noquant   as insert, `vector.quantization.enabled: false`
 *   m32       as insert, HNSW m 32
 * For each: wall time until the index is ONLINE, chunks/s, Neo4j CPU seconds (/proc/<pid>/stat,
 * the pid from .local/neo4j/neo4j.pid; counts other work on the same database too), Neo4j RSS
 * peak (VmRSS every 500 ms), Node peak RSS (holds the N vectors), store growth (du of
 * .local/neo4j/data), the load average, and recall@10 of db.index.vector.queryNodes against the
 * exact cosine top 10 over all N vectors, for `--queries` queries (stored vectors of evenly spread
 * chunks, slightly perturbed): asking k = 10 and k = 60 (vector search's top_k 10 × 6) for the first 10;
 * "ties" counts a hit as right when its exact score reaches the 10th exact score (duplicate chunks).
 * Each variant's nodes and indexes are removed after it is measured (vector index first, then the
 * nodes in transactions of 10,000), also on SIGINT/SIGTERM (a second signal exits).
 *
 * Options: --chunks <n> (1000000), --variants <list> (insert,populate,ef50,noquant,m32),
 * --queries <n> (100), --timeout <min> (120, the wait for ONLINE), --cleanup (only remove what a
 * killed run left). `--variants ''` only produces the vectors and the exact top 10.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import neo4j from 'neo4j-driver';
import { createEmbeddersFromConfig } from '../../src/embeddings/embedders.js';
import { createGraphStore } from '../../src/graph/access/driver.js';
import { dropSearchIndex, toList } from '../../src/graph/access/index-writer.js';
import { batchIndexName, nodeIndexName } from '../../src/graph/dialect/names.js';
import { AWAIT_INDEX, VECTOR_INDEX_STATE, indexStatements } from '../../src/graph/dialect/index-statements.js';
import { BENCH_MODEL, benchConfig, benchModels, describeMachine, fmt } from './bench-common.js';
import { generateProse } from './bench-prose.js';
import { dotRow, type ExactTop, exactTop, perturbedQueries } from './lib/exact-top10.js';
import { cpuMs, duBytes, loadAverages, vmRssBytes } from './lib/proc-cpu.js';

const { values } = parseArgs({
  options: {
    chunks: { type: 'string' },
    variants: { type: 'string' },
    queries: { type: 'string' },
    timeout: { type: 'string' },
    cleanup: { type: 'boolean' },
  },
});

interface Variant {
  /** Vector index created after every node is written. */
  after?: boolean;
  m?: number;
  ef?: number;
  quantization?: boolean;
}
const VARIANTS: Record<string, Variant> = {
  insert: {},
  populate: { after: true },
  ef50: { ef: 50 },
  noquant: { quantization: false },
  m32: { m: 32 },
};
const N = Number(values.chunks ?? 1_000_000);
const NAMES = (values.variants ?? Object.keys(VARIANTS).join(',')).split(',').filter(Boolean);
for (const name of NAMES) if (!VARIANTS[name]) throw new Error(`unknown variant "${name}"; known: ${Object.keys(VARIANTS).join(', ')}`);
const QUERIES = Number(values.queries ?? 100);
const TIMEOUT_MS = Number(values.timeout ?? 120) * 60_000;
const DIMS = 512;
const BATCH = 512;
const WRITERS = 2;
const DATA = 'test-output/bench-data/vector-fill';
const STORE = '.local/neo4j/data';
const models = benchModels();
const config = benchConfig(models.dir, { EMBEDDING_MODEL: BENCH_MODEL });
const graph = createGraphStore(config);
const db = config.GRAPHDB_GRAPH;
const run = (q: string, p: Record<string, unknown> = {}) => graph.driver.executeQuery(q, p, { database: db });
const indexOf = (variant: string) => `bench_fill_${variant}`;
const s1 = (ms: number) => `${fmt(ms / 1000, 1)} s`;
const mb = (bytes: number) => `${fmt(bytes / 2 ** 20)} MB`;
const load1 = () => loadavg()[0]!;
const load = loadAverages;
let aborted = false;

// ---------------------------------------------------------------------------------------------
// The vectors and the exact top 10, produced once
// ---------------------------------------------------------------------------------------------

/** Reads the first `n` vectors of a raw Float32 file (in 256 MB pieces: one read call takes < 2 GB). */
function readVectors(path: string, n: number): Float32Array {
  const out = new Float32Array(n * DIMS);
  const bytes = new Uint8Array(out.buffer);
  const fd = openSync(path, 'r');
  try {
    for (let off = 0; off < bytes.length; ) off += readSync(fd, bytes, off, Math.min(2 ** 28, bytes.length - off), off);
  } finally {
    closeSync(fd);
  }
  return out;
}

/** N vectors of generated prose chunks: from the cache (any file of ≥ N), else embedded now and cached. */
async function vectors(): Promise<Float32Array> {
  mkdirSync(DATA, { recursive: true });
  const path = `${DATA}/vectors-${DIMS}.f32`;
  if (existsSync(path) && statSync(path).size >= N * DIMS * 4) {
    const started = performance.now();
    const v = readVectors(path, N);
    console.log(`vectors: ${fmt(N)} read from ${path} in ${s1(performance.now() - started)}`);
    return v;
  }
  const embedders = createEmbeddersFromConfig(config);
  const embedder = await embedders.get(BENCH_MODEL);
  const started = performance.now();
  const fd = openSync(`${path}.part`, 'w');
  let done = 0;
  let seed = 0;
  let pending: string[] = [];
  const flush = async (texts: string[]) => {
    const vs = await embedder.embed(texts);
    for (const v of vs) writeSync(fd, new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
    done += vs.length;
    if (done % 102_400 < BATCH) console.log(`  embedded ${fmt(done)} chunks, ${s1(performance.now() - started)}, load ${load()}`);
  };
  try {
    while (done + pending.length < N) {
      pending.push(...embedder.chunk(generateProse(seed++)));
      while (pending.length >= BATCH || (pending.length && done + pending.length >= N)) {
        const take = Math.min(BATCH, N - done);
        await flush(pending.slice(0, take));
        pending = done >= N ? [] : pending.slice(take);
      }
    }
  } finally {
    closeSync(fd);
    await embedders.close();
  }
  renameSync(`${path}.part`, path);
  console.log(
    `vectors: ${fmt(N)} chunks of ${fmt(seed)} generated texts embedded in ${s1(performance.now() - started)} ` +
      `(${models.description.split(' (')[0]}, the build's embedder pool; tokenise + inference on this thread), load ${load()}; cached in ${path}`,
  );
  return readVectors(path, N);
}

/** Exact cosine top 10 of the recall queries over all N vectors, cached per N and query count. */
function exactTop10(all: Float32Array, qs: Float32Array[]): ExactTop {
  const path = `${DATA}/truth-${N}-${QUERIES}.json`;
  if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8')) as ExactTop;
  const started = performance.now();
  const truth = exactTop(all, N, DIMS, qs);
  writeFileSync(path, JSON.stringify(truth));
  console.log(`exact top 10 of ${QUERIES} queries over ${fmt(N)} vectors: ${s1(performance.now() - started)} (cached in ${path})`);
  return truth;
}

// ---------------------------------------------------------------------------------------------
// One variant
// ---------------------------------------------------------------------------------------------

const neo4jPid = Number(readFileSync('.local/neo4j/neo4j.pid', 'utf8').trim());
const vmRss = vmRssBytes;
const du = () => duBytes(STORE);

/** Samples Neo4j's and this process's RSS and the load average until stopped. */
function sampler() {
  const s = { neo4j: vmRss(neo4jPid), node: process.memoryUsage.rss(), loadMin: load1(), loadMax: load1() };
  const tick = () => {
    s.neo4j = Math.max(s.neo4j, vmRss(neo4jPid));
    s.node = Math.max(s.node, process.memoryUsage.rss());
    s.loadMin = Math.min(s.loadMin, load1());
    s.loadMax = Math.max(s.loadMax, load1());
  };
  const timer = setInterval(tick, 500);
  return () => (clearInterval(timer), tick(), s);
}

/** Removes a variant's vector index first (so deletes do not touch the HNSW graph), then its nodes and range indexes. */
async function removeVariant(index: string) {
  await run(indexStatements(index).dropVectorIndex);
  await dropSearchIndex(graph.driver, db, index);
}

/** The vector index DDL of a variant: the writer's, with quantization turned off when asked. */
function vectorIndexDdl(index: string, v: Variant): string {
  const ddl = indexStatements(index).createVectorIndex;
  if (v.quantization !== false) return ddl;
  const tail = '`vector.hnsw.ef_construction`: $ef}}';
  if (!ddl.includes(tail)) throw new Error('the writer changed its vector index DDL: update bench-vector-fill');
  return ddl.replace(tail, '`vector.hnsw.ef_construction`: $ef, `vector.quantization.enabled`: false}}');
}

/** Polls until the variant's vector index is ONLINE (printing population every 10 s). */
async function awaitOnline(index: string) {
  const deadline = Date.now() + TIMEOUT_MS;
  let said = Date.now();
  for (;;) {
    const r = (await run(VECTOR_INDEX_STATE, { name: index })).records[0];
    const state = r?.get('state') as string | undefined;
    if (state === 'ONLINE') return;
    if (state === 'FAILED' || !r) throw new Error(`vector index ${index}: ${state ?? 'absent'}`);
    if (aborted || Date.now() > deadline) throw new Error(`vector index ${index}: ${aborted ? 'interrupted' : 'timed out'}`);
    if (Date.now() - said > 10_000) {
      said = Date.now();
      console.log(`  populating ${fmt(Number(r.get('populationPercent')), 1)} %, load ${load()}`);
    }
    await new Promise((ok) => setTimeout(ok, 500));
  }
}

/** Writes all N vectors with the writer's Cypher, `WRITERS` transactions in flight, printing progress. */
async function writeAll(index: string, all: Float32Array) {
  const q = indexStatements(index);
  const started = performance.now();
  let next = 0;
  let written = 0;
  let last = { t: started, n: 0 };
  const writer = async () => {
    for (let b = next++; b * BATCH < N && !aborted; b = next++) {
      const rows = [];
      for (let i = b * BATCH; i < Math.min(N, (b + 1) * BATCH); i++) {
        const vector = toList(all.subarray(i * DIMS, (i + 1) * DIMS));
        rows.push({ nodeId: `4:bench-fill:${i}`, chunk: neo4j.int(i), text: null, name: null, sig: null, vector });
      }
      await run(q.writeBatch, { key: `b${b}`, rows, namesIndex: false });
      written += rows.length;
      if (Math.floor(written / 100_000) > Math.floor(last.n / 100_000)) {
        const now = performance.now();
        console.log(
          `  ${fmt(written)} written, ${s1(now - started)}, last ${fmt(written - last.n)} at ${fmt(((written - last.n) * 1000) / (now - last.t))} chunks/s, load ${load()}`,
        );
        last = { t: now, n: written };
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
  if (aborted) throw new Error('interrupted');
}

/** Recall@10 of queryNodes at k = 10 and k = 60 (first 10): by chunk number, and counting ties with the 10th exact score. */
async function recall(index: string, all: Float32Array, qs: Float32Array[], truth: ExactTop) {
  const out: Record<string, number> = {};
  for (const k of [10, 60]) {
    let strict = 0;
    let ties = 0;
    for (let j = 0; j < qs.length; j++) {
      const { records } = await run('CALL db.index.vector.queryNodes($index, $k, $q) YIELD node RETURN node.chunk AS i', {
        index,
        k: neo4j.int(k),
        q: toList(qs[j]!),
      });
      const got = records.slice(0, 10).map((r) => Number(r.get('i')));
      const want = new Set(truth.ids[j]);
      for (const i of got) {
        if (want.has(i)) strict++;
        if (dotRow(all, DIMS, qs[j]!, i) >= truth.kth[j]! - 1e-6) ties++;
      }
    }
    out[`k${k}`] = strict / (10 * qs.length);
    out[`k${k}ties`] = ties / (10 * qs.length);
  }
  return out;
}

async function measure(name: string, all: Float32Array, qs: Float32Array[], exact: () => ExactTop) {
  const v = VARIANTS[name]!;
  const index = indexOf(name);
  const q = indexStatements(index);
  const params = { dims: neo4j.int(DIMS), m: neo4j.int(v.m ?? 16), ef: neo4j.int(v.ef ?? 100) };
  console.log(
    `\n## ${name}: ${fmt(N)} vectors, m ${v.m ?? 16}, ef_construction ${v.ef ?? 100}, quantization ${v.quantization === false ? 'off' : 'on'}, ` +
      `vector index ${v.after ? 'created after the writes' : 'created before the writes'}; load ${load()} (${new Date().toISOString()})`,
  );
  await removeVariant(index);
  const storeBefore = du();
  const cpu0 = cpuMs(neo4jPid);
  const stop = sampler();
  const started = performance.now();
  await run(q.createBatchIndex);
  await run(AWAIT_INDEX, { name: batchIndexName(index), seconds: neo4j.int(300) });
  await run(q.createNodeIndex);
  await run(AWAIT_INDEX, { name: nodeIndexName(index), seconds: neo4j.int(300) });
  if (!v.after) await run(vectorIndexDdl(index, v), params);
  await writeAll(index, all);
  const writtenMs = performance.now() - started;
  const cpuWrites = cpuMs(neo4jPid) - cpu0;
  if (v.after) await run(vectorIndexDdl(index, v), params);
  await awaitOnline(index);
  const wallMs = performance.now() - started;
  const cpu = cpuMs(neo4jPid) - cpu0;
  const s = stop();
  const growth = du() - storeBefore;
  const rec = await recall(index, all, qs, exact());
  const line = (k: string, text: string) => console.log(`  ${k.padEnd(16)}${text}`);
  line('writes', `${s1(writtenMs)} (${fmt((N * 1000) / writtenMs)} chunks/s), Neo4j CPU ${s1(cpuWrites)}`);
  if (v.after) line('population', `${s1(wallMs - writtenMs)}, Neo4j CPU ${s1(cpu - cpuWrites)}`);
  line('until ONLINE', `${s1(wallMs)}  →  ${fmt((N * 1000) / wallMs)} chunks/s`);
  line('Neo4j CPU', `${s1(cpu)} (${fmt(cpu / wallMs, 2)} cores; ${fmt(cpu / N, 2)} ms per chunk)`);
  line('Neo4j RSS peak', mb(s.neo4j));
  line('Node RSS peak', `${mb(s.node)} (holds the ${fmt(N)} vectors: ${mb(N * DIMS * 4)})`);
  line('store growth', `${fmt(growth / 2 ** 30, 2)} GB (du of ${STORE}, transaction logs included)`);
  line('load average', `${s.loadMin.toFixed(2)}–${s.loadMax.toFixed(2)} (1 min, sampled every 500 ms)`);
  line(
    'recall@10',
    `k=10: ${fmt(rec.k10!, 3)} (ties ${fmt(rec.k10ties!, 3)}); k=60, first 10: ${fmt(rec.k60!, 3)} (ties ${fmt(rec.k60ties!, 3)}); ${qs.length} queries`,
  );
  const removed = performance.now();
  await removeVariant(index);
  line('clean-up', `${s1(performance.now() - removed)} (vector index dropped, nodes deleted in transactions of 10,000)`);
  console.log(
    `| ${name} | ${fmt(N)} | ${s.loadMin.toFixed(1)}–${s.loadMax.toFixed(1)} | ${s1(wallMs)} | ${fmt((N * 1000) / wallMs)} | ${s1(cpu)} | ${mb(s.neo4j)} | ${fmt(growth / 2 ** 30, 2)} GB | ${fmt(rec.k10!, 3)} (${fmt(rec.k60!, 3)} at k=60) |`,
  );
}

async function main() {
  console.log(`machine: ${await describeMachine(graph.driver, db)}`);
  console.log(`model:   ${models.description}`);
  console.log(`date:    ${new Date().toISOString()}, load average ${load()}, Neo4j pid ${neo4jPid}`);
  if (values.cleanup) {
    for (const name of Object.keys(VARIANTS)) await removeVariant(indexOf(name));
    return console.log('removed every bench_fill_* index and its nodes');
  }
  const all = await vectors();
  const qs = perturbedQueries(all, N, DIMS, QUERIES);
  // Computed (or read) once the first variant is ONLINE, outside every measured span.
  let truth: ExactTop | undefined;
  const exact = () => (truth ??= exactTop10(all, qs));
  if (!NAMES.length) exact(); // `--variants ''`: the vectors and the exact top 10 only
  for (const name of NAMES) {
    if (aborted) break;
    try {
      await measure(name, all, qs, exact);
    } catch (e) {
      // Interrupted or failed: this variant's nodes and indexes go before the error is reported.
      await removeVariant(indexOf(name)).catch((err) => console.error(`clean-up of ${name} failed: ${err}`));
      throw e;
    }
  }
}

let signals = 0;
const onSignal = () => {
  // The writes stop after the batches in flight; main's catch removes the variant's nodes and indexes.
  aborted = true;
  if (++signals > 1) process.exit(130);
};
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, onSignal);
try {
  await main();
} catch (err) {
  console.error(aborted ? 'interrupted (the variant measured was removed)' : err);
  process.exitCode = 1;
} finally {
  await graph.close();
}
