/**
 * Keeps the indexes of the configured graph in step with it: nodes created, changed or deleted
 * directly in the database reach search without a build call.
 *
 * Noticing cheaply (src/graph/access/bookmark.ts): a pass reads the database's bookmark and stops there
 * when it equals the one the indexes were last in step at (kept in Redis through
 * src/store/sync-state.ts, so every instance shares it).
 *
 * When the graph changed, each index this deployment keeps (the configured `VECTOR_INDEX_NAME`,
 * and the derived names of the models in `INDEX_SYNC_MODELS`) that has a build record is brought
 * in step node by node (./node-sync.ts): only nodes whose values differ from what their chunks
 * were made from are read, chunked and written; only chunk texts they did not have are embedded.
 * Which nodes to compare comes from ./source.ts: with the server's change log, those it names
 * since the last pass; without it, every indexed and every text node (the full check). After a
 * full check, the check runs again, from a bookmark read after
 * the writes: when it finds nothing, the indexes are in step at that bookmark, so the sync's own
 * writes never leave the graph looking changed, and a write that landed meanwhile is found and
 * synced in the same pass (at most {@link MAX_ROUNDS} rounds; a graph written to without pause is
 * caught up by the next pass). A failure (database or model server down) leaves the recorded
 * bookmark where it was, so the next pass tries again; what was written stays written. A changed
 * model chunking is refused (a build's job), and said in `/status`. Another process holding an
 * index's lock (a build, another instance's pass) is `busy`, not an error.
 *
 * With a change log, passes follow it every `INDEX_SYNC_FOLLOW_MS`. Without one, passes are
 * spaced by `INDEX_SYNC_INTERVAL_MS`, and a full check by at least nine times its own duration,
 * so a large graph written to all the time costs the database at most a tenth of one core.
 */
import { DomainError } from '../../errors.js';
import { graphBookmark } from '../../graph/access/bookmark.js';
import { readChangeLogInfo } from '../../graph/access/change-log.js';
import { readSyncState as readState, type SyncState, writeSyncState } from '../../store/sync-state.js';
import { resolveIndexName, type IndexBuildDeps } from '../index/target.js';
import { listIndexMeta } from '../index/record.js';
import { type NodeSyncOptions, syncIndexNodes } from './node-sync.js';
import { indexedLabels, planFromProperty } from './property-source.js';
import { type ChangeSource, chooseSource, type Cursor, cursorText, FULL_CHECK_SPACING, parseCursor, planFromLog } from './source.js';
import { type SkippedNodes, skippedNodesBody } from '../index/skipped-nodes.js';
import { findModel } from '../../contract/models.js';

/** What one index's sync did. */
export interface IndexSyncResult {
  index: string;
  model: string;
  /** `synced`, `busy` (a build or another instance held the lock), `needs-build` or `failed`. */
  outcome: 'synced' | 'busy' | 'needs-build' | 'failed';
  /** Nodes found new or changed. */
  nodes_changed?: number;
  /** Nodes whose chunks were removed (deleted, or no longer text under the plan). */
  nodes_deleted?: number;
  /** Chunk texts sent to the embedding model. */
  chunks_embedded?: number;
  /** Chunk nodes created. */
  chunks_written?: number;
  /** Chunk nodes of changed nodes kept (their text unchanged; vector reused). */
  chunks_kept?: number;
  chunks_deleted?: number;
  /** Nodes left out because their content failed (../index/skipped-nodes.ts), when there were any. */
  nodes_skipped?: number;
  /** The first few of them, with why. */
  skipped?: { node_id: string; reason: string }[];
  ms: number;
  error?: string;
}

/** One pass: whether the graph had changed, and what each index's sync did. */
export interface SyncPass {
  changed: boolean;
  results: IndexSyncResult[];
  /** Database time of the bookmark read, in ms (a pass on an unchanged graph costs only this). */
  checkMs: number;
  /** Check-and-sync rounds the pass ran (0 when the graph was unchanged). */
  rounds: number;
  /** Where the pass learned what changed; null when the graph was unchanged. */
  source: ChangeSource['name'] | null;
  /** How long the pass's full check (the scan) took, in ms; null when it ran none. */
  fullMs: number | null;
}

/** Check-and-sync rounds per pass: the one that syncs, and the one that confirms (it syncs what landed meanwhile; a graph written to without pause is caught up by the next pass). */
export const MAX_ROUNDS = 2;

