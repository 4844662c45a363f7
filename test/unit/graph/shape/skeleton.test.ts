/** Skeleton formatting: content, ordering and the size bound for large schemas. */
import { describe, expect, it } from 'vitest';
import type { PropertyInfo } from '../../../../src/graph/shape/schema.js';
import { DEFAULT_SKELETON_CHARS, formatSkeleton, type SkeletonData } from '../../../../src/graph/shape/skeleton.js';
import { categoryLike } from '../../../../src/graph/shape/skeleton-view.js';

const prop = (name: string, type: string, fill = 1): PropertyInfo => ({ name, types: [type], fill, example: null });

function small(): SkeletonData {
  return {
    database: 'neo4j',
    labels: [
      { label: 'Person', count: 1200 },
      { label: 'Movie', count: 300 },
    ],
    patterns: [
      { from: 'Person', type: 'ACTED_IN', to: 'Movie', count: 2500, estimated: false },
      { from: 'Person', type: 'FOLLOWS', to: 'Person', count: 40_000, estimated: true },
    ].sort((a, b) => b.count - a.count),
    relationshipCount: 42_500,
    types: ['FOLLOWS', 'ACTED_IN'],
    propertyKeys: ['name', 'born', 'embedding', 'rare', 'title'],
    properties: new Map([
      ['Person', [prop('name', 'STRING'), prop('born', 'INTEGER', 0.8), prop('embedding', 'VECTOR[512]'), prop('rare', 'STRING', 0.01)]],
      ['Movie', [prop('title', 'STRING')]],
    ]),
  };
}

describe('formatSkeleton', () => {
  it('lists labels with counts and main properties, and patterns with counts', () => {
    const text = formatSkeleton(small());
    expect(text).toBe(
      [
        'Graph "neo4j": 2 labels, 2 relationship patterns, 42,500 relationships.',
        'Node labels (node count) {properties, most used first; +N more}:',
        '- :Person (1,200) {name: STRING, born: INTEGER}',
        '- :Movie (300) {title: STRING}',
        'Relationship patterns (count; ~ = estimated from a sample) {properties of the type}:',
        '- (:Person)-[:FOLLOWS]->(:Person) ~40,000',
        '- (:Person)-[:ACTED_IN]->(:Movie) 2,500',
      ].join('\n'),
    );
  });

  it('stays under its bound with 200 labels and 400 patterns, summarising the tail', () => {
    const labels = Array.from({ length: 200 }, (_, i) => ({ label: `GeneratedLabelNumber${i}`, count: 10_000 - i }));
    const data: SkeletonData = {
      database: 'neo4j',
      labels,
      patterns: Array.from({ length: 400 }, (_, i) => ({
        from: labels[i % 200]!.label,
        type: `REL_TYPE_${i % 50}`,
        to: labels[(i * 7) % 200]!.label,
        count: 5_000 - i,
        estimated: false,
      })),
      relationshipCount: 1_000_000,
      types: [],
      propertyKeys: [],
      properties: new Map(labels.slice(0, 40).map((l) => [l.label, [prop('name', 'STRING'), prop('createdAt', 'DATE_TIME')]])),
    };
    for (const max of [DEFAULT_SKELETON_CHARS, 2_000, 8_000]) {
      const text = formatSkeleton(data, max);
      expect(text.length).toBeLessThanOrEqual(max);
      expect(text).toContain('- :GeneratedLabelNumber0 (10,000)');
      expect(text).toMatch(/- … \d+ more labels \([\d,]+ nodes\): GeneratedLabelNumber\d+, /);
      expect(text).toMatch(/- … \d+ more patterns of types: REL_TYPE_/);
    }
    // With room for one short line each, every label is named; the largest keep their properties.
    const roomy = formatSkeleton(data, 20_000);
    expect(roomy).not.toContain('more labels');
    expect(roomy).toContain('- :GeneratedLabelNumber0 (10,000) {name: STRING, createdAt: DATE_TIME}');
    expect(roomy).toContain('- :GeneratedLabelNumber199 (9,801)\n');
  });

  it('says so when there are no relationships', () => {
    const text = formatSkeleton({ ...small(), patterns: [], relationshipCount: 0 });
    expect(text).toContain('Relationship patterns (count; ~ = estimated from a sample) {properties of the type}:\n- (none)');
  });
});

