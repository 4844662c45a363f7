/**
 * Nodes a build or a sync leaves out because their own content made reading, composing or
 * chunking them fail. A graph in the wild holds values no rule foresaw (a list where a name was
 * expected made every build answer 500 and every sync pass fail, and left the nodes after it in
 * id order unindexed); one such node must never stop the index of all the others. It is left
 * out, counted and named (its id and why, for the first few) in the build's answer, its progress,
 * its log and the sync's record, and everything else is indexed. Nothing is remembered about it:
 * every later build and sync tries it again, so a fix of its content or of the rule brings it in.
 */
import { Neo4jError } from 'neo4j-driver';

/** One node left out, and why. */
export interface SkippedNode {
  /** elementId. */
  nodeId: string;
  /** The error it caused, in one line. */
  reason: string;
}

/** Nodes left out by one build: how many, and the first {@link SKIPPED_SHOWN}. */
export interface SkippedNodes {
  count: number;
  nodes: SkippedNode[];
}

/** Skipped nodes as the API and the sync's record show them (snake_case). */
export interface SkippedNodesBody {
  count: number;
  nodes: { node_id: string; reason: string }[];
}

/**
 * The wire shape of `skipped`: the build's `skipped_nodes`, the sync's `nodes_skipped` and
 * `skipped`; undefined when none were skipped (the fields are then left out).
 */
export function skippedNodesBody(skipped: SkippedNodes): SkippedNodesBody | undefined {
  if (!skipped.count) return undefined;
  return { count: skipped.count, nodes: skipped.nodes.map((n) => ({ node_id: n.nodeId, reason: n.reason })) };
}

/** Skipped nodes named in a report; the rest are counted. */
export const SKIPPED_SHOWN = 5;

/** Longest reason kept, in characters (a database error quotes the value, which may be 5 MB). */
const REASON_CHARS = 200;

/** A collector of skipped nodes; `onSkip` hears of each (progress, log). */
export function createSkippedNodes(onSkip?: (node: SkippedNode) => void) {
  const state: SkippedNodes = { count: 0, nodes: [] };
  return {
    state,
    add(nodeId: string, err: unknown) {
      const message = (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').trim();
      const node = { nodeId, reason: message.length > REASON_CHARS ? `${message.slice(0, REASON_CHARS - 1)}…` : message };
      state.count++;
      if (state.nodes.length < SKIPPED_SHOWN) state.nodes.push(node);
      onSkip?.(node);
    },
  };
}

/** The collector {@link createSkippedNodes} makes. */
export type SkippedNodesLog = ReturnType<typeof createSkippedNodes>;

/**
 * Errors a query raises because of a value it met (a function given a list, a number out of
 * range, a node deleted while read), as opposed to a database that is down or a query that is
 * wrong: only these are blamed on a node.
 */
const VALUE_ERRORS = new Set([
  'Neo.ClientError.Statement.TypeError',
  'Neo.ClientError.Statement.ArgumentError',
  'Neo.ClientError.Statement.ArithmeticError',
  'Neo.ClientError.Statement.EntityNotFound',
]);

/** True when `err` is a query error caused by a value the query read ({@link VALUE_ERRORS}). */
export function isValueError(err: unknown): boolean {
  return err instanceof Neo4jError && VALUE_ERRORS.has(err.code);
}
