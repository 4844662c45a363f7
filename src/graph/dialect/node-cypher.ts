/**
 * Cypher fragments over a node of the user's graph, shared by the reads of its text nodes
 * (src/graph/dialect.ts) and the search queries (./search-query.ts): which nodes have text to
 * index, what a node's chunks are made from, its identifier, name candidates and text fields,
 * and its relationships as results show them.
 */
import { NAME_FIELD_CHARS } from '../text/node-name.js';
import { INDEX_LABEL_PREFIX } from './names.js';

/** Cypher: true unless node `v` is a chunk node (chunk nodes are never indexed or shown). */
export const notIndexNode = (v: string) => `NOT any(l IN labels(${v}) WHERE l STARTS WITH '${INDEX_LABEL_PREFIX}')`;

/**
 * Cypher: the identifier of node `v` as results report it, its own integer `dbId` property when
 * it has one (Reactome-style graphs), else the database's node id.
 */
export const dbIdOf = (v: string) => `CASE WHEN ${v}.dbId IS :: INTEGER NOT NULL THEN ${v}.dbId ELSE id(${v}) END`;

/**
 * Cypher: key `k` ends in `name`, `title` or `id`, in any case. Not a regular expression
 * (`=~ '(?i).*(name|title|id)'`): that one was most of the cost of naming ten results
 * (docs/benchmarks.md, "What the query reads").
 */
const NAME_KEY = (k: string) => `(toLower(${k}) ENDS WITH 'name' OR toLower(${k}) ENDS WITH 'title' OR toLower(${k}) ENDS WITH 'id')`;

/**
 * Cypher: the properties of node `v` that can name it, as `[key, value]` pairs: keys ending in
 * `name`, `title` or `id` (any case), and the plan's name keys (`$nameKeys`: an explicit choice
 * names by any key); strings cut to {@link NAME_FIELD_CHARS} characters (a 5 MB value is not
 * sent whole) and integers, nothing else. The rule that picks the name runs in JS
 * (src/graph/text/node-name.ts), since written out in Cypher it makes every query naming nodes
 * several times slower to plan (docs/benchmarks.md, "Names picked in JS: the planning cost").
 * Never fails, whatever a value is (a list, a date, 5 MB of text): `left` runs only behind a
 * `CASE` on the type. Each value is read once (`p[1]`): every read of a property loads it whole.
 */
export const nameFieldsOf = (v: string) => `[p IN [k IN keys(${v}) WHERE ${NAME_KEY('k')} OR k IN $nameKeys | [k, ${v}[k]]]
  WHERE p[1] IS :: STRING OR p[1] IS :: INTEGER | [p[0], CASE WHEN p[1] IS :: STRING THEN left(p[1], ${NAME_FIELD_CHARS}) ELSE p[1] END]]`;

/** Cypher: the properties the text plan (`$textKeys`, label → keys) reads for node `v`. */
const textKeysOf = (v: string) => `reduce(ks = [], l IN labels(${v}) | ks + coalesce($textKeys[l], []))`;

/**
 * Cypher: true when node `v` has text to index: its `$prop` string or list of strings (the
 * composer joins a list as it joins any: src/vector-index/index/node-text.ts), or a label the plan reads
 * (`$textKeys`); with `$only` (a label list, or null for all) it must also carry one of those labels.
 * One type test of a union, since each test reads the property again.
 */
export const hasText = (v: string) =>
  `(${v}[$prop] IS :: STRING NOT NULL | LIST<STRING NOT NULL> NOT NULL OR any(l IN labels(${v}) WHERE $textKeys[l] IS NOT NULL))
  AND ($only IS NULL OR any(l IN labels(${v}) WHERE l IN $only))`;

/**
 * Cypher: `[key + type, value]` of property `k` of node `v` for {@link nodeSig}: a string as it is
 * (not copied: the list holds the value, so a 5 MB text costs no concatenation), a list as its
 * size then its items (each as a string), anything else as `toStringOrNull` writes it; the type
 * mark keeps `'1'` apart from `1`. The value is read once (`x`): each read of a string loads all
 * of it. Items are listed, not joined by `reduce`, which copies the string so far for every item
 * and so takes time quadratic in a list's length (docs/benchmarks.md, "The sync's writes by size").
 * A chunk 0 whose `sig` holds a list in another form makes its node look changed once; its chunks are kept.
 */
