/**
 * Graph context for search results: a few relationships of each result node, so a lookup
 * answer (and an agent) sees what a node is connected to without another query. Bounded in
 * rows (a scan cap per node, then `perNode`) and characters (names and labels cut).
 */
import type { Neighbor } from '../../contract/search.js';
import { displayName, type NameFields, type PlanName } from '../text/node-name.js';

/** Relationships read per node before picking: hubs with 10⁵ edges cost no more than this. */
export const NEIGHBOR_SCAN = 200;

/** Longest neighbour display name kept. */
export const NEIGHBOR_NAME_CHARS = 80;

/** Most labels kept per neighbour. */
export const NEIGHBOR_LABELS = 3;

/** A node's picked neighbours and how many relationships it has in all. */
export interface NodeContext {
  neighbors: Neighbor[];
  degree: number;
}

/** A relationship as the search query's `rels` hold it. */
export interface RawNeighbor {
  type: string;
  out: boolean;
  dbId: unknown;
  /** The neighbour's name fields (src/graph/dialect/node-cypher.ts `nameFieldsOf`), named here by ../text/node-name.ts. */
  nameFields: NameFields;
  labels: string[];
}

/**
 * Picks up to `perNode` neighbours, round-robin over (type, direction) groups in order of first
 * appearance, so one dominant relationship type (a pathway's 300 genes) does not hide the rare
 * ones (the paper it cites). Only the picked ones are named, under the plan's names `names`.
 */
export function pickNeighbors(raw: readonly RawNeighbor[], perNode: number, names: readonly PlanName[] = []): Neighbor[] {
  const groups = new Map<string, RawNeighbor[]>();
  for (const r of raw) {
    const key = `${r.out ? '>' : '<'}${r.type}`;
    const group = groups.get(key);
    if (group) group.push(r);
    else groups.set(key, [r]);
  }
  const lists = [...groups.values()];
  const picked: Neighbor[] = [];
  for (let i = 0; picked.length < perNode; i++) {
    const round = lists.filter((g) => i < g.length);
    if (!round.length) break;
    for (const g of round) {
      if (picked.length >= perNode) break;
      const r = g[i]!;
      picked.push({
        type: r.type,
        direction: r.out ? 'out' : 'in',
        dbId: Number(r.dbId),
        displayName: displayName(names, r.labels, r.nameFields, r.dbId).slice(0, NEIGHBOR_NAME_CHARS),
        labels: r.labels.slice(0, NEIGHBOR_LABELS),
      });
    }
  }
  return picked;
}

/** A node's context from the `rels` and `degree` the search query returned with it (`searchQuery` in ../dialect/search-query.ts), neighbours named under `names`. */
export function nodeContext(rels: readonly RawNeighbor[], degree: unknown, perNode: number, names: readonly PlanName[] = []): NodeContext {
  return { neighbors: pickNeighbors(rels, perNode, names), degree: Number(degree) };
}
