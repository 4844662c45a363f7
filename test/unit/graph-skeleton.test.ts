/** Skeleton formatting: content, ordering and the size bound for large schemas. */
import { describe, expect, it } from 'vitest';
import type { PropertyInfo } from '../../src/graph/schema.js';
import { DEFAULT_SKELETON_CHARS, formatSkeleton, type SkeletonData } from '../../src/graph/skeleton.js';

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
        'Node labels (node count) {main properties}:',
        '- :Person (1,200) {name: STRING, born: INTEGER}',
        '- :Movie (300) {title: STRING}',
        'Relationship patterns (count; ~ = estimated from a sample):',
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
  });

  it('says so when there are no relationships', () => {
    const text = formatSkeleton({ ...small(), patterns: [], relationshipCount: 0 });
    expect(text).toContain('Relationship patterns (count; ~ = estimated from a sample):\n- (none)');
  });
});
