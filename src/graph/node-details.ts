/**
 * One node as a person opening a search result wants to see it: labels, properties (vectors
 * and `__` internals left out, long strings and lists cut with a marker) and a bounded choice
 * of neighbours. One read transaction with a server-side timeout; the Cypher is fixed, the id
 * a bound integer, so nothing a caller sends can write.
 */
import neo4j, { type Node } from 'neo4j-driver';
import type { NodeDetails } from '../contract/graph.js';
import { DomainError, isDependencyDown } from '../errors.js';
import { INDEX_LABEL_PREFIX, NODE_BY_DBID } from './dialect.js';
import { assertGraph, type GraphStore } from './driver.js';
import { NEIGHBOR_NAME_CHARS, NEIGHBOR_SCAN, nodeContext, type RawNeighbor } from './neighbors.js';
import { toPlainJson, vectorLength, type Json } from './plain-json.js';
import { isTransactionTimeout } from './read-query.js';

/** Neighbours returned at most (round-robin over relationship types and directions). */
export const NODE_NEIGHBORS = 50;

/** Items kept of a list property; a last item says how many more there were. */
export const NODE_LIST_ITEMS = 50;

/** Characters kept of a string property; the rest is replaced by a marker. */
export const NODE_STRING_CHARS = 2_000;

/** The properties shown and the names of those left out (vectors, `__` internals). */
export function visibleProperties(properties: Record<string, unknown>): { shown: Record<string, Json>; omitted: string[] } {
  const shown: Record<string, Json> = {};
  const omitted: string[] = [];
  for (const key of Object.keys(properties).sort()) {
    const value = properties[key];
    if (key.startsWith(INDEX_LABEL_PREFIX) || vectorLength(value) !== null) omitted.push(key);
    else shown[key] = toPlainJson(value, { maxListLength: NODE_LIST_ITEMS, maxStringLength: NODE_STRING_CHARS });
  }
  return { shown, omitted };
}

/**
 * Reads the node whose `dbId` (as search results report it) is `id` in graph `database`.
 * @throws DomainError — `not-found` for an unknown graph or node, `unavailable` when the
 * database is down or does not answer within `timeoutMs`.
 */
export async function readNodeDetails(
  graph: GraphStore,
  database: string,
  id: number,
  { timeoutMs }: { timeoutMs: number },
): Promise<NodeDetails> {
  try {
    await assertGraph(graph, database);
    const session = graph.driver.session({ database, defaultAccessMode: neo4j.session.READ });
    try {
      return await session.executeRead(
        async (tx) => {
          const { records } = await tx.run(NODE_BY_DBID, {
            id: neo4j.int(id),
            scan: neo4j.int(NEIGHBOR_SCAN),
            nameChars: neo4j.int(NEIGHBOR_NAME_CHARS),
          });
          const row = records[0];
          if (!row) throw new DomainError('not-found', 'unknown-node', `no node with dbId ${id} in graph "${database}"`);
          const node = row.get('n') as Node;
          const { shown, omitted } = visibleProperties(node.properties);
          return {
            dbId: id,
            displayName: row.get('displayName') as string,
            labels: node.labels,
            properties: shown,
            omitted_properties: omitted,
            ...nodeContext(row.get('rels') as RawNeighbor[], row.get('degree'), NODE_NEIGHBORS),
          };
        },
        { timeout: timeoutMs },
      );
    } finally {
      await session.close();
    }
  } catch (err) {
    if (err instanceof DomainError) throw err;
    if (isDependencyDown(err) || isTransactionTimeout(err)) {
      throw new DomainError('unavailable', 'unavailable', 'the graph database is unavailable or too slow; try again shortly', {
        cause: err,
      });
    }
    throw err;
  }
}
