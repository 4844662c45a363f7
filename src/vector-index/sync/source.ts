/**
 * Where a sync pass learns what changed. The best source the database offers is chosen at every
 * pass (one procedure call), and `/status` names it with why a better one is not in use:
 *
 * - `plugin`: the server's change log (plugin/, src/graph/access/change-log.ts). The pass checks
 *   only the nodes the log names since the cursor every index is in step at. When the log cannot
 *   say (no cursor yet, the server restarted, entries were overwritten, or a reconcile is due)
 *   the pass runs one full check and then follows the log from where it stood before the check,
 *   so nothing committed meanwhile is missed.
 * - `property`: a property the graph's writers keep on the nodes they change
 *   (`INDEX_CHANGED_PROPERTY`, ./property-source.ts), when the plugin is missing and every indexed
 *   label has a range index on it.
 * - `scan`: the full check of today (src/graph/access/chunk-store.ts `changes`), spaced by nine
 *   times its own duration so it takes at most a tenth of one database core over time.
 */
import { CHANGE_LOG_VERSION, type ChangeLogInfo, readChangeLogInfo, readChanges } from '../../graph/access/change-log.js';
import type { IndexBuildDeps } from '../index/target.js';
import { newestValue, type PropertyValue, rangeIndexedLabels } from '../../graph/access/changed-property.js';
import { quoteName } from '../../graph/dialect/names.js';

/** The source a pass uses, and why a better one is not in use (null: it is the best there is). */
export type ChangeSource =
  | { name: 'plugin'; info: ChangeLogInfo; why: null }
  | {
      name: 'property';
      why: string;
      /** The indexed labels the property is asked of, and its newest value there when the source was chosen. */
      labels: string[];
      newest: PropertyValue | null;
    }
  | { name: 'scan'; why: string | null };

/** A position in the change log of one server run. */
export interface Cursor {
  epoch: string;
  position: number;
}

/** Entries asked per call of the log. */
const PAGE = 10_000;
/** Nodes one pass takes from the log at most; the rest wait for the next pass (a second away). */
export const MAX_LOGGED_NODES = 100_000;
/** Full checks are spaced by this many times their own duration: a tenth of a core at most. */
export const FULL_CHECK_SPACING = 9;

/** The cursor as the sync state keeps it. */
export const cursorText = (c: Cursor): string => `${c.position}:${c.epoch}`;

/** A kept cursor, or null for none or one written otherwise. */
export function parseCursor(text: string | null): Cursor | null {
  const m = text?.match(/^(\d+):(.+)$/);
  return m ? { position: Number(m[1]), epoch: m[2]! } : null;
}

/**
 * The best source `graph` offers under `INDEX_CHANGE_SOURCE`: the change log, else the writers'
 * property (`INDEX_CHANGED_PROPERTY`, with a range index for each indexed label, which `labelsOf`
 * reads only when the plugin is missing), else the full check.
 */
export async function chooseSource(
  deps: Pick<IndexBuildDeps, 'config' | 'graph'>,
  graph: string,
  labelsOf: () => Promise<string[]>,
): Promise<ChangeSource> {
  const { INDEX_CHANGE_SOURCE: chosen, INDEX_CHANGED_PROPERTY: prop } = deps.config;
  if (chosen === 'scan') return { name: 'scan', why: 'INDEX_CHANGE_SOURCE=scan' };
  const info = chosen === 'property' ? { missing: 'INDEX_CHANGE_SOURCE=property' } : await readChangeLogInfo(deps.graph.driver, graph);
  let why: string;
  if ('missing' in info) why = info.missing;
  else if (info.version !== CHANGE_LOG_VERSION) {
    why = `the change-log plugin is version ${info.version.slice(0, 40)}; this service reads version ${CHANGE_LOG_VERSION}`;
  } else return { name: 'plugin', info, why: null };
  if (!prop) return { name: 'scan', why: chosen === 'property' ? 'INDEX_CHANGE_SOURCE=property without INDEX_CHANGED_PROPERTY' : why };
  const labels = await labelsOf();
  const check = await checkProperty(deps, graph, prop, labels);
  if ('unusable' in check) return { name: 'scan', why: `${why}; INDEX_CHANGED_PROPERTY: ${check.unusable}` };
  return { name: 'property', why, labels, newest: check.newest };
}

