/**
 * A node's own values as a lookup answer shows them beside its name and text (issue 49): the
 * numbers, dates, booleans and short strings a question about the node asks for (a film's
 * `released`, a product's `unitPrice`, a supplier's `country`), which neither its name, its text
 * nor its relationships show. Pure rules, no database: ./node-facts.ts reads the values.
 *
 * Left out, each by the rule text discovery uses (src/graph/text/text-rules.ts): internal keys
 * (`__…`), keys named as identifiers, codes, links or phone numbers (`productID`, `postalCode`,
 * `homePage`, `fax`), placeholders (`NULL`, blank), strings longer than {@link FACT_STRING_CHARS}
 * (a description belongs to the text), blobs, URLs and identifier-like tokens, lists longer than
 * {@link FACT_LIST_ITEMS}, spatial values and vectors, and strings the answer already shows
 * (the node's name, a value its text holds). Dates written as SQL exports write them
 * (`1996-07-04 00:00:00.000`) lose a midnight time; numbers stored as strings keep their text.
 *
 * Order: the label's properties as the first view of the graph orders them
 * (src/graph/shape/skeleton-view.ts `orderProperties`: name, searchable, then what queries
 * filter on — category-like strings, numbers, dates, flags — then the rest), where a skeleton
 * is at hand; else, and for keys it does not list, the same rule read off the value alone:
 * numbers, dates and booleans (also as strings) before lists and plain strings. Bounded: at
 * most {@link MAX_FACTS} values in a line of at most {@link FACTS_LINE_CHARS} characters.
 */
import neo4j from 'neo4j-driver';
import type { NodeFact, RelationshipCount } from '../../contract/search.js';
import { idLike, isPlaceholder, keyReason, valueKind } from '../text/text-rules.js';

/** Values shown per node at most. */
export const MAX_FACTS = 8;

/** Longest string value shown, in characters; a longer one is text, not a fact. */
export const FACT_STRING_CHARS = 60;

/** Longest key shown. */
export const FACT_KEY_CHARS = 40;

/** Most items of a list value (joined by ', ', then held to {@link FACT_STRING_CHARS}). */
export const FACT_LIST_ITEMS = 5;

/** Longest facts line (`key: value; …`), in characters. */
export const FACTS_LINE_CHARS = 240;

/** Relationship types (with direction) counted per node at most, most common first. */
export const MAX_COUNTED_TYPES = 8;

/** What the answer already shows of the node, and the label's order of properties when known. */
export interface FactContext {
  /** The label's property names in the first view's order (skeleton), when a skeleton is at hand. */
  order?: readonly string[];
  /** The node's name as the answer shows it. */
  displayName?: string;
  /** The node's text as the answer shows it. */
  text?: string;
}

/** `1996-07-04 00:00:00.000` → `1996-07-04`: a midnight time says nothing. */
const MIDNIGHT = /^(\d{4}-\d{2}-\d{2})[ T]00:00(:00(\.0+)?)?(Z|[+-]00:?00)?$/;

/** Lower is earlier, as src/graph/shape/skeleton-view.ts ranks properties: filterable values 2, lists 4, other strings 5. */
type Rank = 2 | 4 | 5;

/** A string shown as a fact, with its rank, or null when it is none ({@link FactContext} not applied). */
function stringFact(raw: string): { value: string; rank: Rank } | null {
  const v = raw.replace(/\s+/g, ' ').trim();
  if (isPlaceholder(v) || v.length > FACT_STRING_CHARS) return null;
  const kind = valueKind(v);
  if (kind === 'date') return { value: v.replace(MIDNIGHT, '$1'), rank: 2 };
  if (kind === 'number' || kind === 'boolean') return { value: v, rank: 2 };
  if (kind === 'identifier' || kind === 'blob' || kind === 'url' || idLike(v)) return null;
  // Codes (no word: `A+`, `3/4`) are kept: a rating or a size is a fact.
  return { value: v, rank: 5 };
}

/** A temporal value as ISO text (a date-time at midnight as its date), or null for anything else. */
function temporalText(value: unknown): string | null {
  const temporal =
    neo4j.isDate(value) ||
    neo4j.isDateTime(value) ||
    neo4j.isLocalDateTime(value) ||
    neo4j.isLocalTime(value) ||
    neo4j.isTime(value) ||
    neo4j.isDuration(value);
  return temporal ? String(value).replace(MIDNIGHT, '$1') : null;
}

/** One value as a fact with its rank, or null when it is none. */
export function factValue(value: unknown): { value: string | number | boolean; rank: Rank } | null {
  if (typeof value === 'boolean') return { value, rank: 2 };
  if (typeof value === 'number') return Number.isFinite(value) ? { value, rank: 2 } : null;
  if (typeof value === 'bigint') return { value: value.toString(), rank: 2 };
  if (neo4j.isInt(value)) return { value: value.inSafeRange() ? value.toNumber() : value.toString(), rank: 2 };
  if (typeof value === 'string') return stringFact(value);
  const temporal = temporalText(value);
  if (temporal !== null) return { value: temporal, rank: 2 };
  if (Array.isArray(value) && value.length > 0 && value.length <= FACT_LIST_ITEMS) {
    const items = value.map((x) => (typeof x === 'string' ? stringFact(x) : factValue(x)));
    if (items.some((x) => x === null)) return null;
    const joined = items.map((x) => String(x!.value)).join(', ');
    return joined.length <= FACT_STRING_CHARS ? { value: joined, rank: 4 } : null;
  }
  return null;
}

