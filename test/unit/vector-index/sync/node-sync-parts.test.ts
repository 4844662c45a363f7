import neo4j from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import type { NodeWrite } from '../../../../src/graph/access/chunk-store.js';
import { planNode } from '../../../../src/vector-index/sync/node-sync.js';
import { entryBytes, splitWrites } from '../../../../src/vector-index/sync/write-windows.js';

const DIMS = 4;
const costs = { dims: DIMS, stale: () => 1_000 };
/** A new chunk of `chars` characters; chunk 0 carries the sig. */
const row = (chunk: number, chars = 100) => ({
  props: { chunk: neo4j.int(chunk), chunkText: 'x'.repeat(chars), sig: chunk === 0 ? ['S'] : null },
  vector: [],
});
const node = (nodeId: string, rows: number, stale: string[] = []): NodeWrite => ({
  nodeId,
  stale,
  kept: [],
  rows: Array.from({ length: rows }, (_, i) => row(i)),
});
const rowBytes = entryBytes(row(1).props, DIMS);

describe('splitWrites', () => {
  it('packs whole nodes into transactions up to the budget', () => {
    const writes = Array.from({ length: 7 }, (_, i) => node(`n${i}`, 2));
    const groups = splitWrites(writes, costs, 6 * rowBytes + 100);
    expect(groups.map((g) => g.map((w) => w.nodeId))).toEqual([['n0', 'n1', 'n2'], ['n3', 'n4', 'n5'], ['n6']]);
    // Whole nodes are passed as they are.
    expect(groups[0]![0]).toBe(writes[0]);
  });

  it('writes a node over the budget alone, in parts: stale chunks first, the sig carrier last', () => {
    const big = node('big', 10, ['old0', 'old1', 'old2']);
    big.kept.push({ id: 'k', props: { chunk: neo4j.int(10), sig: null } });
    const groups = splitWrites([node('a', 1), big, node('b', 1)], costs, 3 * rowBytes);
    const parts = groups.filter((g) => g[0]!.nodeId === 'big');
    expect(parts.length).toBeGreaterThan(3);
    for (const g of parts) expect(g).toHaveLength(1);
    const flat = parts.map((g) => g[0]!);
    // Every entry once, in order; stale ones in the first part, chunk 0 alone at the end.
    expect(flat.flatMap((p) => p.stale)).toEqual(['old0', 'old1', 'old2']);
    expect(flat[0]!.stale.length).toBeGreaterThan(0);
    expect(flat.flatMap((p) => p.rows.map((r) => Number(r.props.chunk)))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 0]);
    expect(flat.flatMap((p) => p.kept.map((k) => k.id))).toEqual(['k']);
    expect(flat.at(-1)!.rows.map((r) => Number(r.props.chunk))).toEqual([0]);
    for (const p of flat.slice(0, -1)) expect(p.rows.every((r) => r.props.sig === null)).toBe(true);
    // The small nodes go on together.
    expect(groups.filter((g) => g[0]!.nodeId !== 'big').map((g) => g.map((w) => w.nodeId))).toEqual([['a', 'b']]);
  });

  it('keeps a marker (it carries the sig) for the last part of a node whose many chunks go', () => {
    const stale = Array.from({ length: 9 }, (_, i) => `s${i}`);
    const w: NodeWrite = { nodeId: 'm', stale, kept: [], rows: [], marker: { chunk: neo4j.int(0), sig: ['S'] } };
    const parts = splitWrites([w], costs, 2_500).map((g) => g[0]!);
    expect(parts.length).toBeGreaterThan(2);
    expect(parts.flatMap((p) => p.stale)).toEqual(stale);
    expect(parts.filter((p) => p.marker)).toEqual([parts.at(-1)]);
  });

  it('lists the stored chunks a node no longer has as stale', () => {
    const stored = (id: string, chunk: number, text: string | null) => ({ id, chunk, text, nameOnly: false, keys: [] });
    const w = planNode(
      'n',
      { sig: ['S'], texts: [{ text: 'a' }] },
      [stored('x', 0, 'b'), stored('y', 1, 'a'), stored('z', 2, 'a')],
      new Set(),
    );
    expect(w.kept.map((k) => k.id)).toEqual(['y']);
    expect(w.stale).toEqual(['x', 'z']);
    expect(planNode('n', { sig: ['S'], texts: [] }, [stored('x', 0, 'b')], new Set()).stale).toEqual(['x']);
  });

  it('weighs a chunk by its strings and vector', () => {
    expect(entryBytes({ chunkText: 'abcd', sig: ['ab', 'c'] }, 512)).toBe(256 + 4 * 7 + 40 * 512);
  });
});