/** Labels lacking the range index, said as the statements that would create them (the first few). */
function missingIndexes(prop: string, labels: string[]): string {
  const shown = labels.slice(0, 3).map((l) => `CREATE RANGE INDEX FOR (n:${quoteName(l)}) ON (n.${quoteName(prop)})`);
  const more = labels.length > 3 ? ` (and ${labels.length - 3} more labels)` : '';
  return `no range index on ${prop} for ${labels.length === 1 ? 'label' : 'labels'} ${labels.slice(0, 3).join(', ')}${more}: ${shown.join('; ')}`;
}

/** Why `prop` cannot be followed on `labels` (a label without its range index, a value a cursor cannot hold), or its newest value there. */
async function checkProperty(
  deps: Pick<IndexBuildDeps, 'graph'>,
  graph: string,
  prop: string,
  labels: readonly string[],
): Promise<{ unusable: string } | { newest: PropertyValue | null }> {
  const indexed = await rangeIndexedLabels(deps.graph.driver, graph, prop);
  const missing = labels.filter((l) => !indexed.has(l));
  if (missing.length) return { unusable: missingIndexes(prop, missing) };
  const { value, wrong } = await newestValue(deps.graph.driver, graph, prop, labels);
  if (wrong) return { unusable: `${prop} on ${wrong}; a cursor needs a number (timestamp()) or a date, datetime or localdatetime` };
  return { newest: value };
}

/** Null when every label has its range index on `prop` and holds values a cursor can, else why the property cannot be followed. */
export async function propertyUnusable(
  deps: Pick<IndexBuildDeps, 'graph'>,
  graph: string,
  prop: string,
  labels: readonly string[],
): Promise<string | null> {
  const check = await checkProperty(deps, graph, prop, labels);
  return 'unusable' in check ? check.unusable : null;
}

/** What a pass under the change log does: check the nodes it names, or run a full check first (and why). */
export type LogPlan =
  | { full: false; ids: string[]; to: Cursor /** The log was read to where it stood when the pass began. */; caughtUp: boolean }
  | { full: true; why: string; head: Cursor };

/**
 * The nodes the log names after `cursor`, up to {@link MAX_LOGGED_NODES}; a full check instead
 * when the log cannot say what happened since `cursor`, or when `reconcile` asks for one.
 */
export async function planFromLog(
  deps: Pick<IndexBuildDeps, 'graph'>,
  graph: string,
  info: ChangeLogInfo,
  cursor: Cursor | null,
  reconcile: boolean,
): Promise<LogPlan> {
  const head = { epoch: info.epoch, position: info.position };
  if (!cursor) return { full: true, why: 'first pass under the change log', head };
  if (cursor.epoch !== info.epoch) return { full: true, why: 'the server restarted since the last pass', head };
  if (cursor.position > info.position) return { full: true, why: 'the cursor is past the change log (another server?)', head };
  if (reconcile) return { full: true, why: 'reconcile due', head };
  const ids = new Set<string>();
  let after = cursor.position;
  while (after < info.position && ids.size < MAX_LOGGED_NODES) {
    const page = await readChanges(deps.graph.driver, graph, after, PAGE);
    if (page.epoch !== info.epoch) return { full: true, why: 'the server restarted during the pass', head };
    if (page.lost) return { full: true, why: 'the change log overflowed', head };
    for (const id of page.ids) ids.add(id);
    if (page.position <= after) break;
    after = page.position;
  }
  return { full: false, ids: [...ids], to: { epoch: info.epoch, position: after }, caughtUp: after >= info.position };
}
