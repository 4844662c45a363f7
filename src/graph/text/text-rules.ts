/**
 * What a label's text is, decided from a sample of its nodes: which property names a node (the
 * header of its chunks) and which hold descriptive text (the body), and why every other
 * property is left out. Pure rules, no database: `text-plan.ts` feeds them samples.
 *
 * Names are found by rule, not by a list: `displayName`, `name`, a key that is the label's own
 * name plus `Name`/`Title` (`productName` on Product, `categoryName` on Category), a first and
 * last name pair, `title`, then an organisation's name (`companyName`), any other `…Name`, any
 * other `…Title`, and last another party's name (`contactName`, `shipName`). A job title
 * (`contactTitle`, `jobTitle`) never names a node: a Supplier is "Exotic Liquids", not its
 * contact's "Purchasing Manager". A name must be short and tell the label's nodes apart (an
 * Order's `shipName` repeats its customer's name on every order: not a name). The same order,
 * without the sample's tests, names a node wherever it is shown (src/graph/text/node-name.ts).
 *
 * The body keeps strings that read as text; it leaves out identifiers, codes, dates, numbers
 * and booleans stored as strings, URLs and blobs (hex or base64 pictures, long unbroken tokens),
 * phone and fax numbers (by key as well: a shifted CSV row puts a country under `phone`), and
 * values that repeat across the label (a category, such as a country on 830 orders), which
 * would make every node of the label look alike to a search.
 *
 * Placeholders (`NULL`, `N/A`, `-`, blank: {@link isPlaceholder}) are missing values
 * everywhere: they are not sampled strings, a property that is mostly placeholders is empty,
 * and they never name a node or make a line of its text. `none`, `unknown` and `0` are kept:
 * they are answers as often as they are gaps.
 */
import { BASE64_BLOB, HEX_BLOB, isLongEncodedRun } from '../../lib/blob.js';
import { dropControls } from '../../lib/invisible.js';

/** Why a property is not part of a label's text. */
export type SkipReason =
  | 'identifier'
  | 'code'
  | 'date'
  | 'number'
  | 'boolean'
  | 'url'
  | 'blob'
  | 'empty'
  | 'repeats'
  | 'not a string'
  | 'internal'
  | 'too many';

/**
 * Values that stand for a missing value in exported data (lower case, trimmed): `NULL` as
 * Northwind's CSVs and many SQL exports write it, `\N` (MySQL and PostgreSQL dumps), `N/A`, and
 * dashes. Blank strings are missing too ({@link isPlaceholder}).
 */
export const PLACEHOLDERS: readonly string[] = ['null', 'n/a', '\\n', '-', '--', '---'];

/** True for a value that stands for a missing one: blank, or one of {@link PLACEHOLDERS} in any case. */
export function isPlaceholder(value: string): boolean {
  const v = value.trim().toLowerCase();
  return v === '' || PLACEHOLDERS.includes(v);
}

/** Longest name kept, in characters (a paragraph stored under `name` is cut, with a marker). */
export const NAME_CHARS = 200;

/**
 * Characters of a long string read to tell whether it can be a name: longer than this it is no
 * placeholder, and it names nothing only when this many leading characters are all blank.
 * Keeps a 5 MB value from being copied whole to name its node.
 */
export const NAME_LEAD_CHARS = 64;

/** What the sample says about one property of a label. */
export interface PropertySample {
  key: string;
  /** Non-empty string values seen (each cut to a few hundred characters by the sampler). */
  strings: string[];
  /** Nodes in the sample that have the property at all (any type). */
  present: number;
  /** The type of a non-string value, when one was seen (`INTEGER`, `LIST<STRING>`, …). */
  otherType?: string;
}

/** A property left out, with the reason in words. */
export interface SkippedProperty {
  property: string;
  reason: SkipReason;
  detail: string;
}

/** The rule's choice for one label. */
export interface LabelText {
  /** Properties whose values, joined by a space, name the node (empty: the label has no name). */
  name: string[];
  /** Properties that make the body, most descriptive first. */
  body: string[];
  skipped: SkippedProperty[];
}

