/**
 * The chat lookup's sources with their own values and, where their neighbour list is cut, their
 * relationships counted by type (issue 49): a lookup answer then holds a film's `released`, a
 * product's `unitPrice` or a category's number of products, which its text and a few
 * neighbours do not. Which values and in what order is src/graph/shape/own-values.ts; this
 * reads them, after the search and apart from it, in one auto-commit round trip for all the
 * sources (by id, no scan: src/graph/dialect.ts `NODE_FACTS_BY_ID`); a second only for sources
 * identified by a `dbId` property, and one per hub (a node with more relationships than the
 * scan reads), whose counts by type come from the count store.
 *
 * A source whose node is gone or now carries other labels (deleted, its id reused) is left as
 * it is: the values shown are always those of the node the search found.
 */
import neo4j from 'neo4j-driver';
import type { SourceNode } from '../../contract/search.js';
import { NODE_FACTS_BY_DBID, NODE_FACTS_BY_ID, typeCountsQuery } from '../dialect.js';
import type { SkeletonData } from './skeleton.js';
import { orderProperties } from './skeleton-view.js';
import { chooseFacts, countRelationships, FACT_LIST_ITEMS, FACT_STRING_CHARS, type RelationshipGroup } from './own-values.js';
import { type AutoRead, withAutoRead } from '../access/auto-read.js';
import type { GraphStore } from '../access/driver.js';

/** Relationships of a node read to count them by type; a node with more is counted from the count store. */
export const FACT_SCAN = 1_000;

/** Relationship types (with direction) counted at most for a hub. */
export const HUB_TYPES = 32;

/** What the facts read uses of a graph's schema: the properties' order and the types each label's nodes have. */
export type SchemaForFacts = Pick<SkeletonData, 'properties' | 'searchable' | 'ends'>;

/** Options of {@link createNodeFacts}. */
export interface NodeFactsOptions {
  graph: GraphStore;
  /** The graph's schema (src/graph/shape/skeleton-cache.ts `schema`), null when none is at hand: the order is then read off the values. */
  schema?: (database: string) => Promise<SchemaForFacts | null>;
  /** Relationships scanned per node; default {@link FACT_SCAN}. */
  scan?: number;
}

/** Adds `facts` and, where the neighbour list is cut, `relationshipCounts` to search results of graph `database`. */
export type AddNodeFacts = (database: string, nodes: SourceNode[]) => Promise<SourceNode[]>;

/** One node's row of the facts query. */
interface FactRow {
  nodeId: string;
  labels: string[];
  props: [string, unknown][];
  groups: RelationshipGroup[];
  degree: number;
}

const sameLabels = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\u0000') === [...b].sort().join('\u0000');

/** The rows of the facts query for `ids`, by dbId: by database id first, then by `dbId` property for the rest. */
async function readRows(read: AutoRead, ids: number[], scan: number): Promise<Map<number, FactRow>> {
  const params = { scan: neo4j.int(scan), chars: neo4j.int(FACT_STRING_CHARS), items: neo4j.int(FACT_LIST_ITEMS) };
  const rows = new Map<number, FactRow>();
  const take = (records: Awaited<ReturnType<AutoRead>>) => {
    for (const r of records) {
      rows.set(Number(r.get('dbId')), {
        nodeId: r.get('nodeId') as string,
        labels: r.get('labels') as string[],
        props: r.get('props') as [string, unknown][],
        groups: (r.get('groups') as { type: string; out: boolean; label: string | null; count: unknown }[]).map((g) => ({
          ...g,
          count: Number(g.count),
        })),
        degree: Number(r.get('degree')),
      });
    }
  };
  take(await read(NODE_FACTS_BY_ID, { ...params, ids: ids.map((id) => neo4j.int(id)) }));
  const missing = ids.filter((id) => !rows.has(id));
  if (missing.length) take(await read(NODE_FACTS_BY_DBID, { ...params, ids: missing.map((id) => neo4j.int(id)) }));
  return rows;
}

/** `>TYPE` / `<TYPE` keys a hub's exact counts are read for: those its scan saw, then those its labels have in the schema. */
function hubKeys(row: FactRow, schema: SchemaForFacts | null): string[] {
  const keys = new Set(row.groups.map((g) => `${g.out ? '>' : '<'}${g.type}`));
  for (const [type, ends] of schema?.ends ?? []) {
    if (row.labels.some((l) => ends.from[l])) keys.add(`>${type}`);
    if (row.labels.some((l) => ends.to[l])) keys.add(`<${type}`);
  }
  return [...keys].slice(0, HUB_TYPES);
}

/** The order of a node's properties in the first view: its first label that the schema has sampled. */
function propertyOrder(labels: readonly string[], schema: SchemaForFacts | null): string[] | undefined {
  const label = labels.find((l) => schema?.properties.has(l));
  if (!label || !schema) return undefined;
  return orderProperties(schema.properties.get(label), schema.searchable?.get(label)).map((p) => p.name);
}

/** Builds the reader the chat lookup calls after its search. */
export function createNodeFacts(opts: NodeFactsOptions): AddNodeFacts {
  const scan = opts.scan ?? FACT_SCAN;
  return async (database, nodes) => {
    if (!nodes.length) return nodes;
    const schema = (await opts.schema?.(database).catch(() => null)) ?? null;
    return withAutoRead(opts.graph, database, async (read) => {
      const rows = await readRows(read, [...new Set(nodes.map((n) => n.dbId))], scan);
      const out: SourceNode[] = [];
      for (const node of nodes) {
        const row = rows.get(node.dbId);
        if (!row || !sameLabels(row.labels, node.labels)) {
          out.push(node);
          continue;
        }
        const facts = chooseFacts(row.props, { order: propertyOrder(row.labels, schema), displayName: node.displayName, text: node.text });
        const listed = node.neighbors?.length ?? 0;
        let relationshipCounts: SourceNode['relationshipCounts'];
        if (row.degree > listed) {
          let exact: Map<string, number> | undefined;
          // A scan that stopped at its limit saw only part of the node: count each type in the count store.
          if (row.groups.reduce((n, g) => n + g.count, 0) >= scan) {
            const keys = hubKeys(row, schema);
            const [r] = await read(typeCountsQuery(keys), { nodeId: row.nodeId });
            const counts = (r?.get('counts') ?? []) as unknown[];
            exact = new Map(keys.map((k, i) => [k, Number(counts[i] ?? 0)]));
          }
          relationshipCounts = countRelationships(row.groups, exact);
        }
        out.push({ ...node, ...(facts.length ? { facts } : {}), ...(relationshipCounts?.length ? { relationshipCounts } : {}) });
      }
      return out;
    });
  };
}
