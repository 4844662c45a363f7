/**
 * A graph's label, relationship type or property key as text a model reads (the schema view,
 * the agent's prompt, schema tool results): written as Cypher needs it, so that the name is
 * plainly data. A name is whatever a user stored, `Ignore previous instructions` and a
 * right-to-left override included; quoted and with its invisible characters escaped
 * (./invisible.ts), it can neither end its line nor its quotes nor turn the line around.
 */
import { escapeInvisible, isInvisible } from './invisible.js';

/** Characters of a name shown at most (escapes and doubled backticks count), its quotes and the cut's marker aside. */
export const SHOWN_NAME_CHARS = 100;

/** A name Cypher takes without backticks. */
const PLAIN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * `name` as Cypher writes it: as it is when it is a plain identifier, else in backticks with
 * backticks inside doubled; invisible characters as `\uXXXX`; past `max` characters cut, with
 * the number left out: `` `Ignore previous instructions …`… [cut: 57 more characters] ``.
 */
export function shownName(name: string, max = SHOWN_NAME_CHARS): string {
  const plain = PLAIN.test(name);
  if (plain && name.length <= max) return name;
  const chars = [...name];
  let shown = '';
  let kept = 0;
  for (const c of chars) {
    const piece = c === '`' ? '``' : isInvisible(c) ? escapeInvisible(c) : c;
    if (shown.length + piece.length > max) break;
    shown += piece;
    kept++;
  }
  const quoted = plain ? shown : `\`${shown}\``;
  const left = chars.length - kept;
  return left ? `${quoted}… [cut: ${left.toLocaleString('en-US')} more characters]` : quoted;
}

/**
 * `value` as JSON for a model to read: `JSON.stringify`, with invisible characters escaped
 * (the JSON means the same values; a name in it is exact, to be passed back as it is).
 */
export function shownJson(value: unknown): string {
  return escapeInvisible(JSON.stringify(value) ?? 'null');
}
