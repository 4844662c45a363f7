/**
 * Notices about values: when a read came back empty (no rows, or only zeros and nulls from an
 * aggregate) and it compares a property with a literal or a parameter, say what the graph holds
 * instead: an empty answer reads as "there is none" when the query only missed the graph's
 * spelling or type (bounds of the check: docs/cypher-feedback.md, "Value notices"). Two kinds:
 * - `value-type-mismatch`: the value has another type than the property holds. Graphs loaded
 *   from CSV hold numbers, dates and flags as strings (`Order.freight` "32.38"), so
 *   `o.freight > 100` is null for every order and the count a confident 0; the notice gives the
 *   conversion (`toFloat(o.freight) > 100`). `{released: '1999'}` against an INTEGER likewise.
 * - `value-not-found`: no item holds the string compared with `=`, `IN`, `STARTS WITH`, … ; the
 *   notice gives the closest values by case and spelling (`Keanu Reeves` for 'keanu reeves',
 *   `UK` for 'United Kingdom' by initials), else the most common ones.
 * Rows are never changed and a comparison the graph matches gets no notice: a string counts as
 * missing only when the sample lacks it and an exact lookup finds none.
 */
import type { QueryNotice } from '../../contract/graph.js';
import { nameDistance } from '../../lib/close-names.js';
import { TimeoutError, withTimeout } from '../../lib/timeout.js';
import { type Comparison, type ComparedValue, formatValue, readComparisons } from './cypher-comparisons.js';
import type { SampledValue, ValueSample, ValueSampler } from './value-samples.js';

/** Values suggested at most per notice. */
export const VALUE_SUGGESTIONS = 5;

const NUMERIC = /^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/;
const INTEGRAL = /^\s*[-+]?\d+\s*$/;
const DATE_LIKE = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?/;
const BOOLEAN_LIKE = /^(true|false|yes|no|0|1|t|f|y|n)$/i;
/** Placeholders loaders leave for a missing value. */
const PLACEHOLDERS = new Set(['', 'NULL', 'null', 'N/A', 'NA', 'None', '\\N']);

/** The property's name for messages: `Order.freight`, `ORDERS.discount`. */
export const ownerName = (c: Pick<Comparison, 'owner' | 'property'>) =>
  `${'type' in c.owner ? c.owner.type : c.owner.labels.join(':')}.${c.property}`;

/** What the sampled strings of a property look like, when they all look alike (placeholders aside). */
export function stringKind(values: readonly SampledValue[]): 'integer' | 'number' | 'date' | 'boolean' | undefined {
  const strings = values.filter((v) => v.type === 'STRING' && !PLACEHOLDERS.has(String(v.value)));
  if (!strings.length) return undefined;
  const all = (re: RegExp) => strings.every((v) => re.test(String(v.value)));
  if (all(INTEGRAL) && !all(BOOLEAN_LIKE)) return 'integer';
  if (all(NUMERIC) && !all(BOOLEAN_LIKE)) return 'number';
  if (all(DATE_LIKE)) return 'date';
  if (all(BOOLEAN_LIKE)) return 'boolean';
  return undefined;
}

const typesOf = (s: ValueSample) => [...new Set(s.values.map((v) => v.type))];
const example = (s: ValueSample, type?: string) => {
  const x = s.values.find((x) => (!type || x.type === type) && !PLACEHOLDERS.has(String(x.value)));
  return typeof x?.value === 'string' ? `${JSON.stringify(x.value)}${x.cut ? '…' : ''}` : String(x?.value);
};
const isNumberType = (t: string) => t === 'INTEGER' || t === 'FLOAT';
const isTemporalType = (t: string) => /^(DATE|LOCAL DATETIME|ZONED DATETIME|LOCAL TIME|ZONED TIME|DURATION)/.test(t);
/** What the wrapper turns the property into, if it changes its type. */
const wrapped = (w: string | undefined): 'string' | 'number' | 'temporal' | 'boolean' | undefined =>
  !w
    ? undefined
    : /^(tolower|toupper|lower|upper|trim|ltrim|rtrim|tostring)$/.test(w)
      ? 'string'
      : /^(tointeger|tofloat)$/.test(w)
        ? 'number'
        : /^(date|datetime|localdatetime)$/.test(w)
          ? 'temporal'
          : 'boolean';

