/** The graph inside result values: nodes by dbId, relationships between kept nodes, caps, index data left out. */
import neo4j from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import { createGraphCollector } from '../../../../src/graph/access/result-graph.js';

const { Node, Relationship, Path, PathSegment } = neo4j.types;
const node = (id: number, labels: string[], props: Record<string, unknown> = {}) => new Node(id, labels, props, `e${id}`);
const rel = (id: number, start: number, end: number, type = 'R') => new Relationship(id, start, end, type, {}, `r${id}`);

describe('createGraphCollector', () => {
  it('finds nodes, relationships and paths inside lists and maps, naming nodes by dbId', () => {
    const ada = node(1, ['Person'], { dbId: 500, displayName: 'Ada' });
    const engine = node(2, ['Machine', 'Thing', 'Old', 'Extra'], { title: 'Engine' });
    const c = createGraphCollector();
    c.add(new Path(ada, engine, [new PathSegment(ada, rel(7, 1, 2, 'DESIGNED'), engine)]));
    c.add([{ again: ada, n: 42, s: 'text' }]);
    expect(c.graph()).toEqual({
      nodes: [
        { id: 500, labels: ['Person'], name: 'Ada' },
        { id: 2, labels: ['Machine', 'Thing', 'Old'], name: 'Engine' },
      ],
      relationships: [{ id: 7, type: 'DESIGNED', start: 500, end: 2 }],
    });
  });

  it('is empty for rows without nodes, drops relationships whose ends are unknown and index data', () => {
    const c = createGraphCollector();
    c.add({ count: 3, names: ['a', 'b'] });
    c.add(rel(9, 1, 2));
    expect(c.graph()).toBeUndefined();
    c.add(node(3, ['__Chunk_x']));
    c.add(node(4, ['City'], { name: 'x'.repeat(200) }));
    expect(c.graph()).toEqual({ nodes: [{ id: 4, labels: ['City'], name: 'x'.repeat(80) }], relationships: [] });
  });

  it('names nodes by the rule search uses: never a list, a placeholder or a job title; else the own id, else label and id', () => {
    const c = createGraphCollector();
    c.add([
      node(1, ['Supplier'], { name: ['a', 'b'], contactTitle: 'Purchasing Manager', contactName: 'Ann Lee', companyName: 'Acme' }),
      node(2, ['Order'], { orderID: neo4j.int(10248), shipName: 'NULL' }),
      node(3, ['Thing'], { name: 'NULL', born: neo4j.int(1964) }),
    ]);
    expect(c.graph()!.nodes.map((n) => n.name)).toEqual(['Acme', 'Order 10248', 'Thing #3']);
  });

  it('keeps at most the given number of nodes and relationships and says so', () => {
    const c = createGraphCollector(3, 1);
    c.add(Array.from({ length: 5 }, (_, i) => node(i, ['N'])));
    c.add([rel(10, 0, 1), rel(11, 1, 2)]);
    const g = c.graph()!;
    expect(g.nodes.map((n) => n.id)).toEqual([0, 1, 2]);
    expect(g.relationships).toHaveLength(1);
    expect(g.truncated).toBe(true);
  });
});
