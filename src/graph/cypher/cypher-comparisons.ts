/**
 * The comparisons of a property with a value that a Cypher query makes, for checking the values
 * against what the graph holds (src/graph/cypher/value-notices.ts): map patterns
 * `(c:Customer {country: 'UK'})`, `[r:ORDERS {discount: $d}]` and WHERE-style comparisons
 * `o.freight > 100`, `'UK' = c.country`, `toLower(p.name) = 'keanu reeves'`,
 * `date(o.orderDate) > date('1997-01-01')`, `m.title IN ['A', $b]`, `p.name STARTS WITH 'Tom'`.
 *
 * Like cypher-patterns.ts it is a pattern-level reading, not a parser. Known limits: only one
 * wrapping function around the property (`toLower(trim(p.name))` is not read), only a plain value
 * on the other side (`o.freight > 10 * 10`, `n.x = m.y` and `n.x = $map.key` are left out), the
 * owner's labels are those the pattern or `readPatterns` give (an unlabelled `(n)` is left out),
 * and a variable rebound by WITH under another name is not followed. What it cannot read it
 * leaves out, so a check built on it can miss a wrong value but not invent one.
 */
import { LABELS, readPatterns } from './cypher-patterns.js';
import { maskLiterals } from './read-guard.js';

/** A value as written in the query, or a parameter. */
export type ComparedValue =
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'boolean'; value: boolean }
  /** `date('1997-01-01')`, `datetime($d)`: a temporal value built by `fn`. */
  | { kind: 'temporal'; fn: string; text?: string }
  | { kind: 'null' }
  | { kind: 'list'; items: ComparedValue[] }
  /** A parameter whose value was not passed (or has a shape not read here). */
  | { kind: 'unknown' };

/** Operators read; `>` and friends are written as if the property were on the left. */
export type ComparisonOperator = '=' | '<>' | '<' | '>' | '<=' | '>=' | 'IN' | 'STARTS WITH' | 'ENDS WITH' | 'CONTAINS';

/** One property compared with one value. */
export interface Comparison {
  /** The node's labels (all of them) or the relationship's type. */
  owner: { labels: string[] } | { type: string };
  /** The variable, when the query names one (`o` in `o.freight`). */
  variable?: string;
  property: string;
  /** A function the property is wrapped in, lower case: `tolower`, `date`, `tofloat`, … */
  wrapper?: string;
  operator: ComparisonOperator;
  value: ComparedValue;
  /** How the property side is written, for messages: `o.freight`, `toLower(p.name)`. */
  subject: string;
}

const NAME = '[A-Za-z_]\\w*';
// A number starts where no word or number goes on to the left: a long run of digits is read once, not from each digit.
const LITERAL = `'#\\d+'|(?<![\\w.])-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?(?![\\w.])|\\btrue\\b|\\bfalse\\b|\\bnull\\b|\\$${NAME}`;
const TEMPORAL = `\\b(?:date|datetime|localdatetime|localtime|time|duration)\\s*\\(\\s*(?:(?:'#\\d+'|\\$${NAME})\\s*)?\\)`;
const LIST = `\\[\\s*(?:(?:${LITERAL})\\s*(?:,\\s*(?:${LITERAL})\\s*)*)?\\]`;
const VALUE = `(?:${TEMPORAL}|${LIST}|${LITERAL})`;
const WRAPPERS = 'toLower|toUpper|lower|upper|trim|ltrim|rtrim|toString|toInteger|toFloat|toBoolean|date|datetime|localdatetime';
const SUBJECT = `(?:\\b(${WRAPPERS})\\s*\\(\\s*(${NAME})\\.(${NAME})\\s*\\)|\\b(${NAME})\\.(${NAME})(?!\\s*\\())`;
const OPERATOR = '<>|<=|>=|=~|=|<|>|\\bIN\\b|\\bSTARTS\\s+WITH\\b|\\bENDS\\s+WITH\\b|\\bCONTAINS\\b';
const FLIP: Record<string, ComparisonOperator> = { '<': '>', '>': '<', '<=': '>=', '>=': '<=' };

function parseValue(text: string, strings: string[], params: Record<string, unknown>): ComparedValue {
  const t = text.trim();
  const str = /^'#(\d+)'$/.exec(t);
  if (str) return { kind: 'string', value: strings[Number(str[1])] ?? '' };
  if (/^\$/.test(t)) return fromParam(params[t.slice(1)]);
  if (/^(true|false)$/i.test(t)) return { kind: 'boolean', value: t.toLowerCase() === 'true' };
  if (/^null$/i.test(t)) return { kind: 'null' };
  if (t.startsWith('[')) {
    const items = t.slice(1, -1).trim();
    return { kind: 'list', items: items ? items.split(',').map((x) => parseValue(x, strings, params)) : [] };
  }
  const temporal = /^(\w+)\s*\((.*)\)$/.exec(t);
  if (temporal) {
    const arg = temporal[2]?.trim() ? parseValue(temporal[2], strings, params) : undefined;
    return { kind: 'temporal', fn: temporal[1]!.toLowerCase(), ...(arg?.kind === 'string' ? { text: arg.value } : {}) };
  }
  const n = Number(t);
  return Number.isFinite(n) ? { kind: 'number', value: n } : { kind: 'unknown' };
}