/** The string operators, each with how it matches a held value and how a message says it. */
const STRING_OPERATORS = {
  '=': { matches: (held: string, wanted: string) => held === wanted, phrase: '' },
  'STARTS WITH': { matches: (held: string, wanted: string) => held.startsWith(wanted), phrase: ' starting with' },
  'ENDS WITH': { matches: (held: string, wanted: string) => held.endsWith(wanted), phrase: ' ending with' },
  CONTAINS: { matches: (held: string, wanted: string) => held.includes(wanted), phrase: ' containing' },
} as const;
type StringOperator = keyof typeof STRING_OPERATORS;

/** `c`'s operator as a string operator (`IN` tests each item with `=`), or undefined when it is none. */
const stringOperator = (c: Comparison): StringOperator | undefined => {
  const op = c.operator === 'IN' ? '=' : c.operator;
  return Object.hasOwn(STRING_OPERATORS, op) ? (op as StringOperator) : undefined;
};

/** The value as written with the property side replaced: `toFloat(o.freight) > 100`. */
const rewrite = (c: Comparison, subject: string, value = formatValue(c.value)) => `${subject} ${c.operator} ${value}`;

/** A type mismatch between `c`'s value and what `sample` holds, or null. */
export function typeMismatch(c: Comparison, sample: ValueSample): QueryNotice | null {
  const v = c.value.kind === 'list' && c.operator === 'IN' ? c.value.items[0] : c.value;
  if (!v || v.kind === 'unknown' || v.kind === 'null' || !sample.values.length) return null;
  const types = typesOf(sample);
  const name = ownerName(c);
  const held = types.join('|');
  const base = `${c.variable ?? c.subject.split('.')[0]}.${c.property}`;
  const notice = (message: string, suggestions: string[]): QueryNotice => ({
    kind: 'value-type-mismatch',
    name: c.subject,
    suggestions,
    message,
    explainsEmpty: true,
  });
  const into = wrapped(c.wrapper);
  if (into === 'string' || into === 'number' || into === 'boolean') return null; // converted already
  if (into === 'temporal') return null; // a string the function cannot parse is the database's error
  const strings = types.includes('STRING');
  if (v.kind === 'number' && !types.some(isNumberType) && strings) {
    const kind = stringKind(sample.values);
    if (kind === 'integer' || kind === 'number') {
      const fn = kind === 'integer' && Number.isInteger(v.value) ? 'toInteger' : 'toFloat';
      const fix = rewrite(c, `${fn}(${base})`);
      return notice(`${name} holds numbers as STRING (e.g. ${example(sample)}): compare ${fix}`, [fix]);
    }
    const fix = rewrite(c, base, JSON.stringify(String(v.value)));
    return notice(`${name} holds STRING (e.g. ${example(sample)}), never a number: compare with a string, e.g. ${fix}`, [fix]);
  }
  if (v.kind === 'string' && !strings && types.some(isNumberType)) {
    const n = Number(v.value);
    const fix = Number.isFinite(n) && v.value.trim() ? rewrite(c, base, String(n)) : `${base} ${c.operator} <a number>`;
    return notice(`${name} holds ${held} (e.g. ${example(sample)}), not strings: compare ${fix}`, [fix]);
  }
  if (v.kind === 'string' && types.some((t) => t.startsWith('LIST')) && !strings) {
    const fix = `${formatValue(v)} IN ${base}`;
    return notice(`${name} holds ${held} (e.g. ${example(sample)}): test membership with ${fix}`, [fix]);
  }
  if (v.kind === 'boolean' && !types.includes('BOOLEAN') && strings) {
    const fix = rewrite(c, base, JSON.stringify(String(v.value)));
    return notice(`${name} holds STRING (e.g. ${example(sample)}), not BOOLEAN: compare with its string, e.g. ${fix}`, [fix]);
  }
  if (v.kind === 'temporal' && !types.some(isTemporalType) && strings) {
    if (stringKind(sample.values) !== 'date') return notice(`${name} holds STRING (e.g. ${example(sample)}), not a ${v.fn}`, []);
    const sampleText = String(sample.values.find((x) => x.type === 'STRING' && DATE_LIKE.test(String(x.value)))?.value ?? '');
    const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(sampleText);
    const subject = dateOnly ? `date(${base})` : `date(left(${base}, 10))`;
    const fix = rewrite(c, subject);
    const asText = v.text !== undefined ? ` or compare the strings: ${rewrite(c, base, JSON.stringify(v.text))}` : '';
    return notice(`${name} holds dates as STRING (e.g. ${example(sample)}): compare ${fix}${asText}`, [fix]);
  }
  if (v.kind === 'string' && types.some(isTemporalType) && !strings) {
    const fn = types.includes('DATE') ? 'date' : 'datetime';
    const fix = rewrite(c, base, `${fn}(${formatValue(v)})`);
    return notice(`${name} holds ${held} (e.g. ${example(sample)}), not strings: compare ${fix}`, [fix]);
  }
  return null;
}

