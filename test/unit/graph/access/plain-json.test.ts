/** Driver values to plain JSON: graph types, temporal and spatial values, vectors, long strings. */
import neo4j from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import { toPlainJson } from '../../../../src/graph/access/plain-json.js';

describe('toPlainJson', () => {
  it('turns nodes, relationships and paths into objects with _id/_labels/_type', () => {
    const a = new neo4j.types.Node(1, ['Person'], { name: 'Ada', age: neo4j.int(36) }, 'e1');
    const b = new neo4j.types.Node(2, ['Machine'], { name: 'Engine' }, 'e2');
    const r = new neo4j.types.Relationship(7, 1, 2, 'DESIGNED', { year: 1837 }, 'r7', 'e1', 'e2');
    expect(toPlainJson(a)).toEqual({ _id: 1, _labels: ['Person'], name: 'Ada', age: 36 });
    expect(toPlainJson(r)).toEqual({ _type: 'DESIGNED', _start: 1, _end: 2, year: 1837 });
    const path = new neo4j.types.Path(a, b, [new neo4j.types.PathSegment(a, r, b)]);
    expect(toPlainJson(path)).toEqual({
      start: { _id: 1, _labels: ['Person'], name: 'Ada', age: 36 },
      segments: [{ rel: { _type: 'DESIGNED', _start: 1, _end: 2, year: 1837 }, end: { _id: 2, _labels: ['Machine'], name: 'Engine' } }],
    });
  });

  it('keeps a property named __proto__ as a property (the driver reads it as an own key)', () => {
    const properties = JSON.parse('{"__proto__": "x", "constructor": "y"}') as Record<string, unknown>;
    const n = new neo4j.types.Node(3, ['Odd'], properties, 'e3');
    const out = toPlainJson(n) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['_id', '_labels', '__proto__', 'constructor']);
    expect(JSON.stringify(out)).toBe('{"_id":3,"_labels":["Odd"],"__proto__":"x","constructor":"y"}');
  });

  it('turns temporal values into ISO strings and points into coordinates', () => {
    expect(toPlainJson(new neo4j.types.Date(2024, 5, 1))).toBe('2024-05-01');
    expect(toPlainJson(new neo4j.types.Duration(1, 2, 3, 0))).toBe('P1M2DT3S');
    expect(toPlainJson(new neo4j.types.Point(7203, 1.5, 2.5))).toEqual({ srid: 7203, x: 1.5, y: 2.5 });
    expect(toPlainJson(neo4j.int('9007199254740993'))).toBe('9007199254740993');
  });

  it('omits long numeric lists (vectors) at any depth, keeps short ones', () => {
    const vec = Array.from({ length: 512 }, (_, i) => i / 512);
    const node = new neo4j.types.Node(3, ['Doc'], { embedding: vec, tags: [1, 2, 3] }, 'e3');
    expect(toPlainJson({ n: node, v: new Float32Array(384) })).toEqual({
      n: { _id: 3, _labels: ['Doc'], embedding: '<vector of 512 numbers omitted>', tags: [1, 2, 3] },
      v: '<vector of 384 numbers omitted>',
    });
    expect(toPlainJson(Array.from({ length: 64 }, () => 0.5))).toHaveLength(64);
    expect(toPlainJson(Array.from({ length: 100 }, () => 'x'))).toHaveLength(100);
  });

  it('cuts long strings, saying by how much', () => {
    expect(toPlainJson('x'.repeat(30), { maxStringLength: 10 })).toBe(`${'x'.repeat(10)}… [20 more characters]`);
  });
});