describe('the first view of a Northwind-like graph', () => {
  const p = (name: string, type: string, extra: Partial<PropertyInfo> = {}): PropertyInfo => ({
    name,
    types: [type],
    fill: 1,
    example: extra.values?.[0] ?? null,
    ...extra,
  });
  const data = (): SkeletonData => ({
    database: 'neo4j',
    labels: [{ label: 'Order', count: 830 }],
    patterns: [
      { from: 'Order', type: 'ORDERS', to: 'Product', count: 2155, estimated: false },
      { from: 'Order', type: 'ORDERS', to: 'Order', count: 1, estimated: false },
    ],
    relationshipCount: 2156,
    types: ['ORDERS'],
    propertyKeys: [],
    properties: new Map([
      [
        'Order',
        [
          p('customerID', 'STRING', { distinct: 80, values: ['VINET'] }),
          p('freight', 'STRING', { kind: 'number', distinct: 190, values: ['32.38'] }),
          p('orderDate', 'STRING', { kind: 'date', distinct: 150, example: '1996-07-04 00:00:00.000' }),
          p('shipCountry', 'STRING', { distinct: 21, values: ['Germany', 'USA', 'France', 'Brazil', 'UK'] }),
          p('shipName', 'STRING', { distinct: 89, values: ['Vins et alcools Chevalier'] }),
          p('embedding', 'VECTOR[384]'),
        ],
      ],
    ]),
    relationshipProperties: new Map([
      ['ORDERS', [p('discount', 'STRING', { kind: 'number', distinct: 11, values: ['0'] }), p('quantity', 'INTEGER')]],
    ]),
  });

  it('puts the name first, then what queries filter on, with value kinds and common values; relationship properties once per type', () => {
    const text = formatSkeleton(data());
    expect(text).toContain(
      '- :Order (830) {shipName: STRING, freight: STRING of numbers, orderDate: STRING of dates like "1996-07-04 00:00:00.000", shipCountry: STRING e.g. "Germany", "USA", "France", "Brazil", …, customerID: STRING}',
    );
    expect(text).toContain('- (:Order)-[:ORDERS {discount: STRING of numbers, quantity: INTEGER}]->(:Product) 2,155');
    expect(text).toContain('- (:Order)-[:ORDERS]->(:Order) 1');
    expect(text).toMatch(/\nSTRING of numbers\/dates\/booleans: the values are text; convert before comparing/);
  });

  it('gives fewer details, not fewer labels, when the budget is small', () => {
    const text = formatSkeleton(data(), 1_000);
    expect(text.length).toBeLessThanOrEqual(1_000);
    expect(text).toContain('- :Order (830) {shipName: STRING, freight: STRING of numbers, orderDate: STRING of dates, +2}');
  });
});

describe('categories', () => {
  const p = (distinct: number, filled: number, name = 'country'): PropertyInfo => ({
    name,
    types: ['STRING'],
    fill: 1,
    example: 'UK',
    distinct,
    filled,
    values: ['UK', 'USA'],
  });
  it('are strings whose few values repeat, not a small label’s names or identifiers', () => {
    expect(categoryLike(p(21, 91))).toBe(true);
    expect(categoryLike(p(9, 9))).toBe(false);
    expect(categoryLike(p(60, 200))).toBe(false);
    expect(categoryLike(p(3, 200, 'customerID'))).toBe(false);
    expect(categoryLike({ ...p(3, 200), kind: 'integer' })).toBe(false);
  });
});
