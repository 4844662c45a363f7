/**
 * The sync's access to one index's chunk nodes (src/graph/dialect.ts describes them): which
 * nodes changed since their chunks were written, and per-node reads and writes. The change
 * check runs inside the database: each indexed node's values are compared with what its chunk
 * 0 records ({@link nodeSig}), so no text crosses the wire and nothing is tokenised for a node
 * that did not change. Its cost: a scan of the chunk label with one seek by element id per
 * indexed node, and a scan of the text nodes with one seek in the `nodeId` index each (new
 * nodes); its memory does not grow with the graph.
 */
import { autoCommit } from './auto-commit.js';
import neo4j, { type Driver, type Record as Neo4jRecord } from 'neo4j-driver';
import { chunkLabel, fulltextIndexName, nodeIndexName, quoteName, vectorPropertyOf } from '../dialect/names.js';
import { hasText, nodeSig, notIndexNode } from '../dialect/node-cypher.js';
import { AWAIT_INDEX, FULLTEXT_INDEX_STATE, indexStatements } from '../dialect/index-statements.js';
import { streamRecords } from './text-nodes.js';

/** A node whose chunks are out of step: new, changed or never recorded (`seq` set), or gone (`seq` null). */
export interface ChangedNode {
  /** `id(n)`, what the reads by id take; null when the node is deleted or has no text under the plan. */
  seq: number | null;
  nodeId: string;
}

/** One stored chunk of a node. */
export interface StoredChunk {
  /** elementId of the chunk node. */
  id: string;
  chunk: number;
  /** Its `chunkText` or `nameText`; null for a node's marker (a node with no text to index: see {@link NodeWrite.marker}). */
  text: string | null;
  /** Stored in `nameText` (a header alone). */
  nameOnly: boolean;
  /** Its property names (the carried filter fields among them). */
  keys: string[];
  /** Characters of its `sig` (chunk 0 only; 0 when none): what deleting it costs a transaction. */
  sigChars?: number;
}

/**
 * What one node's chunks become in {@link ChunkStore.writeNodes}, or one part of that: a node too
 * large for one transaction is written as several (src/vector-index/sync/node-sync.ts `splitWrites`).
 */
export interface NodeWrite {
  nodeId: string;
  /** Its stored chunk nodes that go (elementIds): those not kept. */
  stale: string[];
  /** Stored chunks kept as they are (their vectors unchanged), with the properties to set on them (null removes one). */
  kept: { id: string; props: Record<string, unknown> }[];
  /** New chunks: their properties (`chunk`, `chunkText` or `nameText`, `sig` on chunk 0, carried fields) and vectors. */
  rows: { props: Record<string, unknown>; vector: number[] }[];
  /**
   * For a node with nothing to index (no text, or content that failed): a chunk node with its
   * `sig` and no text or vector, in neither index, so the change check passes the node over
   * until it changes again.
   */
  marker?: Record<string, unknown>;
}