/** Reads the sync state of `graph` (empty before the first pass). */
export function readSyncState(deps: Pick<IndexBuildDeps, 'kv'>, graph: string): Promise<SyncState<IndexSyncResult>> {
  return readState<IndexSyncResult>(deps.kv, graph);
}

/** A result's skipped nodes, when there were any. */
function skippedFields(skipped: SkippedNodes): Pick<IndexSyncResult, 'nodes_skipped' | 'skipped'> {
  const body = skippedNodesBody(skipped);
  return body ? { nodes_skipped: body.count, skipped: body.nodes } : {};
}

/** Brings one index in step; never throws (the outcome says what happened). */
async function syncOne(
  deps: IndexBuildDeps,
  graph: string,
  index: string,
  model: string,
  named?: Pick<NodeSyncOptions, 'nodeIds' | 'goneCheck'>,
): Promise<IndexSyncResult> {
  const t = performance.now();
  const ms = () => Math.round(performance.now() - t);
  try {
    const r = await syncIndexNodes(deps, { graph, model, indexName: index, ...named });
    return {
      index,
      model,
      outcome: 'synced',
      nodes_changed: r.nodesChanged,
      nodes_deleted: r.nodesDeleted,
      chunks_embedded: r.chunksEmbedded,
      chunks_written: r.chunksWritten,
      chunks_kept: r.chunksKept,
      chunks_deleted: r.chunksDeleted,
      ...skippedFields(r.skipped),
      ms: ms(),
    };
  } catch (err) {
    const code = err instanceof DomainError ? err.code : '';
    const outcome = code === 'build-running' ? 'busy' : code === 'sync-needs-build' ? 'needs-build' : 'failed';
    const message = err instanceof Error ? err.message : String(err);
    if (outcome === 'failed') deps.log.warn('index sync failed; retried on the next pass', { index, error: err });
    return { index, model, outcome, ms: ms(), error: message };
  }
}

/** An index this deployment keeps in step, and its model. */
export interface KeptIndex {
  index: string;
  model: string;
}

/** The recorded indexes of `graph` this deployment keeps in step, with their models. */
async function keptIndexes(deps: IndexBuildDeps, graph: string): Promise<KeptIndex[]> {
  const models = new Set([deps.config.EMBEDDING_MODEL, ...deps.config.INDEX_SYNC_MODELS]);
  const out: KeptIndex[] = [];
  for (const { index, settings } of await listIndexMeta(deps.graph.driver, graph)) {
    // An index of a model no longer in the registry cannot be embedded for; it stays as built.
    if (!findModel(settings.model) || !models.has(settings.model)) continue;
    // Only the names this deployment searches: another deployment sharing the database keeps its own.
    if (resolveIndexName(deps.config, graph, settings.model) === index) out.push({ index, model: settings.model });
  }
  return out;
}

/** True when a round's sync of an index found something to do (beyond nodes it had to leave out). */
const foundWork = (r: IndexSyncResult) =>
  r.outcome === 'synced' && (r.nodes_changed ?? 0) - (r.nodes_skipped ?? 0) + (r.nodes_deleted ?? 0) > 0;

/** Adds round `r`'s counts into `into` (same index); the outcome and error are the latest round's. */
function addRound(into: IndexSyncResult, r: IndexSyncResult): IndexSyncResult {
  const sum = (k: keyof IndexSyncResult) => ((into[k] as number | undefined) ?? 0) + ((r[k] as number | undefined) ?? 0);
  const counts = ['nodes_changed', 'nodes_deleted', 'chunks_embedded', 'chunks_written', 'chunks_kept', 'chunks_deleted'] as const;
  const merged: IndexSyncResult = { ...r, ms: into.ms + r.ms };
  if (r.outcome === 'synced') for (const k of counts) merged[k] = sum(k);
  return merged;
}

/** The kept indexes, and the state a pass writes when it is done. */
interface PassContext {
  deps: IndexBuildDeps;
  graph: string;
  now: () => number;
  indexes: KeptIndex[];
  source: ChangeSource;
}

/** What a pass records of its source. */
const sourceFields = (source: ChangeSource) => ({ source: source.name, sourceWhy: source.why });

/** What a pass keeps of its source once the indexes are in step: the cursor to follow from, and the label counts. */
interface SourceKeep {
  cursor: string | null;
  counts?: Record<string, number>;
}

/** The state fields of a {@link SourceKeep}. */
const keepFields = (keep: SourceKeep) => ({ cursor: keep.cursor, ...(keep.counts ? { counts: JSON.stringify(keep.counts) } : {}) });

