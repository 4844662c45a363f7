/**
 * The `lookup` route: the question goes to vector search as it is and the top-k nodes are
 * shown as Markdown; no language-model call is made for the answer.
 */
import type { SourceNode, VectorSearcher } from '../embeddings/types.js';
import type { RouteHandler } from './types.js';

/** Options of {@link createLookupHandler}. */
export interface LookupOptions {
  search: VectorSearcher;
  /** Embedding model of the index (`EMBEDDING_MODEL`). */
  model: string;
  /** Results per answer (`VECTOR_SEARCH_TOP_K`). */
  topK: number;
}

/** The answer shown when the search finds nothing. */
export const NO_RESULTS = 'No matching nodes were found in the graph.';

/** Markdown of the results: per node a `###` heading with its name, then its ID, labels and text. */
export function formatLookup(nodes: SourceNode[]): string {
  if (!nodes.length) return NO_RESULTS;
  return nodes
    .map((n) => {
      const labels = n.labels?.length ? n.labels.join(', ') : '(none)';
      const name = (n.displayName || `Node ${n.dbId}`).replace(/\s+/g, ' ').trim();
      return `### ${name}\n\n- **Node ID:** ${n.dbId}\n- **Labels:** ${labels}\n\n${n.text.trim()}`;
    })
    .join('\n\n');
}

/** The lookup handler over a vector searcher. */
export function createLookupHandler(opts: LookupOptions): RouteHandler {
  return async (input) => {
    const sources = await opts.search.search({ query: input.question, graph: input.graph, model: opts.model, topK: opts.topK });
    return { answer: formatLookup(sources), sources, token_usage: null };
  };
}
