/**
 * The floor `bench:search --peer` compares the service with: one `/embeddings` call, then the raw
 * `db.index.vector.queryNodes(index, top_k, vector)` in an auto-commit session (RUN and PULL in
 * one round trip, the cheapest call the driver has). What LangChain's `Neo4jVector` or
 * neo4j-graphrag's `VectorRetriever` do per query: `top_k` chunk rows, no grouping per node.
 */
import neo4j, { type Driver, type Record as Neo4jRecord } from 'neo4j-driver';

/** The peers' query: `top_k` chunk hits, no grouping per node. */
export const FLOOR_QUERY =
  'CALL db.index.vector.queryNodes($index, $k, $vector) YIELD node, score RETURN coalesce(node.chunkText, node.nameText) AS text, node.nodeId AS nodeId, score';

/** Where the floor's two calls go. */
export interface FloorTarget {
  driver: Driver;
  database: string;
  /** The model server's `/embeddings` URL. */
  embeddingsUrl: string;
  model: string;
  index: string;
  topK: number;
}

/** One floor search of `query`: its chunk rows, as the driver gives them (the in-process floor reads nothing more). */
export async function floorSearch(t: FloorTarget, query: string): Promise<Neo4jRecord[]> {
  const res = await fetch(t.embeddingsUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: t.model, input: [query] }),
  });
  const json = (await res.json()) as { data: { embedding: number[] }[] };
  const session = t.driver.session({ database: t.database, defaultAccessMode: neo4j.session.READ });
  try {
    const { records } = await session.run(FLOOR_QUERY, { index: t.index, k: neo4j.int(t.topK), vector: json.data[0]!.embedding });
    if (!records.length) throw new Error('no rows');
    return records;
  } finally {
    await session.close();
  }
}
