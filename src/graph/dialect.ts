/**
 * Every piece of Neo4j-specific Cypher behind the vector index lives here (vector index DDL,
 * `db.create.setNodeVectorProperty`, `db.index.vector.queryNodes`, type predicates,
 * `CALL () { } IN TRANSACTIONS`; subqueries import variables by the scope clause `CALL (x) { }`,
 * since `CALL { WITH x }` is deprecated on 5.26 and the calendar releases), so that another Bolt database (Memgraph) can be added by writing
 * a second dialect rather than editing the build and the search.
 *
 * Storage design: the vectors of index `<name>` are kept on separate chunk nodes labelled
 * `__Chunk_<name>` (one label per index, so several models can be indexed side by side for the
 * same graph), with properties `nodeId` (the source node's elementId), `chunk` (chunk number
 * within the source text), `batch` (the content key of the embedding batch it came from),
 * `chunkText` (the header naming the source node, then the chunk: what was embedded), or
 * `nameText` instead for a chunk that is a header alone (a node with a name and no other text),
 * `embedding` (float32 list; a name chunk's in `nameEmbedding` instead, {@link NAME_VECTOR}) and,
 * on a node's chunk 0, `sig` (what its chunks were made from: {@link nodeSig}; the sync compares
 * it with the node inside the database). Five schema indexes belong to an index: the vector
 * index `<name>` on `embedding`, the vector index `<name>__names` on `nameEmbedding`, the full-text (Lucene) index
 * `<name>__fulltext` on `chunkText` and `nameText` ({@link FULLTEXT_FIELDS}), and the range
 * indexes `<name>__batch` on `batch` and `<name>__node` on `nodeId` (the sync's per-node reads
 * and writes). There is no relationship to the source node: a relationship would make a user's
 * plain `DELETE n` fail and would show up among the graph's relationship types. Schema overviews hide index data by one rule: {@link isIndexLabel}. Between builds a
 * chunk may point at a node that was deleted (search skips it: the node or its text is gone)
 * or, if Neo4j reused the deleted node's id, at a new node; the next build removes both kinds.
 */

import { NAME_FIELD_CHARS } from './text/node-name.js';

/** Labels starting with this prefix belong to vector indexes, never to the user's graph. */
export const INDEX_LABEL_PREFIX = '__';

/**
 * True for labels that hold index data (chunk nodes) rather than the user's graph; schema
 * tools and graph overviews drop these labels (and the nodes carrying only them).
 */
export function isIndexLabel(label: string): boolean {
  return label.startsWith(INDEX_LABEL_PREFIX);
}