/** A parameter's value as the driver sends it (JS numbers and bigints are numbers). */
function fromParam(v: unknown): ComparedValue {
  if (typeof v === 'string') return { kind: 'string', value: v };
  if (typeof v === 'number' || typeof v === 'bigint') return { kind: 'number', value: Number(v) };
  if (typeof v === 'boolean') return { kind: 'boolean', value: v };
  if (v === null) return { kind: 'null' };
  if (Array.isArray(v)) return { kind: 'list', items: v.map(fromParam) };
  return { kind: 'unknown' };
}

/** Labels of `(var:A:B {…})` written in the pattern: `:A:B` or `:A&B`; undefined for `|`, `!`, `%`. */
function patternLabels(expr: string | undefined): string[] | undefined {
  const text = (expr ?? '').replace(/\s+/g, '');
  if (/[|!%()]/.test(text)) return undefined;
  return text.split(/[:&]/).filter(Boolean);
}

/**
 * The comparisons of `cypher` whose owner's labels or type are known; `params` resolves `$x`
 * (a missing parameter gives an `unknown` value).
 */
export function readComparisons(cypher: string, params: Record<string, unknown> = {}): Comparison[] {
  const { code, strings } = maskLiterals(cypher);
  const { labelsOf } = readPatterns(cypher);
  const typeOf = new Map<string, string>();
  for (const m of code.matchAll(new RegExp(`\\[\\s*(${NAME})\\s*:\\s*(${NAME})\\s*[\\]{*]`, 'g'))) typeOf.set(m[1]!, m[2]!);
  const ownerOf = (variable: string): Comparison['owner'] | undefined => {
    const labels = labelsOf.get(variable);
    if (labels?.length) return { labels };
    const type = typeOf.get(variable);
    return type ? { type } : undefined;
  };
  const out: Comparison[] = [];

  // Map patterns: (v:Label {k: value, …}) and [r:TYPE {k: value, …}].
  const nodeMap = new RegExp(`\\(\\s*(?:(${NAME})\\s*)?(${LABELS})\\{([^{}]*)\\}\\s*\\)`, 'g');
  const relMap = new RegExp(`\\[\\s*(?:(${NAME})\\s*)?:\\s*(${NAME})\\s*\\{([^{}]*)\\}\\s*\\]`, 'g');
  const entries = (body: string, owner: Comparison['owner'], variable: string | undefined) => {
    for (const m of body.matchAll(new RegExp(`\\b(${NAME})\\s*:\\s*(${VALUE})\\s*(?=,|$)`, 'g'))) {
      const subject = `${variable ?? (('type' in owner ? owner.type : owner.labels[0]) as string).toLowerCase()}.${m[1]}`;
      out.push({
        owner,
        ...(variable ? { variable } : {}),
        property: m[1]!,
        operator: '=',
        value: parseValue(m[2]!, strings, params),
        subject,
      });
    }
  };
  for (const m of code.matchAll(nodeMap)) {
    const written = patternLabels(m[2]);
    if (!written) continue;
    const labels = [...new Set([...written, ...(m[1] ? (labelsOf.get(m[1]) ?? []) : [])])];
    if (labels.length) entries(m[3]!, { labels }, m[1]);
  }
  for (const m of code.matchAll(relMap)) entries(m[3]!, { type: m[2]! }, m[1]);

  // WHERE-style: subject op value, and value op subject.
  const forward = new RegExp(`${SUBJECT}\\s*(${OPERATOR})\\s*(${VALUE})`, 'gi');
  const backward = new RegExp(`(${VALUE})\\s*(<>|<=|>=|=|<|>)\\s*${SUBJECT}`, 'gi');
  const push = (g: string[], op: string, value: string, flip: boolean) => {
    const [wrapper, wv, wp, pv, pp] = g;
    const variable = (wv ?? pv)!;
    const property = (wp ?? pp)!;
    const owner = ownerOf(variable);
    const operator = op.toUpperCase().replace(/\s+/g, ' ') as ComparisonOperator | '=~';
    if (!owner || operator === '=~') return;
    out.push({
      owner,
      variable,
      property,
      ...(wrapper ? { wrapper: wrapper.toLowerCase() } : {}),
      operator: flip ? (FLIP[operator] ?? operator) : operator,
      value: parseValue(value, strings, params),
      subject: wrapper ? `${wrapper}(${variable}.${property})` : `${variable}.${property}`,
    });
  };
  for (const m of code.matchAll(forward)) push(m.slice(1, 6), m[6]!, m[7]!, false);
  for (const m of code.matchAll(backward)) push(m.slice(3, 8), m[2]!, m[1]!, true);
  return out;
}

/** How the value is written back into a message: `'UK'`, `100`, `date('1997-01-01')`. */
export function formatValue(v: ComparedValue): string {
  switch (v.kind) {
    case 'string':
      return `'${v.value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
    case 'number':
    case 'boolean':
      return String(v.value);
    case 'temporal':
      return `${v.fn}(${v.text === undefined ? '' : `'${v.text}'`})`;
    case 'null':
      return 'null';
    case 'list':
      return `[${v.items.map(formatValue).join(', ')}]`;
    default:
      return '…';
  }
}
