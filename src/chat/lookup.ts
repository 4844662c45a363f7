/**
 * The `lookup` route: the question goes to search (`RETRIEVAL_MODE`) as it is and the top-k
 * nodes are shown as Markdown with some of their relationships; no language-model call is made
 * for the answer.
 */
import type { Neighbor, SourceNode } from '../contract/search.js';
import type { VectorSearcher } from '../vector-index/search/types.js';
import { escapeMarkdown } from '../lib/text.js';
import type { RouteHandler } from './types.js';

/** Options of {@link createLookupHandler}. */
export interface LookupOptions {
  search: VectorSearcher;
  /** Embedding model of the index (`EMBEDDING_MODEL`). */
  model: string;
  /** Results per answer (`VECTOR_SEARCH_TOP_K`). */
  topK: number;
  /** Relationships shown per result (`SEARCH_NEIGHBORS`); 0 for none. */
  neighbors?: number;
}

/** The answer shown when the search finds nothing. */
export const NO_RESULTS = 'No matching nodes were found in the graph.';

/** Escapes characters that would make graph data into Markdown links, emphasis or HTML. */
function inlineText(text: string): string {
  return escapeMarkdown(text.replace(/\s+/g, ' ').trim());
}

/**
 * One line of a node's relationships, e.g. `HAS_PART → TP53 (Gene); ← CITES A study (Paper); …
 * and 12 more`, or null without neighbours.
 */
export function formatNeighbors(n: Pick<SourceNode, 'neighbors' | 'degree'>): string | null {
  const list = n.neighbors ?? [];
  if (!list.length) return null;
  const one = (r: Neighbor) => {
    const name = inlineText(r.displayName || `Node ${r.dbId}`);
    const labels = r.labels.length ? ` (${inlineText(r.labels.join(', '))})` : '';
    return r.direction === 'out' ? `${r.type} → ${name}${labels}` : `← ${r.type} ${name}${labels}`;
  };
  const more = (n.degree ?? list.length) - list.length;
  return list.map(one).join('; ') + (more > 0 ? `; … and ${more} more` : '');
}

/**
 * Markdown of the results: per node a `###` heading with its name, then its ID, labels, some of
 * its relationships and its text.
 */
export function formatLookup(nodes: SourceNode[]): string {
  if (!nodes.length) return NO_RESULTS;
  return nodes
    .map((n) => {
      const labels = n.labels?.length ? n.labels.join(', ') : '(none)';
      const name = (n.displayName || `Node ${n.dbId}`).replace(/\s+/g, ' ').trim();
      const related = formatNeighbors(n);
      const facts = [`- **Node ID:** ${n.dbId}`, `- **Labels:** ${labels}`, ...(related ? [`- **Related:** ${related}`] : [])];
      return `### ${name}\n\n${facts.join('\n')}\n\n${n.text.trim()}`;
    })
    .join('\n\n');
}

/** The lookup handler over a vector searcher. */
export function createLookupHandler(opts: LookupOptions): RouteHandler {
  return async (input) => {
    const sources = await opts.search.search({
      query: input.question,
      graph: input.graph,
      model: opts.model,
      topK: opts.topK,
      neighbors: opts.neighbors ?? 0,
    });
    return { answer: formatLookup(sources), sources, token_usage: null };
  };
}
