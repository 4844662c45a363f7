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
import { type IndexBuildDeps, resolveIndexName, validateBuildTarget } from '../index/target.js';
import type { Config } from '../../config.js';
import { findModel } from '../../contract/models.js';
import { assertGraph } from '../../graph/access/driver.js';
import { countTextNodes, textNodeLabels } from '../../graph/access/text-nodes.js';
import { type ChoiceSettings, readTextPlan, type TextChoice, type TextPlan } from '../../graph/text/text-plan.js';
import { writeIndexMeta, type IndexSettings } from '../index/record.js';
import { DEFAULT_TEXT_FORMAT, type TextFormat } from '../index/node-text.js';
import { batchKey, createCsvCache, storedBatchKey, type CacheFs } from './csv-cache.js';
import { type CarryPlan, carryFields, chooseCarry, MAX_CARRIED_LABELS } from '../index/carry.js';
import { acquireBuildLock } from '../../store/build-lock.js';
import { chunkBatches, streamTextNodes, textParams } from '../index/source.js';
import { createSkippedNodes, SKIPPED_SHOWN, type SkippedNodes } from '../index/skipped-nodes.js';
import { createIndexWriter } from '../../graph/access/index-writer.js';

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

/** What to plan: the graph, and the choice and discovery a build would use (defaults from config). */
export interface PlanRequest {
  graph: string;
  choice?: TextChoice;
  discover?: boolean;
}

/** A choice with each part it leaves out taken from its setting: `INDEX_LABELS`, `INDEX_PROPERTIES`. */
const withDefaults = (config: Config, choice: TextChoice = {}): TextChoice => ({
  labels: choice.labels ?? config.INDEX_LABELS,
  properties: choice.properties ?? config.INDEX_PROPERTIES,
});

/** The parts of a choice {@link withDefaults} fills from settings, for errors to blame the setting, not the request. */
const settingsIn = (choice: TextChoice = {}): ChoiceSettings => ({
  labels: choice.labels ? undefined : 'INDEX_LABELS',
  properties: choice.properties ? undefined : 'INDEX_PROPERTIES',
});

/**
 * The text plan a build of `req.graph` would follow now, without building (`POST /dev/text_plan`,
 * `scripts/build-index --plan`, `/status` before the first build).
 * @throws DomainError 404 unknown graph, 422 a choice naming what the graph lacks.
 */
export async function previewTextPlan(deps: Pick<IndexBuildDeps, 'graph' | 'config'>, req: PlanRequest): Promise<TextPlan> {
  await assertGraph(deps.graph, req.graph);
  return readTextPlan(deps.graph.driver, req.graph, {
    textProperty: deps.config.TEXT_PROPERTY,
    choice: withDefaults(deps.config, req.choice),
    fromSettings: settingsIn(req.choice),
    discover: req.discover ?? deps.config.INDEX_DISCOVER,
  });
}

/**
 * What a new index's chunks carry for filtering inside the vector index (../index/carry.ts), or null
 * where the server's vector indexes take no filter properties (5.26) or none are wanted.
 */
async function planCarry(deps: Pick<IndexBuildDeps, 'graph' | 'config'>, graph: string, plan: TextPlan): Promise<CarryPlan | null> {
  const server = await deps.graph.server().catch(() => null);
  if (!server?.vectorFilters || !deps.config.INDEX_FILTERS) return null;
  const labels = await textNodeLabels(deps.graph.driver, graph, textParams(plan), MAX_CARRIED_LABELS);
  const carry = chooseCarry(plan, labels, deps.config.INDEX_FILTER_PROPERTIES ?? null);
  return carry.labels.length || carry.properties.length ? carry : null;
}

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

/**
 * Builds (or brings up to date) the vector index of `opts.graph` for `opts.model`.
 * @throws DomainError 422 unknown model, 404 unknown graph, 409 a build of that index is running,
 * 503 graph database or key-value store down (driver errors are mapped by the app's handler).
 */
