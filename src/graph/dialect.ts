/**
 * Every piece of Neo4j-specific Cypher behind the vector index lives here (vector index DDL,
 * `db.create.setNodeVectorProperty`, `db.index.vector.queryNodes`, type predicates,
 * `CALL { } IN TRANSACTIONS`), so that another Bolt database (Memgraph) can be added by writing
 * a second dialect rather than editing the build and the search.
 *
 * Storage design: the vectors of index `<name>` are kept on separate chunk nodes labelled
 * `__Chunk_<name>` (one label per index, so several models can be indexed side by side for the
 * same graph), with properties `nodeId` (the source node's elementId), `chunk` (chunk number
 * within the source text), `batch` (the content key of the embedding batch it came from) and
 * `embedding` (float32 list). There is no relationship to the source node: a relationship
 * would make a user's plain `DELETE n` fail and would show up among the graph's relationship
 * types. Schema overviews hide index data by one rule: {@link isIndexLabel}. Between builds a
 * chunk may point at a node that was deleted (search skips it: the node or its text is gone)
 * or, if Neo4j reused the deleted node's id, at a new node; the next build removes both kinds.
 */

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

/**
 * Number of nodes whose text property (`$prop`) holds a string; used for progress and ETA.
 * `IS :: STRING NOT NULL` skips nodes where the property is a number or a list.
 */
export const COUNT_TEXT_NODES = 'MATCH (n) WHERE n[$prop] IS :: STRING NOT NULL RETURN count(n) AS total';

/**
 * Every text node, in node id order (stable for an unchanged graph): the database scans once
 * and sorts node references only; the text is read as records are pulled. Chunk nodes never
 * match (they carry no text property).
 */
export const TEXT_NODES = `
MATCH (n) WHERE n[$prop] IS :: STRING NOT NULL
WITH n ORDER BY id(n)
RETURN elementId(n) AS nodeId, n[$prop] AS text`;

/** DDL and writes of one index, parameterised by its name. */
export interface IndexStatements {
  /** Range index on `batch`, created before the first write (IF NOT EXISTS). */
  createBatchIndex: string;
  /** Number of chunk nodes of one batch (`$key`). */
  countBatch: string;
  /**
   * Replaces one batch in one transaction: deletes its chunk nodes, then creates one node per
   * row of `$rows` ({nodeId, chunk, vector}) storing the vector as a float32 list.
   */
  writeBatch: string;
  /** Deletes chunk nodes whose batch is not in `$keys` (auto-commit transaction only). */
  deleteStale: string;
  /** Creates the cosine vector index of `$dims` dimensions, HNSW `$m` and `$ef` (IF NOT EXISTS). */
  createVectorIndex: string;
  /** Drops the vector index (before re-creating it with other dimensions). */
  dropVectorIndex: string;
}

/** The statements for index `indexName`. */
export function indexStatements(indexName: string): IndexStatements {
  const label = quoteName(chunkLabel(indexName));
  return {
    createBatchIndex: `CREATE INDEX ${quoteName(batchIndexName(indexName))} IF NOT EXISTS FOR (c:${label}) ON (c.batch)`,
    countBatch: `MATCH (c:${label} {batch: $key}) RETURN count(c) AS n`,
    writeBatch: `
OPTIONAL MATCH (old:${label} {batch: $key})
WITH collect(old) AS olds
FOREACH (o IN olds | DELETE o)
WITH 1 AS one
UNWIND $rows AS row
CREATE (c:${label} {nodeId: row.nodeId, chunk: row.chunk, batch: $key})
WITH c, row
CALL db.create.setNodeVectorProperty(c, 'embedding', row.vector)`,
    deleteStale: `
MATCH (c:${label}) WHERE NOT c.batch IN $keys
CALL { WITH c DELETE c } IN TRANSACTIONS OF 10000 ROWS`,
    createVectorIndex: `
CREATE VECTOR INDEX ${quoteName(indexName)} IF NOT EXISTS
FOR (c:${label}) ON (c.embedding)
OPTIONS {indexConfig: {
  \`vector.dimensions\`: $dims, \`vector.similarity_function\`: 'cosine',
  \`vector.hnsw.m\`: $m, \`vector.hnsw.ef_construction\`: $ef}}`,
    dropVectorIndex: `DROP INDEX ${quoteName(indexName)} IF EXISTS`,
  };
}

/** Blocks until the index `$name` is online, at most `$seconds`. */
export const AWAIT_INDEX = 'CALL db.awaitIndex($name, $seconds)';

/** State of a vector index by name (no rows when it does not exist). */
export const VECTOR_INDEX_STATE = `
SHOW VECTOR INDEXES YIELD name, state, populationPercent, options
WHERE name = $name
RETURN state, populationPercent, options.indexConfig.\`vector.dimensions\` AS dims,
  options.indexConfig.\`vector.hnsw.m\` AS m, options.indexConfig.\`vector.hnsw.ef_construction\` AS ef`;

/**
 * Vector search over index `$index`: asks it for `$k` chunk hits, keeps the best score per source node,
 * drops nodes that are gone or lost their text, and returns the `$topK` best. `dbId` is the
 * node's own integer `dbId` property when it has one (Reactome-style graphs), else the
 * database's node id; `displayName` falls back to `name`, then `title`.
 */
export const VECTOR_SEARCH = `
CALL db.index.vector.queryNodes($index, $k, $vector) YIELD node AS c, score
WITH c.nodeId AS nodeId, max(score) AS score
MATCH (n) WHERE elementId(n) = nodeId AND n[$prop] IS :: STRING NOT NULL
WITH n, score ORDER BY score DESC LIMIT $topK
RETURN CASE WHEN n.dbId IS :: INTEGER NOT NULL THEN n.dbId ELSE id(n) END AS dbId,
  toString(coalesce(n.displayName, n.name, n.title, '')) AS displayName,
  n[$prop] AS text, score, labels(n) AS labels`;

/** True when the database says the named vector index does not exist. */
export function isMissingIndexError(err: unknown): boolean {
  const message = (err as { message?: unknown } | null)?.message;
  return typeof message === 'string' && /no such vector schema index/i.test(message);
}