/** Reads and writes of one index's chunk nodes, by source node. */
export interface ChunkStore {
  /**
   * Creates the `nodeId` range index when missing and waits until it is online; says whether the
   * index's full-text index covers `nameText` (names in a field of their own) or `chunkText`
   * alone (an older layout: names stay in `chunkText` until a build moves them).
   */
  prepare(): Promise<{ namesApart: boolean }>;
  /**
   * The indexed nodes whose values differ from what their chunk 0 records (or that are gone, or
   * no longer text under the plan), then the text nodes that have no chunk. `params`: the text
   * plan's parameters with `carryProps` (src/vector-index/index/source.ts `readParams`).
   */
  changes(params: Record<string, unknown>): AsyncGenerator<ChangedNode>;
  /**
   * The same check for these nodes only (a change log named them): those whose values differ
   * from their chunk 0's record, that have text and no chunk, or that are gone (or no longer
   * text) and still have chunks. One seek by element id per node.
   */
  changesAmong(nodeIds: readonly string[], params: Record<string, unknown>): Promise<ChangedNode[]>;
  /**
   * The indexed nodes that are gone or no longer text under the plan, from the chunks' side
   * only: one seek by element id per indexed node, no value compared (a writer-kept property
   * names the nodes that changed; this finds the deleted ones it cannot name).
   */
  gone(params: Record<string, unknown>): AsyncGenerator<ChangedNode>;
  /** The stored chunks of these source nodes. */
  chunksOf(nodeIds: readonly string[]): Promise<Map<string, StoredChunk[]>>;
  /**
   * Writes these nodes' chunks in one transaction (their stale chunk nodes deleted, kept ones
   * updated, new ones created); returns the chunk nodes deleted. Not retried: a transient error
   * (a transaction over the server's memory limit among them) is the caller's to handle, at once.
   * `namesIndex`: the index keeps name chunks' vectors apart (`vectorPropertyOf` in ../dialect.ts, as its build recorded).
   */
  writeNodes(writes: readonly NodeWrite[], namesIndex: boolean): Promise<number>;
  /**
   * Deletes every chunk of these source nodes, {@link DELETE_ROWS} chunk nodes per transaction
   * (a deleted chunk costs its transaction its values), each node's chunk 0 last: a node cut short
   * keeps its chunk 0, so the next change check finds it gone again. Returns how many.
   */
  deleteNodes(nodeIds: readonly string[]): Promise<number>;
  /**
   * Which of the carried properties `props` some text node still holds as a value a filtered
   * vector index cannot take (a list, a point, a string over `maxChars`).
   */
  unindexable(params: Record<string, unknown>, props: readonly string[], maxChars: number): Promise<string[]>;
}

/** Records the driver pulls per round trip of the change check. */
const FETCH_SIZE = 1_000;
/** Chunk nodes one transaction of {@link ChunkStore.deleteNodes} deletes (a chunk of 512 dimensions and 1,000 characters: ~5 KB). */
const DELETE_ROWS = 2_000;

/** Where a chunk store reads and writes: the database, and the quoted chunk label of its index. */
interface ChunkTarget {
  driver: Driver;
  database: string;
  /** `__Chunk_<indexName>`, quoted for Cypher. */
  label: string;
}

/** Creates the `nodeId` range index when missing, waits for it, and reads which fields the full-text index covers. */
async function prepareIndexes({ driver, database }: ChunkTarget, indexName: string): Promise<{ namesApart: boolean }> {
  const run = (cypher: string, params: Record<string, unknown> = {}) => driver.executeQuery(cypher, params, { database });
  await run(indexStatements(indexName).createNodeIndex);
  await run(AWAIT_INDEX, { name: nodeIndexName(indexName), seconds: neo4j.int(600) });
  const ft = (await run(FULLTEXT_INDEX_STATE, { name: fulltextIndexName(indexName) })).records[0];
  return { namesApart: ((ft?.get('properties') as string[] | null) ?? []).includes('nameText') };
}

/** A change query's row (`nodeId`, `seq`) as a changed node. */
function changedNode(r: Neo4jRecord): ChangedNode {
  const seq = r.get('seq');
  return { nodeId: r.get('nodeId') as string, seq: seq === null ? null : Number(seq) };
}

/** Streams a change query's rows (the driver pauses it while the sync works through a window). */
async function* streamChanges(
  { driver, database }: ChunkTarget,
  cypher: string,
  params: Record<string, unknown>,
): AsyncGenerator<ChangedNode> {
  for await (const r of streamRecords(driver, database, cypher, params, FETCH_SIZE)) yield changedNode(r);
}

/**
 * The indexed nodes whose values differ from their chunk 0's `sig`, from the chunks' side: one
 * seek by element id per indexed node, the values compared in place. Equal values mean the same
 * labels and text property, so whether the node still has text under the plan is asked only of
 * the nodes that differ.
 */
const changedNodesQuery = (label: string) => `MATCH (c:${label}) WHERE c.chunk = 0
OPTIONAL MATCH (n) WHERE elementId(n) = c.nodeId
WITH c, n WHERE n IS NULL OR c.sig IS NULL OR c.sig <> ${nodeSig('n')}
WITH c, n, n IS NOT NULL AND ${hasText('n')} AND ${notIndexNode('n')} AS present
RETURN c.nodeId AS nodeId, CASE WHEN present THEN id(n) END AS seq`;

