/**
 * Every piece of Neo4j-specific Cypher behind the vector index lives here and in ./dialect/
 * (vector index DDL, `db.create.setNodeVectorProperty`, `db.index.vector.queryNodes`, type
 * predicates, `CALL () { } IN TRANSACTIONS`; subqueries import variables by the scope clause
 * `CALL (x) { }`, since `CALL { WITH x }` is deprecated on 5.26 and the calendar releases), so
 * that another Bolt database (Memgraph) can be added by writing a second dialect rather than
 * editing the build and the search. By concern: ./dialect/names.ts, the names of an index's
 * parts; ./dialect/node-cypher.ts, fragments over a node of the user's graph;
 * ./dialect/search-query.ts, the search queries; ./dialect/index-statements.ts, the index's own
 * DDL, writes and meta node; and this file, the reads of the user's text nodes and of a node by
 * id. Each is imported where its names are defined; files in ./dialect/ import one another,
 * never this file, so there is no import cycle.
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

import { quoteName } from './dialect/names.js';
import { NODE_RELS, dbIdOf, hasText, nameFieldsOf, nodeSig, notIndexNode, textFields } from './dialect/node-cypher.js';

const NOT_INDEX_NODE = notIndexNode('n');

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

/**
 * The tail of {@link NODE_FACTS_BY_ID} and {@link NODE_FACTS_BY_DBID}, per node `n` (`id` its dbId):
 * `props`, its own values of the kinds a fact can be (src/graph/shape/own-values.ts), each read
 * once: strings of at most `$chars` characters, lists of at most `$items` items (longer strings
 * in them null), numbers, booleans and temporal values; anything else (a long text, a blob, a
 * point, a vector) null. `groups`: its first `$scan` relationships counted by type, direction
 * and the other end's first label; `degree` from the count store.
 */
const FACT_TAIL = `
CALL (n) {
  MATCH (n)-[r]-(m) WHERE ${notIndexNode('m')}
  WITH n, r, m LIMIT $scan
  WITH type(r) AS type, startNode(r) = n AS out, head(labels(m)) AS label, count(*) AS count
  RETURN collect({type: type, out: out, label: label, count: count}) AS groups
}
RETURN id AS dbId, elementId(n) AS nodeId, labels(n) AS labels, groups, COUNT { (n)--() } AS degree,
  [k IN keys(n) WHERE NOT k STARTS WITH '__' | [k, [x IN [n[k]] | CASE
    WHEN x IS :: STRING THEN CASE WHEN size(x) <= $chars THEN x END
    WHEN x IS :: BOOLEAN | INTEGER | FLOAT | DATE | LOCAL DATETIME | ZONED DATETIME | LOCAL TIME | ZONED TIME | DURATION THEN x
    WHEN x IS :: LIST<ANY> THEN CASE WHEN size(x) <= $items THEN [e IN x | CASE WHEN e IS :: STRING AND size(e) > $chars THEN null ELSE e END] END
  END][0]]] AS props`;

/**
 * What a lookup answer shows of the nodes whose database ids are `$ids`, as results report them
 * ({@link dbIdOf}: those without an integer `dbId` property), by id (no scan); see {@link FACT_TAIL}.
 */
export const NODE_FACTS_BY_ID = `
UNWIND $ids AS id
MATCH (n) WHERE id(n) = id AND ${dbIdOf('n')} = id AND ${NOT_INDEX_NODE}${FACT_TAIL}`;

/** The same for nodes whose integer `dbId` property is in `$ids` (the oldest of those sharing one). */
export const NODE_FACTS_BY_DBID = `
MATCH (n) WHERE n.dbId IN $ids AND n.dbId IS :: INTEGER AND ${NOT_INDEX_NODE}
WITH n.dbId AS id, n ORDER BY id(n)
WITH id, head(collect(n)) AS n${FACT_TAIL}`;

/**
 * Exact counts of node `$nodeId`'s (an elementId) relationships of each of `keys` (`>TYPE`:
 * outgoing, `<TYPE`: incoming), as `counts` in the same order: the count store's degree per
 * type, whatever the node's size. Types are written out (a pattern cannot take one as a parameter).
 */
export function typeCountsQuery(keys: readonly string[]): string {
  const count = (key: string) => {
    const type = quoteName(key.slice(1));
    return key[0] === '>' ? `COUNT { (n)-[:${type}]->() }` : `COUNT { (n)<-[:${type}]-() }`;
  };
  return `MATCH (n) WHERE elementId(n) = $nodeId RETURN [${keys.map(count).join(', ')}] AS counts`;
}
