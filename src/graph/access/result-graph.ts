/**
 * The graph inside a query's result: every node, relationship and path found in its values
 * (also inside lists and maps), as a bounded {@link ResultGraph} a client can draw. Nodes get
 * the ids search results use (`dbId`), so a drawing can join them with an answer's sources.
 * Index data (`__` labels) is left out, as everywhere a user sees the graph.
 */
import neo4j, { type Node, type Relationship } from 'neo4j-driver';
import { RESULT_GRAPH_NODES, RESULT_GRAPH_RELATIONSHIPS, type ResultGraph } from '../../contract/graph.js';
import { isIndexLabel } from '../dialect/names.js';
import { NEIGHBOR_LABELS, NEIGHBOR_NAME_CHARS } from './neighbors.js';
import { displayName } from '../text/node-name.js';

/** Collects the graph of result values; {@link GraphCollector.graph} reads it out. */
export interface GraphCollector {
  /** Walks one value of a record. */
  add(value: unknown): void;
  /** The nodes and relationships seen so far, or undefined when there were none. */
  graph(): ResultGraph | undefined;
}

/** Lists and maps nested deeper than this are not searched (a result is rows of a few levels). */
const MAX_DEPTH = 6;

/** The id results report for `node`: its integer `dbId` property, else its database id (as `dbIdOf` in dialect.ts). */
export function dbIdOfNode(node: Node): number {
  const own = node.properties.dbId;
  if (neo4j.isInt(own)) return own.toNumber();
  return Number.isInteger(own) ? (own as number) : Number(node.identity);
}

/**
 * The name shown for `node`, as search names a node no plan covers (a query's result carries
 * no plan): src/graph/text/node-name.ts `displayName` by the rule alone (never a list, a number or a
 * placeholder; an integer `orderID` is an Order's own identifier), else its first label and id.
 */
function nameOf(node: Node): string {
  // Every property: the rule passes over what cannot name (lists, floats, placeholders).
  return displayName([], node.labels, Object.entries(node.properties), dbIdOfNode(node)).slice(0, NEIGHBOR_NAME_CHARS);
}

/** A collector keeping at most `maxNodes` nodes and `maxRelationships` relationships. */
export function createGraphCollector(maxNodes = RESULT_GRAPH_NODES, maxRelationships = RESULT_GRAPH_RELATIONSHIPS): GraphCollector {
  // Keyed by database identity: relationships name their ends by it.
  const nodes = new Map<number, ResultGraph['nodes'][number]>();
  const rels = new Map<number, Relationship>();
  let truncated = false;

  const addNode = (n: Node) => {
    const identity = Number(n.identity);
    if (nodes.has(identity) || n.labels.some(isIndexLabel)) return;
    if (nodes.size >= maxNodes) truncated = true;
    else nodes.set(identity, { id: dbIdOfNode(n), labels: n.labels.slice(0, NEIGHBOR_LABELS), name: nameOf(n) });
  };
  const addRel = (r: Relationship) => {
    const identity = Number(r.identity);
    if (rels.has(identity)) return;
    if (rels.size >= maxRelationships) truncated = true;
    else rels.set(identity, r);
  };
  const visit = (value: unknown, depth: number): void => {
    if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return;
    if (neo4j.isNode(value)) addNode(value);
    else if (neo4j.isRelationship(value)) addRel(value);
    else if (neo4j.isPath(value)) {
      addNode(value.start);
      for (const s of value.segments) {
        addRel(s.relationship);
        addNode(s.end);
      }
    } else if (Array.isArray(value)) {
      for (const v of value) visit(v, depth + 1);
    } else if (Object.getPrototypeOf(value) === Object.prototype) {
      // A Cypher map; driver values of other kinds (dates, points, integers) hold no graph.
      for (const v of Object.values(value)) visit(v, depth + 1);
    }
  };

  return {
    add: (value) => visit(value, 0),
    graph() {
      if (!nodes.size) return undefined;
      // A relationship is drawn only between nodes the result also held (a bare `RETURN r` names its ends by id only).
      const relationships = [...rels.values()].flatMap((r) => {
        const start = nodes.get(Number(r.start));
        const end = nodes.get(Number(r.end));
        return start && end ? [{ id: Number(r.identity), type: r.type, start: start.id, end: end.id }] : [];
      });
      return { nodes: [...nodes.values()], relationships, ...(truncated ? { truncated } : {}) };
    },
  };
}
