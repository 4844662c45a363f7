/**
 * `npm run bench:index`: builds the vector index over (1) a generated graph of 100,000 text nodes
 * (prose of 200–2,000 characters, label `BenchDoc`, property `bench_text`) and (2) the WikiPathways
 * extract (`scripts/load-wikipathways.ts`, property `wp_bench_text`), each from scratch and then
 * once more from the cache, and prints chunks/s end to end, peak RSS and where the time went.
 *
 * `npm run bench:index -- --sync` measures the index sync (src/vector-index/sync/loop.ts, node by
 * node: ./node-sync.ts) on the generated graph instead: the build, then `syncGraph` passes as the
 * worker runs them — the first pass after the build, passes over an unchanged graph, the change
 * check's two queries timed alone, the time from an edit (`--edits` changed nodes, one created,
 * one deleted) until search (full-text) finds the change, with the chunks embedded, written,
 * kept and deleted, a pass after a write to a label the index does not hold, the worker loop
 * itself at `INDEX_SYNC_INTERVAL_MS`, peak RSS of every pass and the database's CPU time.
 * `--stream <s>` adds a steady stream of `--rate` (10) writes a second to indexed nodes for that
 * long, with the worker loop running: write → searchable p50/p95 and both processes' CPU.
 * `--check-only` (with `--sync`) times the change check alone at scale, without a build.
 * `--short` keeps only the build, one pass after `--edits` changed nodes, the check alone and the
 * unindexed write (for `--nodes 1000000`). The store's size on disk is printed before and after
 * (`du` of `--store`, default `.local/neo4j/data`).
 *
 * Builds index only the bench's own labels (`choice.labels`), so other data in the shared
 * database is never indexed. The bench graph, its index, its CSV cache and its sync state are
 * removed at the end, also when the run fails or is interrupted (SIGINT/SIGTERM: the driver is
 * closed, the work in flight fails, clean-up runs on a new connection; a second signal exits).
 *
 * Options: --nodes <n> (100000), --only synthetic|wikipathways, --keep (leave the bench graphs
 * and indexes in the database; by default both are removed, the CSV caches stay in
 * test-output/bench-data so that bench:search rebuilds the WikiPathways index in seconds),
 * --sync, --short, --passes <n> (20 unchanged-graph passes), --edits <n> (10), --stream <s>, --rate <n>,
 * --stream-baseline (the stream once more first with no sync and no poller: the writer's own Neo4j CPU), --store <dir>,
 * --source auto|property|scan (auto: the change-log plugin where the server has it; property: the bench's
 * writers keep `updatedAt = timestamp()`, with a range index, and the sync follows it),
 * --cleanup (only remove what a run left behind).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import neo4j from 'neo4j-driver';
import { createEmbeddersFromConfig } from '../../src/embeddings/embedders.js';
import { cacheDir } from '../../src/vector-index/build/csv-cache.js';
import { listIndexMeta, readIndexMeta } from '../../src/vector-index/index/record.js';
import { createChunkStore } from '../../src/graph/access/chunk-store.js';
import { chunkLabel, fulltextIndexName, quoteName } from '../../src/graph/dialect/names.js';
import { nodeSig } from '../../src/graph/dialect/node-cypher.js';
import { textParams } from '../../src/vector-index/index/source.js';
import { buildVectorIndex, type BuildReport } from '../../src/vector-index/build/build.js';
import type { IndexBuildDeps } from '../../src/vector-index/index/target.js';
import { type IndexSyncResult, nextPassIn, type SyncPass, startIndexSync, syncGraph } from '../../src/vector-index/sync/loop.js';
import { createVectorSearcher } from '../../src/vector-index/search/searcher.js';
import { createGraphStore, type GraphStore } from '../../src/graph/access/driver.js';
import { createLogger } from '../../src/lib/log.js';
import { createKeys } from '../../src/store/keys.js';
import { createKvStore } from '../../src/store/redis.js';
import { dropSearchIndex } from '../../src/graph/access/index-writer.js';
import {
  BENCH_MODEL,
  SYNTHETIC_INDEX,
  SYNTHETIC_PROP,
  WIKIPATHWAYS_INDEX,
  WIKIPATHWAYS_PROP,
  benchConfig,
  benchModels,
  describeMachine,
  fmt,
} from './bench-common.js';
import { generateProse } from './bench-prose.js';
import { cpuMs, duBytes, loadAverages } from './lib/proc-cpu.js';
import { pct } from './lib/stats.js';
import { dropWikiPathways, loadWikiPathways } from '../load-wikipathways.js';

const { values } = parseArgs({
  options: {
    nodes: { type: 'string' },
    only: { type: 'string' },
    keep: { type: 'boolean' },
    sync: { type: 'boolean' },
    short: { type: 'boolean' },
    passes: { type: 'string' },
    edits: { type: 'string' },
    store: { type: 'string' },
    cleanup: { type: 'boolean' },
    stream: { type: 'string' },
    'check-only': { type: 'boolean' },
    rate: { type: 'string' },
    'stream-baseline': { type: 'boolean' },
    source: { type: 'string' },
  },
});
const NODES = Number(values.nodes ?? 100_000);
const PASSES = Number(values.passes ?? 20);
const EDITS = Number(values.edits ?? 10);
const STREAM_S = Number(values.stream ?? 0);
const RATE = Number(values.rate ?? 10);
const STORE = resolve(values.store ?? '.local/neo4j/data');
const SYNTHETIC_LABEL = 'BenchDoc';
/** A label the bench index does not hold: writes to it must cost the sync no work. */
const OTHER_LABEL = 'BenchOther';
const models = benchModels();
// The searcher resolves (neo4j, BENCH_MODEL) to the synthetic index through VECTOR_INDEX_NAME.
// `--source scan` makes every pass the full check; `auto` (default) follows the change-log plugin where the server has it.
const config = benchConfig(models.dir, {
  EMBEDDING_MODEL: BENCH_MODEL,
  VECTOR_INDEX_NAME: SYNTHETIC_INDEX,
  INDEX_CHANGE_SOURCE: values.source ?? 'auto',
  ...(values.source === 'property' ? { INDEX_CHANGED_PROPERTY: 'updatedAt' } : {}),
});
/** With `--source property`, every write to the bench label keeps `updatedAt`, as a writer following that contract does. */
const STAMP = values.source === 'property' ? ', n.updatedAt = timestamp()' : '';
const graph = createGraphStore(config);
const kv = createKvStore({ url: config.KVSTORE_URL, prefix: 'bench:' });
const embedders = createEmbeddersFromConfig(config);
const deps = (): IndexBuildDeps => ({ config, graph, kv, embedders, log: createLogger('warn') });
const db = config.GRAPHDB_GRAPH;
const syncKey = createKeys(kv.prefix).indexSync(db);
const run = (q: string, p: Record<string, unknown> = {}) => graph.driver.executeQuery(q, p, { database: db });
const s1 = (ms: number) => `${fmt(ms / 1000, 1)} s`;
const mb = (bytes: number) => `${fmt(bytes / 2 ** 20)} MB`;

