/**
 * The Cypher of an index's own schema and nodes (src/graph/dialect.ts describes the storage): its
 * DDL, the batch writes and deletes of the build, the meta node a build records, and the index
 * states a build waits on.
 */
import {
  FULLTEXT_FIELDS,
  INDEX_LABEL_PREFIX,
  NAME_VECTOR,
  batchIndexName,
  chunkLabel,
  fulltextIndexName,
  namesIndexName,
  nodeIndexName,
  quoteName,
  vectorPropertyOf,
} from './names.js';

/** DDL and writes of one index, parameterised by its name. */
export interface IndexStatements {
  /** Range index on `batch`, created before the first write (IF NOT EXISTS). */
  createBatchIndex: string;
  /** Range index on `nodeId` (IF NOT EXISTS): the sync reads and replaces one node's chunks. */
  createNodeIndex: string;
  /** Number of chunk nodes of one batch (`$key`). */
  countBatch: string;
  /** Number of chunk nodes of the index (count store: no scan). */
  countChunks: string;
  /**
   * Replaces one batch in one transaction: deletes its chunk nodes, then creates one node per
   * row of `$rows` ({nodeId, chunk, text, name, vector}: `text` or `name` null) storing the
   * vector as a float32 list, a name's in {@link NAME_VECTOR} when `$namesIndex` ({@link vectorPropertyOf}).
   */
  writeBatch: string;
  /** {@link writeBatch} for an index whose chunks carry filter values: each row's `carry` map is set on its node. */
  writeCarriedBatch: string;
  /** Deletes chunk nodes whose batch is not in `$keys` (auto-commit transaction only). */
  deleteStale: string;
  /** Creates the cosine vector index of `$dims` dimensions, HNSW `$m` and `$ef` (IF NOT EXISTS). */
  createVectorIndex: string;
  /**
   * The same index declaring chunk properties `fields` as filter properties (Cypher 25, servers
   * whose vector indexes take them: `ServerInfo.vectorFilters`); `fields` are written into the text, quoted.
   */
  createFilteredVectorIndex(fields: readonly string[]): string;
  /** Drops the vector index (before re-creating it with other dimensions). */
  dropVectorIndex: string;
  /** {@link createVectorIndex} for the names' index on {@link NAME_VECTOR} (`<name>__names`). */
  createNamesIndex: string;
  /** {@link createFilteredVectorIndex} for the names' index. */
  createFilteredNamesIndex(fields: readonly string[]): string;
  /** Drops the names' vector index. */
  dropNamesIndex: string;
  /** Creates the full-text index on {@link FULLTEXT_FIELDS} with analyzer `$analyzer` (IF NOT EXISTS). */
  createFulltextIndex: string;
  /** Drops the full-text index (before re-creating it with another analyzer). */
  dropFulltextIndex: string;
  /** Drops the batch range index. */
  dropBatchIndex: string;
  /** Drops the node range index. */
  dropNodeIndex: string;
  /** Deletes every chunk node of the index (auto-commit transaction only). */
  deleteAll: string;
}

