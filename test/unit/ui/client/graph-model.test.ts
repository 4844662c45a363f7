/** The graph view's data: sources, their neighbours and tool-result graphs joined by dbId, bounded. */
import { describe, expect, it } from 'vitest';
import type { SourceNode } from '../../../../src/contract/search.js';
import { answerGraph, VIEW_NODES } from '../../../../src/ui/client/graph-model.js';

const source = (dbId: number, extra: Partial<SourceNode> = {}): SourceNode => ({
  dbId,
  displayName: `s${dbId}`,
  text: '',
  score: 1,
  labels: ['S'],
  ...extra,
});

describe('answerGraph', () => {
  it('joins sources, their neighbours and result graphs by id, one edge per start, type and end', () => {
    const g = answerGraph(
      [source(1, { neighbors: [{ type: 'KNOWS', direction: 'in', dbId: 2, displayName: 'n2', labels: ['P'] }] })],
      [
        {
          nodes: [
            { id: 2, labels: ['P'], name: 'n2' },
            { id: 1, labels: ['S'], name: 's1' },
          ],
          relationships: [
            { id: 5, type: 'KNOWS', start: 2, end: 1 },
            { id: 6, type: 'KNOWS', start: 2, end: 1 },
            { id: 7, type: 'LIKES', start: 1, end: 99 },
          ],
        },
      ],
    );
    expect(g.nodes).toEqual([
      { id: 1, name: 's1', labels: ['S'], source: true },
      { id: 2, name: 'n2', labels: ['P'], source: false },
    ]);
    expect(g.edges).toEqual([{ key: '2|KNOWS|1', type: 'KNOWS', start: 2, end: 1 }]);
    expect(g.truncated).toBe(false);
  });

  it(`keeps at most ${VIEW_NODES} nodes and says so`, () => {
    const nodes = Array.from({ length: VIEW_NODES + 5 }, (_, i) => ({ id: i, labels: [], name: `${i}` }));
    const g = answerGraph([], [{ nodes, relationships: [] }]);
    expect(g.nodes).toHaveLength(VIEW_NODES);
    expect(g.truncated).toBe(true);
  });
});