/** Initials of a multi-word string: "United Kingdom" → "uk". */
const initials = (s: string) => {
  const words = s.split(/[\s\-_.]+/).filter(Boolean);
  return words.length > 1 ? words.map((w) => w[0]!.toLowerCase()).join('') : '';
};

/** How far a held value is from the wanted one (lower is closer), or undefined when not close. */
export function valueDistance(wanted: string, held: string): number | undefined {
  const a = wanted.toLowerCase().trim();
  const b = held.toLowerCase().trim();
  if (!a || !b) return undefined;
  if (a === b) return 0.1;
  const ia = initials(wanted);
  const ib = initials(held);
  if ((ia && ia === b.replace(/[^a-z0-9]/g, '')) || (ib && ib === a.replace(/[^a-z0-9]/g, ''))) return 0.5;
  // An acronym a little longer than the initials: "United States" → "USA" (not "Côte de Blaye" for "Chai Tea").
  const hb = b.replace(/[^a-z0-9]/g, '');
  if (ia.length >= 2 && !/\s/.test(b) && hb.length <= ia.length + 2 && hb.startsWith(ia)) return 1.5;
  const d = nameDistance(wanted, held);
  const allowed = Math.max(2, Math.floor(Math.min(a.length, b.length) / 4));
  if (d <= allowed) return d;
  // A value that holds the wanted words whole ("Matrix" → "The Matrix"), or the other way round.
  const words = (s: string) => new Set(s.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 2));
  const wa = words(a);
  const wb = words(b);
  if (wa.size && [...wa].every((w) => wb.has(w))) return 1 + wb.size - wa.size;
  if (wb.size && [...wb].every((w) => wa.has(w))) return 1.5 + wa.size - wb.size;
  return undefined;
}

/** The wrapper applied to a sampled string, as the database would (`toLower`, `trim`, …). */
function apply(wrapper: string | undefined, s: string): string {
  if (wrapper === 'tolower' || wrapper === 'lower') return s.toLowerCase();
  if (wrapper === 'toupper' || wrapper === 'upper') return s.toUpperCase();
  if (wrapper === 'trim') return s.trim();
  if (wrapper === 'ltrim') return s.trimStart();
  if (wrapper === 'rtrim') return s.trimEnd();
  return s;
}

/** The strings `c` looks for that `sample` does not hold (all of them, or null when one is held or it cannot tell). */
export function missingStrings(c: Comparison, sample: ValueSample): string[] | null {
  if (c.wrapper && wrapped(c.wrapper) !== 'string') return null;
  const wanted: ComparedValue[] = c.operator === 'IN' && c.value.kind === 'list' ? c.value.items : [c.value];
  if (!wanted.length || wanted.some((w) => w.kind !== 'string')) return null;
  const op = stringOperator(c);
  if (!op) return null;
  const held = sample.values.filter((v) => v.type === 'STRING').map((v) => apply(c.wrapper, String(v.value)));
  if (!held.length) return null;
  const hit = (w: string) => held.some((h) => STRING_OPERATORS[op].matches(h, w));
  const strings = wanted.map((w) => (w as { value: string }).value);
  return strings.some(hit) ? null : strings;
}

/** A value as JSON, cut to {@link QUOTED_CHARS} with a marker: a notice never repeats a long literal whole. */
const quote = (x: string) =>
  x.length > QUOTED_CHARS ? `${JSON.stringify(x.slice(0, QUOTED_CHARS))}… [${x.length} characters]` : JSON.stringify(x);