/**
 * The text nodes with no chunk, one seek in the `nodeId` range index each (the id is projected
 * first: 2026.x plans `{nodeId: elementId(n)}` inside the subquery as a label scan, which made
 * the check quadratic there); with labels chosen
 * (`only`), a scan of those labels instead of every node of the database. Not a set of every
 * indexed id collected first: that list grows with the graph and, on a large one, goes past the
 * server's per-transaction memory limit (`db.memory.transaction.max`) and fails every pass
 * (docs/benchmarks.md, "3 × 10^6 nodes: the check's memory, and the logs").
 */
const newNodesQuery = (
  label: string,
  only: string[] | null,
) => `MATCH (n${only ? `:${only.map(quoteName).join('|')}` : ''}) WHERE ${hasText('n')} AND ${notIndexNode('n')}
WITH n, elementId(n) AS nodeId WHERE NOT EXISTS { MATCH (c:${label} {nodeId: nodeId}) WHERE c.chunk = 0 }
RETURN nodeId, id(n) AS seq`;

/** {@link ChunkStore.changes}: the changed nodes, then the new ones. */
async function* changedNodes(target: ChunkTarget, params: Record<string, unknown>): AsyncGenerator<ChangedNode> {
  yield* streamChanges(target, changedNodesQuery(target.label), params);
  const only = Array.isArray(params.only) && params.only.length ? (params.only as string[]) : null;
  yield* streamChanges(target, newNodesQuery(target.label, only), params);
}

/** {@link ChunkStore.gone}: {@link changedNodesQuery} without the comparison of values. */
const goneNodesQuery = (label: string) => `MATCH (c:${label}) WHERE c.chunk = 0
OPTIONAL MATCH (n) WHERE elementId(n) = c.nodeId
WITH c, n WHERE n IS NULL OR NOT (${hasText('n')} AND ${notIndexNode('n')})
RETURN c.nodeId AS nodeId, null AS seq`;

/** {@link ChunkStore.changesAmong}: the check of {@link changedNodesQuery} and {@link newNodesQuery}, for named nodes. */
const namedNodesQuery = (label: string) => `UNWIND $ids AS id
OPTIONAL MATCH (n) WHERE elementId(n) = id
CALL (id) { OPTIONAL MATCH (c:${label} {nodeId: id}) WHERE c.chunk = 0 RETURN c LIMIT 1 }
WITH id, n, c WHERE (c IS NULL AND n IS NOT NULL) OR (c IS NOT NULL AND (n IS NULL OR c.sig IS NULL OR c.sig <> ${nodeSig('n')}))
WITH id, n, c, n IS NOT NULL AND ${hasText('n')} AND ${notIndexNode('n')} AS present
WHERE present OR c IS NOT NULL
RETURN id AS nodeId, CASE WHEN present THEN id(n) END AS seq`;

/** Nodes a change log named, checked as the scan checks them. */
async function changesAmong(
  { driver, database, label }: ChunkTarget,
  nodeIds: readonly string[],
  params: Record<string, unknown>,
): Promise<ChangedNode[]> {
  if (!nodeIds.length) return [];
  const { records } = await driver.executeQuery(namedNodesQuery(label), { ...params, ids: nodeIds }, { database, routing: 'READ' });
  return records.map(changedNode);
}

/** {@link ChunkStore.chunksOf}: the stored chunks of these source nodes, by source node. */
async function readChunks({ driver, database, label }: ChunkTarget, nodeIds: readonly string[]): Promise<Map<string, StoredChunk[]>> {
  const { records } = await driver.executeQuery(
    `UNWIND $ids AS id MATCH (c:${label} {nodeId: id})
RETURN id, elementId(c) AS chunkId, c.chunk AS chunk, coalesce(c.chunkText, c.nameText) AS text, c.nameText IS NOT NULL AS nameOnly, keys(c) AS keys,
  CASE WHEN c.chunk = 0 THEN reduce(t = 0, s IN coalesce(c.sig, []) | t + size(s)) ELSE 0 END AS sigChars`,
    { ids: nodeIds },
    { database, routing: 'READ' },
  );
  const out = new Map<string, StoredChunk[]>();
  for (const r of records) {
    const id = r.get('id') as string;
    const list = out.get(id) ?? [];
    list.push({
      id: r.get('chunkId') as string,
      chunk: Number(r.get('chunk')),
      text: r.get('text') as string | null,
      nameOnly: r.get('nameOnly') as boolean,
      keys: r.get('keys') as string[],
      sigChars: Number(r.get('sigChars')),
    });
    out.set(id, list);
  }
  return out;
}