/** The statements for index `indexName`. */
export function indexStatements(indexName: string): IndexStatements {
  const label = quoteName(chunkLabel(indexName));
  const writeBatch = `
OPTIONAL MATCH (old:${label} {batch: $key})
WITH collect(old) AS olds
FOREACH (o IN olds | DELETE o)
WITH 1 AS one
UNWIND $rows AS row
CREATE (c:${label} {nodeId: row.nodeId, chunk: row.chunk, batch: $key, chunkText: row.text, nameText: row.name, sig: row.sig})`;
  const setVector = `
WITH c, row
CALL db.create.setNodeVectorProperty(c, ${vectorPropertyOf('c')}, row.vector)`;
  const vectorIndex = (withFields: string, name = indexName, prop = 'embedding') => `
CREATE VECTOR INDEX ${quoteName(name)} IF NOT EXISTS
FOR (c:${label}) ON (c.${prop})${withFields}
OPTIONS {indexConfig: {
  \`vector.dimensions\`: $dims, \`vector.similarity_function\`: 'cosine',
  \`vector.hnsw.m\`: $m, \`vector.hnsw.ef_construction\`: $ef}}`;
  const withFields = (fields: readonly string[]) => ` WITH [${fields.map((f) => `c.${quoteName(f)}`).join(', ')}]`;
  return {
    createBatchIndex: `CREATE INDEX ${quoteName(batchIndexName(indexName))} IF NOT EXISTS FOR (c:${label}) ON (c.batch)`,
    createNodeIndex: `CREATE INDEX ${quoteName(nodeIndexName(indexName))} IF NOT EXISTS FOR (c:${label}) ON (c.nodeId)`,
    countBatch: `MATCH (c:${label} {batch: $key}) RETURN count(c) AS n`,
    countChunks: `MATCH (c:${label}) RETURN count(c) AS n`,
    writeBatch: `${writeBatch}${setVector}`,
    writeCarriedBatch: `${writeBatch}
SET c += row.carry${setVector}`,
    deleteStale: `
MATCH (c:${label}) WHERE NOT c.batch IN $keys
CALL (c) { DELETE c } IN TRANSACTIONS OF 10000 ROWS`,
    createVectorIndex: vectorIndex(''),
    createFilteredVectorIndex: (fields) => `CYPHER 25${vectorIndex(withFields(fields))}`,
    dropVectorIndex: `DROP INDEX ${quoteName(indexName)} IF EXISTS`,
    createNamesIndex: vectorIndex('', namesIndexName(indexName), NAME_VECTOR),
    createFilteredNamesIndex: (fields) => `CYPHER 25${vectorIndex(withFields(fields), namesIndexName(indexName), NAME_VECTOR)}`,
    dropNamesIndex: `DROP INDEX ${quoteName(namesIndexName(indexName))} IF EXISTS`,
    createFulltextIndex: `
CREATE FULLTEXT INDEX ${quoteName(fulltextIndexName(indexName))} IF NOT EXISTS
FOR (c:${label}) ON EACH [${FULLTEXT_FIELDS.map((f) => `c.${f}`).join(', ')}]
OPTIONS {indexConfig: {\`fulltext.analyzer\`: $analyzer}}`,
    dropFulltextIndex: `DROP INDEX ${quoteName(fulltextIndexName(indexName))} IF EXISTS`,
    dropBatchIndex: `DROP INDEX ${quoteName(batchIndexName(indexName))} IF EXISTS`,
    dropNodeIndex: `DROP INDEX ${quoteName(nodeIndexName(indexName))} IF EXISTS`,
    deleteAll: `MATCH (c:${label}) CALL (c) { DELETE c } IN TRANSACTIONS OF 10000 ROWS`,
  };
}

/**
 * What a build records of index `$index` on one `__IndexMeta` node (index data, hidden like the
 * chunks): `plan` (the text plan, JSON), `settings` (model, chunking, batch size, text format and
 * choice, JSON) and `builtAt`. The sync reads it to index new and changed nodes as the build did.
 */
export const WRITE_INDEX_META = `
MERGE (m:${INDEX_LABEL_PREFIX}IndexMeta {index: $index})
SET m.plan = $plan, m.settings = $settings, m.builtAt = datetime()`;

/** The meta node of `$index` (no rows until a build has recorded one). */
export const READ_INDEX_META = `
MATCH (m:${INDEX_LABEL_PREFIX}IndexMeta {index: $index})
RETURN m.plan AS plan, m.settings AS settings, toString(m.builtAt) AS builtAt`;

/** The text plans of the graph's indexes, the latest build first, at most 20 (the names `/graph/node` shows). */
export const INDEX_PLANS = `
MATCH (m:${INDEX_LABEL_PREFIX}IndexMeta) WHERE m.plan IS :: STRING NOT NULL
RETURN m.plan AS plan ORDER BY m.builtAt DESC LIMIT 20`;

/** Every index of the graph that has a meta node, with its settings (the sync's list of work). */
export const LIST_INDEX_META = `
MATCH (m:${INDEX_LABEL_PREFIX}IndexMeta) RETURN m.index AS index, m.settings AS settings ORDER BY m.index`;

/** Deletes the meta node of `$index`. */
export const DELETE_INDEX_META = `MATCH (m:${INDEX_LABEL_PREFIX}IndexMeta {index: $index}) DELETE m`;

/** Blocks until the index `$name` is online, at most `$seconds`. */
export const AWAIT_INDEX = 'CALL db.awaitIndex($name, $seconds)';

/** State of a vector index by name, and its properties (`embedding`, then any filter properties); no rows when it does not exist. */
export const VECTOR_INDEX_STATE = `
SHOW VECTOR INDEXES YIELD name, state, populationPercent, properties, options
WHERE name = $name
RETURN state, populationPercent, properties, options.indexConfig.\`vector.dimensions\` AS dims,
  options.indexConfig.\`vector.hnsw.m\` AS m, options.indexConfig.\`vector.hnsw.ef_construction\` AS ef`;

/** State, analyzer and properties of a full-text index by name (no rows when it does not exist). */
export const FULLTEXT_INDEX_STATE = `
SHOW FULLTEXT INDEXES YIELD name, state, populationPercent, options, properties
WHERE name = $name
RETURN state, populationPercent, options.indexConfig.\`fulltext.analyzer\` AS analyzer, properties`;

/**
 * Transaction metadata on every write of the index's own nodes (chunks, the meta node): a change
 * log on the server (plugin/, `graphchat.changes`) leaves such transactions out, so the sync is
 * not told of its own writes.
 */
export const INDEX_WRITE_METADATA: Readonly<Record<string, unknown>> = Object.freeze({ graphChatIndex: true });
