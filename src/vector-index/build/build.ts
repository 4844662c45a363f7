/**
 * The vector index build, shared by `POST /dev/build_vector_index` and `scripts/build-index`:
 * create the vector index and the full-text index beside it, then stream the text nodes →
 * chunk (behind a header naming the node) → embed a batch (or load it from the CSV cache) →
 * write the batch's chunk nodes (up to two writes in flight while the next batch is embedded);
 * then delete stale chunks and wait until both indexes are online. The one lock covers both.
 *
 * Re-runs: a batch found in the cache is not embedded again (`batches_skipped`), and a batch the
 * graph already holds in full is not written again, so an interrupted build resumes cheaply and
 * ends with the same chunk nodes as an uninterrupted one. Nodes removed or changed since the
 * previous build: their batches get new content keys, and every chunk node whose batch key is
 * not part of this build is deleted at the end (as are cache files of batches no longer used).
 *
 * A node whose content makes reading or chunking it fail is left out and reported
 * (../index/skipped-nodes.ts: `skipped` in the report, `nodesSkipped` in the progress, a warning in the
 * log); the build goes on with the others.
 */
import { type IndexBuildDeps, type IndexConfig, resolveIndexName, validateBuildTarget } from '../index/target.js';
import { findModel, type ModelEntry } from '../../contract/models.js';
import type { Embedder } from '../../embeddings/types.js';
import type { Logger } from '../../lib/log.js';
import { countTextNodes } from '../../graph/access/text-nodes.js';
import { readTextPlan, type TextChoice, type TextPlan } from '../../graph/text/text-plan.js';
import { INDEX_VERSION, writeIndexMeta, type IndexSettings } from '../index/record.js';
import { DEFAULT_TEXT_FORMAT, type TextFormat } from '../index/node-text.js';
import { type BatchCache, batchKey, createCsvCache, storedBatchKey, type CacheFs } from './csv-cache.js';
import { type CarryPlan, carryFields } from '../index/carry.js';
import { acquireBuildLock, type BuildLock } from '../../store/build-lock.js';
import { chunkBatches, streamTextNodes, textParams } from '../index/source.js';
import { createSkippedNodes, SKIPPED_SHOWN, type SkippedNodes, type SkippedNodesLog } from '../index/skipped-nodes.js';
import { createIndexWriter, type IndexWriter } from '../../graph/access/index-writer.js';

/** Progress of a running build, reported after every batch and while the index populates. */
export interface BuildProgress {
  phase: 'embedding' | 'cleanup' | 'indexing' | 'done';
  /** Text nodes in the graph when the build started. */
  nodesTotal: number;
  nodesDone: number;
  chunksDone: number;
  batchesDone: number;
  batchesComputed: number;
  batchesSkipped: number;
  /** Nodes left out because their content made reading or chunking them fail (../index/skipped-nodes.ts); absent: 0. */
  nodesSkipped?: number;
  /** Population of the vector index, 0..100 (phase `indexing`). */
  indexPercent: number;
}

/** Options of {@link buildVectorIndex}. */
export interface BuildIndexOptions {
  /** Neo4j database name (`graph_name`). */
  graph: string;
  /** Registry model name. */
  model: string;
  /** Index name; default {@link resolveIndexName}. */
  indexName?: string;
  /** Node property holding the text; default `TEXT_PROPERTY`. */
  textProperty?: string;
  /** Labels and per-label properties to index; each part left out defaults to `INDEX_LABELS` or `INDEX_PROPERTIES`. */
  choice?: TextChoice;
  /** Find the text of other labels by rule; default `INDEX_DISCOVER`. */
  discover?: boolean;
  /** How property values are written into a node's text (bench:quality compares them); default {@link DEFAULT_TEXT_FORMAT}. */
  format?: TextFormat;
  /** Chunks per embedding batch; default `INDEX_BATCH_SIZE`. */
  batchSize?: number;
  /** Called once the build has started, after every batch and during index population (the CLI's progress bar, the HTTP event stream). */
  onProgress?: (p: BuildProgress) => void;
  /** Cache file access (tests); default `node:fs/promises`. */
  fs?: CacheFs;
}

