/** Fixed search results for the chat tests (kept small: the worker child process bundles it). */
import type { SourceNode } from '../../../src/contract/search.js';
import type { SearchRequest, VectorSearcher } from '../../../src/vector-index/search/types.js';

/** Nodes the fake searcher returns. */
export const NODES: SourceNode[] = [
  { dbId: 11, displayName: 'Ada Lovelace', text: 'Ada wrote the first program.', score: 0.93, labels: ['Person', 'Scientist'] },
  { dbId: 12, displayName: 'Analytical Engine', text: 'A proposed mechanical computer.', score: 0.81, labels: ['Machine'] },
];

/** A searcher returning {@link NODES} and recording requests. */
export function fakeSearcher(): VectorSearcher & { calls: SearchRequest[] } {
  const calls: SearchRequest[] = [];
  return {
    calls,
    async search(req) {
      calls.push(req);
      return NODES.slice(0, req.topK);
    },
  };
}