/** Share of a property's values that must fit a kind for the property to be that kind. */
const MOST = 0.8;
/** A name must be present on at least this share of the sampled nodes. */
const NAME_COVERAGE = 0.5;
/** Distinct values per node a name needs (over at least {@link MIN_FOR_RATIOS} values). */
const NAME_DISTINCT = 0.8;
/** Distinct values per node below which a body property is a category. */
const BODY_DISTINCT = 0.5;
/** Ratios of distinct values mean little on fewer values than this. */
const MIN_FOR_RATIOS = 10;
/** Longest mean length of a name, in characters: longer is a description. */
const NAME_MAX_CHARS = 120;
/** Body properties kept per label; a label with more is most likely a record, not text. */
export const MAX_BODY_PROPERTIES = 12;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const OTHER_DATE = /^\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}$/;
const NUMBER = /^[-+]?[$€£]?\s?\d[\d,' ]*(\.\d+)?([eE][-+]?\d+)?\s?%?$/;
const BOOLEAN = /^(true|false|yes|no)$/i;
/** A URL, an e-mail address, or an Access-style hyperlink (`#CAJUN.HTM#`). */
// The hyperlink's last two `#` hold no space or `#` between them: the same strings as `#\S*#$`, read in linear time.
const URL_LIKE = /:\/\/|^www\.|^[^\s@]+@[^\s@]+\.[a-z]{2,}$|#[^\s#]*#$/i;
/** Keys that name a link or a file: `homePage`, `website`, `photoPath`, `imageUrl`, `email`. */
const URL_KEY = /(url|uri|href|link|homepage|website|email|path)$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A word: three letters in a row, in any script. */
const WORD = /\p{L}{3,}/u;
/** Keys that name a phone or fax number: `phone`, `homePhone`, `fax`, `faxNumber`, `tel`, `mobile_no`. */
const PHONE_KEY = /(^|_)(tel|telephone|phone|fax|mobile)(_?(number|no|nr))?$/i;
/** The same in camel case: `homePhone`, `faxNumber` (case matters: `hotel` is no phone). */
const PHONE_CAMEL_KEY = /[a-z0-9](Tel|Telephone|Phone|Fax|Mobile)(Number|No|Nr)?$/;
/** A phone or fax number, with an extension if any: `(171) 555-2222`, `+49 30 1234567 ext. 12`. */
// The run before the first digit holds no digit, and the spaces before `ext` belong to the run: each string splits one way.
const PHONE = /^\+?[\s().\-/]*\d[\d\s().\-/]{5,}((ext|x)\.?\s*\d+)?$/i;
/** Keys that name an identifier or a code: `id`, `customerID`, `product_id`, `isbn`, `sku`, `zipCode`, `apiKey`. */
const ID_KEY =
  /(^|_)([iI][dD]s?|uuid|guid|key|code|isbn|sku|identifiers?|UUID|GUID|KEY|CODE|ISBN|SKU|IDENTIFIERS?)$|^(id|uuid|guid)[A-Z_]|[a-z0-9](Id|ID|Ids|IDs|Uuid|UUID|Key|Code|Identifiers?)$/;

/** Lower case, letters and digits only (`Product_t1` → `productt1`): how labels and keys are compared. */
export const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/** A single value that is an identifier: a UUID, or one token mixing letters and digits (`A-1234`), or capitals only (`ALFKI`). */
export function idLike(v: string): boolean {
  if (UUID.test(v)) return true;
  if (/\s/.test(v) || v.length > 40) return false;
  return (/\d/.test(v) && /[A-Za-z]/.test(v)) || /^[A-Z][A-Z0-9_-]{3,}$/.test(v);
}

/** The kind of one value, or null when it reads as text. Order matters: a blob is not checked as a word. */
export function valueKind(v: string): SkipReason | null {
  const s = v.trim();
  // Before the word check: a UUID of digits and a-f only has no word either, but it is an identifier.
  if (UUID.test(s)) return 'identifier';
  if (HEX_BLOB.test(s) || BASE64_BLOB.test(s) || s.split(/\s+/).some(isLongEncodedRun)) return 'blob';
  if (URL_LIKE.test(s)) return 'url';
  if (ISO_DATE.test(s) || OTHER_DATE.test(s)) return 'date';
  if (NUMBER.test(s)) return 'number';
  if (BOOLEAN.test(s)) return 'boolean';
  if (!WORD.test(s) || PHONE.test(s)) return 'code';
  return null;
}

/** What a key alone says its values are, whatever they hold: an identifier or code, a link, a phone or fax number; null otherwise. */
export function keyReason(key: string): 'identifier' | 'url' | 'code' | null {
  if (ID_KEY.test(key)) return 'identifier';
  if (URL_KEY.test(key)) return 'url';
  return PHONE_KEY.test(key) || PHONE_CAMEL_KEY.test(key) ? 'code' : null;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const distinctRatio = (xs: string[]) => new Set(xs.map((x) => x.trim().toLowerCase())).size / Math.max(1, xs.length);

/**
 * Why `p` cannot be text, or null when it can. `sampled` is the number of nodes sampled.
 * Repeats are checked by the caller (a name and a body differ there).
 */
export function skipReason(p: PropertySample, textProperty: string): SkippedProperty | null {
  const skip = (reason: SkipReason, detail: string): SkippedProperty => ({ property: p.key, reason, detail });
  if (p.key.startsWith('__')) return skip('internal', 'internal property (starts with "__")');
  const strings = p.strings.filter((v) => !isPlaceholder(v));
  if (!strings.length) {
    if (p.otherType)
      return skip('not a string', `holds ${typeName(p.otherType)} values${NAME_KEY.test(p.key) ? ', not one string: no name' : ''}`);
    return skip('empty', p.strings.length ? `only placeholders for a missing value (${placeholdersIn(p.strings)})` : 'always empty');
  }
  if (p.key === textProperty) return null;
  if (strings.length < (1 - MOST) * p.strings.length) {
    return skip('empty', `mostly placeholders for a missing value (${placeholdersIn(p.strings)})`);
  }
  const byKey = keyReason(p.key);
  if (byKey) return skip(byKey, KEY_DETAILS[byKey]);
  const kinds = new Map<SkipReason, number>();
  let ids = 0;
  for (const v of strings) {
    const k = valueKind(v);
    if (k) kinds.set(k, (kinds.get(k) ?? 0) + 1);
    if (idLike(v)) ids++;
  }
  const n = strings.length;
  for (const [kind, count] of [...kinds].sort((a, b) => b[1] - a[1])) {
    if (count >= MOST * n) return skip(kind, DETAILS[kind]);
  }
  // Values of mixed non-text kinds (numbers and codes, dates and numbers) are still not text.
  const nonText = [...kinds.values()].reduce((a, b) => a + b, 0);
  if (nonText >= MOST * n) return skip('code', DETAILS.code);
  if (ids >= MOST * n) return skip('identifier', 'values look like identifiers');
  return null;
}

/** A Cypher type as a user reads it: `LIST<STRING NOT NULL>` → `LIST<STRING>`. */
const typeName = (type: string) => type.replace(/ NOT NULL/g, '');

/** The placeholders among `values`, quoted, at most three: `"NULL", "N/A"`. */
const placeholdersIn = (values: string[]) =>
  [...new Set(values.filter(isPlaceholder).map((v) => JSON.stringify(v.trim())))].slice(0, 3).join(', ');

const DETAILS: Record<SkipReason, string> = {
  identifier: 'values look like identifiers',
  code: 'codes or figures, no words (phone numbers, postal codes)',
  date: 'dates stored as strings',
  number: 'numbers stored as strings',
  boolean: 'booleans stored as strings',
  url: 'URLs or e-mail addresses',
  blob: 'encoded data (hex, base64 or long unbroken tokens)',
  empty: 'always empty',
  repeats: 'values repeat across the label',
  'not a string': 'not a string',
  internal: 'internal property',
  'too many': `more than ${MAX_BODY_PROPERTIES} text properties`,
};

const KEY_DETAILS = {
  identifier: 'named as an identifier or code',
  url: 'named as a link, address or file path',
  code: 'named as a phone or fax number',
} as const;

/** Keys that may name a node: `…Name`, `…Title` (any case, `_name` too). */
const NAME_KEY = /(name|title)$/i;
/** An organisation's own name: `companyName`, `organization_name`, `businessName`. */
const ORG_NAME = /^(company|organi[sz]ation|org|business|firm|brand|trading|legal)_?name$/i;
/** Another party's name on a node: its contact's, the ship-to or bill-to name. */
const PARTY_NAME = /^(contact|ship|shipping|bill|billing)_?name$/i;
/** A job title, which names a role and never a node: `contactTitle`, `jobTitle`. */
const JOB_TITLE = /^(contact|job|position|role)_?title$/i;
/** A first name key, and a last name key, of a first and last name pair. */
const FIRST_NAME = /^(first|given)_?name$/i;
const LAST_NAME = /^(last_?|sur|family_?)name$/i;

/** True when `key` (`productName`, `product_title`) is the own name of a node labelled `label` (`Product_t1`). */
function ownNameKey(label: string, key: string): boolean {
  const m = /^(.+?)_?(name|title)$/i.exec(key);
  return !!m && norm(m[1]!).length >= 3 && norm(label).startsWith(norm(m[1]!));
}

/**
 * The name candidates among `keys` of a node labelled `labels`, best first, by the rule in the
 * header; a pair is a first and last name. Within a step, keys go alphabetically. With
 * `strongOnly`, only `displayName`, `name`, the label's own name and a first and last name: a
 * label its plan found no name for is not named by `title`, another `…Name` or a party's name.
 */
export function nameCandidates(labels: readonly string[], keys: readonly string[], { strongOnly = false } = {}): string[][] {
  const sorted = [...keys].sort();
  const lower = new Map(sorted.map((k) => [k.toLowerCase(), k]));
  const out: string[][] = [];
  const add = (...ks: (string | undefined)[]) => {
    if (ks.every((k): k is string => k !== undefined) && !out.some((c) => c.join() === ks.join())) out.push(ks);
  };
  add(lower.get('displayname'));
  add(lower.get('name'));
  for (const k of sorted) if (labels.some((l) => ownNameKey(l, k))) add(k);
  add(
    sorted.find((k) => FIRST_NAME.test(k)),
    sorted.find((k) => LAST_NAME.test(k)),
  );
  if (strongOnly) return out;
  add(lower.get('title'));
  const rest = sorted.filter((k) => NAME_KEY.test(k) && !JOB_TITLE.test(k));
  for (const k of rest) if (ORG_NAME.test(k)) add(k);
  for (const k of rest) if (/name$/i.test(k) && !PARTY_NAME.test(k)) add(k);
  for (const k of rest) if (/title$/i.test(k)) add(k);
  for (const k of rest) add(k);
  return out;
}

/**
 * A value that can be a name: a string, not blank, not a placeholder; trimmed and cut to
 * {@link NAME_CHARS}, with its controls dropped (NUL, C1, direction overrides and marks; line
 * breaks and tabs as spaces: src/lib/invisible.ts `dropControls`), so a name shown anywhere
 * stays on its line and reads in the order its letters have.
 */
export function nameValue(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const lead = dropControls(value.slice(0, NAME_CHARS + NAME_LEAD_CHARS));
  // A long value starting with this much blank names nothing (the database sends only the lead of a long value: node-name.ts).
  if (lead.length > NAME_LEAD_CHARS ? !lead.slice(0, NAME_LEAD_CHARS).trim() : isPlaceholder(lead)) return null;
  const v = lead.trim();
  return v.length > NAME_CHARS ? `${v.slice(0, NAME_CHARS - 1)}…` : v;
}

/** Values that all can be names ({@link nameValue}), trimmed and joined by a space, then cut; null when one cannot. */
export function joinName(values: readonly unknown[]): string | null {
  if (!values.length || values.some((v) => nameValue(v) === null)) return null;
  return nameValue(values.map((v) => (v as string).trim()).join(' '));
}

/**
 * The text of a label from its sampled properties: a name (if one fits), the body, and the
 * skipped properties with their reasons.
 * @param sampled nodes in the sample (coverage is measured against it).
 * @param properties every property seen on the sampled nodes.
 */
export function chooseLabelText(label: string, sampled: number, properties: PropertySample[], textProperty: string): LabelText {
  const skipped: SkippedProperty[] = [];
  const texty = new Map<string, PropertySample>();
  for (const p of properties) {
    const why = skipReason(p, textProperty);
    if (why) skipped.push(why);
    // Placeholders are no values: a name's coverage and a body's repeats are counted without them.
    else texty.set(p.key, { ...p, strings: p.strings.filter((v) => !isPlaceholder(v)) });
  }
  const fits = (keys: string[]) => {
    const ps = keys.map((k) => texty.get(k)!);
    const values = ps[0]!.strings.map((_, i) => ps.map((p) => p.strings[i] ?? '').join(' '));
    const coverage = Math.min(...ps.map((p) => p.strings.length)) / Math.max(1, sampled);
    const distinct = values.length < MIN_FOR_RATIOS || distinctRatio(values) >= NAME_DISTINCT;
    return coverage >= NAME_COVERAGE && distinct && mean(values.map((v) => v.length)) <= NAME_MAX_CHARS;
  };
  const name = nameCandidates([label], [...texty.keys()]).find(fits) ?? [];
  // A name key that some nodes hold as a list (or a number): those nodes are named by the next rule.
  for (const key of name) {
    const type = texty.get(key)!.otherType;
    if (type) {
      skipped.push({
        property: key,
        reason: 'not a string',
        detail: `names the nodes where it is a string; where it holds ${typeName(type)} values, the next rule names the node`,
      });
    }
  }
  const rest = [...texty.values()].filter((p) => !name.includes(p.key));
  const body: PropertySample[] = [];
  for (const p of rest) {
    const ratio = distinctRatio(p.strings);
    if (p.strings.length >= MIN_FOR_RATIOS && ratio < BODY_DISTINCT) {
      const distinct = Math.round(ratio * p.strings.length);
      skipped.push({ property: p.key, reason: 'repeats', detail: `a category: ${distinct} distinct values in ${p.strings.length} nodes` });
    } else body.push(p);
  }
  // Most descriptive first, so a node's first chunk carries its best text; ties by name.
  const meanLength = (p: PropertySample) => mean(p.strings.map((s) => s.length));
  body.sort((a, b) => meanLength(b) - meanLength(a) || a.key.localeCompare(b.key));
  for (const p of body.splice(MAX_BODY_PROPERTIES)) skipped.push({ property: p.key, reason: 'too many', detail: DETAILS['too many'] });
  skipped.sort((a, b) => a.property.localeCompare(b.property));
  return { name, body: body.map((p) => p.key), skipped };
}

/**
 * For an explicit choice: the leading properties that name the node, by the same rule (a name-like
 * key or a first and last name pair, listed first), and the rest as the body in the order given.
 */
export function splitExplicit(label: string, properties: readonly string[]): { name: string[]; body: string[] } {
  const [first, second] = properties;
  if (first === undefined) return { name: [], body: [] };
  const candidates = nameCandidates([label], properties);
  const pair = second !== undefined ? candidates.find((c) => c.length === 2 && c[0] === first && c[1] === second) : undefined;
  if (pair) return { name: pair, body: properties.slice(2) };
  if (candidates.some((c) => c.length === 1 && c[0] === first)) return { name: [first], body: properties.slice(1) };
  return { name: [], body: [...properties] };
}