/** The contract's response. `batches_computed + batches_skipped = batches_total`. */
export interface BuildIndexResult {
  index_name: string;
  total_chunks: number;
  batches_total: number;
  batches_computed: number;
  batches_skipped: number;
}

/** What a build adds for its callers beyond the contract: the plan it followed and the chunks it removed. */
export interface BuildExtras {
  plan: TextPlan;
  /** Chunk nodes deleted as stale (their nodes were deleted or changed). */
  chunksDeleted: number;
  /** Text nodes indexed. */
  nodes: number;
  /** Nodes left out because their content made reading or chunking them fail: how many, and the first few with why. */
  skipped: SkippedNodes;
}

/** Where the time went, in milliseconds (benchmarks). Writes overlap embedding. */
export interface BuildTimings {
  totalMs: number;
  tokenizeMs: number;
  inferenceMs: number;
  /** Sum of batch write transactions (including skipped-batch checks). */
  writeMs: number;
  /** CSV cache reads and writes. */
  cacheMs: number;
  /** Stale chunk deletion. */
  cleanupMs: number;
  /** Waiting for the vector index to be online after the last write. */
  indexMs: number;
}

/** A finished build: the contract's fields plus timings. */
export type BuildReport = BuildIndexResult & BuildExtras & { timings: BuildTimings };

import { planCarry, settingsIn, withDefaults } from './plan.js';

export { type PlanRequest, previewTextPlan } from './plan.js';

/** A bounded queue of writes: at most `limit` in flight; the first failure is rethrown. */
function createWriteQueue(limit: number) {
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  return {
    async push(job: () => Promise<void>) {
      if (failure) throw failure;
      while (inFlight.size >= limit) await Promise.race(inFlight);
      if (failure) throw failure;
      const p: Promise<void> = job().then(
        () => void inFlight.delete(p),
        (err) => {
          failure ??= err;
          inFlight.delete(p);
        },
      );
      inFlight.add(p);
    },
    async drain() {
      await Promise.all(inFlight);
      if (failure) throw failure;
    },
  };
}

/** One build under way: what its steps share. */
interface BuildRun {
  deps: IndexBuildDeps;
  opts: BuildIndexOptions;
  index: string;
  entry: ModelEntry;
  log: Logger;
  lock: BuildLock;
  settings: IndexSettings;
  plan: TextPlan;
  carry: CarryPlan | null;
  /** Carried properties found holding a list (../index/carry.ts). */
  lists: Set<string>;
  embedder: Embedder;
  writer: IndexWriter;
  progress: BuildProgress;
  timings: BuildTimings;
  report(): void;
  skipped: SkippedNodesLog;
}

/** The settings a build of `opts` runs with. */
function buildSettings(config: IndexConfig, opts: BuildIndexOptions): IndexSettings {
  return {
    model: opts.model,
    chunkTokens: config.CHUNK_TOKENS,
    chunkOverlap: config.CHUNK_OVERLAP_TOKENS,
    batchSize: opts.batchSize ?? config.INDEX_BATCH_SIZE,
    format: opts.format ?? DEFAULT_TEXT_FORMAT,
    discover: opts.discover ?? config.INDEX_DISCOVER,
    choice: withDefaults(config, opts.choice),
    version: INDEX_VERSION,
  };
}

