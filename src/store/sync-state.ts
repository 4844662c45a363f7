/**
 * What the index sync records of a graph, shared by every instance: one hash
 * `<prefix>index-sync:<graph>` (./keys.ts) with the fields below. `/status` reads it; the sync
 * (src/vector-index/sync/loop.ts) writes it after every pass.
 */
import { createKeys } from './keys.js';
import type { KvStore } from './redis.js';

/** The sync's state of a graph. `R` is what a pass reports per index (kept as JSON). */
export interface SyncState<R = unknown> {
  /** Unix ms of the last pass (changed or not); null before the first. */
  checkedAt: number | null;
  /** Unix ms of the last pass that brought every index in step. */
  syncedAt: number | null;
  /** Unix ms at which a pass first saw a change not yet synced; null when in step. */
  behindSince: number | null;
  /** The bookmark every index was in step at. */
  bookmark: string | null;
  /** Per index, what the last pass that found a change did. */
  last: R[];
  /** Why the last pass did not bring every index in step (a failure); null when it did, or when only busy. */
  error: string | null;
  /** Indexes another process was syncing or building during the last pass (they catch up on the next). */
  busy: string[];
  /** Where the last pass learned what changed: `plugin` (the server's change log) or `scan` (the full check); null before the first. */
  source: string | null;
  /** Why a better source is not in use (the plugin is missing, failed, or turned off); null when the best is. */
  sourceWhy: string | null;
  /** The change log's epoch and position every index is in step at (`<epoch>:<position>`); null without one. */
  cursor: string | null;
  /** Unix ms of the last full check, and its duration in ms (they space the next one). */
  fullAt: number | null;
  fullMs: number | null;
  /** Under a writer-kept property: the indexed labels' node counts at the last pass (JSON), which show a delete. */
  counts: string | null;
  /** Unix ms of the last check of the chunk side for deleted nodes, and its duration in ms (they space the next one). */
  goneAt: number | null;
  goneMs: number | null;
}

/** The fields a pass writes; a field left out keeps its value, null clears it. */
export interface SyncStateUpdate<R = unknown> {
  checkedAt?: number;
  syncedAt?: number;
  behindSince?: number | null;
  bookmark?: string;
  last?: R[];
  error?: string | null;
  busy?: string[];
  source?: string;
  sourceWhy?: string | null;
  cursor?: string | null;
  fullAt?: number;
  fullMs?: number;
  counts?: string | null;
  goneAt?: number;
  goneMs?: number;
}

const num = (v: string | undefined) => (v ? Number(v) : null);

/** Reads the sync state of `graph` (empty before the first pass). */
export async function readSyncState<R = unknown>(kv: KvStore, graph: string): Promise<SyncState<R>> {
  const h = await kv.redis.hgetall(createKeys(kv.prefix).indexSync(graph));
  return {
    checkedAt: num(h.checked_at),
    syncedAt: num(h.synced_at),
    behindSince: num(h.behind_since),
    bookmark: h.bookmark || null,
    last: h.last ? (JSON.parse(h.last) as R[]) : [],
    error: h.error || null,
    busy: h.busy ? (JSON.parse(h.busy) as string[]) : [],
    source: h.source || null,
    sourceWhy: h.source_why || null,
    cursor: h.cursor || null,
    fullAt: num(h.full_at),
    fullMs: num(h.full_ms),
    counts: h.counts || null,
    goneAt: num(h.gone_at),
    goneMs: num(h.gone_ms),
  };
}

/** Writes the given fields of the sync state of `graph` in one command. */
export async function writeSyncState<R>(kv: KvStore, graph: string, update: SyncStateUpdate<R>): Promise<void> {
  const fields: Record<string, string> = {};
  if (update.checkedAt !== undefined) fields.checked_at = String(update.checkedAt);
  if (update.syncedAt !== undefined) fields.synced_at = String(update.syncedAt);
  if (update.behindSince !== undefined) fields.behind_since = update.behindSince === null ? '' : String(update.behindSince);
  if (update.bookmark !== undefined) fields.bookmark = update.bookmark;
  if (update.last !== undefined) fields.last = JSON.stringify(update.last);
  if (update.error !== undefined) fields.error = update.error ?? '';
  if (update.busy !== undefined) fields.busy = JSON.stringify(update.busy);
  if (update.source !== undefined) fields.source = update.source;
  if (update.sourceWhy !== undefined) fields.source_why = update.sourceWhy ?? '';
  if (update.cursor !== undefined) fields.cursor = update.cursor ?? '';
  if (update.fullAt !== undefined) fields.full_at = String(update.fullAt);
  if (update.fullMs !== undefined) fields.full_ms = String(Math.round(update.fullMs));
  if (update.counts !== undefined) fields.counts = update.counts ?? '';
  if (update.goneAt !== undefined) fields.gone_at = String(update.goneAt);
  if (update.goneMs !== undefined) fields.gone_ms = String(Math.round(update.goneMs));
  if (Object.keys(fields).length) await kv.redis.hset(createKeys(kv.prefix).indexSync(graph), fields);
}

/** Removes the sync state of `graph` (benches, tests). */
export async function clearSyncState(kv: KvStore, graph: string): Promise<void> {
  await kv.redis.del(createKeys(kv.prefix).indexSync(graph));
}
