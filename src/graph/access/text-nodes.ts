/**
 * Reads of the nodes an index is made from (the queries are src/graph/dialect.ts's text-node
 * queries): the build's single stream, the ids after a failed stream, rows by id, and counts.
 * What a row becomes (text, chunks) is src/vector-index/'s business; this file only talks to the
 * database, streaming so that memory stays bounded however large the graph is.
 */
import neo4j, { type Driver, type Record as Neo4jRecord } from 'neo4j-driver';
import { COUNT_TEXT_NODES, TEXT_NODE_IDS, TEXT_NODE_LABELS, TEXT_NODES, TEXT_NODES_BY_ID } from '../dialect.js';

/** Records the driver pulls per round trip; the stream pauses when its buffer is full. */
const FETCH_SIZE = 500;

/**
 * Streams a read query's records from a session of its own, closed when the stream ends or is
 * left; the driver pulls `fetchSize` records per round trip and pauses while the consumer works.
 */
export async function* streamRecords(
  driver: Driver,
  database: string,
  cypher: string,
  params: Record<string, unknown>,
  fetchSize = FETCH_SIZE,
): AsyncGenerator<Neo4jRecord> {
  const session = driver.session({ database, defaultAccessMode: neo4j.session.READ, fetchSize });
  try {
    yield* session.run(cypher, params);
  } finally {
    await session.close();
  }
}

/** Every text node's row ({@link TEXT_NODES}), in node id order; the stream fails when one node's values make the query fail. */
export function streamTextNodeRows(driver: Driver, database: string, params: Record<string, unknown>): AsyncGenerator<Neo4jRecord> {
  return streamRecords(driver, database, TEXT_NODES, params);
}

/** `seq` (`id(n)`) and `nodeId` of the text nodes after id `after`, in order, reading no value ({@link TEXT_NODE_IDS}). */
export async function* textNodeIdsAfter(
  driver: Driver,
  database: string,
  params: Record<string, unknown>,
  after: number,
): AsyncGenerator<{ seq: number; nodeId: string }> {
  for await (const r of streamRecords(driver, database, TEXT_NODE_IDS, { ...params, after: neo4j.int(after) })) {
    yield { seq: Number(r.get('seq')), nodeId: r.get('nodeId') as string };
  }
}

/** The text-node rows of the nodes whose `id(n)` is in `seqs` (a lookup by id, no scan). */
export async function readTextNodeRows(
  driver: Driver,
  database: string,
  params: Record<string, unknown>,
  seqs: readonly number[],
): Promise<Neo4jRecord[]> {
  const ids = seqs.map((s) => neo4j.int(s));
  return (await driver.executeQuery(TEXT_NODES_BY_ID, { ...params, ids }, { database, routing: 'READ' })).records;
}

/** Number of text nodes under the plan's parameters. */
export async function countTextNodes(driver: Driver, database: string, params: Record<string, unknown>): Promise<number> {
  const { records } = await driver.executeQuery(COUNT_TEXT_NODES, params, { database, routing: 'READ' });
  return Number(records[0]?.get('total') ?? 0);
}

/** The labels of the text nodes, most common first, at most `max`. */
export async function textNodeLabels(driver: Driver, database: string, params: Record<string, unknown>, max: number): Promise<string[]> {
  const { records } = await driver.executeQuery(TEXT_NODE_LABELS, { ...params, max: neo4j.int(max) }, { database, routing: 'READ' });
  return (records[0]?.get('labels') ?? []) as string[];
}