/** Plans the build under its lock: the text plan, the carried values, the writer; counts the nodes and reports the start. */
async function startBuild(deps: IndexBuildDeps, opts: BuildIndexOptions, index: string, lock: BuildLock): Promise<BuildRun> {
  const { config } = deps;
  const entry = findModel(opts.model)!;
  const log = deps.log.child({ index, graph: opts.graph, model: opts.model });
  const driver = deps.graph.driver;
  const settings = buildSettings(config, opts);
  const plan = await readTextPlan(driver, opts.graph, {
    textProperty: opts.textProperty ?? config.TEXT_PROPERTY,
    choice: settings.choice,
    // The parts of the choice not given are settings.
    fromSettings: settingsIn(opts.choice),
    discover: settings.discover,
  });
  // Filter values are carried where the server's vector indexes take them.
  const carry = await planCarry(deps, opts.graph, plan);
  settings.carry = carry;
  const embedder = await deps.embedders.get(opts.model);
  const writer = createIndexWriter({
    driver,
    database: opts.graph,
    indexName: index,
    dimensions: entry.dimensions,
    hnswM: config.VECTOR_INDEX_HNSW_M,
    efConstruction: config.VECTOR_INDEX_EF_CONSTRUCTION,
    analyzer: config.FULLTEXT_ANALYZER,
    filterFields: carryFields(carry),
  });
  const nodesTotal = await countTextNodes(driver, opts.graph, textParams(plan));
  const progress: BuildProgress = {
    phase: 'embedding',
    nodesTotal,
    nodesDone: 0,
    chunksDone: 0,
    batchesDone: 0,
    batchesComputed: 0,
    batchesSkipped: 0,
    nodesSkipped: 0,
    indexPercent: 0,
  };
  const skipped = createSkippedNodes((node) => {
    progress.nodesSkipped = (progress.nodesSkipped ?? 0) + 1;
    if (progress.nodesSkipped <= SKIPPED_SHOWN) log.warn('node left out of the index: its content failed', { ...node });
  });
  const run: BuildRun = {
    ...{ deps, opts, index, entry, log, lock, settings, plan, carry, embedder, writer, progress, skipped },
    lists: new Set(),
    timings: { totalMs: 0, tokenizeMs: 0, inferenceMs: 0, writeMs: 0, cacheMs: 0, cleanupMs: 0, indexMs: 0 },
    report: () => opts.onProgress?.({ ...progress }),
  };
  log.info('index build started', { nodes: nodesTotal, batchSize: settings.batchSize });
  // The first report says the build has started (lock held, graph counted), before any batch.
  run.report();
  await writer.prepare(config.INDEX_ONLINE_TIMEOUT_MS);
  return run;
}

/**
 * Streams the text nodes into batches; each batch the graph lacks is embedded (or read from the
 * cache) and written, up to two writes in flight while the next batch is embedded.
 * @returns the batch keys of the whole index, and the cache keys of the texts.
 */
async function embedBatches(run: BuildRun, cache: BatchCache): Promise<{ keys: string[]; textKeys: Set<string> }> {
  const { deps, opts, entry, progress, timings, writer, embedder, carry, lists } = run;
  const keys: string[] = [];
  const textKeys = new Set<string>();
  const writes = createWriteQueue(2);
  const timed = async <T>(field: 'writeMs' | 'cacheMs', work: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    try {
      return await work();
    } finally {
      timings[field] += performance.now() - t;
    }
  };
  const carryState = carry ? { plan: carry, lists } : undefined;
  const nodes = streamTextNodes(deps.graph.driver, opts.graph, run.plan, run.settings.format, carryState, run.skipped);
  for await (const batch of chunkBatches(nodes, (t) => embedder.chunk(t), run.settings.batchSize, run.skipped)) {
    run.lock.assertHeld();
    // The cache is keyed by what is embedded; the chunk nodes also by the filter values they carry.
    const textKey = await batchKey(entry.name, entry.dimensions, batch.chunks);
    const key = await storedBatchKey(textKey, batch.chunks);
    keys.push(key);
    textKeys.add(textKey);
    // A batch the graph already holds in full costs one lookup: no cache read, no write. A
    // re-run and a sync of a graph with few changes are mostly such batches.
    let cached = await timed('writeMs', () => writer.hasBatch(key, batch.chunks.length));
    if (!cached) {
      const hit = await timed('cacheMs', () => cache.read(textKey, batch.chunks));
      cached = hit !== null;
      const vectors = hit ?? (await embedder.embed(batch.chunks.map((c) => c.text)));
      if (!cached) await timed('cacheMs', () => cache.write(textKey, batch.chunks, vectors));
      await writes.push(() => timed('writeMs', () => writer.writeBatch(key, batch.chunks, vectors)));
    }
    progress[cached ? 'batchesSkipped' : 'batchesComputed']++;
    progress.batchesDone++;
    progress.chunksDone += batch.chunks.length;
    progress.nodesDone = batch.nodesDone;
    run.report();
  }
  await writes.drain();
  progress.nodesDone = progress.nodesTotal;
  return { keys, textKeys };
}