/** Runs a query in an auto-commit transaction (needed by CALL { } IN TRANSACTIONS). */
async function autoCommit(q: string, p: Record<string, unknown> = {}, store: GraphStore = graph) {
  const s = store.driver.session({ database: db });
  try {
    await s.run(q, p);
  } finally {
    await s.close();
  }
}

/** Removes an index's chunk nodes, schema indexes and cache so the next build starts from zero. */
async function resetIndex(index: string) {
  await dropSearchIndex(graph.driver, db, index);
  await rm(cacheDir(config.DATA_DIR, index), { recursive: true, force: true });
}

/**
 * Removes the synthetic graph, its index, its CSV cache and the bench's sync state, on a
 * connection of its own (the bench's may have been closed by a signal).
 */
async function removeSynthetic() {
  const store = createGraphStore(config);
  try {
    await dropSearchIndex(store.driver, db, SYNTHETIC_INDEX);
    await autoCommit(`MATCH (n:${SYNTHETIC_LABEL}) CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS`, {}, store);
    await autoCommit(`MATCH (n:${OTHER_LABEL}) DETACH DELETE n`, {}, store);
    await autoCommit('DROP INDEX bench_updated_at IF EXISTS', {}, store);
    await autoCommit('DROP INDEX bench_dbid IF EXISTS', {}, store);
    await rm(cacheDir(config.DATA_DIR, SYNTHETIC_INDEX), { recursive: true, force: true });
    await kv.redis.del(syncKey);
  } finally {
    await store.close();
  }
}

/** Creates the synthetic graph unless it is already there with the right size. */
async function ensureSynthetic() {
  const { records } = await run(`MATCH (n:${SYNTHETIC_LABEL}) RETURN count(n) AS n`);
  // The stream's writer finds its node by dbId: without an index each write scans the label (0.4 s at 10^6).
  await run(`CREATE RANGE INDEX bench_dbid IF NOT EXISTS FOR (n:${SYNTHETIC_LABEL}) ON (n.dbId)`);
  if (STAMP) await run(`CREATE RANGE INDEX bench_updated_at IF NOT EXISTS FOR (n:${SYNTHETIC_LABEL}) ON (n.updatedAt)`);
  if (records[0]?.get('n') === NODES) return console.log(`synthetic graph: ${fmt(NODES)} BenchDoc nodes already present`);
  await autoCommit(`MATCH (n:${SYNTHETIC_LABEL}) CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS`);
  const started = performance.now();
  let chars = 0;
  for (let i = 0; i < NODES; i += 2000) {
    const rows = [];
    for (let j = i; j < Math.min(NODES, i + 2000); j++) {
      const text = generateProse(j);
      chars += text.length;
      rows.push({ dbId: neo4j.int(j), text });
    }
    await run(
      `UNWIND $rows AS r CREATE (n:${SYNTHETIC_LABEL} {dbId: r.dbId, displayName: 'doc ' + toString(r.dbId)}) SET n[$prop] = r.text${STAMP}`,
      { rows, prop: SYNTHETIC_PROP },
    );
  }
  console.log(
    `synthetic graph: ${fmt(NODES)} BenchDoc nodes, mean ${fmt(chars / NODES)} characters, created in ${fmt((performance.now() - started) / 1000, 1)} s`,
  );
}