/** The `value-not-found` notice of `c` for `missing`, with the closest held values. */
export function notFound(c: Comparison, sample: ValueSample, missing: string[]): QueryNotice {
  // A cut value is the start of one, not a value the graph holds: it is never offered.
  const held = sample.values.filter((v) => v.type === 'STRING' && !v.cut && !PLACEHOLDERS.has(String(v.value)));
  const op = stringOperator(c) ?? 'CONTAINS';
  const { matches, phrase } = STRING_OPERATORS[op];
  /** True when `text` matches `w` once case is ignored. */
  const slip = (w: string, text: string) => matches(text.toLowerCase(), w.toLowerCase());
  const scored = new Map<string, number>();
  for (const w of missing) {
    for (const [i, v] of held.entries()) {
      const text = String(v.value);
      // Edit distances compare whole values; a prefix, suffix or part is only matched again ignoring case.
      const d = op === '=' ? valueDistance(w, text) : slip(w, text) ? 0.2 : undefined;
      if (d !== undefined) scored.set(text, Math.min(scored.get(text) ?? Number.POSITIVE_INFINITY, d + i / 1e6));
    }
  }
  const close = [...scored.entries()]
    .sort((a, b) => a[1] - b[1])
    .map(([t]) => t)
    .slice(0, VALUE_SUGGESTIONS);
  const caseOnly = missing.some((w) => close.some((t) => slip(w, t)));
  const quoted = (xs: string[]) => xs.map(quote).join(', ');
  const shown =
    missing.length > VALUE_SUGGESTIONS ? `${quoted(missing.slice(0, VALUE_SUGGESTIONS))}, … (${missing.length} in all)` : quoted(missing);
  const what = missing.length > 1 ? `any of ${shown}` : quote(missing[0]!);
  const who = 'type' in c.owner ? `no :${c.owner.type} relationship` : `no ${c.owner.labels.join(':')}`;
  const subject = c.wrapper ? ` (as ${c.subject})` : '';
  // Absence was checked on the whole graph (an exact lookup); only the values offered come from a sample.
  const scope = sample.complete ? '' : `; of ${sample.items.toLocaleString('en-US')} values read`;
  let hint: string;
  if (close.length) {
    const tail =
      caseOnly && !c.wrapper
        ? `; values are case-sensitive: use the exact value or compare toLower(${c.subject}) ${c.operator} ${formatValue({ kind: 'string', value: missing[0]!.toLowerCase() })}`
        : '';
    hint = `; closest: ${quoted(close)}${tail}`;
  } else {
    const common = held.slice(0, VALUE_SUGGESTIONS).map((v) => String(v.value));
    const more = sample.distinct > common.length ? ', …' : '';
    hint = common.length ? `; it holds ${quoted(common)}${more}` : '';
  }
  return {
    kind: 'value-not-found',
    name: c.subject,
    suggestions: close.length ? close : held.slice(0, VALUE_SUGGESTIONS).map((v) => String(v.value)),
    message: `${who} has ${c.property}${subject}${phrase} ${what}${hint}${close.length ? '' : scope}`,
    explainsEmpty: true,
  };
}

/** True when a result reads as empty: no rows, or only zeros, nulls and empty lists (an aggregate over nothing). */
export function looksEmpty(rows: readonly Record<string, unknown>[]): boolean {
  return rows.every((r) => Object.values(r).every((v) => v === 0 || v === null || (Array.isArray(v) && v.length === 0)));
}

/** True when the comparison's labels (or type) and key are all names the graph has. */
function knownNames(c: Comparison, known: NonNullable<ValueNoticeOptions['known']>): boolean {
  const owner = 'type' in c.owner ? known.types.includes(c.owner.type) : c.owner.labels.every((l) => known.labels.includes(l));
  return owner && known.keys.includes(c.property);
}

/** What {@link valueNotices} reads the graph with. */
export interface ValueNoticeOptions {
  sampler: ValueSampler;
  database: string;
  /** Bound of the whole check, and of each read in it. */
  timeoutMs: number;
  /** The graph's names (the cached schema): a comparison on a label, type or key it lacks is the name notices' and is not read. */
  known?: { labels: readonly string[]; types: readonly string[]; keys: readonly string[] };
  /** Comparisons checked at most (default {@link VALUE_CHECKS}). */
  maxComparisons?: number;
}

/** Comparisons checked per query at most: each may cost a label scan (its exact lookup). */
export const VALUE_CHECKS = 4;
/** Values one exact lookup takes at most; a longer `IN` list is not called missing. */
export const VALUE_LOOKUP_VALUES = 64;
/** Characters of a compared value repeated in a notice. */
const QUOTED_CHARS = 80;

