/**
 * The movies + Northwind fixture (test/helpers/movies-northwind.ts): its shape, determinism and
 * query set, without a database.
 */
import { describe, expect, it } from 'vitest';
import { MOVIES_NORTHWIND_COUNTS, moviesNorthwind, moviesNorthwindLabels, moviesNorthwindQueries } from '../../helpers/movies-northwind.js';

const graph = moviesNorthwind();
const byKey = new Map(graph.nodes.map((n) => [n.key, n]));
const countBy = <T>(xs: T[], f: (x: T) => string) => xs.reduce((m, x) => m.set(f(x), (m.get(f(x)) ?? 0) + 1), new Map<string, number>());

describe('movies + Northwind fixture', () => {
  it('has the node count of every label, 1218 in all', () => {
    expect(Object.fromEntries(countBy(graph.nodes, (n) => n.label))).toEqual(MOVIES_NORTHWIND_COUNTS);
    expect(graph.nodes).toHaveLength(1218);
  });

  it('builds the same graph on every call', () => {
    expect(moviesNorthwind()).toEqual(graph);
  });

  it('has unique keys, and relationships only between existing nodes', () => {
    expect(byKey.size).toBe(graph.nodes.length);
    for (const r of graph.relationships) {
      expect(byKey.has(r.from), `${r.type} from ${r.from}`).toBe(true);
      expect(byKey.has(r.to), `${r.type} to ${r.to}`).toBe(true);
    }
  });

  it('has the relationship types of both graphs, and every node in one but two customers without orders', () => {
    const types = countBy(graph.relationships, (r) => r.type);
    expect([...types.keys()].sort()).toEqual(
      [
        'ACTED_IN',
        'DIRECTED',
        'FOLLOWS',
        'ORDERS',
        'PART_OF',
        'PRODUCED',
        'PURCHASED',
        'REPORTS_TO',
        'REVIEWED',
        'SHIPPED_BY',
        'SOLD',
        'SUPPLIES',
        'WROTE',
      ].sort(),
    );
    expect(types.get('PURCHASED')).toBe(830);
    expect(types.get('REPORTS_TO')).toBe(8);
    const ordersPerOrder = countBy(
      graph.relationships.filter((r) => r.type === 'ORDERS'),
      (r) => r.from,
    );
    expect(ordersPerOrder.size).toBe(830);
    expect(Math.max(...ordersPerOrder.values())).toBeLessThanOrEqual(4);
    const linked = new Set(graph.relationships.flatMap((r) => [r.from, r.to]));
    // As in the original, two customers never ordered.
    expect(graph.nodes.filter((n) => !linked.has(n.key)).map((n) => n.label)).toEqual(['Customer', 'Customer']);
  });

  it('stores Northwind values as LOAD CSV strings, movies with integers', () => {
    const order = byKey.get('Order:10248')!.properties;
    expect(order.orderDate).toBe('1996-07-04 00:00:00.000');
    expect(order.freight).toMatch(/^\d+\.\d\d$/);
    const customer = [...byKey.values()].find((n) => n.key === `Customer:${order.customerID}`)!.properties;
    expect(order.shipName).toBe(customer.companyName);
    expect(customer.customerID).toMatch(/^[A-Z]{5}$/);
    const picture = byKey.get('Category:1')!.properties.picture as string;
    expect(picture.startsWith('0x')).toBe(true);
    expect(picture.length).toBeGreaterThanOrEqual(8000);
    expect(picture.length).toBeLessThanOrEqual(12_002);
    expect(byKey.get('Product:1')!.properties.unitPrice).toBe('9.50');
    expect(typeof byKey.get('Movie:1')!.properties.released).toBe('number');
    expect(graph.nodes.filter((n) => n.label === 'Person' && n.properties.born === undefined).length).toBeGreaterThan(0);
  });

  it('has unique names, titles and taglines', () => {
    const { names } = moviesNorthwindQueries();
    expect(names).toHaveLength(graph.nodes.length - MOVIES_NORTHWIND_COUNTS.Order);
    expect(new Set(names.map((q) => q.query)).size).toBe(names.length);
    const taglines = graph.nodes.filter((n) => n.label === 'Movie').map((n) => n.properties.tagline);
    expect(new Set(taglines).size).toBe(taglines.length);
    const notes = graph.nodes.filter((n) => n.label === 'Employee').map((n) => n.properties.notes);
    expect(new Set(notes).size).toBe(notes.length);
  });

  it('answers every descriptive query with an existing node, never by quoting a whole tagline', () => {
    const { descriptive } = moviesNorthwindQueries();
    expect(descriptive.length).toBeGreaterThanOrEqual(35);
    expect(countBy(descriptive, (q) => q.kind)).toEqual(
      new Map([
        ['tagline', 22],
        ['category', 8],
        ['notes', 9],
      ]),
    );
    for (const q of descriptive) {
      const node = byKey.get(q.key);
      expect(node?.label, q.query).toBe(q.label);
      if (q.kind === 'tagline')
        expect(q.query.toLowerCase()).not.toContain(String(node!.properties.tagline).toLowerCase().replace(/\.$/, ''));
    }
  });

  it('appends the suffix to every label, and only to labels', () => {
    const suffixed = moviesNorthwind({ suffix: '_t1' });
    expect(suffixed.nodes.every((n) => n.label.endsWith('_t1'))).toBe(true);
    expect(new Set(suffixed.nodes.map((n) => n.label))).toEqual(new Set(moviesNorthwindLabels({ suffix: '_t1' })));
    expect(suffixed.nodes.map((n) => ({ ...n, label: n.label.slice(0, -3) }))).toEqual(graph.nodes);
    expect(suffixed.relationships).toEqual(graph.relationships);
    const queries = moviesNorthwindQueries({ suffix: '_t1' });
    expect([...queries.names, ...queries.descriptive].every((q) => q.label.endsWith('_t1'))).toBe(true);
  });
});