export async function buildVectorIndex(deps: IndexBuildDeps, opts: BuildIndexOptions): Promise<BuildReport> {
  const started = performance.now();
  const { config } = deps;
  await validateBuildTarget(deps, opts.graph, opts.model);
  const entry = findModel(opts.model)!;
  const index = opts.indexName ?? resolveIndexName(config, opts.graph, opts.model);
  const batchSize = opts.batchSize ?? config.INDEX_BATCH_SIZE;
  const log = deps.log.child({ index, graph: opts.graph, model: opts.model });
  const driver = deps.graph.driver;

  const lock = await acquireBuildLock(deps.kv, index, config.INDEX_LOCK_TTL_MS);
  try {
    const now: IndexSettings = {
      model: opts.model,
      chunkTokens: config.CHUNK_TOKENS,
      chunkOverlap: config.CHUNK_OVERLAP_TOKENS,
      batchSize,
      format: opts.format ?? DEFAULT_TEXT_FORMAT,
      discover: opts.discover ?? config.INDEX_DISCOVER,
      choice: withDefaults(config, opts.choice),
      namesIndex: true,
    };
    const settings = now;
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
    const lists = new Set<string>();
    const embedder = await deps.embedders.get(opts.model);
    const statsBefore = embedder.stats?.();
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
    const cache = createCsvCache({ dataDir: config.DATA_DIR, indexName: index, dimensions: entry.dimensions, fs: opts.fs });
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
    const timings: BuildTimings = { totalMs: 0, tokenizeMs: 0, inferenceMs: 0, writeMs: 0, cacheMs: 0, cleanupMs: 0, indexMs: 0 };
    const report = () => opts.onProgress?.({ ...progress });
    log.info('index build started', { nodes: progress.nodesTotal, batchSize });
    // The first report says the build has started (lock held, graph counted), before any batch.
    report();
    await writer.prepare(config.INDEX_ONLINE_TIMEOUT_MS);

    const keys: string[] = [];
    const textKeys = new Set<string>();
    const writes = createWriteQueue(2);
    const timed = async (field: 'writeMs' | 'cacheMs', work: () => Promise<void>) => {
      const t = performance.now();
      await work();
      timings[field] += performance.now() - t;
    };
    const skipped = createSkippedNodes((node) => {
      progress.nodesSkipped = (progress.nodesSkipped ?? 0) + 1;
      if (progress.nodesSkipped <= SKIPPED_SHOWN) log.warn('node left out of the index: its content failed', { ...node });
    });
    const nodes = streamTextNodes(driver, opts.graph, plan, settings.format, carry ? { plan: carry, lists } : undefined, skipped);
    for await (const batch of chunkBatches(nodes, (t) => embedder.chunk(t), batchSize, skipped)) {
      lock.assertHeld();
      // The cache is keyed by what is embedded; the chunk nodes also by the filter values they carry.
      const textKey = await batchKey(entry.name, entry.dimensions, batch.chunks);
      const key = await storedBatchKey(textKey, batch.chunks);
      keys.push(key);
      textKeys.add(textKey);
      // A batch the graph already holds in full costs one lookup: no cache read, no write. A
      // re-run and a sync of a graph with few changes are mostly such batches.
      let t = performance.now();
      const present = await writer.hasBatch(key, batch.chunks.length);
      timings.writeMs += performance.now() - t;
      let cached = present;
      if (!present) {
        t = performance.now();
        const hit = await cache.read(textKey, batch.chunks);
        timings.cacheMs += performance.now() - t;
        cached = hit !== null;
        const vectors = hit ?? (await embedder.embed(batch.chunks.map((c) => c.text)));
        if (!cached) await timed('cacheMs', () => cache.write(textKey, batch.chunks, vectors));
        await writes.push(() => timed('writeMs', () => writer.writeBatch(key, batch.chunks, vectors)));
      }
      progress[cached ? 'batchesSkipped' : 'batchesComputed']++;
      progress.batchesDone++;
      progress.chunksDone += batch.chunks.length;
      progress.nodesDone = batch.nodesDone;
      report();
    }
    await writes.drain();
    progress.nodesDone = progress.nodesTotal;

    progress.phase = 'cleanup';
    report();
    lock.assertHeld();
    let t = performance.now();
    // Every batch is now in the graph in full (written or found), and a batch key names its
    // content, so when the index holds as many chunks as the batches, nothing else is left.
    const chunksDeleted = await writer.deleteStale(keys, progress.chunksDone);
    await cache.prune(textKeys);
    if (carry) {
      carry.lists = [...lists].sort();
      carry.chunksPerNode = Math.round((10 * progress.chunksDone) / Math.max(1, progress.nodesTotal)) / 10;
    }
    await writeIndexMeta(driver, opts.graph, index, plan, settings);
    timings.cleanupMs = performance.now() - t;

    // The first `indexing` report comes from the poll, with the real percentage.
    progress.phase = 'indexing';
    t = performance.now();
    await writer.awaitOnline((percent) => {
      progress.indexPercent = percent;
      report();
    }, config.INDEX_ONLINE_TIMEOUT_MS);
    timings.indexMs = performance.now() - t;

    const statsAfter = embedder.stats?.();
    if (statsBefore && statsAfter) {
      timings.tokenizeMs = statsAfter.tokenizeMs - statsBefore.tokenizeMs;
      timings.inferenceMs = statsAfter.inferenceMs - statsBefore.inferenceMs;
    }
    timings.totalMs = performance.now() - started;
    progress.phase = 'done';
    report();
    const result: BuildReport = {
      index_name: index,
      total_chunks: progress.chunksDone,
      batches_total: progress.batchesDone,
      batches_computed: progress.batchesComputed,
      batches_skipped: progress.batchesSkipped,
      plan,
      chunksDeleted,
      nodes: progress.nodesTotal,
      skipped: skipped.state,
      timings,
    };
    log[skipped.state.count ? 'warn' : 'info']('index build finished', {
      ...result,
      plan: undefined,
      timings: undefined,
      skipped: skipped.state.count ? skipped.state : undefined,
      ms: Math.round(timings.totalMs),
    });
    return result;
  } finally {
    await lock.release();
  }
}
