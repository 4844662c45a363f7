/**
 * The graph of one answer, as the graph view draws and lists it: the answer's sources (with
 * the neighbours search attached to them) and the nodes and relationships its tool results
 * held, joined by node id (`dbId`). Pure data, no DOM.
 */
import type { ResultGraph } from '../../contract/graph.js';
import type { SourceNode } from '../../contract/search.js';

/** Nodes drawn at most; a bigger graph is cut (and says so). */
export const VIEW_NODES = 150;

/** A node of the view. */
export interface ViewNode {
  id: number;
  name: string;
  labels: string[];
  /** True for the answer's sources. */
  source: boolean;
}

/** A relationship of the view. */
export interface ViewEdge {
  /** Unique per start, type and end: parallel relationships of one type are drawn once. */
  key: string;
  type: string;
  start: number;
  end: number;
}

/** The view's graph. */
export interface AnswerGraph {
  nodes: ViewNode[];
  edges: ViewEdge[];
  /** True when nodes or relationships were left out. */
  truncated: boolean;
}

/** Joins the sources and the tool results' graphs into one graph of at most {@link VIEW_NODES} nodes. */
export function answerGraph(sources: readonly SourceNode[], graphs: readonly ResultGraph[]): AnswerGraph {
  const nodes = new Map<number, ViewNode>();
  const edges = new Map<string, ViewEdge>();
  let truncated = graphs.some((g) => g.truncated);
  const addNode = (n: ViewNode) => {
    const had = nodes.get(n.id);
    if (had) had.source ||= n.source;
    else if (nodes.size < VIEW_NODES) nodes.set(n.id, n);
    else truncated = true;
  };
  const addEdge = (type: string, start: number, end: number) => {
    if (!nodes.has(start) || !nodes.has(end)) return;
    const key = `${start}|${type}|${end}`;
    if (!edges.has(key)) edges.set(key, { key, type, start, end });
  };
  for (const s of sources) addNode({ id: s.dbId, name: s.displayName, labels: s.labels ?? [], source: true });
  for (const g of graphs) for (const n of g.nodes) addNode({ ...n, source: false });
  for (const s of sources) {
    for (const nb of s.neighbors ?? []) {
      addNode({ id: nb.dbId, name: nb.displayName, labels: nb.labels, source: false });
      if (nb.direction === 'out') addEdge(nb.type, s.dbId, nb.dbId);
      else addEdge(nb.type, nb.dbId, s.dbId);
    }
  }
  for (const g of graphs) for (const r of g.relationships) addEdge(r.type, r.start, r.end);
  return { nodes: [...nodes.values()], edges: [...edges.values()], truncated };
}
