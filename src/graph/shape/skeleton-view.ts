/**
 * How a label's or relationship type's properties read in the first view of a graph (the
 * skeleton, src/graph/shape/skeleton.ts): in order of use, not of the alphabet: the name first, then
 * what vector_search finds the label by, then what queries filter on (category-like strings,
 * numbers, dates, flags, including those stored as strings), then identifiers, then the rest.
 * Each property says its value kind where it differs from its type (`freight: STRING of
 * numbers`) and category-like strings a few values (`shipCountry: STRING e.g. "Germany", …`).
 * A line is written at one of several levels of detail, so a large schema is named whole at a
 * lower level and the largest labels still get the detail (see {@link DETAIL_LEVELS}).
 */
import { shownJson, shownName } from '../../lib/shown-name.js';
import type { PropertyInfo } from './schema.js';

/** One level of detail: properties shown at most, and whether kinds and example values are. */
export interface DetailLevel {
  properties: number;
  kinds: boolean;
  values: number;
}

/** From all the detail to none; a skeleton picks per label the richest level that fits. */
export const DETAIL_LEVELS: readonly DetailLevel[] = [
  { properties: 24, kinds: true, values: 4 },
  { properties: 12, kinds: true, values: 3 },
  { properties: 6, kinds: true, values: 1 },
  { properties: 3, kinds: true, values: 0 },
  { properties: 0, kinds: false, values: 0 },
];

const NAME_LIKE = /^(name|title|displayName|label|fullName)$|(Name|Title|_name|_title)$/;
const ID_LIKE = /(^id$|Id$|ID$|_id$|^uuid$|^key$|Code$)/;
const FILTER_TYPES = /^(INTEGER|FLOAT|BOOLEAN|DATE|LOCAL DATETIME|ZONED DATETIME|LOCAL TIME|ZONED TIME|DURATION|POINT)/;
const LONG = 40;
/** Distinct values in the sample of 200 up to which a string property is a category. */
const MAX_CATEGORIES = 50;

/** True for a string property whose sampled values repeat (a category: country, genre, status). */
export function categoryLike(p: PropertyInfo): boolean {
  if (!p.types.includes('STRING') || p.kind || !p.values?.length || p.distinct === undefined || ID_LIKE.test(p.name)) return false;
  // Values repeat: a few dozen at most, each held by 3 items of the sample on average (a small label's names are not categories).
  const repeats = p.filled === undefined || p.distinct * 3 <= p.filled;
  return p.distinct <= MAX_CATEGORIES && repeats && typeof p.example === 'string' && p.example.length <= LONG;
}

/** Hex or base64 blobs and other long strings: nothing a query compares. */
const blob = (p: PropertyInfo) => typeof p.example === 'string' && p.example.length >= 80 && !/\s/.test(p.example.slice(0, 80));

/** Lower is earlier: the name, searchable, filterable, identifiers, the rest, blobs. */
function rank(p: PropertyInfo, searchable: readonly string[]): number {
  if (blob(p)) return 6;
  if (p.types.includes('STRING') && NAME_LIKE.test(p.name) && !ID_LIKE.test(p.name)) return 0;
  if (searchable.includes(p.name)) return 1;
  if (ID_LIKE.test(p.name)) return 3;
  if (categoryLike(p) || p.kind || p.types.some((t) => FILTER_TYPES.test(t))) return 2;
  if (p.types.some((t) => t.startsWith('LIST'))) return 4;
  return 5;
}

/** The properties worth showing (vectors and rare ones left out), in order of use. */
export function orderProperties(props: readonly PropertyInfo[] | undefined, searchable: readonly string[] = []): PropertyInfo[] {
  return (props ?? [])
    .filter((p) => p.fill >= 0.05 && !p.types.some((t) => t.startsWith('VECTOR')))
    .map((p, i) => ({ p, r: rank(p, searchable), i }))
    .sort((a, b) => a.r - b.r || b.p.fill - a.p.fill || a.i - b.i)
    .map((x) => x.p);
}

const KIND_TEXT: Record<NonNullable<PropertyInfo['kind']>, string> = {
  integer: 'STRING of integers',
  number: 'STRING of numbers',
  date: 'STRING of dates',
  boolean: 'STRING of booleans',
};

/**
 * `freight: STRING of numbers`, `orderDate: STRING of dates like "1996-07-04 00:00:00.000"`,
 * `country: STRING e.g. "UK", "USA"`; the name as Cypher writes it (`` `unit price`: FLOAT ``).
 */
export function propertyText(p: PropertyInfo, level: DetailLevel): string {
  const type = level.kinds && p.kind ? KIND_TEXT[p.kind] : p.types.join('|');
  let tail = '';
  if (level.values && p.kind === 'date' && typeof p.example === 'string') tail = ` like ${shownJson(p.example)}`;
  else if (level.values && categoryLike(p)) {
    const shown = p.values!.slice(0, level.values).map((v) => shownJson(v));
    tail = ` e.g. ${shown.join(', ')}${(p.distinct ?? 0) > shown.length ? ', …' : ''}`;
  }
  return `${shownName(p.name)}: ${type}${tail}`;
}

/** ` {a: T, b: T, …}` of the first properties at `level`, with `+N` for those left out; '' when none is shown. */
export function propertyBlock(ordered: readonly PropertyInfo[], level: DetailLevel): string {
  if (!level.properties || !ordered.length) return '';
  const shown = ordered.slice(0, level.properties).map((p) => propertyText(p, level));
  const more = ordered.length - shown.length;
  return ` {${shown.join(', ')}${more > 0 ? `, +${more}` : ''}}`;
}