/** Samples this process's RSS every 25 ms until stopped; returns the peak. */
function rssSampler() {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 25);
  return () => {
    clearInterval(timer);
    return Math.max(peak, process.memoryUsage.rss());
  };
}

/** The labels each bench graph's text is on: builds index only these, never other data of the shared database. */
const BENCH_LABELS: Record<string, string[]> = { [SYNTHETIC_INDEX]: [SYNTHETIC_LABEL], [WIKIPATHWAYS_INDEX]: ['Pathway'] };

/** One timed build with RSS sampling. */
async function timedBuild(index: string, prop: string): Promise<{ r: BuildReport; peakRss: number }> {
  const stop = rssSampler();
  try {
    const r = await buildVectorIndex(deps(), {
      graph: db,
      model: BENCH_MODEL,
      indexName: index,
      textProperty: prop,
      choice: { labels: BENCH_LABELS[index] },
      discover: true,
    });
    return { r, peakRss: stop() };
  } finally {
    stop();
  }
}

function printBuild(title: string, { r, peakRss }: { r: BuildReport; peakRss: number }) {
  const t = r.timings;
  console.log(`\n## ${title}`);
  console.log(
    `  chunks            ${fmt(r.total_chunks)} in ${fmt(r.batches_total)} batches (${r.batches_computed} embedded, ${r.batches_skipped} from cache)`,
  );
  console.log(`  end to end        ${s1(t.totalMs)}  →  ${fmt(r.total_chunks / (t.totalMs / 1000))} chunks/s`);
  console.log(
    `  before the index  ${s1(t.totalMs - t.indexMs)}  →  ${fmt(r.total_chunks / ((t.totalMs - t.indexMs) / 1000))} chunks/s (stream, chunk, embed, cache, write, clean up)`,
  );
  console.log(`  tokenising        ${s1(t.tokenizeMs)} (chunking + tokenising, Node main thread)`);
  console.log(`  inference         ${s1(t.inferenceMs)} (table gather + mean + normalise)`);
  console.log(`  DB writes         ${s1(t.writeMs)} (batch transactions; overlap embedding)`);
  console.log(`  CSV cache         ${s1(t.cacheMs)}`);
  console.log(`  stale clean-up    ${s1(t.cleanupMs)}`);
  console.log(`  index online      ${s1(t.indexMs)} (vector index creation + population in Neo4j)`);
  console.log(`  peak RSS          ${mb(peakRss)} (Node process, sampled every 25 ms)`);
}

// ---------------------------------------------------------------------------------------------
// --sync
// ---------------------------------------------------------------------------------------------

/** The Neo4j process whose jars are beside `--store` (its CPU time per pass), or null. */
function findNeo4jPid(): number | null {
  const lib = resolve(STORE, '..', 'lib');
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmd.includes('java') && cmd.includes(`${lib}/`)) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

/** `du -sk` of the store of database `db` (store files and transaction logs), in bytes; NaN when absent. */
function storeSize(): { store: number; txlogs: number } {
  return { store: duBytes(`${STORE}/databases/${db}`), txlogs: duBytes(`${STORE}/transactions/${db}`) };
}

const gb = (bytes: number) => `${fmt(bytes / 2 ** 30, 2)} GB`;
async function printStore(when: string) {
  // Store files grow as the page cache flushes (Community has no db.checkpoint()): du lags the writes a little.
  const { store, txlogs } = storeSize();
  console.log(
    `${`  disk (${when})`.padEnd(34)}store ${gb(store)}, transaction logs ${gb(txlogs)} (du of ${STORE}/{databases,transactions}/${db})`,
  );
}

const load = loadAverages;

/** A timed `syncGraph` pass: wall time, the bench index's result, the others', peak RSS, the database's CPU. */
interface TimedPass {
  pass: SyncPass;
  ms: number;
  bench?: IndexSyncResult;
  others: IndexSyncResult[];
  peakRss: number;
  neo4jCpuMs: number;
  nodeCpuMs: number;
}