/**
 * Per node: its stale chunk nodes deleted, kept ones updated in place (their vectors and index
 * entries untouched), markers and new chunks created, the new ones with their vectors.
 */
const writeNodesQuery = (label: string) => `UNWIND $writes AS w
CALL (w) {
  UNWIND w.stale AS id
  MATCH (old:${label}) WHERE elementId(old) = id
  DELETE old
}
CALL (w) {
  UNWIND w.kept AS k
  MATCH (c:${label}) WHERE elementId(c) = k.id
  SET c += k.props
}
CALL (w) {
  UNWIND w.markers AS m
  CREATE (c:${label} {nodeId: w.nodeId, batch: 'sync'})
  SET c += m
}
CALL (w) {
  UNWIND w.rows AS row
  CREATE (c:${label} {nodeId: w.nodeId, batch: 'sync'})
  SET c += row.props
  WITH c, row
  CALL db.create.setNodeVectorProperty(c, ${vectorPropertyOf('c')}, row.vector)
}`;

/** {@link ChunkStore.writeNodes}: one transaction for these writes; returns the chunk nodes deleted. */
async function writeNodes(target: ChunkTarget, writes: readonly NodeWrite[], namesIndex: boolean): Promise<number> {
  const rows = writes.map((w) => ({ nodeId: w.nodeId, stale: w.stale, kept: w.kept, rows: w.rows, markers: w.marker ? [w.marker] : [] }));
  return autoCommit(target, writeNodesQuery(target.label), { writes: rows, namesIndex });
}

/** {@link ChunkStore.deleteNodes}: each node's chunk 0 last, {@link DELETE_ROWS} per transaction. */
async function deleteNodes(target: ChunkTarget, nodeIds: readonly string[]): Promise<number> {
  return autoCommit(
    target,
    `UNWIND $ids AS id MATCH (c:${target.label} {nodeId: id})
WITH c ORDER BY c.chunk = 0
CALL (c) { DELETE c } IN TRANSACTIONS OF ${DELETE_ROWS} ROWS`,
    { ids: nodeIds },
  );
}

/** {@link ChunkStore.unindexable}: one text node per property is enough to name it. */
async function unindexable(
  { driver, database }: ChunkTarget,
  params: Record<string, unknown>,
  props: readonly string[],
  maxChars: number,
): Promise<string[]> {
  if (!props.length) return [];
  const { records } = await driver.executeQuery(
    `UNWIND $props AS k
CALL (k) {
  MATCH (n) WHERE n[k] IS NOT NULL AND (n[k] IS :: LIST<ANY> OR n[k] IS :: POINT OR (n[k] IS :: STRING AND size(n[k]) > $maxChars))
    AND ${hasText('n')} AND ${notIndexNode('n')}
  RETURN n LIMIT 1
}
RETURN DISTINCT k`,
    { ...params, props, maxChars: neo4j.int(maxChars) },
    { database, routing: 'READ' },
  );
  return records.map((r) => r.get('k') as string).sort();
}

/** The chunk store of index `indexName` in `database`. */
export function createChunkStore(driver: Driver, database: string, indexName: string): ChunkStore {
  const target: ChunkTarget = { driver, database, label: quoteName(chunkLabel(indexName)) };
  return {
    prepare: () => prepareIndexes(target, indexName),
    changes: (params) => changedNodes(target, params),
    changesAmong: (nodeIds, params) => changesAmong(target, nodeIds, params),
    gone: (params) => streamChanges(target, goneNodesQuery(target.label), params),
    chunksOf: (nodeIds) => readChunks(target, nodeIds),
    writeNodes: (writes, namesIndex) => writeNodes(target, writes, namesIndex),
    deleteNodes: (nodeIds) => deleteNodes(target, nodeIds),
    unindexable: (params, props, maxChars) => unindexable(target, params, props, maxChars),
  };
}
