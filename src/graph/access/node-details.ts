/**
 * One node as a person opening a search result wants to see it: labels, properties (vectors
 * and `__` internals left out, long strings and lists cut with a marker) and a bounded choice
 * of neighbours. One read transaction with a server-side timeout; the Cypher is fixed, the id
 * a bound integer, so nothing a caller sends can write.
 *
 * The node and its neighbours are named as search names them: by the text plan of the graph's
 * indexes (the latest build's plan for each label, read in the same transaction), else by the
 * rule (src/graph/text/node-name.ts `displayName`).
 */
import neo4j, { type ManagedTransaction, type Node } from 'neo4j-driver';
import type { NodeDetails } from '../../contract/graph.js';
import { DomainError, isDependencyDown } from '../../errors.js';
import { NODE_BY_DBID } from '../dialect.js';
import { INDEX_LABEL_PREFIX } from '../dialect/names.js';
import { INDEX_PLANS } from '../dialect/index-statements.js';
import { assertGraph, type GraphStore, isTransactionTimeout } from './driver.js';
import { NEIGHBOR_SCAN, nodeContext, type RawNeighbor } from './neighbors.js';
import { displayName, type NameFields, nameKeys, type PlanName } from '../text/node-name.js';
import { toPlainJson, vectorLength, type Json } from './plain-json.js';
import { planNames, type TextPlan } from '../text/text-plan.js';

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
 * The names the graph's index plans give (src/graph/text/node-name.ts): for each label, the entry of
 * the latest plan that has it. A record that does not parse is passed over.
 */
async function indexNames(tx: ManagedTransaction): Promise<PlanName[]> {
  const { records } = await tx.run(INDEX_PLANS);
  const out: PlanName[] = [];
  const seen = new Set<string>();
  for (const r of records) {
    let plan: TextPlan;
    try {
      plan = JSON.parse(r.get('plan') as string) as TextPlan;
    } catch {
      continue;
    }
    for (const entry of Array.isArray(plan?.labels) ? planNames(plan) : []) {
      if (seen.has(entry.label)) continue;
      seen.add(entry.label);
      out.push(entry);
    }
  }
  return out;
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
          const names = await indexNames(tx);
          const { records } = await tx.run(NODE_BY_DBID, { id: neo4j.int(id), nameKeys: nameKeys(names), scan: neo4j.int(NEIGHBOR_SCAN) });
          const row = records[0];
          if (!row) throw new DomainError('not-found', 'unknown-node', `no node with dbId ${id} in graph "${database}"`);
          const node = row.get('n') as Node;
          const { shown, omitted } = visibleProperties(node.properties);
          return {
            dbId: id,
            displayName: displayName(names, node.labels, row.get('nameFields') as NameFields, id),
            labels: node.labels,
            properties: shown,
            omitted_properties: omitted,
            ...nodeContext(row.get('rels') as RawNeighbor[], row.get('degree'), NODE_NEIGHBORS, names),
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
