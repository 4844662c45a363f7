/** The writer's vector rows: float32 values exactly, and a vector Neo4j would refuse written as zeros. */
import { describe, expect, it } from 'vitest';
import { toList } from '../../../../src/graph/access/index-writer.js';

describe('toList', () => {
  it('keeps the float32 values exactly', () => {
    const v = Float32Array.from([0.1, -2.5, 3e-8]);
    expect(toList(v)).toEqual([...v]);
  });

  it('writes a vector holding NaN or an infinity as zeros (setNodeVectorProperty refuses it)', () => {
    expect(toList(Float32Array.from([1, Number.NaN, 2]))).toEqual([0, 0, 0]);
    expect(toList(Float32Array.from([1, Number.POSITIVE_INFINITY]))).toEqual([0, 0]);
    expect(toList(Float32Array.from([Number.NEGATIVE_INFINITY, 1]))).toEqual([0, 0]);
  });
});
