/**
 * The names of an index's parts (src/graph/dialect.ts describes the storage): its chunk label,
 * its schema indexes, the properties its chunks keep their vectors and text in, and the prefix
 * that marks index data apart from the user's graph.
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

/** Name of the range index on the chunk nodes' `nodeId` property (the sync's per-node work). */
export function nodeIndexName(indexName: string): string {
  return `${indexName}__node`;
}

/**
 * The vector property of a name chunk (a header alone), indexed by {@link namesIndexName} apart
 * from the texts' `embedding`. In one HNSW index, names that far outnumber texts crowd the texts
 * out of a query's nearest chunks, and a text missing from hybrid's vector list loses its vector
 * part; asked apart, each index gives its own `$k` nearest (docs/benchmarks.md, "What is left:
 * the vector list").
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
 * Lucene keeps BM25's length and term statistics per field, so thousands of two-word names do
 * not lower the texts' mean length or change how texts rank among themselves (docs/benchmarks.md,
 * "After: names in a field of their own"); a query searches both fields (Neo4j parses it over
 * every field of the index).
 */
export const FULLTEXT_FIELDS = ['chunkText', 'nameText'] as const;