let neo4jPid: number | null = null;
async function timedPass(): Promise<TimedPass> {
  const stop = rssSampler();
  const dbCpu = neo4jPid ? cpuMs(neo4jPid) : Number.NaN;
  const cpu = process.cpuUsage();
  const t = performance.now();
  try {
    const pass = await syncGraph(deps(), db);
    const ms = performance.now() - t;
    const used = process.cpuUsage(cpu);
    return {
      pass,
      ms,
      bench: pass.results.find((r) => r.index === SYNTHETIC_INDEX),
      others: pass.results.filter((r) => r.index !== SYNTHETIC_INDEX),
      peakRss: stop(),
      neo4jCpuMs: neo4jPid ? cpuMs(neo4jPid) - dbCpu : Number.NaN,
      nodeCpuMs: (used.user + used.system) / 1000,
    };
  } finally {
    stop();
  }
}

function describePass(p: TimedPass): string {
  if (!p.pass.changed) return `unchanged: ${fmt(p.ms, 1)} ms (check ${fmt(p.pass.checkMs, 2)} ms)`;
  const b = p.bench;
  const bench = b
    ? b.outcome === 'synced'
      ? `${fmt(b.nodes_changed ?? 0)} nodes changed, ${fmt(b.nodes_deleted ?? 0)} deleted; chunks: ${fmt(b.chunks_embedded ?? 0)} embedded, ${fmt(b.chunks_written ?? 0)} written, ${fmt(b.chunks_kept ?? 0)} kept, ${fmt(b.chunks_deleted ?? 0)} deleted; ${p.pass.rounds} round(s)`
      : `${b.outcome}: ${b.error}`
    : 'bench index not synced';
  const others = p.others.length
    ? `; ${p.others.length} other index(es) of the shared database (${p.others.map((r) => r.index).join(', ')}): ${s1(p.others.reduce((a, r) => a + r.ms, 0))}`
    : '';
  const source = `${p.pass.source}${p.pass.fullMs === null ? '' : ', full check'}`;
  return `${s1(p.ms)} (${bench}; ${source}; check ${fmt(p.pass.checkMs, 1)} ms${others}); peak RSS ${mb(p.peakRss)}; CPU: Node ${s1(p.nodeCpuMs)}, Neo4j ${s1(p.neo4jCpuMs)}`;
}

const searcher = createVectorSearcher({ config, graph, embedders });
/** A word no generated text holds (letters only, one Lucene token). */
const uniqueWord = () => `qz${Array.from({ length: 10 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')}`;

/** Whether a full-text search for `word` ranks node `dbId` first (present) or does not return it (absent). */
async function found(word: string, dbId: number): Promise<boolean> {
  const hits = await searcher.search({ query: word, graph: db, model: BENCH_MODEL, topK: 3, mode: 'fulltext' });
  return hits[0]?.dbId === dbId;
}

