/**
 * `npm run bench:index`: builds the vector index over (1) a generated graph of 100,000 text nodes
 * (prose of 200–2,000 characters, label `BenchDoc`, property `bench_text`) and (2) the WikiPathways
 * extract (`scripts/load-wikipathways.ts`, property `wp_bench_text`), each from scratch and then
 * once more from the cache, and prints chunks/s end to end, peak RSS and where the time went.
 *
 * Options: --nodes <n> (100000), --only synthetic|wikipathways, --keep (leave the bench graphs
 * and indexes in the database; by default both are removed, the CSV caches stay in
 * test-output/bench-data so that bench:search rebuilds the WikiPathways index in seconds).
 */
import { rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import neo4j from 'neo4j-driver';
import { createEmbeddersFromConfig } from '../src/embeddings/embedders.js';
import { cacheDir } from '../src/vector-index/csv-cache.js';
import { buildVectorIndex, type BuildReport, type IndexBuildDeps } from '../src/vector-index/index-build.js';
import { createGraphStore } from '../src/graph/driver.js';
import { createLogger } from '../src/lib/log.js';
import { createKvStore } from '../src/store/redis.js';
import { dropSearchIndex } from '../src/vector-index/index-writer.js';
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
import { dropWikiPathways, loadWikiPathways } from './load-wikipathways.js';

const { values } = parseArgs({ options: { nodes: { type: 'string' }, only: { type: 'string' }, keep: { type: 'boolean' } } });
const NODES = Number(values.nodes ?? 100_000);
const models = benchModels();
const config = benchConfig(models.dir);
const graph = createGraphStore(config);
const kv = createKvStore({ url: config.KVSTORE_URL, prefix: 'bench:' });
const embedders = createEmbeddersFromConfig(config);
const deps: IndexBuildDeps = { config, graph, kv, embedders, log: createLogger('warn') };
const db = config.GRAPHDB_GRAPH;
const run = (q: string, p: Record<string, unknown> = {}) => graph.driver.executeQuery(q, p, { database: db });

/** Runs a query in an auto-commit transaction (needed by CALL { } IN TRANSACTIONS). */
async function autoCommit(q: string, p: Record<string, unknown> = {}) {
  const s = graph.driver.session({ database: db });
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

/** Creates the synthetic graph unless it is already there with the right size. */
async function ensureSynthetic() {
  const { records } = await run('MATCH (n:BenchDoc) RETURN count(n) AS n');
  if (records[0]?.get('n') === NODES) return console.log(`synthetic graph: ${fmt(NODES)} BenchDoc nodes already present`);
  await autoCommit('MATCH (n:BenchDoc) CALL { WITH n DELETE n } IN TRANSACTIONS OF 10000 ROWS');
  const started = performance.now();
  let chars = 0;
  for (let i = 0; i < NODES; i += 2000) {
    const rows = [];
    for (let j = i; j < Math.min(NODES, i + 2000); j++) {
      const text = generateProse(j);
      chars += text.length;
      rows.push({ dbId: neo4j.int(j), text });
    }
    await run(`UNWIND $rows AS r CREATE (n:BenchDoc {dbId: r.dbId, displayName: 'doc ' + toString(r.dbId)}) SET n[$prop] = r.text`, {
      rows,
      prop: SYNTHETIC_PROP,
    });
  }
  console.log(
    `synthetic graph: ${fmt(NODES)} BenchDoc nodes, mean ${fmt(chars / NODES)} characters, created in ${fmt((performance.now() - started) / 1000, 1)} s`,
  );
}

/** One timed build with RSS sampling. */
async function timedBuild(index: string, prop: string): Promise<{ r: BuildReport; peakRss: number }> {
  let peakRss = process.memoryUsage.rss();
  const timer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 25);
  try {
    const r = await buildVectorIndex(deps, { graph: db, model: BENCH_MODEL, indexName: index, textProperty: prop });
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    return { r, peakRss };
  } finally {
    clearInterval(timer);
  }
}

function printBuild(title: string, { r, peakRss }: { r: BuildReport; peakRss: number }) {
  const t = r.timings;
  const s = (ms: number) => `${fmt(ms / 1000, 1)} s`;
  console.log(`\n## ${title}`);
  console.log(
    `  chunks            ${fmt(r.total_chunks)} in ${fmt(r.batches_total)} batches (${r.batches_computed} embedded, ${r.batches_skipped} from cache)`,
  );
  console.log(`  end to end        ${s(t.totalMs)}  →  ${fmt(r.total_chunks / (t.totalMs / 1000))} chunks/s`);
  console.log(
    `  before the index  ${s(t.totalMs - t.indexMs)}  →  ${fmt(r.total_chunks / ((t.totalMs - t.indexMs) / 1000))} chunks/s (stream, chunk, embed, cache, write, clean up)`,
  );
  console.log(`  tokenising        ${s(t.tokenizeMs)} (chunking + tokenising, Node main thread)`);
  console.log(`  inference         ${s(t.inferenceMs)} (table gather + mean + normalise)`);
  console.log(`  DB writes         ${s(t.writeMs)} (batch transactions; overlap embedding)`);
  console.log(`  CSV cache         ${s(t.cacheMs)}`);
  console.log(`  stale clean-up    ${s(t.cleanupMs)}`);
  console.log(`  index online      ${s(t.indexMs)} (vector index creation + population in Neo4j)`);
  console.log(`  peak RSS          ${fmt(peakRss / 2 ** 20)} MB (Node process, sampled every 25 ms)`);
}

try {
  console.log(`machine: ${await describeMachine(graph.driver, db)}`);
  console.log(`model:   ${models.description}`);
  console.log(
    `config:  batch ${config.INDEX_BATCH_SIZE} chunks, chunks of ${config.CHUNK_TOKENS} tokens with ${config.CHUNK_OVERLAP_TOKENS} overlap, HNSW m ${config.VECTOR_INDEX_HNSW_M} ef_construction ${config.VECTOR_INDEX_EF_CONSTRUCTION}`,
  );
  await embedders.get(BENCH_MODEL); // load time is not build time
  if (values.only !== 'wikipathways') {
    await ensureSynthetic();
    await resetIndex(SYNTHETIC_INDEX);
    printBuild(`synthetic: ${fmt(NODES)} nodes, fresh build`, await timedBuild(SYNTHETIC_INDEX, SYNTHETIC_PROP));
    printBuild('synthetic: re-run (everything cached)', await timedBuild(SYNTHETIC_INDEX, SYNTHETIC_PROP));
    if (!values.keep) {
      await dropSearchIndex(graph.driver, db, SYNTHETIC_INDEX);
      await autoCommit('MATCH (n:BenchDoc) CALL { WITH n DELETE n } IN TRANSACTIONS OF 10000 ROWS');
      console.log('\nsynthetic graph and index removed (--keep keeps them)');
    }
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
} finally {
  await Promise.allSettled([graph.close(), kv.close(), embedders.close()]);
}
