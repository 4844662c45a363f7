/**
 * The search queries over an index's chunk nodes (src/graph/dialect.ts describes the storage):
 * vector, full-text and hybrid hits (a name chunk weighed by the share of the query's words it
 * holds; hybrid's two lists fused as z-scores), then the best source nodes with the fields a
 * result shows (./node-cypher.ts, shared with the reads of the user's graph).
 */
import { FULLTEXT_FIELDS, NAME_VECTOR, chunkLabel, namesIndexName, quoteName } from './names.js';
import { NODE_RELS, dbIdOf, hasText, textFields } from './node-cypher.js';

/** Cypher: the text of chunk `c`, in whichever field it is ({@link FULLTEXT_FIELDS}). */
const chunkTextOf = (c: string) => `coalesce(${c}.chunkText, ${c}.nameText)`;

/**
 * Cypher: from `nodeId, score` rows (one per source node) to the `$topK` best nodes `n` that
 * still exist, have text to index ({@link hasText}) and pass `filter` (a predicate over `n`,
 * src/graph/filters/filter-cypher.ts). `keep`: further variables carried along (`, chunkHits`).
 * Sorted before the nodes are looked up, and by the same keys after: the planner then keeps the
 * order and stops at `$topK` nodes that pass, instead of reading every candidate (2–6 × `$topK`)
 * and sorting again.
 */
const bestNodes = (filter?: string, keep = '') => `
WITH nodeId, score${keep} ORDER BY score DESC, nodeId
MATCH (n) WHERE elementId(n) = nodeId AND ${hasText('n')}${filter ? ` AND ${filter}` : ''}
WITH n, nodeId, score${keep} ORDER BY score DESC, nodeId LIMIT $topK`;

/** Cypher: a search result's fields for node `n` (`dbId` by {@link dbIdOf}, name candidates in `nameFields`; text values cut to `$textChars`). */
const RESULT_FIELDS = `${dbIdOf('n')} AS dbId, ${textFields('n', true)}, score, nodeId`;

/** The tail of a search query: the best nodes and their fields. */
const rankedNodes = (filter?: string, keep = '') => `${bestNodes(filter, keep)}
RETURN ${RESULT_FIELDS}${keep}`;

/**
 * The same with each node's graph context (`rels` by {@link NODE_RELS}, `degree` from the count
 * store), in the same round trip; sorted again after the per-node subquery.
 */
const rankedNodesWithRels = (filter?: string, keep = '') => `${bestNodes(filter, keep)}${NODE_RELS}
WITH n, nodeId, score, rels${keep} ORDER BY score DESC, nodeId
RETURN ${RESULT_FIELDS}, rels, COUNT { (n)--() } AS degree${keep}`;

/** Where a filter is applied inside the index: the index's name and a predicate over chunk `c` (src/graph/filters/filter-index.ts). */
export interface InIndexFilter {
  index: string;
  where: string;
}

/**
 * Cypher, aggregating over a node's chunks `c`: the node is a name alone (its chunk in `nameText`,
 * the field of its own; an index of version 1 keeps names in `chunkText` and counts them as texts).
 */
const IS_NAME = 'count(c.chunkText) = 0';

/**
 * How a list reads its chunks: `mixed`, names may be among them ({@link IS_NAME}, and a name
 * weighed by its share of the query's words); `texts`, every chunk is a text (the index keeps
 * its names apart and holds none), so no chunk's text is read to tell, nor weighed: each text
 * read is a whole string property loaded, for every hit of every list (docs/benchmarks.md,
 * "What the query reads").
 */
export type ChunkKinds = 'mixed' | 'texts';

/**
 * `$k` vector-index chunk hits for `$vector`, best score per source node; with `names`, also
 * `$kn` from the names' index `$namesIndex` ({@link NAME_VECTOR}; a name is one chunk, so fewer
 * than the texts, whose nodes may have several). With `inIndex`, each index itself returns the
 * chunks that pass its predicate (`SEARCH`, Cypher 25; the index name must be written out
 * there), and each row also says how many chunks the text list returned (`chunkHits`), or `$k`
 * while the names' list is full: fewer than `$k` means no other chunk passes, so a filtered
 * search need not ask again.
 */