/**
 * Rounds of the full check and sync of each kept index until a round finds nothing (at most
 * {@link MAX_ROUNDS}). The state records the bookmark read before that round when every index
 * is in step, and `keep` (the source's position before the check) when a source is followed.
 */
async function fullCheck(ctx: PassContext, startBookmark: string, keep: SourceKeep): Promise<Omit<SyncPass, 'checkMs'>> {
  const { deps, graph, now, indexes } = ctx;
  const started = performance.now();
  const results = new Map<string, IndexSyncResult>();
  let bookmark = startBookmark;
  let rounds = 0;
  let settled = false;
  while (rounds < MAX_ROUNDS && !settled) {
    if (rounds > 0) bookmark = await graphBookmark(deps.graph.driver, graph);
    rounds++;
    const round: IndexSyncResult[] = [];
    for (const { index, model } of indexes) round.push(await syncOne(deps, graph, index, model));
    for (const r of round) results.set(r.index, results.has(r.index) ? addRound(results.get(r.index)!, r) : r);
    // In step at `bookmark` when this round found nothing to do; a failed or busy index ends the pass.
    if (round.some((r) => r.outcome === 'failed' || r.outcome === 'busy')) break;
    settled = !round.some(foundWork);
  }
  const fullMs = performance.now() - started;
  const last = [...results.values()];
  await writeSyncState(deps.kv, graph, {
    ...passFields(last, now),
    ...sourceFields(ctx.source),
    fullAt: now(),
    fullMs,
    ...(settled ? { bookmark, syncedAt: now(), behindSince: null, ...keepFields(keep) } : {}),
  });
  return { changed: true, results: last, rounds, source: ctx.source.name, fullMs };
}

/** The state fields every pass that found a change writes. */
function passFields(last: IndexSyncResult[], now: () => number) {
  return {
    checkedAt: now(),
    last,
    error: last.find((r) => r.outcome === 'failed')?.error ?? null,
    busy: last.filter((r) => r.outcome === 'busy').map((r) => r.index),
  };
}

/** The nodes a source named, and what a pass over them keeps. */
interface NamedPass extends SourceKeep {
  ids: string[];
  /** Also check the chunk side for deleted nodes (./property-source.ts). */
  goneCheck?: boolean;
  /** The indexes are in step at the pass's bookmark once every one synced. */
  settles: boolean;
  /** Under the change log: where it stood, to confirm nothing committed during the pass but the sync's own writes. */
  logAt?: Cursor;
}

/**
 * One round over the nodes a source named. When every index synced and the source says nothing
 * else can be pending, the indexes are in step at the pass's bookmark; under the change log, at
 * a bookmark read after the round's own writes when the log shows no commit since (the sync's
 * writes are not logged), so `/status` says in step right after a pass that wrote.
 */
async function followNamed(ctx: PassContext, bookmark: string, named: NamedPass): Promise<Omit<SyncPass, 'checkMs'>> {
  const { deps, graph, now, indexes } = ctx;
  const started = performance.now();
  const last: IndexSyncResult[] = [];
  for (const { index, model } of indexes)
    last.push(await syncOne(deps, graph, index, model, { nodeIds: named.ids, goneCheck: named.goneCheck }));
  const ok = !last.some((r) => r.outcome === 'failed' || r.outcome === 'busy');
  let inStepAt = ok && named.settles ? bookmark : null;
  if (inStepAt && named.logAt) {
    const after = await graphBookmark(deps.graph.driver, graph);
    if (await logStill(deps, graph, named.logAt)) inStepAt = after;
  }
  const gone = ok && named.goneCheck ? { goneAt: now(), goneMs: performance.now() - started } : {};
  await writeSyncState(deps.kv, graph, {
    ...passFields(last, now),
    ...sourceFields(ctx.source),
    ...(ok ? { ...keepFields(named), ...gone } : {}),
    ...(inStepAt ? { bookmark: inStepAt, syncedAt: now(), behindSince: null } : {}),
  });
  return { changed: true, results: last, rounds: 1, source: ctx.source.name, fullMs: null };
}

/** True when the change log still stands at `at`: nothing committed since but the sync's own writes. */
async function logStill(deps: IndexBuildDeps, graph: string, at: Cursor): Promise<boolean> {
  const info = await readChangeLogInfo(deps.graph.driver, graph);
  return !('missing' in info) && info.epoch === at.epoch && info.position === at.position;
}

/**
 * One pass over `graph`: the bookmark check, then (when changed) the nodes the change log names
 * ({@link followLog}) or the full check ({@link fullCheck}), as ./source.ts chooses.
 */
