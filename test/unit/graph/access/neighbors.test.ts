import { describe, expect, it } from 'vitest';
import { NEIGHBOR_LABELS, NEIGHBOR_NAME_CHARS, pickNeighbors, type RawNeighbor } from '../../../../src/graph/access/neighbors.js';

const raw = (type: string, out: boolean, n: number, extra: Partial<RawNeighbor> = {}): RawNeighbor => ({
  type,
  out,
  dbId: n,
  nameFields: [['name', `${type} ${n}`]],
  labels: ['Gene'],
  ...extra,
});

describe('pickNeighbors', () => {
  it('takes round-robin over (type, direction) groups so rare relationships are not hidden', () => {
    const many = Array.from({ length: 50 }, (_, i) => raw('HAS_PART', true, i));
    const picked = pickNeighbors([...many, raw('CITES', false, 900), raw('HAS_PART', false, 901)], 4);
    expect(picked.map((p) => `${p.direction}:${p.type}:${p.dbId}`)).toEqual([
      'out:HAS_PART:0',
      'in:CITES:900',
      'in:HAS_PART:901',
      'out:HAS_PART:1',
    ]);
  });

  it('never returns more than asked, and nothing for 0', () => {
    const many = Array.from({ length: 10 }, (_, i) => raw('R', i % 2 === 0, i));
    expect(pickNeighbors(many, 3)).toHaveLength(3);
    expect(pickNeighbors(many, 0)).toEqual([]);
    expect(pickNeighbors(many.slice(0, 2), 8)).toHaveLength(2);
  });

  it('cuts names and label lists and turns database integers into numbers', () => {
    const [p] = pickNeighbors(
      [
        raw('R', true, 1, {
          nameFields: [['name', 'x'.repeat(500)]],
          labels: ['A', 'B', 'C', 'D', 'E'],
          dbId: { low: 7, high: 0, toNumber: () => 7, valueOf: () => 7 },
        }),
      ],
      1,
    );
    expect(p!.displayName).toHaveLength(NEIGHBOR_NAME_CHARS);
    expect(p!.labels).toHaveLength(NEIGHBOR_LABELS);
    expect(p!.dbId).toBe(7);
  });
});