const vectorHits = (inIndex?: InIndexFilter, names = false, kinds: ChunkKinds = 'mixed') => {
  const [weigh, isName, isText] = kinds === 'texts' ? ['', 'false', 'true'] : [NAME_SHARE, IS_NAME, 'c.chunkText IS NOT NULL'];
  /** The chunk hits of one vector index (`index`: its name written out for `SEARCH`, else a parameter), at most `k` (a parameter). */
  const hitsOf = (index: string, k: string) =>
    inIndex
      ? `MATCH (c:${quoteName(chunkLabel(inIndex.index))})
  SEARCH c IN (VECTOR INDEX ${quoteName(index)} FOR $vector WHERE ${inIndex.where} LIMIT ${k}) SCORE AS score`
      : `CALL db.index.vector.queryNodes(${index}, ${k}, $vector) YIELD node AS c, score`;
  const [texts, nameList] = inIndex ? [inIndex.index, namesIndexName(inIndex.index)] : ['$index', '$namesIndex'];
  // Both lists, each row marked with its list.
  const hits = names
    ? `CALL () {
  ${hitsOf(texts, '$k').replace(/\n/g, '\n  ')}
  RETURN c, score, 0 AS list
  UNION ALL
  ${hitsOf(nameList, '$kn').replace(/\n/g, '\n  ')}
  RETURN c, score, 1 AS list
}`
    : hitsOf(texts, '$k');
  if (!inIndex) return `\n${hits}\nWITH c.nodeId AS nodeId, ${isName} AS name, max(score${weigh}) AS score`;
  const list = names ? 'list' : '0';
  return `
${hits}
WITH collect({nodeId: c.nodeId, score: score${weigh}, list: ${list}, text: ${isText}}) AS chunks
WITH chunks, size([x IN chunks WHERE x.list = 0]) AS texts, size([x IN chunks WHERE x.list = 1]) AS names
UNWIND chunks AS h
WITH CASE WHEN names >= $kn AND texts < $k THEN $k ELSE texts END AS chunkHits, h.nodeId AS nodeId, count(CASE WHEN h.text THEN 1 END) = 0 AS name, max(h.score) AS score`;
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
 * a name chunk's BM25 score is multiplied by it (a header without a body: a node with a name and
 * no other text), or with `$shareAll` every full-text hit's. BM25 divides by a chunk's length, so
 * a short name matching one word of the query (`Cholesterol (Metabolite)` for "Cholesterol
 * biosynthesis pathway") would otherwise come before the long text holding them all
 * (docs/benchmarks.md, "Discovery beside text: WikiPathways"). A name that is the whole query
 * keeps its score. Texts are left as BM25 scores them (the searcher's default since issue 50): on
 * them the share cost questions ("which genes are involved in …") more than it gave descriptions,
 * and an index of text alone ranks as it did before the rule. Substring test: a word inside a
 * longer one counts.
 */
const TERM_SHARE = shareUnless(`(NOT $shareAll AND ${TEXT_CHUNK})`);

/** {@link TERM_SHARE} where every chunk is a text ({@link ChunkKinds}). */
const TEXTS_SHARE = shareUnless('NOT $shareAll');

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
 * field scores a chunk as the query of both does (BM25 per field). Without `names` (the index
 * holds none, or keeps them among its texts) the names' field is not asked: one Lucene query.
 * With `kinds` `texts`, a hit's text is read only for `$shareAll`.
 */
const fulltextHits = (inIndex?: InIndexFilter, names = false, kinds: ChunkKinds = 'mixed') => `
CALL () {${(names ? FULLTEXT_FIELDS : FULLTEXT_FIELDS.slice(0, 1))
  .map(
    (f) => `
  CALL db.index.fulltext.queryNodes($ftIndex, '${f}:(' + $q + ')', {limit: $kf}) YIELD node AS c, score${inIndex ? `\n  WHERE ${inIndex.where}` : ''}
  RETURN c, score`,
  )
  .join('\n  UNION ALL')}
}
WITH c.nodeId AS nodeId, ${kinds === 'texts' ? 'false' : IS_NAME} AS name, max(score${kinds === 'texts' ? TEXTS_SHARE : TERM_SHARE}) AS score`;

/**
 * How hybrid search puts each list's scores on one scale before `$alpha · vector + (1 − $alpha)
 * · fulltext` (0 for a list a node is missing from; docs/benchmarks.md, "Retrieval quality" and
 * "Fusion that never loses to its own lists"):
 * - `z` (the default): a score less its list's lowest, divided by the list's standard deviation
 *   (a z-score, shifted so that the list's last gets 0, as a node missing from it does). How far
 *   a node stands above the rest of its list counts, not how close it comes to the list's best:
 *   a full-text lead that BM25 marks as clear (a description's rare words) outweighs a small
 *   vector lead, and a list whose top scores lie close together (a question's common words)
 *   leaves the ranking to the other. A list whose scores are all equal gives each node its weight.
 * - `best`: each score divided by its list's best (before issue 50): the best of each list is
 *   worth the whole weight however narrow its lead.
 * Either way the sum is divided by what a node first in both lists would get: scores lie in
 * 0..1, 1 being first in both lists (for `z`, a node missing from a list can still be first).
 */
export type Fusion = 'z' | 'best';

/**
 * Cypher: list `l`'s score `x` (or its best, `top`) on the scale of `fusion`, times `weight`; `l`
 * carries `low`, `top`, `sd`. Under `z`, a name below the texts' lowest counts as missing (0), and
 * a list without a spread (one text, or equal scores) gives each node the weight.
 */
const scaled = (fusion: Fusion, l: string, x: string, weight: string) =>
  fusion === 'z'
    ? `CASE WHEN NOT coalesce(${l}.sd, 0) > 0 THEN ${weight} WHEN ${x} > ${l}.low THEN ${weight} * (${x} - ${l}.low) / ${l}.sd ELSE 0.0 END`
    : `CASE WHEN ${l}.top > 0 THEN ${weight} * ${x} / ${l}.top ELSE 0.0 END`;

/**
 * Cypher: a list of `{nodeId, name, score}` rows as `list`, and as `<list>Of` the figures {@link
 * scaled} reads: the best score, and the lowest and the spread of the texts' scores alone (names
 * are scaled by the texts' figures), so that name chunks beside texts (discovery) can come
 * before texts but do not reorder them: the texts' lists are those of an index without names.
 * Texts without a spread (one text, or none) take the whole list's figures.
 */
const listOf = (list: string) => {
  const texts = 'CASE WHEN NOT name THEN score END';
  return `collect({nodeId: nodeId, score: score}) AS ${list},
    CASE WHEN stDevP(${texts}) > 0 THEN {top: max(score), low: min(${texts}), sd: stDevP(${texts})}
      ELSE {top: max(score), low: min(score), sd: stDevP(score)} END AS ${list}Of`;
};

/**
 * Hybrid search in one round trip: both candidate lists, fused per node by `fusion`
 * ({@link Fusion}).
 */
const hybridHits = (inIndex: InIndexFilter | undefined, names: boolean, kinds: ChunkKinds, fusion: Fusion) => {
  /** The most a list gives (its best's part), 0 for an empty list. */
  const most = (l: string, weight: string) =>
    `CASE WHEN size(${l}) = 0 THEN 0.0 ELSE ${scaled(fusion, `${l}Of`, `${l}Of.top`, weight)} END`;
  return `
CALL () {${vectorHits(inIndex, names, kinds)}
  RETURN ${listOf('vector')}${inIndex ? ', coalesce(max(chunkHits), 0) AS chunkHits' : ''}
}
CALL () {${fulltextHits(inIndex, names, kinds)}
  RETURN ${listOf('fulltext')}
}
WITH ${inIndex ? 'chunkHits, ' : ''}vector, vectorOf, fulltext, fulltextOf, ${most('vector', '$alpha')} + ${most('fulltext', '(1 - $alpha)')} AS most
UNWIND [x IN vector | {nodeId: x.nodeId, s: ${scaled(fusion, 'vectorOf', 'x.score', '$alpha')}}]
  + [x IN fulltext | {nodeId: x.nodeId, s: ${scaled(fusion, 'fulltextOf', 'x.score', '(1 - $alpha)')}}] AS hit
WITH ${inIndex ? 'chunkHits, ' : ''}most, hit.nodeId AS nodeId, sum(hit.s) AS s
WITH ${inIndex ? 'chunkHits, ' : ''}nodeId, CASE WHEN most > 0 THEN s / most ELSE 0.0 END AS score`;
};

/** How a search query is written beyond its mode: see {@link searchQuery}. */
export interface SearchQueryOptions {
  /** Read each result's `rels` and `degree` too (`$scan`). */
  withRels?: boolean;
  /** A compiled predicate over `n`: only candidates that pass it are ranked. */
  filter?: string;
  /** The filter the vector index applies itself (Cypher 25). */
  inIndex?: InIndexFilter;
  /** The index keeps its name chunks apart and holds some: the names' vector index (`$namesIndex`) and full-text field are asked too. */
  names?: boolean;
  /** Whether a list must tell names from texts ({@link ChunkKinds}); default `mixed`. */
  kinds?: ChunkKinds;
  /** Hybrid's fusion; default `z`. */
  fusion?: Fusion;
}

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
export function searchQuery(mode: 'vector' | 'fulltext' | 'hybrid', o: SearchQueryOptions = {}): string {
  const { withRels = false, filter, inIndex, names = false, kinds = 'mixed', fusion = 'z' } = o;
  const hits =
    mode === 'vector'
      ? vectorHits(inIndex, names, kinds)
      : mode === 'fulltext'
        ? fulltextHits(inIndex, names, kinds)
        : hybridHits(inIndex, names, kinds, fusion);
  const keep = inIndex && mode !== 'fulltext' ? ', chunkHits' : '';
  return (inIndex ? 'CYPHER 25' : '') + hits + (withRels ? rankedNodesWithRels(filter, keep) : rankedNodes(filter, keep));
}

/**
 * Whether an index's names' vector index holds any chunk: the full-text index (`$ftIndex`) has
 * a `nameText` (a name chunk's text and its vector are written together). One Lucene lookup,
 * however large the index; a search of an index without names then skips the names' HNSW query.
 */
export const HAS_NAMES = `CALL db.index.fulltext.queryNodes($ftIndex, 'nameText:*', {limit: 1}) YIELD node RETURN count(node) > 0 AS any`;

/** Which kind of index the database says does not exist, or null for any other error. */
export function missingIndexKind(err: unknown): 'vector' | 'fulltext' | null {
  const message = (err as { message?: unknown } | null)?.message;
  const m = typeof message === 'string' ? /no such (vector|fulltext) schema index/i.exec(message) : null;
  return m ? (m[1]!.toLowerCase() as 'vector' | 'fulltext') : null;
}
