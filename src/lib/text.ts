/** Small text helpers shared by the index build, the chat and the web page. */

/** Collapses white space and cuts to `max` characters, the last one an ellipsis when cut. */
export function cutText(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/**
 * `text` without the run of `ch` at its end (and at its start too with `both`). A loop: `/\/+$/`
 * tries the run again from each of its characters when something follows it, which takes
 * quadratic time on a long run (`npm run lint:regexp`).
 */
export function trimChar(text: string, ch: string, ends: 'end' | 'both' = 'end'): string {
  let start = 0;
  let end = text.length;
  if (ends === 'both') while (start < end && text[start] === ch) start++;
  while (end > start && text[end - 1] === ch) end--;
  return text.slice(start, end);
}

/** Plain text as Markdown that shows it as it is: the characters of links, emphasis, code, headings, tables and HTML escaped. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>#|~!]/g, '\\$&');
}

const HIGH_SURROGATE = /[\uD800-\uDBFF]/;
const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/** Characters of `text` as Unicode code points (a surrogate pair is one), as Cypher's `size()` counts them. */
export function codePointLength(text: string): number {
  // A native regular-expression scan, not a charCodeAt loop: this runs on every text a search returns.
  if (!HIGH_SURROGATE.test(text)) return text.length;
  return text.length - (text.match(SURROGATE_PAIR)?.length ?? 0);
}

/** The first `max` code points of `text`: a surrogate pair is never split. */
export function codePointPrefix(text: string, max: number): string {
  if (text.length <= max) return text;
  if (!HIGH_SURROGATE.test(text)) return text.slice(0, max);
  let end = 0;
  for (let kept = 0; kept < max && end < text.length; kept++) {
    const c = text.charCodeAt(end);
    const d = text.charCodeAt(end + 1);
    end += c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
  }
  return text.slice(0, end);
}

/**
 * A whole number with commas between thousands (`12,345`), as `toLocaleString('en-US')` writes
 * it, without the locale lookup that makes that call cost microseconds on every cut search hit.
 */
export function thousands(n: number): string {
  const digits = String(Math.abs(Math.round(n)));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
}

/** Options of {@link boundText}. */
export interface BoundTextOptions {
  /** Characters already left out of `text` before it got here (values cut by the database); default 0. */
  omitted?: number;
  /** Where the rest can be read, e.g. `/graph/node?id=42`; named in the marker when given. */
  rest?: string;
}

/**
 * `text` in at most `max` characters (code points), marker included: a longer text (or one with
 * `omitted` characters) keeps its start, cut at a code point boundary, and ends with a marker
 * saying how much was left out: `… [cut: 5,238,880 more characters; the node: /graph/node?id=42]`.
 * A bounded text is returned as it is, so bounding twice changes nothing.
 */
export function boundText(text: string, max: number, { omitted = 0, rest }: BoundTextOptions = {}): string {
  const length = codePointLength(text);
  if (length <= max && omitted <= 0) return text;
  const marker = (more: number) => `… [cut: ${thousands(more)} more characters${rest ? `; the node: ${rest}` : ''}]`;
  // The marker with the most characters left out is at least as long as the final one: the text and marker fit in `max`.
  const keep = Math.max(0, max - codePointLength(marker(length + omitted)));
  const kept = codePointPrefix(text, keep);
  return kept + marker(length - codePointLength(kept) + omitted);
}
