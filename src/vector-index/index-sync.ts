/**
 * Keeps the indexes of the configured graph in step with it: nodes created, changed or deleted
 * directly in the database reach search without a build call.
 *
 * Noticing cheaply: Community Edition has no change feed, but the bookmark a read-only session
 * returns names the database's last committed write, and a transaction that changes nothing
 * leaves it as it was. A pass asks for it (one `RETURN 1`, about a millisecond of database
 * time) and stops there when it equals the bookmark the indexes were last in step at (kept in
 * Redis, `index-sync:<graph>`, so every instance shares it).
 *
 * When the graph changed, each index of this deployment (the names `/status` lists: its
 * `VECTOR_INDEX_NAME`, and `<graph>_<model>` for other models) that has a build record
 * (src/vector-index/index-meta.ts) is brought in step by the build itself in sync mode: under the same per-index lock (so one
 * process at a time, and never beside a build), with the recorded plan and settings, it streams
 * the nodes, and only batches whose content changed are embedded and written; batches the graph
 * already holds cost one lookup each, and chunks of deleted or changed nodes are removed at
 * the end. A failure (database or model server down) leaves the recorded bookmark where it
 * was, so the next pass tries again; chunks are removed only after every batch was written, so
 * nothing is removed that could not be recomputed. A changed model chunking is refused (a
 * build's job), and said in `/status`. A node whose content fails is left out and the pass
 * completes (./skipped-nodes.ts): the result counts and names it, and the next pass tries it again.
 *
 * The sync's own writes change the bookmark too, so the pass after one that wrote finds
 * nothing to do and records the new bookmark. Passes are spaced by `INDEX_SYNC_INTERVAL_MS`,
 * and by at least three times the last pass's duration, so a large graph written to all the
 * time is synced continuously but with at most a quarter of the time spent on it.
 */
import neo4j, { type Driver } from 'neo4j-driver';
import { DomainError } from '../errors.js';
import { createKeys } from '../store/keys.js';
import { buildVectorIndex, resolveIndexName, type IndexBuildDeps } from './index-build.js';
import { listIndexMeta } from './index-meta.js';
import { findModel } from '../contract/models.js';

/** What one index's sync did. */
export interface IndexSyncResult {
  index: string;
  model: string;
  /** `synced`, `busy` (a build or another instance held the lock), `needs-build` or `failed`. */
  outcome: 'synced' | 'busy' | 'needs-build' | 'failed';
  nodes?: number;
  batches_computed?: number;
  batches_skipped?: number;
  chunks_deleted?: number;
  /** Nodes left out because their content failed (./skipped-nodes.ts), when there were any. */
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
  /** Database time of the change check, in ms (a pass on an unchanged graph costs only this). */
  checkMs: number;
}

/** The sync's state of a graph, as `/status` shows it. */
export interface SyncState {
  /** Unix ms of the last pass (changed or not); null before the first. */
  checkedAt: number | null;
  /** Unix ms of the last pass that brought every index in step. */
  syncedAt: number | null;
  /** Unix ms at which a pass first saw a change not yet synced; null when in step. */
  behindSince: number | null;
  /** The bookmark every index was in step at. */
  bookmark: string | null;
  last: IndexSyncResult[];
  error: string | null;
}

/** The bookmark of the latest committed write of `database`, as a read-only session reports it. */
export async function graphBookmark(driver: Driver, database: string): Promise<string> {
  const session = driver.session({ database, defaultAccessMode: neo4j.session.READ });
  try {
    await session.run('RETURN 1');
    return session.lastBookmarks().join(',');
  } finally {
    await session.close();
  }
}

const num = (v: string | undefined) => (v ? Number(v) : null);

/** Reads the sync state of `graph` (empty before the first pass). */
export async function readSyncState(deps: Pick<IndexBuildDeps, 'kv'>, graph: string): Promise<SyncState> {
  const h = await deps.kv.redis.hgetall(createKeys(deps.kv.prefix).indexSync(graph));
  return {
    checkedAt: num(h.checked_at),
    syncedAt: num(h.synced_at),
    behindSince: num(h.behind_since),
    bookmark: h.bookmark || null,
    last: h.last ? (JSON.parse(h.last) as IndexSyncResult[]) : [],
    error: h.error || null,
  };
}

/** Brings one index in step; never throws (the outcome says what happened). */
async function syncOne(deps: IndexBuildDeps, graph: string, index: string, model: string): Promise<IndexSyncResult> {
  const t = performance.now();
  const ms = () => Math.round(performance.now() - t);
  try {
    const r = await buildVectorIndex(deps, { graph, model, indexName: index, sync: true });
    return {
      index,
      model,
      outcome: 'synced',
      nodes: r.nodes,
      batches_computed: r.batches_computed,
      batches_skipped: r.batches_skipped,
      chunks_deleted: r.chunksDeleted,
      ...(r.skipped.count
        ? { nodes_skipped: r.skipped.count, skipped: r.skipped.nodes.map((n) => ({ node_id: n.nodeId, reason: n.reason })) }
        : {}),
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

/**
 * One pass over `graph`: the change check, then (when changed) a sync of each recorded index.
 * The state records the new bookmark only when every index is in step.
 */
export async function syncGraph(deps: IndexBuildDeps, graph: string, now: () => number = Date.now): Promise<SyncPass> {
  const key = createKeys(deps.kv.prefix).indexSync(graph);
  const t = performance.now();
  const bookmark = await graphBookmark(deps.graph.driver, graph);
  const checkMs = performance.now() - t;
  const state = await readSyncState(deps, graph);
  if (state.bookmark === bookmark) {
    await deps.kv.redis.hset(key, 'checked_at', String(now()));
    return { changed: false, results: [], checkMs };
  }
  if (state.behindSince === null) await deps.kv.redis.hset(key, 'behind_since', String(now()));
  const results: IndexSyncResult[] = [];
  for (const { index, settings } of await listIndexMeta(deps.graph.driver, graph)) {
    // An index of a model no longer in the registry cannot be embedded for; it stays as built.
    if (!findModel(settings.model)) continue;
    // Only the indexes this deployment searches (its VECTOR_INDEX_NAME, the derived names of other
    // models): another deployment sharing the database, with its own lock prefix, keeps its own.
    if (resolveIndexName(deps.config, graph, settings.model) !== index) continue;
    results.push(await syncOne(deps, graph, index, settings.model));
  }
  const done = results.every((r) => r.outcome === 'synced' || r.outcome === 'needs-build');
  const error = results.find((r) => r.outcome === 'failed' || r.outcome === 'busy')?.error ?? '';
  const fields: Record<string, string> = { checked_at: String(now()), last: JSON.stringify(results), error };
  if (done) Object.assign(fields, { bookmark, synced_at: String(now()), behind_since: '' });
  await deps.kv.redis.hset(key, fields);
  return { changed: true, results, checkMs };
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