/** Backtick-quotes a label, property or index name for Cypher. */
export function quoteName(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

/** The chunk label of an index: `__Chunk_<indexName>`. */
export function chunkLabel(indexName: string): string {
  return `${INDEX_LABEL_PREFIX}Chunk_${indexName}`;
}

/** Name of the range index on the chunk nodes' `batch` property (idempotent batch writes). */
export function batchIndexName(indexName: string): string {
  return `${indexName}__batch`;
}

/** Name of the range index on the chunk nodes' `nodeId` property (the sync's per-node work). */
export function nodeIndexName(indexName: string): string {
  return `${indexName}__node`;
}

/**
 * The vector property of a name chunk (a header alone), indexed by {@link namesIndexName} apart
 * from the texts' `embedding`. In one HNSW index, the 7,215 Metabolite names of WikiPathways
 * crowded the texts out of a query's nearest chunks (69 of the 80 nearest to a description
 * sentence were names), so a pathway's own text was missing from hybrid's vector list and lost
 * its vector part (issue 37); asked apart, each index gives its own `$k` nearest.
 */
export const NAME_VECTOR = 'nameEmbedding';

/**
 * Cypher: the vector property of chunk `c` as its index keeps it: {@link NAME_VECTOR} for a name
 * chunk (`nameText` set) where `$namesIndex` (the build recorded a names' index), else `embedding`.
 * The build's batch writes and the sync's node writes both store vectors by it.
 */
export const vectorPropertyOf = (c: string) =>
  `CASE WHEN $namesIndex AND ${c}.nameText IS NOT NULL THEN '${NAME_VECTOR}' ELSE 'embedding' END`;

/** Name of the vector index on the name chunks' {@link NAME_VECTOR}. */
export function namesIndexName(indexName: string): string {
  return `${indexName}__names`;
}

/** Name of the full-text (Lucene) index on the chunk nodes' `chunkText` and `nameText` properties. */
export function fulltextIndexName(indexName: string): string {
  return `${indexName}__fulltext`;
}

/**
 * The chunk properties the full-text index covers, in its order: texts, then names alone.
 * Lucene keeps BM25's length and term statistics per field, so thousands of two-word names
 * (7,258 Metabolite and Species names beside 553 pathway texts on WikiPathways, issue 37) no
 * longer lower the texts' mean length or change how texts rank among themselves; a query
 * searches both fields (Neo4j parses it over every field of the index).
 */
export const FULLTEXT_FIELDS = ['chunkText', 'nameText'] as const;

/** Cypher: the text of chunk `c`, in whichever field it is ({@link FULLTEXT_FIELDS}). */
const chunkTextOf = (c: string) => `coalesce(${c}.chunkText, ${c}.nameText)`;

/** Cypher: true unless node `v` is a chunk node (chunk nodes are never indexed or shown). */
export const notIndexNode = (v: string) => `NOT any(l IN labels(${v}) WHERE l STARTS WITH '${INDEX_LABEL_PREFIX}')`;
const NOT_INDEX_NODE = notIndexNode('n');

/**
 * Cypher: the identifier of node `v` as results report it, its own integer `dbId` property when
 * it has one (Reactome-style graphs), else the database's node id.
 */
const dbIdOf = (v: string) => `CASE WHEN ${v}.dbId IS :: INTEGER NOT NULL THEN ${v}.dbId ELSE id(${v}) END`;

/**
 * Cypher: the properties of node `v` that can name it, as `[key, value]` pairs: keys ending in
 * `name`, `title` or `id` (any case), and the plan's name keys (`$nameKeys`: an explicit choice
 * names by any key); strings cut to {@link NAME_FIELD_CHARS} characters (a 5 MB value is not
 * sent whole) and integers, nothing else. The rule that picks the name runs in JS
 * (src/graph/text/node-name.ts): written out in Cypher it made every query naming nodes 4–6× slower
 * to plan. Never fails, whatever a value is (a list, a date, 5 MB of text): `left` runs only
 * behind a `CASE` on the type.
 */
const nameFieldsOf = (v: string) => `[k IN keys(${v}) WHERE (k =~ '(?i).*(name|title|id)' OR k IN $nameKeys)
  AND (${v}[k] IS :: STRING OR ${v}[k] IS :: INTEGER) | [k, CASE WHEN ${v}[k] IS :: STRING THEN left(${v}[k], ${NAME_FIELD_CHARS}) ELSE ${v}[k] END]]`;

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
    OR toLower(k) ENDS WITH 'name' OR toLower(k) ENDS WITH 'title' OR toLower(k) ENDS WITH 'id'
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
const textFields = (v: string, cut = false) => {
  const value = (x: string) => (cut ? cutValue(x) : x);
  const size = (x: string) => (cut ? `, ${textSize(x)}` : '');
  const text = cut ? `${cutValue(`${v}[$prop]`)} AS text, ${textSize(`${v}[$prop]`)} AS textSize` : `${v}[$prop] AS text`;
  // The name is picked in JS (src/graph/text/node-name.ts): a result's with fallbacks, the chunks' header a name only.
  return `${text}, ${nameFieldsOf(v)} AS nameFields, labels(${v}) AS labels,
  [k IN ${textKeysOf(v)} WHERE ${v}[k] IS NOT NULL | [k, ${value(`${v}[k]`)}${size(`${v}[k]`)}]] AS props`;
};

/**
 * Number of nodes with text to index ({@link hasText}: `$prop`, `$textKeys`, `$only`); used for
 * progress and ETA. Nodes where `$prop` is a number or a mixed list are skipped.
 */
export const COUNT_TEXT_NODES = `MATCH (n) WHERE ${hasText('n')} AND ${NOT_INDEX_NODE} RETURN count(n) AS total`;

/** The labels of the nodes with text to index ({@link hasText}), most common first, at most `$max`. */
export const TEXT_NODE_LABELS = `
MATCH (n) WHERE ${hasText('n')} AND ${NOT_INDEX_NODE}
UNWIND labels(n) AS label
WITH label, count(*) AS nodes ORDER BY nodes DESC, label LIMIT $max
RETURN collect(label) AS labels`;

/**
 * Every node with text to index, in node id order (stable for an unchanged graph): the database
 * scans once and sorts node references only; the text is read as records are pulled. Chunk
 * nodes never match (they are left out by label, whatever `$prop` is). Each row carries what
 * composing the node's text needs ({@link textFields}) and `carried`, the node's values of the
 * properties in `$carryProps` (src/vector-index/index/carry.ts; [] for none).
 */
export const TEXT_NODES = `
MATCH (n) WHERE ${hasText('n')} AND ${NOT_INDEX_NODE}
WITH n ORDER BY id(n)
RETURN id(n) AS seq, elementId(n) AS nodeId, ${textFields('n')}, [k IN $carryProps WHERE n[k] IS NOT NULL | [k, n[k]]] AS carried,
  ${nodeSig('n')} AS sig`;

/**
 * The nodes {@link TEXT_NODES} reads after node id `$after`, in the same order, without reading
 * their text: nothing here can fail on a node's values. The build falls back to it when one
 * node's row makes {@link TEXT_NODES} fail (src/vector-index/index/source.ts).
 */
export const TEXT_NODE_IDS = `
MATCH (n) WHERE id(n) > $after AND ${hasText('n')} AND ${NOT_INDEX_NODE}
WITH n ORDER BY id(n)
RETURN id(n) AS seq, elementId(n) AS nodeId`;

/** {@link TEXT_NODES}' rows of the nodes whose ids are in `$ids` (a lookup by id, no scan). */
export const TEXT_NODES_BY_ID = `
MATCH (n) WHERE id(n) IN $ids AND ${hasText('n')} AND ${NOT_INDEX_NODE}
WITH n ORDER BY id(n)
RETURN id(n) AS seq, elementId(n) AS nodeId, ${textFields('n')}, [k IN $carryProps WHERE n[k] IS NOT NULL | [k, n[k]]] AS carried,
  ${nodeSig('n')} AS sig`;

/**
 * Cypher: from `nodeId, score` rows (one per source node) to the `$topK` best nodes `n` that
 * still exist, have text to index ({@link hasText}) and pass `filter` (a predicate over `n`,
 * src/graph/filters/filter-cypher.ts). `keep`: further variables carried along (`, chunkHits`).
 */
const bestNodes = (filter?: string, keep = '') => `
MATCH (n) WHERE elementId(n) = nodeId AND ${hasText('n')}${filter ? ` AND ${filter}` : ''}
WITH n, score${keep} ORDER BY score DESC, elementId(n) LIMIT $topK`;

/** Cypher: a search result's fields for node `n` (`dbId` by {@link dbIdOf}, `nameFields` by {@link nameFieldsOf}; text values cut to `$textChars`). */
const RESULT_FIELDS = `${dbIdOf('n')} AS dbId, ${textFields('n', true)}, score, elementId(n) AS nodeId`;

/**
 * Cypher: `rels`, some relationships of node `n` (at most `$scan`, neighbours that are index
 * data skipped; `out` is true when `n` is the start), with their name fields ({@link nameFieldsOf}).
 */
const NODE_RELS = `
CALL (n) {
  MATCH (n)-[r]-(m) WHERE ${notIndexNode('m')}
  WITH n, r, m LIMIT $scan
  RETURN collect({type: type(r), out: startNode(r) = n,
    dbId: ${dbIdOf('m')},
    nameFields: ${nameFieldsOf('m')},
    labels: labels(m)}) AS rels
}`;

/** The tail of a search query: the best nodes and their fields. */
const rankedNodes = (filter?: string, keep = '') => `${bestNodes(filter, keep)}
RETURN ${RESULT_FIELDS}${keep}`;

/**
 * The same with each node's graph context (`rels` by {@link NODE_RELS}, `degree` from the count
 * store), in the same round trip; sorted again after the per-node subquery.
 */
const rankedNodesWithRels = (filter?: string, keep = '') => `${bestNodes(filter, keep)}${NODE_RELS}
WITH n, score, rels${keep} ORDER BY score DESC, elementId(n)
RETURN ${RESULT_FIELDS}, rels, COUNT { (n)--() } AS degree${keep}`;

/** Where a filter is applied inside the index: the index's name and a predicate over chunk `c` (src/graph/filters/filter-index.ts). */
export interface InIndexFilter {
  index: string;
  where: string;
}

/**
 * `$k` vector-index chunk hits for `$vector`, best score per source node; with `names`, also
 * `$k` from the names' index `$namesIndex` ({@link NAME_VECTOR}). With `inIndex`, each index
 * itself returns `$k` chunks that pass its predicate (`SEARCH`, Cypher 25; the index name must be
 * written out there), and each row also says how many chunks the fuller list returned
 * (`chunkHits`): fewer than `$k` means no other chunk passes, so a filtered search need not ask again.
 */
const vectorHits = (inIndex?: InIndexFilter, weigh = '', names = false) => {
  /** The chunk hits of one vector index (`index`: its name written out for `SEARCH`, else a parameter). */
  const hitsOf = (index: string) =>
    inIndex
      ? `MATCH (c:${quoteName(chunkLabel(inIndex.index))})
  SEARCH c IN (VECTOR INDEX ${quoteName(index)} FOR $vector WHERE ${inIndex.where} LIMIT $k) SCORE AS score`
      : `CALL db.index.vector.queryNodes(${index}, $k, $vector) YIELD node AS c, score`;
  const [texts, nameList] = inIndex ? [inIndex.index, namesIndexName(inIndex.index)] : ['$index', '$namesIndex'];
  // Both lists, each row marked with its list (`chunkHits` counts the fuller one).
  const hits = names
    ? `CALL () {
  ${hitsOf(texts).replace(/\n/g, '\n  ')}
  RETURN c, score, 0 AS list
  UNION ALL
  ${hitsOf(nameList).replace(/\n/g, '\n  ')}
  RETURN c, score, 1 AS list
}`
    : hitsOf(texts);
  if (!inIndex) return `\n${hits}\nWITH c.nodeId AS nodeId, max(score${weigh}) AS score`;
  const list = names ? 'list' : '0';
  return `
${hits}
WITH collect({nodeId: c.nodeId, score: score${weigh}, list: ${list}}) AS chunks
WITH chunks, size([x IN chunks WHERE x.list = 0]) AS texts, size([x IN chunks WHERE x.list = 1]) AS names
UNWIND chunks AS h
WITH CASE WHEN texts > names THEN texts ELSE names END AS chunkHits, h.nodeId AS nodeId, max(h.score) AS score`;
};

/**
 * Cypher: true unless chunk `c` is a name alone: its text in `chunkText`, behind a header line
 * (a name chunk of an index built before `nameText` has its header alone in `chunkText`).
 */
const TEXT_CHUNK = "coalesce(c.chunkText CONTAINS '\\n', false)";

/**
 * Cypher: `* share` of chunk `c`, the share of `$terms` its text holds, or `* 1.0` where `keep`
 * holds; with `floor`, `* (floor + (1 − floor) · share)`.
 */
const shareUnless = (keep: string, floor = 0) => ` * CASE WHEN size($terms) = 0 OR ${keep} THEN 1.0
    ELSE ${floor ? `${floor} + ${1 - floor} * ` : ''}toFloat(size([w IN $terms WHERE toLower(${chunkTextOf('c')}) CONTAINS w])) / size($terms) END`;

/**
 * The share of the query's words (`$terms`, lower-cased; empty: 1) that chunk `c`'s text holds:
 * a full-text hit's BM25 score is multiplied by it (`$shareAll`, the default), or only a name
 * chunk's (a header without a body: a node with a name and no other text). BM25 divides by a
 * chunk's length, so once discovery indexed 7,215 names of two or three words beside 553
 * pathway texts, `Cholesterol (Metabolite)`, matching one word of "Cholesterol biosynthesis
 * pathway", came before the pathway's own text (issue 37; docs/benchmarks.md "Discovery beside
 * text": hybrid title recall@1 0.760 with discovery on, 0.920 with the share, 0.935 without
 * the names). A name that is the whole query keeps its score. Substring test: a word inside a
 * longer one counts.
 */
const TERM_SHARE = shareUnless(`(NOT $shareAll AND ${TEXT_CHUNK})`);

/**
 * A name chunk's vector score, in vector mode and in hybrid's vector list, times ½ + ½ · the
 * share of the query's words it holds ({@link TERM_SHARE}). A name's vector is close to any query
 * naming it: a short name beside long texts came first for queries that name it among other
 * words (`Vitamin D receptor agonists (Metabolite)` for "Vitamin D receptor pathway"), and in
 * hybrid the list is divided by its best score, so one such name lowered every text's part of
 * the sum. A name holding every word of the query keeps its score (a name is found by itself);
 * one holding none keeps half, so a name is still found by meaning alone (a synonym, another
 * language), after the texts as close to the query. On WikiPathways vector title recall@1 went
 * from 0.835 to 0.938 with discovery on, as without the names (docs/benchmarks.md "After:
 * names in a field of their own"); without the half (share alone) the figures were the same,
 * but a name sharing no word scored 0 and was never found by meaning.
 */
const NAME_SHARE = shareUnless(TEXT_CHUNK, 0.5);

/**
 * `$kf` full-text chunk hits for Lucene query `$q` (BM25, times {@link TERM_SHARE}) from each
 * field ({@link FULLTEXT_FIELDS}: texts, names), best score per source node; with `inIndex`, only
 * the chunks that pass its predicate (tested on the chunk's carried values). One list per field,
 * each of `$kf`: in one list, thousands of names holding a word of the query took the places of
 * texts further down (a text missing from the list loses its full-text part in hybrid), and
 * the share of words, applied after the list is cut, could not bring them back. A query of one
 * field scores a chunk as the query of both does (BM25 per field).
 */
const fulltextHits = (inIndex?: InIndexFilter) => `
CALL () {${FULLTEXT_FIELDS.map(
  (f) => `
  CALL db.index.fulltext.queryNodes($ftIndex, '${f}:(' + $q + ')', {limit: $kf}) YIELD node AS c, score${inIndex ? `\n  WHERE ${inIndex.where}` : ''}
  RETURN c, score`,
).join('\n  UNION ALL')}
}
WITH c.nodeId AS nodeId, max(score${TERM_SHARE}) AS score`;

/**
 * Hybrid search in one round trip: both candidate lists, each node's score in each list
 * divided by that list's best (BM25 has no fixed scale), then `$alpha · vector + (1 − $alpha) ·
 * fulltext` (0 where a node is missing from a list). Unlike reciprocal rank fusion, a clear
 * lead (an exact name match far ahead of the rest) survives; docs/benchmarks.md has the
 * comparison. Scores lie in 0..1: 1 is first in both lists.
 */
const hybridHits = (inIndex?: InIndexFilter, names = false) => `
CALL () {${vectorHits(inIndex, NAME_SHARE, names)}
  RETURN collect({nodeId: nodeId, score: score}) AS vector, max(score) AS vtop${inIndex ? ', coalesce(max(chunkHits), 0) AS chunkHits' : ''}
}
CALL () {${fulltextHits(inIndex)}
  RETURN collect({nodeId: nodeId, score: score}) AS fulltext, max(score) AS ftop
}
UNWIND [x IN vector | {nodeId: x.nodeId, s: CASE vtop WHEN 0 THEN 0.0 ELSE $alpha * x.score / vtop END}]
  + [x IN fulltext | {nodeId: x.nodeId, s: CASE ftop WHEN 0 THEN 0.0 ELSE (1 - $alpha) * x.score / ftop END}] AS hit
WITH ${inIndex ? 'chunkHits, ' : ''}hit.nodeId AS nodeId, sum(hit.s) AS score`;

/**
 * The search query of a mode, all in one round trip: `vector` over index `$index` (`$k` chunk
 * hits for `$vector`), `fulltext` over `$ftIndex` (`$kf` hits for `$q`, ranked by BM25) or
 * `hybrid` (both, {@link hybridHits}); then one entry per node, the `$topK` best, and with
 * `withRels` each result's `rels` and `degree` as well (`$scan`). Names: `$nameKeys` ({@link nameFieldsOf}). With `filter`
 * (a compiled predicate over `n`), only candidates that pass it are ranked. With `inIndex`, the
 * vector index applies that predicate itself and the full-text hits are tested on their chunks;
 * the query is then Cypher 25 (`SEARCH`), and in `vector` and `hybrid` mode each row carries
 * `chunkHits`, the vector index's hit count ({@link vectorHits}). With `names`, the index keeps
 * its name chunks' vectors apart ({@link NAME_VECTOR}) and both vector indexes are asked
 * (`$namesIndex`).
 */
export function searchQuery(
  mode: 'vector' | 'fulltext' | 'hybrid',
  withRels: boolean,
  filter?: string,
  inIndex?: InIndexFilter,
  names = false,
): string {
  const hits =
    mode === 'vector' ? vectorHits(inIndex, NAME_SHARE, names) : mode === 'fulltext' ? fulltextHits(inIndex) : hybridHits(inIndex, names);
  const keep = inIndex && mode !== 'fulltext' ? ', chunkHits' : '';
  return (inIndex ? 'CYPHER 25' : '') + hits + (withRels ? rankedNodesWithRels(filter, keep) : rankedNodes(filter, keep));
}

/** Which kind of index the database says does not exist, or null for any other error. */
export function missingIndexKind(err: unknown): 'vector' | 'fulltext' | null {
  const message = (err as { message?: unknown } | null)?.message;
  const m = typeof message === 'string' ? /no such (vector|fulltext) schema index/i.exec(message) : null;
  return m ? (m[1]!.toLowerCase() as 'vector' | 'fulltext') : null;
}

/**
 * The node whose id, as results report it ({@link dbIdOf}), is `$id` (an integer): by its
 * `dbId` property, else by database id for a node without an integer `dbId`. Index data never
 * matches. Several nodes sharing a `dbId` property: the oldest. With its relationships as the
 * search query reads them (`rels`, `degree`; `$scan`), in the same round trip; names by `nameFields` (`$nameKeys`).
 */
export const NODE_BY_DBID = `
CALL () {
  MATCH (n) WHERE n.dbId = $id RETURN n
  UNION
  MATCH (n) WHERE id(n) = $id RETURN n
}
WITH n WHERE ${dbIdOf('n')} = $id AND ${NOT_INDEX_NODE}
WITH n ORDER BY id(n) LIMIT 1${NODE_RELS}
RETURN n, ${nameFieldsOf('n')} AS nameFields, rels, COUNT { (n)--() } AS degree`;