/** True when `hay` holds `needle` as words (no letter or digit right before or after it), ignoring case. */
function holdsWords(hay: string | undefined, needle: string): boolean {
  if (!hay) return false;
  const h = hay.toLowerCase();
  const n = needle.toLowerCase();
  const wordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);
  for (let i = h.indexOf(n); i >= 0; i = h.indexOf(n, i + 1)) {
    if (!wordChar(h[i - 1]) && !wordChar(h[i + n.length])) return true;
  }
  return false;
}

/** True when the answer already shows string `value`: the name or the text holds it (a first name in `Nancy Davolio`, a country in an address line). */
const alreadyShown = (value: string, ctx: FactContext) => holdsWords(ctx.displayName, value) || holdsWords(ctx.text, value);

/** `key: value` as the facts line writes it (before Markdown escaping). */
export const factText = (f: NodeFact) => `${f.key}: ${typeof f.value === 'string' ? f.value : String(f.value)}`;

/**
 * The facts of a node with properties `props` (key → value as the driver returns it), most
 * useful first, bounded ({@link MAX_FACTS}, {@link FACTS_LINE_CHARS}); see the header for what
 * is left out and the order.
 */
export function chooseFacts(props: ReadonlyArray<readonly [string, unknown]>, ctx: FactContext = {}): NodeFact[] {
  const order = new Map((ctx.order ?? []).map((k, i) => [k, i]));
  const candidates: { fact: NodeFact; rank: number; at: number }[] = [];
  for (const [key, raw] of props) {
    if (key.startsWith('__') || key.length > FACT_KEY_CHARS || keyReason(key)) continue;
    const v = factValue(raw);
    // Numbers, dates and flags are shown even when the text mentions them: a text is no place to look one up.
    if (!v || (v.rank > 2 && alreadyShown(String(v.value), ctx))) continue;
    candidates.push({ fact: { key, value: v.value }, rank: v.rank, at: order.get(key) ?? Number.POSITIVE_INFINITY });
  }
  // The skeleton's order first; keys it does not list after, by the same rule, then by name.
  candidates.sort((a, b) => a.at - b.at || a.rank - b.rank || (a.fact.key < b.fact.key ? -1 : a.fact.key > b.fact.key ? 1 : 0));
  const out: NodeFact[] = [];
  let used = 0;
  for (const c of candidates) {
    const size = factText(c.fact).length + (out.length ? 2 : 0);
    if (used + size > FACTS_LINE_CHARS) continue;
    out.push(c.fact);
    used += size;
    if (out.length >= MAX_FACTS) break;
  }
  return out;
}

/** A relationship group as the facts read sees it: type, direction, the other end's labels (most seen first) and count. */
export interface RelationshipGroup {
  type: string;
  out: boolean;
  label: string | null;
  count: number;
}

/**
 * A node's relationships counted by type and direction from the groups of a scan (one per
 * type, direction and first label of the other end), most common first, at most
 * {@link MAX_COUNTED_TYPES}; `exact` replaces a group's count (by `>type` / `<type`) where the
 * scan did not see every relationship. Labels: at most 3, most seen first.
 */
export function countRelationships(groups: readonly RelationshipGroup[], exact?: ReadonlyMap<string, number>): RelationshipCount[] {
  const byKey = new Map<string, { type: string; out: boolean; count: number; labels: Map<string, number> }>();
  for (const g of groups) {
    const key = `${g.out ? '>' : '<'}${g.type}`;
    const entry = byKey.get(key) ?? { type: g.type, out: g.out, count: 0, labels: new Map<string, number>() };
    entry.count += g.count;
    if (g.label) entry.labels.set(g.label, (entry.labels.get(g.label) ?? 0) + g.count);
    byKey.set(key, entry);
  }
  for (const [key, count] of exact ?? []) {
    const entry = byKey.get(key);
    if (entry) entry.count = count;
    else if (count > 0) byKey.set(key, { type: key.slice(1), out: key[0] === '>', count, labels: new Map() });
  }
  return [...byKey.values()]
    .filter((e) => e.count > 0)
    .sort((a, b) => b.count - a.count || (a.type < b.type ? -1 : a.type > b.type ? 1 : Number(b.out) - Number(a.out)))
    .slice(0, MAX_COUNTED_TYPES)
    .map((e) => ({
      type: e.type,
      direction: e.out ? ('out' as const) : ('in' as const),
      count: e.count,
      labels: [...e.labels]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([l]) => l),
    }));
}
