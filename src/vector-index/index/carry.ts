/**
 * Filter values carried on chunk nodes, so that a filtered search can filter inside the vector
 * index (Neo4j's calendar releases: `CREATE VECTOR INDEX … WITH [c.p]` and `SEARCH … WHERE`)
 * instead of widening its candidate lists (../search/filter.ts). Only where the server takes filtered
 * vector indexes (`GraphStore.server().vectorFilters`); on 5.26 nothing is carried and chunks,
 * batch keys and queries are those of an index without filters.
 *
 * What is carried, per chunk, from its source node:
 * - a flag `label:<L>` = true for each of the node's labels among {@link CarryPlan.labels}: a
 *   search's `labels: ["L"]` becomes `c.\`label:L\` = true` (one label; several are an OR, which
 *   `SEARCH … WHERE` does not take);
 * - `prop:<p>` = the node's value of each property in {@link CarryPlan.properties}, when it is a
 *   value a filtered index takes (a boolean, number, string or temporal value; not a list).
 *
 * Which properties: `INDEX_FILTER_PROPERTIES` when set; else what text discovery left out of the
 * text as a category, number, date, boolean or code (src/graph/text/text-rules.ts): the properties a
 * user filters on (a year, a price, a country, a flag), not identifiers, URLs or text. Copies
 * stay fresh through the sync: carried values are part of the batch key (./source.ts), so a
 * changed value rewrites its batch (from the vector cache, not re-embedded).
 */
import type { TextPlan } from '../../graph/text/text-plan.js';
import type { SkipReason } from '../../graph/text/text-rules.js';

/** What an index's chunks carry, as recorded with the index (src/vector-index/index/record.ts). */
export interface CarryPlan {
  /** Labels flagged on chunks. */
  labels: string[];
  /** Properties copied onto chunks. */
  properties: string[];
  /**
   * Carried properties some indexed node holds as a list (or another value an index cannot take:
   * a point, a string over {@link MAX_CARRIED_CHARS}): `=`, `in` and `exists` on them are post-filtered.
   */
  lists: string[];
  /** Chunks per indexed node at the last build (a sync keeps it): sets how many hits a filtered index is asked for. */
  chunksPerNode?: number;
}

/** Most labels flagged, and properties copied, per index (each is a property of every chunk that has it, and of the index). */
export const MAX_CARRIED_LABELS = 32;
export const MAX_CARRIED_PROPERTIES = 16;

/** Discovery's reasons for leaving a property out of the text that mark it as something to filter on. */
const FILTERABLE: ReadonlySet<SkipReason> = new Set(['repeats', 'number', 'date', 'boolean', 'code', 'not a string']);

/** The chunk property of a carried label. */
export const labelField = (label: string) => `label:${label}`;
/** The chunk property of a carried node property. */
export const propField = (property: string) => `prop:${property}`;

/**
 * Vector-index chunk hits asked per wanted node when the index applies the filter itself, at
 * most `most` (the mode's unfiltered over-fetch). Every hit passes, so the list only has to cover
 * nodes with several chunks: 1.5 × the index's chunks per node, at least 2; an index of long
 * texts gets the unfiltered over-fetch, whose beam its results need (docs/benchmarks.md,
 * "Filtered search inside the vector index").
 */
export function inIndexOverfetch(carry: Pick<CarryPlan, 'chunksPerNode'>, most: number): number {
  return Math.min(most, Math.max(2, Math.ceil(1.5 * (carry.chunksPerNode ?? most))));
}

/** The chunk properties a vector index declares for `carry` (labels first), or [] for none. */
export function carryFields(carry: CarryPlan | null | undefined): string[] {
  return carry ? [...carry.labels.map(labelField), ...carry.properties.map(propField)] : [];
}

/**
 * What to carry: `textLabels` (the labels of the nodes indexed, most common first, up to
 * {@link MAX_CARRIED_LABELS}); `explicit` properties when given (`INDEX_FILTER_PROPERTIES`), else
 * the plan's filterable left-out properties, most common label first, up to {@link MAX_CARRIED_PROPERTIES}.
 */
export function chooseCarry(plan: TextPlan, textLabels: readonly string[], explicit: readonly string[] | null): CarryPlan {
  const labels = textLabels.filter((l) => !l.startsWith('__')).slice(0, MAX_CARRIED_LABELS);
  const found = plan.labels.flatMap((l) => l.skipped.filter((s) => FILTERABLE.has(s.reason)).map((s) => s.property));
  const properties = [...new Set(explicit ?? found)].filter((p) => !p.startsWith('__')).slice(0, MAX_CARRIED_PROPERTIES);
  return { labels, properties, lists: [] };
}

/**
 * Longest string carried, in characters: a filter value, not a text (an index entry has a size
 * limit, and a paragraph on every chunk of its node would cost more than it saves).
 */
export const MAX_CARRIED_CHARS = 1_000;

/** A value a filtered vector index takes: not null, not a list, not a map or a point, not a long string. */
function indexable(value: unknown): boolean {
  if (value === null || value === undefined || Array.isArray(value)) return false;
  if (typeof value === 'string') return value.length <= MAX_CARRIED_CHARS;
  if (typeof value !== 'object') return true;
  // Driver types: Integer, Date, DateTime, Duration, … (a Point has `srid`).
  return !('srid' in value) && typeof (value as { toString?: unknown }).toString === 'function' && value.constructor !== Object;
}

/**
 * The carried fields of one node (`props`: its values of the carried properties) as chunk
 * properties; property names that held a value no index takes are added to `lists`.
 */
export function carriedValues(
  carry: CarryPlan,
  labels: readonly string[],
  props: readonly [string, unknown][],
  lists: Set<string>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const l of labels) if (carry.labels.includes(l)) out[labelField(l)] = true;
  for (const [k, v] of props) {
    if (indexable(v)) out[propField(k)] = v;
    else lists.add(k);
  }
  return out;
}
