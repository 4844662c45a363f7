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
 * in step node by node (./node-sync.ts): the database names the nodes whose values differ from
 * what their chunks were made from, and only those are read, chunked and written; only chunk
 * texts they did not have are embedded. Then the check runs again, from a bookmark read after
 * the writes: when it finds nothing, the indexes are in step at that bookmark, so the sync's own
 * writes never leave the graph looking changed, and a write that landed meanwhile is found and
 * synced in the same pass (at most {@link MAX_ROUNDS} rounds; a graph written to without pause is
 * caught up by the next pass). A failure (database or model server down) leaves the recorded
 * bookmark where it was, so the next pass tries again; what was written stays written. A changed
 * model chunking is refused (a build's job), and said in `/status`. Another process holding an
 * index's lock (a build, another instance's pass) is `busy`, not an error.
 *
 * Passes are spaced by `INDEX_SYNC_INTERVAL_MS`, and by at least three times the last pass's
 * duration, so a large graph written to all the time is synced continuously but with at most a
 * quarter of the time spent on it.
 */
import { DomainError } from '../../errors.js';
import { graphBookmark } from '../../graph/access/bookmark.js';
import { readSyncState as readState, type SyncState, writeSyncState } from '../../store/sync-state.js';
import { resolveIndexName, type IndexBuildDeps } from '../index/target.js';
import { listIndexMeta } from '../index/record.js';
import { syncIndexNodes } from './node-sync.js';
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
async function syncOne(deps: IndexBuildDeps, graph: string, index: string, model: string): Promise<IndexSyncResult> {
  const t = performance.now();
  const ms = () => Math.round(performance.now() - t);
  try {
    const r = await syncIndexNodes(deps, { graph, model, indexName: index });
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

/** The recorded indexes of `graph` this deployment keeps in step, with their models. */
async function keptIndexes(deps: IndexBuildDeps, graph: string): Promise<{ index: string; model: string }[]> {
  const models = new Set([deps.config.EMBEDDING_MODEL, ...deps.config.INDEX_SYNC_MODELS]);
  const out: { index: string; model: string }[] = [];
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

/**
 * One pass over `graph`: the bookmark check, then (when changed) rounds of check-and-sync of
 * each kept index until a round finds nothing. The state records the bookmark read before
 * that round when every index is in step.
 */
export async function syncGraph(deps: IndexBuildDeps, graph: string, now: () => number = Date.now): Promise<SyncPass> {
  const t = performance.now();
  let bookmark = await graphBookmark(deps.graph.driver, graph);
  const checkMs = performance.now() - t;
  const state = await readSyncState(deps, graph);
  if (state.bookmark === bookmark) {
    await writeSyncState(deps.kv, graph, { checkedAt: now() });
    return { changed: false, results: [], checkMs, rounds: 0 };
  }
  if (state.behindSince === null) await writeSyncState(deps.kv, graph, { behindSince: now() });
  const indexes = await keptIndexes(deps, graph);
  const results = new Map<string, IndexSyncResult>();
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
  const last = [...results.values()];
  const failed = last.find((r) => r.outcome === 'failed');
  await writeSyncState(deps.kv, graph, {
    checkedAt: now(),
    last,
    error: failed?.error ?? null,
    busy: last.filter((r) => r.outcome === 'busy').map((r) => r.index),
    ...(settled ? { bookmark, syncedAt: now(), behindSince: null } : {}),
  });
  return { changed: true, results: last, checkMs, rounds };
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
  const pass = async () => {
    const t = performance.now();
    try {
      const p = await syncGraph(deps, graph);
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
    schedule(Math.max(config.INDEX_SYNC_INTERVAL_MS, 3 * (performance.now() - t)));
  };
  schedule(config.INDEX_SYNC_INTERVAL_MS);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