/** What {@link valueNotices} found, and how many comparisons it had no time to check. */
export interface ValueNoticeResult {
  notices: QueryNotice[];
  unchecked: number;
}

/**
 * The value notices of a query whose result `looksEmpty`: each comparison of `cypher` checked
 * against the sampled values of its property, one notice per property side at most. The checks
 * run one after the other (one read open at a time, each bounded by what is left of
 * `timeoutMs`), and each costs at most a sample (cached) and one exact lookup. A read that fails
 * leaves its comparison unchecked (no notice rather than a wrong one); those the time did not
 * reach are counted in `unchecked`.
 */
export async function valueNotices(cypher: string, params: Record<string, unknown>, opts: ValueNoticeOptions): Promise<ValueNoticeResult> {
  const comparisons = readComparisons(cypher, params)
    .filter((c) => !opts.known || knownNames(c, opts.known))
    .slice(0, opts.maxComparisons ?? VALUE_CHECKS);
  const deadline = Date.now() + opts.timeoutMs;
  const left = () => deadline - Date.now();
  const check = async (c: Comparison): Promise<QueryNotice | null> => {
    const sample = await opts.sampler.sample(opts.database, c.owner, c.property, left());
    if (!sample.items) return null;
    const mismatch = typeMismatch(c, sample);
    if (mismatch) return mismatch;
    const missing = missingStrings(c, sample);
    const op = stringOperator(c);
    if (!missing || !op || missing.length > VALUE_LOOKUP_VALUES) return null;
    // The sample may be incomplete or up to 10 minutes old: the graph itself has the last word, in one read.
    if (await opts.sampler.exists(opts.database, c.owner, c.property, c.wrapper, op, missing, left())) return null;
    return notFound(c, sample, missing);
  };
  const notices: QueryNotice[] = [];
  const seen = new Set<string>();
  let done = 0;
  for (const c of comparisons) {
    if (left() <= 0) break;
    let cut = false;
    const notice = await withTimeout(check(c), left(), 'value notices').catch((err: unknown) => {
      cut = err instanceof TimeoutError;
      return null;
    });
    // Cut off by the deadline: unchecked, not checked. The timer can fire a millisecond before
    // `left()` reaches 0 by the clock, so the time-out itself says so too.
    if (cut || (left() <= 0 && !notice)) break;
    done++;
    if (notice && !seen.has(`${notice.kind}:${notice.name}`)) {
      seen.add(`${notice.kind}:${notice.name}`);
      notices.push(notice);
    }
  }
  return { notices, unchecked: comparisons.length - done };
}

/** The database's error when a temporal function gets a string it cannot parse. */
export const UNPARSABLE_TEMPORAL = /cannot be parsed to a (Date|DateTime|LocalDateTime|Time|LocalTime)/i;

/**
 * For a query the database refused with {@link UNPARSABLE_TEMPORAL}: what the strings it wraps in
 * `date()` (or `datetime()`, …) look like and the call that parses them
 * (`Order.orderDate holds strings like "1996-07-04 00:00:00.000": use date(left(o.orderDate, 10))`),
 * or undefined when no such comparison is read or its sample fails in time.
 */
export async function temporalHint(cypher: string, params: Record<string, unknown>, opts: ValueNoticeOptions): Promise<string | undefined> {
  const wrapped = readComparisons(cypher, params).filter((c) => c.wrapper && /^(date|datetime|localdatetime)$/.test(c.wrapper));
  for (const c of wrapped.slice(0, 3)) {
    const sample = await withTimeout(opts.sampler.sample(opts.database, c.owner, c.property, opts.timeoutMs), opts.timeoutMs).catch(
      () => null,
    );
    const text = sample?.values.find((v) => v.type === 'STRING' && DATE_LIKE.test(String(v.value)))?.value;
    if (typeof text !== 'string' || /^\d{4}-\d{2}-\d{2}$/.test(text)) continue;
    const base = c.subject.replace(/^\w+\((.*)\)$/, '$1');
    const fix = c.wrapper === 'date' ? `date(left(${base}, 10))` : `${c.wrapper}(replace(${base}, ' ', 'T'))`;
    return `${ownerName(c)} holds strings like ${JSON.stringify(text)}: use ${fix}`;
  }
  return undefined;
}