/** Polls until every (word, node) pair is found (or, with `absent`, none is), at most 60 s; returns ms from `since`. */
async function searchable(pairs: { word: string; dbId: number }[], since: number, absent = false): Promise<number> {
  const deadline = performance.now() + 60_000;
  for (;;) {
    const seen = await Promise.all(pairs.map((p) => found(p.word, p.dbId)));
    if (seen.every((x) => x !== absent)) return performance.now() - since;
    if (performance.now() > deadline) throw new Error(`search did not ${absent ? 'lose' : 'find'} the edited nodes within 60 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Distinct random node numbers of the original graph. */
function randomNodes(n: number, avoid: Set<number>): number[] {
  const out = new Set<number>();
  while (out.size < n) {
    const id = Math.floor(Math.random() * NODES);
    if (!avoid.has(id)) out.add(id);
  }
  for (const id of out) avoid.add(id);
  return [...out];
}

/** Sets new text with a unique word on nodes `ids`; returns the words and the time the edit committed. */
async function editNodes(ids: number[], seedBase: number) {
  const pairs = ids.map((dbId, i) => ({ dbId, word: uniqueWord(), text: generateProse(seedBase + i) }));
  await run(`UNWIND $rows AS r MATCH (n:${SYNTHETIC_LABEL} {dbId: r.dbId}) SET n[$prop] = r.text + ' Marker ' + r.word + '.'${STAMP}`, {
    rows: pairs.map((p) => ({ dbId: neo4j.int(p.dbId), word: p.word, text: p.text })),
    prop: SYNTHETIC_PROP,
  });
  return { pairs, at: performance.now() };
}

/** An edit, the pass that syncs it, the search that finds it, and the follow-up pass the sync's writes cause. */
async function editToSearch(title: string, edit: () => Promise<{ pairs: { word: string; dbId: number }[]; at: number }>, absent = false) {
  const { pairs, at } = await edit();
  const p = await timedPass();
  const passDone = performance.now() - at;
  const total = await searchable(pairs, at, absent);
  console.log(`\n## ${title}`);
  console.log(`  sync pass                      ${describePass(p)}`);
  console.log(`  edit → pass done               ${s1(passDone)}`);
  console.log(
    `  edit → search ${absent ? 'loses' : 'finds'} ${pairs.length === 1 ? 'it ' : 'them'}       ${s1(total)} (full-text, each by its unique word)`,
  );
  return { p, passDone, total };
}

async function followUp(): Promise<TimedPass> {
  const p = await timedPass();
  console.log(`  follow-up pass (its own writes) ${describePass(p)}`);
  return p;
}

/** Where a pass's time goes when nothing changed: the change check of the bench index, timed alone. */
async function syncBreakdown() {
  const meta = await readIndexMeta(graph.driver, db, SYNTHETIC_INDEX);
  if (!meta) return console.log('  (no record of the bench index)');
  const store = createChunkStore(graph.driver, db, SYNTHETIC_INDEX);
  const params = { ...textParams(meta.plan), carryProps: meta.settings.carry?.properties ?? [] };
  const t = performance.now();
  let changed = 0;
  let gone = 0;
  for await (const c of store.changes(params)) {
    if (c.seq === null) gone++;
    else changed++;
  }
  console.log(`  change check alone             ${s1(performance.now() - t)} (${changed} changed or new, ${gone} gone)`);
}

/** A write to a label the index does not hold, and the pass after it. */
async function unindexedWrite() {
  await run(`MERGE (n:${OTHER_LABEL} {k: 1}) SET n.note = $note`, { note: uniqueWord() });
  const p = await timedPass();
  console.log(`\n## a write to a label the index does not hold (load average ${load()})`);
  console.log(`  sync pass                      ${describePass(p)}`);
  return p;
}

/**
 * A steady stream of `RATE` writes a second to random indexed nodes for `STREAM_S` seconds, with
 * the worker loop running: the lag from each write's commit until full-text search finds its
 * unique word (polled every 250 ms for all pending words at once), and the CPU both processes used.
 */
/** Writes `RATE` edits a second to random indexed nodes for `STREAM_S` seconds; `onWrite` gets each one's unique word. */
async function writeStream(onWrite: (word: string) => void): Promise<{ writes: number; wall: number; dbCpu: number; nodeCpuMs: number }> {
  const dbCpu0 = neo4jPid ? cpuMs(neo4jPid) : Number.NaN;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let writes = 0;
  while (performance.now() - t0 < STREAM_S * 1000) {
    const wait = t0 + (writes * 1000) / RATE - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const word = uniqueWord();
    await run(`MATCH (n:${SYNTHETIC_LABEL} {dbId: $dbId}) SET n[$prop] = $text + ' Marker ' + $word + '.'${STAMP}`, {
      dbId: neo4j.int(Math.floor(Math.random() * NODES)),
      prop: SYNTHETIC_PROP,
      text: generateProse(NODES + 10_000 + writes),
      word,
    });
    onWrite(word);
    writes++;
  }
  const used = process.cpuUsage(cpu0);
  return {
    writes,
    wall: performance.now() - t0,
    dbCpu: neo4jPid ? cpuMs(neo4jPid) - dbCpu0 : Number.NaN,
    nodeCpuMs: (used.user + used.system) / 1000,
  };
}

/** A CPU time as a share of one core over `wallMs`. */
const coreShare = (ms: number, wallMs: number) => `${fmt((100 * ms) / wallMs, 1)} % of one core`;

/**
 * `--stream-baseline`: the same stream with no sync and no poller, so that the stream's Neo4j
 * CPU less this is what the sync and the poller add (the poller's full-text queries included: an
 * upper bound of the sync's share).
 */
async function streamBaseline() {
  console.log(`\n## the same stream with no sync and no poller (the writer alone) (load average ${load()})`);
  const w = await writeStream(() => undefined);
  console.log(`  writes                         ${fmt(w.writes)} in ${s1(w.wall)}; Neo4j ${coreShare(w.dbCpu, w.wall)}`);
  return w.dbCpu / w.wall;
}

async function streamBench(interval: number) {
  const baseline = values['stream-baseline'] ? await streamBaseline() : null;
  console.log(
    `\n## a steady stream: ${RATE} writes/s to indexed nodes for ${STREAM_S} s, worker loop (INDEX_SYNC_INTERVAL_MS ${s1(interval)}, INDEX_CHANGE_SOURCE ${config.INDEX_CHANGE_SOURCE}) (load average ${load()})`,
  );
  const ft = fulltextIndexName(SYNTHETIC_INDEX);
  const pending = new Map<string, number>();
  const lags: number[] = [];
  const t0 = performance.now();
  const loop = startIndexSync(deps());
  let writing = true;
  const poll = (async () => {
    // After the last write, at most two minutes for the rest to arrive.
    while (writing || (pending.size && performance.now() - t0 < (STREAM_S + 120) * 1000)) {
      const words = [...pending.keys()].slice(0, 200);
      if (words.length) {
        const { records } = await run('CALL db.index.fulltext.queryNodes($ft, $q) YIELD node RETURN node.chunkText AS t', {
          ft,
          q: words.join(' OR '),
        });
        const now = performance.now();
        for (const r of records) {
          const text = r.get('t') as string;
          for (const w of words) {
            const at = pending.get(w);
            if (at !== undefined && text.includes(w)) {
              lags.push(now - at);
              pending.delete(w);
            }
          }
        }
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  try {
    const w = await writeStream((word) => pending.set(word, performance.now()));
    writing = false;
    await poll;
    const sorted = [...lags].sort((a, b) => a - b);
    console.log(`  writes                         ${fmt(w.writes)} in ${s1(w.wall)} (${fmt(w.writes / (w.wall / 1000), 1)}/s)`);
    console.log(
      `  write → searchable             p50 ${s1(pct(sorted, 50))}, p95 ${s1(pct(sorted, 95))}, max ${s1(sorted.at(-1) ?? Number.NaN)} (${fmt(sorted.length)} found; ${fmt(pending.size)} not found within 2 min of the last write)`,
    );
    console.log(
      `  CPU while writing              Node (sync + writer + poller) ${coreShare(w.nodeCpuMs, w.wall)}, Neo4j ${coreShare(w.dbCpu, w.wall)}`,
    );
    if (baseline !== null) {
      console.log(`  Neo4j beyond the writer alone  ${coreShare(w.dbCpu - baseline * w.wall, w.wall)} (the sync and the poller)`);
    }
  } finally {
    writing = false;
    await loop.stop();
  }
}

/**
 * `--sync --check-only`: the change check alone at scale, without a build: every BenchDoc node
 * gets the chunk 0 a build writes (its values recorded, computed in the database; no text, no
 * vector), then the check is timed on the unchanged graph, after a write to another label, after
 * `--edits` edits and after a deletion. What a pass adds to it for k changed nodes (reading,
 * chunking and embedding those k) is measured by the full `--sync` run at 10^5.
 */
async function checkOnlyBench() {
  await ensureSynthetic();
  await resetIndex(SYNTHETIC_INDEX);
  const params = { prop: SYNTHETIC_PROP, textKeys: {}, only: [SYNTHETIC_LABEL], nameKeys: ['displayName'], carryProps: [] };
  const store = createChunkStore(graph.driver, db, SYNTHETIC_INDEX);
  let t = performance.now();
  await autoCommit(
    `MATCH (n:${SYNTHETIC_LABEL}) CALL (n) { CREATE (c:${quoteName(chunkLabel(SYNTHETIC_INDEX))} {nodeId: elementId(n), chunk: 0, batch: 'bench', sig: ${nodeSig('n')}}) } IN TRANSACTIONS OF 10000 ROWS`,
    params,
  );
  await store.prepare();
  console.log(`chunk 0 of ${fmt(NODES)} nodes written, node-id index online: ${s1(performance.now() - t)}`);
  await printStore('with the chunk nodes');
  const check = async (title: string) => {
    const cpu = neo4jPid ? cpuMs(neo4jPid) : Number.NaN;
    t = performance.now();
    let changed = 0;
    let gone = 0;
    for await (const c of store.changes(params)) {
      if (c.seq === null) gone++;
      else changed++;
    }
    const ms = performance.now() - t;
    console.log(
      `  ${title.padEnd(36)} ${s1(ms)} (${changed} changed or new, ${gone} gone; Neo4j CPU ${s1(neo4jPid ? cpuMs(neo4jPid) - cpu : Number.NaN)}; load ${load()})`,
    );
  };
  console.log(`\n## the change check at ${fmt(NODES)} nodes`);
  for (let i = 0; i < 3; i++) await check('unchanged graph');
  await run(`MERGE (n:${OTHER_LABEL} {k: 1}) SET n.note = $note`, { note: uniqueWord() });
  await check('after a write to another label');
  await editNodes(randomNodes(EDITS, new Set()), NODES + 1000);
  await check(`after ${EDITS} nodes edited`);
  await run(`MATCH (n:${SYNTHETIC_LABEL} {dbId: 0}) DETACH DELETE n`);
  await run(`CREATE (n:${SYNTHETIC_LABEL} {dbId: 0, displayName: 'doc 0'}) SET n[$prop] = 'A new node.'${STAMP}`, { prop: SYNTHETIC_PROP });
  await check('after one deleted, one created');
}

async function syncBench() {
  neo4jPid = findNeo4jPid();
  // Every recorded index of the graph is synced by each pass; one that discovers new labels takes the bench graph in too.
  for (const { index, settings } of await listIndexMeta(graph.driver, db)) {
    const greedy = settings.discover && !settings.choice.labels?.length;
    console.log(
      `recorded index of the shared database: ${index}${greedy ? ' — discovers new labels: its syncs will index the bench graph too' : ''}`,
    );
  }
  console.log(`Neo4j process: ${neo4jPid ?? 'not found (no CPU figures)'}; load average ${load()}`);
  console.log('\n## store before');
  await printStore('before the bench graph');
  await ensureSynthetic();
  await printStore('graph created');
  await resetIndex(SYNTHETIC_INDEX);
  await kv.redis.del(syncKey);
  const build = await timedBuild(SYNTHETIC_INDEX, SYNTHETIC_PROP);
  printBuild(`synthetic: ${fmt(NODES)} nodes, fresh build (load average ${load()})`, build);
  await printStore('after the build');
  const interval = config.INDEX_SYNC_INTERVAL_MS;
  const touched = new Set<number>();

  if (values.short) {
    const e = await editToSearch(`${EDITS} nodes changed after the build: the first pass (load average ${load()})`, () =>
      editNodes(randomNodes(EDITS, touched), NODES + 1000),
    );
    const p = e.passDone;
    console.log(`  worst case, graph quiet before ${s1(interval + p)} = INDEX_SYNC_INTERVAL_MS ${s1(interval)} + the pass`);
    console.log(
      `  worst case, after another write ${s1(p + Math.max(interval, 3 * p) + p)} = a verifying pass that misses the edit (~${s1(p)}) + spacing max(interval, 3 × pass) + the pass`,
    );
    console.log(`\n## the change check on the unchanged graph (load average ${load()})`);
    await syncBreakdown();
    await unindexedWrite();
    if (STREAM_S > 0) await streamBench(interval);
    return;
  }

  console.log(`\n## first pass after the build (load average ${load()})`);
  const first = await timedPass();
  console.log(`  ${describePass(first)}`);
  await syncBreakdown();

  const unchanged: TimedPass[] = [];
  for (let i = 0; i < PASSES; i++) unchanged.push(await timedPass());
  const quiet = unchanged.filter((p) => !p.pass.changed);
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const checks = sorted(unchanged.map((p) => p.pass.checkMs));
  const walls = sorted(quiet.map((p) => p.ms));
  console.log(`\n## ${PASSES} passes over an unchanged graph (load average ${load()})`);
  const quietChecks = sorted(quiet.map((p) => p.pass.checkMs));
  console.log(`  change check (database), all   p50 ${fmt(pct(checks, 50), 2)} ms, max ${fmt(checks.at(-1) ?? NaN, 2)} ms`);
  console.log(`  change check, unchanged passes p50 ${fmt(pct(quietChecks, 50), 2)} ms, max ${fmt(quietChecks.at(-1) ?? NaN, 2)} ms`);
  console.log(
    `  syncGraph wall, unchanged      p50 ${fmt(pct(walls, 50), 2)} ms, max ${fmt(walls.at(-1) ?? NaN, 2)} ms (${quiet.length} of ${PASSES}; peak RSS ${mb(Math.max(...unchanged.map((p) => p.peakRss)))})`,
  );
  for (const p of unchanged.filter((x) => x.pass.changed)) console.log(`  changed by another writer:     ${describePass(p)}`);

  const edits = await editToSearch(`${EDITS} random nodes given new text (load average ${load()})`, () =>
    editNodes(randomNodes(EDITS, touched), NODES + 1000),
  );
  const after = await followUp();
  const createdId = NODES + 1;
  const createdWord = uniqueWord();
  const created = await editToSearch('one node created', async () => {
    const [dbId, word] = [createdId, createdWord];
    await run(
      `CREATE (n:${SYNTHETIC_LABEL} {dbId: $dbId, displayName: 'doc ' + toString($dbId)}) SET n[$prop] = $text + ' Marker ' + $word + '.'${STAMP}`,
      { dbId: neo4j.int(dbId), prop: SYNTHETIC_PROP, text: generateProse(NODES + 2000), word },
    );
    return { pairs: [{ word, dbId }], at: performance.now() };
  });
  await followUp();
  // A node with a unique word (the created one), so that its absence is seen by search.
  const deleted = await editToSearch(
    'one node deleted',
    async () => {
      await run(`MATCH (n:${SYNTHETIC_LABEL} {dbId: $dbId}) DETACH DELETE n`, { dbId: neo4j.int(createdId) });
      return { pairs: [{ word: createdWord, dbId: createdId }], at: performance.now() };
    },
    true,
  );
  await followUp();
  await unindexedWrite();

  // The worker loop itself: an edit right after it starts (its first pass comes one follow period later).
  console.log(`\n## the worker loop (load average ${load()})`);
  const loop = startIndexSync(deps());
  let looped: number;
  try {
    const { pairs, at } = await editNodes(randomNodes(EDITS, touched), NODES + 3000);
    looped = await searchable(pairs, at);
  } finally {
    await loop.stop();
  }
  console.log(`  ${EDITS} nodes edited right after a pass → search finds them: ${s1(looped)}`);

  // Worst case by the loop's spacing (src/vector-index/sync/loop.ts nextPassIn): after an unchanged
  // pass, and after a pass that missed the edit (under the change log a followed pass; else a full check).
  const following = edits.p.pass.source !== 'scan';
  const verify = following ? after.ms : Math.max(first.ms, after.ms);
  const idleGap = nextPassIn(config, null, following);
  const busyGap = nextPassIn(config, { source: following ? 'plugin' : 'scan', fullMs: following ? null : verify }, following);
  const worstIdle = idleGap + edits.passDone;
  const worstBusy = verify + busyGap + edits.passDone;
  console.log(`\n## edit → searchable, worst case with the loop (${following ? 'following the change log' : 'full checks'})`);
  console.log(
    `  graph quiet before the edit    ${s1(worstIdle)} = spacing ${s1(idleGap)} + sync pass ${s1(edits.passDone)} (the edit lands just after an unchanged-graph pass)`,
  );
  console.log(
    `  right after another write      ${s1(worstBusy)} = a pass ${s1(verify)} that misses the edit + spacing ${s1(busyGap)} + sync pass ${s1(edits.passDone)}`,
  );
  console.log(`  created / deleted node         pass ${s1(created.passDone)} / ${s1(deleted.passDone)}`);
  if (STREAM_S > 0) await streamBench(interval);
}

// ---------------------------------------------------------------------------------------------

let interrupted = false;
let synthetic = false;
let failed = false;
let cleaning: Promise<void> | undefined;
/** Removes the synthetic graph, its index, cache and sync state (once, from the end of the run or from a signal). */
const cleanUp = () =>
  (cleaning ??= (async () => {
    if (!synthetic || (values.keep && !values.cleanup)) return;
    const t = performance.now();
    try {
      await removeSynthetic();
      console.log(`\nsynthetic graph, its index, CSV cache and sync state removed in ${s1(performance.now() - t)} (--keep keeps them)`);
      if (values.sync || values.cleanup) await printStore('after removal');
    } catch (err) {
      failed = true;
      console.error('clean-up failed; run `npm run bench:index -- --cleanup`', err);
    }
  })());
/**
 * Stops the run and cleans up from here: the run's own `finally` may never come, since a query
 * awaited on the closed driver can stay pending (a SIGINT once left the bench idle, nothing removed).
 */
const onSignal = async (signal: string) => {
  if (interrupted) process.exit(130);
  interrupted = true;
  console.error(`\n${signal}: stopping; the bench graph and index are removed next (a second signal exits at once)`);
  await graph.close().catch(() => undefined);
  await cleanUp();
  process.exit(130);
};
process.on('SIGINT', () => void onSignal('SIGINT'));
process.on('SIGTERM', () => void onSignal('SIGTERM'));

try {
  console.log(`machine: ${await describeMachine(graph.driver, db)}`);
  console.log(`model:   ${models.description}`);
  console.log(
    `config:  batch ${config.INDEX_BATCH_SIZE} chunks, chunks of ${config.CHUNK_TOKENS} tokens with ${config.CHUNK_OVERLAP_TOKENS} overlap, HNSW m ${config.VECTOR_INDEX_HNSW_M} ef_construction ${config.VECTOR_INDEX_EF_CONSTRUCTION}`,
  );
  console.log(`date:    ${new Date().toISOString()}, load average ${load()}`);
  if (values.cleanup) {
    synthetic = true;
  } else if (values.sync && values['check-only']) {
    synthetic = true;
    neo4jPid = findNeo4jPid();
    await checkOnlyBench();
  } else if (values.sync) {
    await embedders.get(BENCH_MODEL);
    synthetic = true;
    await syncBench();
  } else {
    await embedders.get(BENCH_MODEL); // load time is not build time
    if (values.only !== 'wikipathways') {
      synthetic = true;
      await ensureSynthetic();
      await resetIndex(SYNTHETIC_INDEX);
      printBuild(`synthetic: ${fmt(NODES)} nodes, fresh build`, await timedBuild(SYNTHETIC_INDEX, SYNTHETIC_PROP));
      printBuild('synthetic: re-run (everything cached)', await timedBuild(SYNTHETIC_INDEX, SYNTHETIC_PROP));
    }
    if (values.only !== 'synthetic') {
      const started = performance.now();
      const loaded = await loadWikiPathways(graph.driver, { database: db, textProperty: WIKIPATHWAYS_PROP });
      console.log(
        `\nwikipathways: ${loaded.pathways} pathways (${loaded.withText} with text) loaded in ${fmt((performance.now() - started) / 1000, 1)} s`,
      );
      await resetIndex(WIKIPATHWAYS_INDEX);
      printBuild('WikiPathways descriptions, fresh build', await timedBuild(WIKIPATHWAYS_INDEX, WIKIPATHWAYS_PROP));
      if (!values.keep) {
        await dropSearchIndex(graph.driver, db, WIKIPATHWAYS_INDEX);
        await dropWikiPathways(graph.driver, db);
        console.log('\nWikiPathways graph and index removed (--keep keeps them; the CSV cache stays)');
      }
    }
  }
} catch (err) {
  failed = true;
  console.error(interrupted ? 'interrupted' : err);
} finally {
  await cleanUp();
  await Promise.allSettled([graph.close(), kv.close(), embedders.close()]);
  if (failed || interrupted) process.exitCode = 1;
}
