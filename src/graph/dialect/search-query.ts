/**
 * The search queries over an index's chunk nodes (src/graph/dialect.ts describes the storage):
 * vector, full-text and hybrid hits, each weighed by the share of the query's words a chunk
 * holds, then the best source nodes with the fields a result shows (./node-cypher.ts, shared with
 * the reads of the user's graph).
 */
import { FULLTEXT_FIELDS, NAME_VECTOR, chunkLabel, namesIndexName, quoteName } from './names.js';
import { NODE_RELS, dbIdOf, hasText, textFields } from './node-cypher.js';

/** Cypher: the text of chunk `c`, in whichever field it is ({@link FULLTEXT_FIELDS}). */
const chunkTextOf = (c: string) => `coalesce(${c}.chunkText, ${c}.nameText)`;

/**
 * Cypher: from `nodeId, score` rows (one per source node) to the `$topK` best nodes `n` that
 * still exist, have text to index ({@link hasText}) and pass `filter` (a predicate over `n`,
 * src/graph/filters/filter-cypher.ts). `keep`: further variables carried along (`, chunkHits`).
 */
const bestNodes = (filter?: string, keep = '') => `
MATCH (n) WHERE elementId(n) = nodeId AND ${hasText('n')}${filter ? ` AND ${filter}` : ''}
WITH n, score${keep} ORDER BY score DESC, elementId(n) LIMIT $topK`;

/** Cypher: a search result's fields for node `n` (`dbId` by {@link dbIdOf}, name candidates in `nameFields`; text values cut to `$textChars`). */
const RESULT_FIELDS = `${dbIdOf('n')} AS dbId, ${textFields('n', true)}, score, elementId(n) AS nodeId`;

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
 * Cypher: true unless chunk `c` is a name alone: a text chunk holds its text in `chunkText`
 * behind a header line. A name chunk has no such line, whether it is in `nameText` or, in an
 * index whose full-text index covers `chunkText` alone, in `chunkText`.
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
 * chunk's length, so a short name matching one word of the query (`Cholesterol (Metabolite)` for
 * "Cholesterol biosynthesis pathway") would otherwise come before the long text holding them
 * all (docs/benchmarks.md, "Discovery beside text: WikiPathways"). A name that is the whole
 * query keeps its score. Substring test: a word inside a longer one counts.
 */
const TERM_SHARE = shareUnless(`(NOT $shareAll AND ${TEXT_CHUNK})`);

/**
 * A name chunk's vector score, in vector mode and in hybrid's vector list, times ½ + ½ · the
 * share of the query's words it holds ({@link TERM_SHARE}). A name's vector is close to any query
 * naming it: a short name beside long texts would come first for queries that name it among
 * other words (`Vitamin D receptor agonists (Metabolite)` for "Vitamin D receptor pathway"), and
 * in hybrid the list is divided by its best score, so one such name would lower every text's
 * part of the sum. A name holding every word of the query keeps its score (a name is found by
 * itself); one holding none keeps half, so a name is still found by meaning alone (a synonym,
 * another language), after the texts as close to the query: the share alone would score it 0
 * (docs/benchmarks.md, "After: names in a field of their own").
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
 * `withRels` each result's `rels` and `degree` as well (`$scan`). Names: `$nameKeys` (`nameFieldsOf` in ./node-cypher.ts). With `filter`
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