/** Deletes what the build no longer holds (chunks, cache files), records the index, and waits until it is online. */
async function finishBuild(run: BuildRun, cache: BatchCache, keys: string[], textKeys: Set<string>): Promise<number> {
  const { deps, opts, progress, timings, carry } = run;
  progress.phase = 'cleanup';
  run.report();
  run.lock.assertHeld();
  let t = performance.now();
  // Every batch is now in the graph in full (written or found), and a batch key names its
  // content, so when the index holds as many chunks as the batches, nothing else is left.
  const chunksDeleted = await run.writer.deleteStale(keys, progress.chunksDone);
  await cache.prune(textKeys);
  if (carry) {
    carry.lists = [...run.lists].sort();
    carry.chunksPerNode = Math.round((10 * progress.chunksDone) / Math.max(1, progress.nodesTotal)) / 10;
  }
  await writeIndexMeta(deps.graph.driver, opts.graph, run.index, run.plan, run.settings);
  timings.cleanupMs = performance.now() - t;
  // The first `indexing` report comes from the poll, with the real percentage.
  progress.phase = 'indexing';
  t = performance.now();
  await run.writer.awaitOnline((percent) => {
    progress.indexPercent = percent;
    run.report();
  }, deps.config.INDEX_ONLINE_TIMEOUT_MS);
  timings.indexMs = performance.now() - t;
  return chunksDeleted;
}

/** The finished build's report, logged. */
function buildReport(run: BuildRun, chunksDeleted: number): BuildReport {
  const { progress, skipped } = run;
  const result: BuildReport = {
    index_name: run.index,
    total_chunks: progress.chunksDone,
    batches_total: progress.batchesDone,
    batches_computed: progress.batchesComputed,
    batches_skipped: progress.batchesSkipped,
    plan: run.plan,
    chunksDeleted,
    nodes: progress.nodesTotal,
    skipped: skipped.state,
    timings: run.timings,
  };
  run.log[skipped.state.count ? 'warn' : 'info']('index build finished', {
    ...result,
    plan: undefined,
    timings: undefined,
    skipped: skipped.state.count ? skipped.state : undefined,
    ms: Math.round(run.timings.totalMs),
  });
  return result;
}

/**
 * Builds (or brings up to date) the vector index of `opts.graph` for `opts.model`.
 * @throws DomainError 422 unknown model, 404 unknown graph, 409 a build of that index is running,
 * 503 graph database or key-value store down (driver errors are mapped by the app's handler).
 */
export async function buildVectorIndex(deps: IndexBuildDeps, opts: BuildIndexOptions): Promise<BuildReport> {
  const started = performance.now();
  const { config } = deps;
  await validateBuildTarget(deps, opts.graph, opts.model);
  const index = opts.indexName ?? resolveIndexName(config, opts.graph, opts.model);
  const lock = await acquireBuildLock(deps.kv, index, config.INDEX_LOCK_TTL_MS);
  try {
    const run = await startBuild(deps, opts, index, lock);
    const statsBefore = run.embedder.stats?.();
    const dimensions = run.entry.dimensions;
    const cache = createCsvCache({ dataDir: config.DATA_DIR, indexName: index, dimensions, fs: opts.fs });
    const { keys, textKeys } = await embedBatches(run, cache);
    const chunksDeleted = await finishBuild(run, cache, keys, textKeys);
    const statsAfter = run.embedder.stats?.();
    if (statsBefore && statsAfter) {
      run.timings.tokenizeMs = statsAfter.tokenizeMs - statsBefore.tokenizeMs;
      run.timings.inferenceMs = statsAfter.inferenceMs - statsBefore.inferenceMs;
    }
    run.timings.totalMs = performance.now() - started;
    run.progress.phase = 'done';
    run.report();
    return buildReport(run, chunksDeleted);
  } finally {
    await lock.release();
  }
}