const keySig = (v: string) => `[x IN [${v}[k]] | CASE WHEN x IS :: STRING THEN [k + '\\u001ds', x]
  WHEN x IS :: LIST<ANY> THEN [k + '\\u001dl' + toString(size(x))] + [e IN x | coalesce(toStringOrNull(e), '?')]
  ELSE [k + '\\u001dv', coalesce(toStringOrNull(x), '?')] END][0]`;

/**
 * Cypher: everything a node's chunks are made from, as a list of strings: its labels, then for
 * each property that can reach them (`$prop`, the plan's keys for its labels, its name
 * candidates, keys ending in name, title or id, and the carried `$carryProps`) its key and value.
 * Written on the node's chunk 0 by the build and the sync, and compared with the node inside
 * the database by the sync's change check (src/graph/access/chunk-store.ts), so finding what
 * changed sends no text over the wire and tokenises nothing. Cypher has no hash function (5.26
 * and 2026.x), and reading any part of a string property (`size`, `left`, a type test) loads all
 * of it, so no check can cost less than reading the node's values: this is the values
 * themselves, each read once, compared in linear time. A key's order follows the node's storage: a node whose
 * properties were rewritten in another order is seen as changed once (its chunks are then
 * found unchanged and kept).
 */
export const nodeSig = (v: string) => `[tk IN [${textKeysOf(v)}] | reduce(s = labels(${v}) + ['\\u001e'], k IN keys(${v}) |
  CASE WHEN k = $prop OR k IN tk OR k IN $carryProps OR k IN $nameKeys
    OR ${NAME_KEY('k')}
  THEN s + ${keySig(v)} ELSE s END)][0]`;

/**
 * Cypher: value `x` as a search result reads it (`$textChars`): a string's first characters, a
 * list of strings' first items so cut, anything else as it is. A 5 MB property then costs a
 * search 4 KB, not 5 MB read and sent.
 */
const cutValue = (x: string) => `CASE WHEN ${x} IS :: STRING THEN left(${x}, $textChars)
  WHEN ${x} IS :: LIST<STRING NOT NULL> THEN [s IN ${x}[..$textChars] | left(s, $textChars)] ELSE ${x} END`;

/** Cypher: the characters of value `x` as text (a list's items joined by ', '), null when it is neither. */
const textSize = (x: string) => `CASE WHEN ${x} IS :: STRING THEN size(${x})
  WHEN ${x} IS :: LIST<STRING NOT NULL> THEN reduce(t = -2, s IN ${x} | t + size(s) + 2) END`;

/**
 * Cypher: the fields text composition needs (src/vector-index/index/node-text.ts), for node `v`. With
 * `cut` (search results), values come cut by {@link cutValue}, each with its whole size
 * (`textSize`, and a third item of each `props` pair) so the cut can say how much was left out.
 */
export const textFields = (v: string, cut = false) => {
  const value = (x: string) => (cut ? cutValue(x) : x);
  const size = (x: string) => (cut ? `, ${textSize(x)}` : '');
  // Each value is bound once (`[x IN [value] | …][0]`): every read of a property loads it whole, and the tests and cuts read it several times.
  const text = cut
    ? `[x IN [${v}[$prop]] | ${cutValue('x')}][0] AS text, [x IN [${v}[$prop]] | ${textSize('x')}][0] AS textSize`
    : `${v}[$prop] AS text`;
  // The name is picked in JS (src/graph/text/node-name.ts): a result's with fallbacks, the chunks' header a name only.
  return `${text}, ${nameFieldsOf(v)} AS nameFields, labels(${v}) AS labels,
  [p IN [k IN ${textKeysOf(v)} | [k, ${v}[k]]] WHERE p[1] IS NOT NULL | [p[0], ${value('p[1]')}${size('p[1]')}]] AS props`;
};

/**
 * Cypher: `rels`, some relationships of node `n` (at most `$scan`, neighbours that are index
 * data skipped; `out` is true when `n` is the start), with their name fields ({@link nameFieldsOf}).
 * Shared by {@link NODE_BY_DBID} and the search queries (./dialect/search-query.ts).
 */
export const NODE_RELS = `
CALL (n) {
  MATCH (n)-[r]-(m) WHERE ${notIndexNode('m')}
  WITH n, r, m LIMIT $scan
  RETURN collect({type: type(r), out: startNode(r) = n,
    dbId: ${dbIdOf('m')},
    nameFields: ${nameFieldsOf('m')},
    labels: labels(m)}) AS rels
}`;
