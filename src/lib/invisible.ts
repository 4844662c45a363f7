/**
 * Characters a reader cannot see but that change what the text around them says: controls
 * (NUL, newlines, C1), format characters (right-to-left overrides and isolates, direction
 * marks, zero-width characters, tag characters), line and paragraph separators, and lone
 * surrogates. A graph's names and values are data: written into text a model or a person
 * reads, one of these can end a line early or turn the rest of a line around.
 */

/** One invisible character: a control, a format character, a line or paragraph separator, a lone surrogate. */
const INVISIBLE_CHAR = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;
const INVISIBLE = new RegExp(INVISIBLE_CHAR.source, 'gu');

/**
 * The characters that set a text's direction without being seen: the Arabic letter mark,
 * left-to-right and right-to-left marks, embeddings, overrides, pops and isolates.
 */
const DIRECTION_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** Controls that stand for a break or a space (tab, newlines, NEL, line and paragraph separators). */
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]/g;

/** The other controls: C0, DEL and C1 (NUL included). */
const CONTROLS = /\p{Cc}/gu;

/** `c` as `\uXXXX` escapes, one per UTF-16 unit (an astral character is a surrogate pair), as JSON and Cypher strings write them. */
function escapeUnits(c: string): string {
  let out = '';
  for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0')}`;
  return out;
}

/** True when `c` (one character, a code point) is invisible in the sense of this module. */
export function isInvisible(c: string): boolean {
  return INVISIBLE_CHAR.test(c);
}

/**
 * `text` with every invisible character written as its `\uXXXX` escape. Inside a JSON string
 * the escape means the same character, so JSON text stays valid and equal in value.
 */
export function escapeInvisible(text: string): string {
  return text.replace(INVISIBLE, escapeUnits);
}

/**
 * `text` as a name to show: breaks and tabs become spaces, direction controls and other
 * controls (NUL, C1) are dropped. Letters of every script stay, right-to-left ones included:
 * only the unseen instructions about direction go.
 */
export function dropControls(text: string): string {
  return text.replace(BREAKS, ' ').replace(DIRECTION_CONTROLS, '').replace(CONTROLS, '');
}
