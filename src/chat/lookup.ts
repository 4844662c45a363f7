/**
 * The `lookup` route: the question goes to search (`RETRIEVAL_MODE`) as it is and the top-k
 * nodes are shown as Markdown with some of their relationships, their own values (`facts`) and,
 * where the relationships listed are not all, their relationships counted by type
 * (src/graph/shape/node-facts.ts); no language-model call is made for the answer.
 */
import type { Neighbor, NodeFact, RelationshipCount, SourceNode } from '../contract/search.js';
import type { AddNodeFacts } from '../graph/shape/node-facts.js';
import { factText } from '../graph/shape/own-values.js';
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
  /** Adds the results' own values and relationship counts (src/graph/shape/node-facts.ts); absent: the results as search returns them. */
  facts?: AddNodeFacts;
  /** Told when adding facts fails; the answer is then given without them. */
  onFactsError?: (err: unknown) => void;
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

/** One line of a node's own values, e.g. `released: 1999; born: 1964`, or null without any. */
export function formatFacts(facts: readonly NodeFact[] | undefined): string | null {
  return facts?.length ? facts.map((f) => inlineText(factText(f))).join('; ') : null;
}

/** One line of a node's relationships by type, e.g. `PART_OF ← 12 Product; SUPPLIES ← 1 Supplier`, or null without any. */
export function formatCounts(counts: readonly RelationshipCount[] | undefined): string | null {
  if (!counts?.length) return null;
  const one = (c: RelationshipCount) => {
    const labels = c.labels.length ? ` ${inlineText(c.labels.join(', '))}` : '';
    return `${c.type} ${c.direction === 'out' ? '→' : '←'} ${c.count.toLocaleString('en-US')}${labels}`;
  };
  return counts.map(one).join('; ');
}

/**
 * Markdown of the results: per node a `###` heading with its name, then its ID, labels, own
 * values, some of its relationships (and all of them counted by type when those are not all),
 * and its text.
 */
export function formatLookup(nodes: SourceNode[]): string {
  if (!nodes.length) return NO_RESULTS;
  return nodes
    .map((n) => {
      const labels = n.labels?.length ? n.labels.join(', ') : '(none)';
      const name = (n.displayName || `Node ${n.dbId}`).replace(/\s+/g, ' ').trim();
      const optional: [string, string | null][] = [
        ['Facts', formatFacts(n.facts)],
        ['Related', formatNeighbors(n)],
        ['Relationships by type', formatCounts(n.relationshipCounts)],
      ];
      const lines = [
        `- **Node ID:** ${n.dbId}`,
        `- **Labels:** ${labels}`,
        ...optional.flatMap(([title, line]) => (line ? [`- **${title}:** ${line}`] : [])),
      ];
      return `### ${name}\n\n${lines.join('\n')}\n\n${n.text.trim()}`;
    })
    .join('\n\n');
}

/** `sources` with their facts, or as they are when reading those fails (the answer is still the search's). */
async function withFacts(opts: LookupOptions, graph: string, sources: SourceNode[]): Promise<SourceNode[]> {
  try {
    return await opts.facts!(graph, sources);
  } catch (err) {
    opts.onFactsError?.(err);
    return sources;
  }
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
    const shown = opts.facts ? await withFacts(opts, input.graph, sources) : sources;
    return { answer: formatLookup(shown), sources: shown, token_usage: null };
  };
}
