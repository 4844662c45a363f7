/**
 * The `property` change source (any edition, Aura included): the graph's writers keep
 * `INDEX_CHANGED_PROPERTY` (a number such as `timestamp()`, or a date-time) on every node they
 * create or change, with a range index on it for each indexed label. A pass then asks each
 * indexed label's index for the nodes whose value is past its cursor (less a minute's overlap,
 * for transactions that committed late: src/graph/access/changed-property.ts `OVERLAP_MS`) and
 * checks only those, as the change log's are checked.
 *
 * What a property cannot name is a deleted node. The label counts (the count store: constant
 * time) say when one went: a count lower than the last pass's starts the chunk-side check
 * (src/graph/access/chunk-store.ts `gone`: one seek per indexed node, no values compared). A
 * create and a delete between two passes leave the count as it was; so while nodes written
 * since the last pass are in sight, the pass does not call the indexes in step and keeps its
 * cursor, until the chunk-side check is due (spaced by nine times its own duration, as the full
 * check is) and has run. An edit is searchable after the first pass either way.
 */
import { changedSince, labelCounts, type PropertyValue, type ValueKind } from '../../graph/access/changed-property.js';
import type { SyncState } from '../../store/sync-state.js';
import type { IndexBuildDeps } from '../index/target.js';
import { readIndexMeta } from '../index/record.js';
import { FULL_CHECK_SPACING, MAX_LOGGED_NODES } from './source.js';

/** The cursor as the sync state keeps it: `p:` before the first value, `p:<kind>:<value>` after. */
export const propertyCursorText = (v: PropertyValue | null): string => (v ? `p:${v.kind}:${v.text}` : 'p:');

/** A kept property cursor (null value: no node had one yet), or undefined for none or another source's. */
export function parsePropertyCursor(text: string | null): { value: PropertyValue | null } | undefined {
  if (text === 'p:') return { value: null };
  const m = text?.match(/^p:(number|datetime|localdatetime|date):(.+)$/);
  return m ? { value: { kind: m[1] as ValueKind, text: m[2]! } } : undefined;
}

/**
 * The labels whose nodes the kept indexes hold (their recorded plans' labels with text), which
 * the property is asked of. A label discovered later joins them when a pass records it; until it
 * has its range index, the sync runs the full check and `/status` says which index is missing.
 */
export async function indexedLabels(
  deps: Pick<IndexBuildDeps, 'graph'>,
  graph: string,
  indexes: readonly { index: string }[],
): Promise<string[]> {
  const labels = new Set<string>();
  for (const { index } of indexes) {
    const meta = await readIndexMeta(deps.graph.driver, graph, index);
    for (const l of meta?.plan.labels ?? []) if (l.source !== 'none') labels.add(l.label);
  }
  return [...labels].sort();
}

/** What a pass under the property does: check the nodes it names (and perhaps the chunk side), or a full check first. */
export type PropertyPlan =
  | {
      full: false;
      ids: string[];
      /** The cursor to keep when the pass synced. */
      to: string;
      /** Also check the chunk side for deleted nodes. */
      goneCheck: boolean;
      /** The indexes may be called in step once synced (no delete can be hiding). */
      settles: boolean;
      counts: Record<string, number>;
    }
  | { full: true; why: string; head: string; counts: Record<string, number> };

/** When the next chunk-side check may run: spaced by its own duration, as the full check is. */
export function goneCheckAt(
  config: Pick<IndexBuildDeps['config'], 'INDEX_SYNC_INTERVAL_MS'>,
  state: Pick<SyncState, 'goneAt' | 'goneMs'>,
): number {
  if (state.goneAt === null) return 0;
  return state.goneAt + Math.max(config.INDEX_SYNC_INTERVAL_MS, FULL_CHECK_SPACING * (state.goneMs ?? 0));
}

/**
 * The nodes of `labels` written since the kept cursor, and whether the chunk side must be
 * checked; a full check instead on the first pass, when a reconcile is due, or when more than
 * {@link MAX_LOGGED_NODES} changed.
 */
export async function planFromProperty(
  deps: Pick<IndexBuildDeps, 'graph' | 'config'>,
  graph: string,
  source: { labels: readonly string[]; newest: PropertyValue | null },
  state: SyncState,
  reconcile: boolean,
  now: number,
): Promise<PropertyPlan> {
  const { driver } = deps.graph;
  const { labels } = source;
  const prop = deps.config.INDEX_CHANGED_PROPERTY;
  // Counts first: a node created after them is in the property's answer, never only in the counts.
  const counts = await labelCounts(driver, graph, labels);
  const cursor = parsePropertyCursor(state.cursor);
  // The newest value was read when the source was chosen: before the full check, as its cursor must be.
  const full = (why: string) => ({ full: true as const, why, head: propertyCursorText(source.newest), counts });
  if (!cursor) return full(`first pass under ${prop}`);
  if (reconcile) return full('reconcile due');
  const changed = await changedSince(driver, graph, prop, labels, cursor.value, MAX_LOGGED_NODES);
  if (changed.over) return full(`more than ${MAX_LOGGED_NODES} nodes changed since the last pass`);
  const before = parseCounts(state.counts);
  const dropped = !before || labels.some((l) => (counts[l] ?? 0) < (before[l] ?? 0));
  const due = now >= goneCheckAt(deps.config, state);
  const goneCheck = dropped || (changed.fresh > 0 && due);
  // Written since the last pass and no check of the chunk side: a delete may hide behind a create; the cursor stays.
  const settles = goneCheck || changed.fresh === 0;
  return {
    full: false,
    ids: changed.ids,
    to: settles ? propertyCursorText(changed.newest ?? cursor.value) : state.cursor!,
    goneCheck,
    settles,
    counts,
  };
}

/** The counts a pass kept, or null before the first. */
function parseCounts(text: string | null): Record<string, number> | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as Record<string, number>;
  } catch {
    return null;
  }
}