export async function syncGraph(deps: IndexBuildDeps, graph: string, now: () => number = Date.now): Promise<SyncPass> {
  const t = performance.now();
  const bookmark = await graphBookmark(deps.graph.driver, graph);
  const checkMs = performance.now() - t;
  const state = await readSyncState(deps, graph);
  if (state.bookmark === bookmark) {
    await writeSyncState(deps.kv, graph, { checkedAt: now() });
    return { changed: false, results: [], checkMs, rounds: 0, source: null, fullMs: null };
  }
  if (state.behindSince === null) await writeSyncState(deps.kv, graph, { behindSince: now() });
  const indexes = await keptIndexes(deps, graph);
  const source = await chooseSource(deps, graph, () => indexedLabels(deps, graph, indexes));
  const ctx: PassContext = { deps, graph, now, indexes, source };
  if (source.name === 'scan') return { checkMs, ...(await fullCheck(ctx, bookmark, { cursor: null })) };
  const reconcile = state.fullAt === null || now() - state.fullAt >= deps.config.INDEX_RECONCILE_MS;
  if (source.name === 'property') {
    const plan = await planFromProperty(deps, graph, source, state, reconcile, now());
    if (!plan.full) return { checkMs, ...(await followNamed(ctx, bookmark, { ...plan, cursor: plan.to })) };
    deps.log.info('index sync: full check', { graph, why: plan.why });
    return { checkMs, ...(await fullCheck(ctx, bookmark, { cursor: plan.head, counts: plan.counts })) };
  }
  const plan = await planFromLog(deps, graph, source.info, parseCursor(state.cursor), reconcile);
  if (!plan.full) {
    return {
      checkMs,
      ...(await followNamed(ctx, bookmark, { ids: plan.ids, cursor: cursorText(plan.to), settles: plan.caughtUp, logAt: plan.to })),
    };
  }
  deps.log.info('index sync: full check', { graph, why: plan.why });
  return { checkMs, ...(await fullCheck(ctx, bookmark, { cursor: cursorText(plan.head) })) };
}

/**
 * How long after a pass the next one starts: a change log is followed every
 * `INDEX_SYNC_FOLLOW_MS`; without one, passes are `INDEX_SYNC_INTERVAL_MS` apart and a full check
 * is followed by {@link FULL_CHECK_SPACING} times its own duration. `following`: the last pass
 * that found a change used the log.
 */
export function nextPassIn(
  config: Pick<IndexBuildDeps['config'], 'INDEX_SYNC_INTERVAL_MS' | 'INDEX_SYNC_FOLLOW_MS'>,
  pass: Pick<SyncPass, 'source' | 'fullMs'> | null,
  following: boolean,
): number {
  // Every source but the scan is followed (the property, the change log); a pass that found nothing keeps the last one's pace.
  if (pass?.source ? pass.source !== 'scan' : following) return config.INDEX_SYNC_FOLLOW_MS;
  return Math.max(config.INDEX_SYNC_INTERVAL_MS, FULL_CHECK_SPACING * (pass?.fullMs ?? 0));
}

/** A running sync loop. */
export interface IndexSyncLoop {
  /** Stops the loop after the pass in progress, if any. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts passes over `config.GRAPHDB_GRAPH` every `INDEX_SYNC_INTERVAL_MS` (at least three
 * times the last pass's duration apart); a failed pass is logged and the loop goes on.
 */
export function startIndexSync(deps: IndexBuildDeps): IndexSyncLoop {
  const { config, log } = deps;
  const graph = config.GRAPHDB_GRAPH;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = pass();
    }, delay);
    (timer as { unref?: () => void }).unref?.();
  };
  let following = false;
  let last: SyncPass | null = null;
  const pass = async () => {
    last = null;
    try {
      const p = await syncGraph(deps, graph);
      last = p;
      if (p.source) following = p.source !== 'scan';
      if (p.changed)
        log.info('index sync pass', {
          graph,
          results:
            p.results.map((r) => `${r.index}: ${r.outcome}${r.nodes_skipped ? ` (${r.nodes_skipped} nodes left out)` : ''}`).join(', ') ||
            'no index',
        });
    } catch (err) {
      log.warn('index sync pass failed; retried on the next pass', { graph, error: err });
    }
    schedule(nextPassIn(config, last, following));
  };
  // The first pass soon: it finds out which source the database offers (and, with none, runs the full check once).
  schedule(Math.min(config.INDEX_SYNC_INTERVAL_MS, config.INDEX_SYNC_FOLLOW_MS));
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
