/** The search every caller uses (HTTP, chat lookup, agent, MCP), as a seam tests can replace. */
import type { RetrievalMode, SourceNode } from '../../contract/search.js';
import type { SearchFilter } from '../../contract/search-filter.js';

/** A search request. */
export interface SearchRequest {
  query: string;
  graph: string;
  model: string;
  topK: number;
  /** Default `RETRIEVAL_MODE` (the HTTP route passes its own default, `vector`). */
  mode?: RetrievalMode;
  /** Neighbours to attach per result (0 or absent: none). */
  neighbors?: number;
  /** Only nodes with any of these labels (absent: any node). */
  labels?: readonly string[];
  /** Only nodes whose properties pass this filter (absent: any node). */
  where?: SearchFilter;
  /** Told, for a filtered search, where the filter was applied (./searcher.ts). */
  onFilterPath?: (path: FilterPath) => void;
}

/** Where a filtered search applied its filter: inside the vector index, after it, or part in each. */
export type FilterPath = 'index' | 'index+post' | 'post';

/** Vector search over a built index: top-k source nodes, one per node. */
export interface VectorSearcher {
  /**
   * @throws DomainError 404 when no index exists for that graph and model, 422 for an unknown
   * model or a filter naming a label or property the graph lacks, 503 when the graph database is down.
   */
  search(req: SearchRequest): Promise<SourceNode[]>;
}
