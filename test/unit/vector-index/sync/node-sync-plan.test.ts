import { describe, expect, it } from 'vitest';
import type { StoredChunk } from '../../../../src/graph/access/chunk-store.js';
import { planNode } from '../../../../src/vector-index/sync/node-sync.js';

const stored = (id: string, chunk: number, text: string | null, keys: string[] = []): StoredChunk => ({
  id,
  chunk,
  text,
  nameOnly: false,
  keys: ['nodeId', 'chunk', 'chunkText', ...keys],
});
const num = (v: unknown) => Number(v);

describe('planNode', () => {
  it('keeps a stored chunk whose text is wanted, renumbered, and makes rows only for new texts', () => {
    const w = planNode(
      'n1',
      { sig: ['S'], texts: [{ text: 'h\na' }, { text: 'h\nB' }, { text: 'h\nc' }] },
      [stored('x', 0, 'h\na'), stored('y', 1, 'h\nb'), stored('z', 2, 'h\nc')],
      new Set(),
    );
    expect(w.kept.map((k) => [k.id, num(k.props.chunk), k.props.sig])).toEqual([
      ['x', 0, ['S']],
      ['z', 2, null],
    ]);
    expect(w.rows.map((r) => [num(r.props.chunk), r.props.chunkText, r.props.sig])).toEqual([[1, 'h\nB', null]]);
    expect(w.marker).toBeUndefined();
  });

  it('moves a chunk that shifted (a paragraph inserted before it) instead of embedding it again', () => {
    const w = planNode(
      'n1',
      { sig: ['S'], texts: [{ text: 'h\nnew' }, { text: 'h\na' }, { text: 'h\nb' }] },
      [stored('x', 0, 'h\na'), stored('y', 1, 'h\nb')],
      new Set(),
    );
    expect(w.kept.map((k) => [k.id, num(k.props.chunk)])).toEqual([
      ['x', 1],
      ['y', 2],
    ]);
    expect(w.rows.map((r) => [num(r.props.chunk), r.props.chunkText, r.props.sig])).toEqual([[0, 'h\nnew', ['S']]]);
  });

  it('uses each stored chunk once when a text repeats', () => {
    const w = planNode('n1', { sig: ['S'], texts: [{ text: 'h\na' }, { text: 'h\na' }] }, [stored('x', 0, 'h\na')], new Set());
    expect(w.kept).toHaveLength(1);
    expect(w.rows).toHaveLength(1);
  });

  it('sets the carried fields the node has and removes those it lost', () => {
    const carried = new Set(['label:Doc', 'prop:year', 'prop:kind']);
    const w = planNode(
      'n1',
      { sig: ['S'], texts: [{ text: 'h\na' }], carry: { 'label:Doc': true, 'prop:year': 1999 } },
      [stored('x', 0, 'h\na', ['label:Doc', 'prop:kind'])],
      carried,
    );
    expect(w.kept[0]!.props).toMatchObject({ 'label:Doc': true, 'prop:year': 1999, 'prop:kind': null });
  });

  it('gives a node with no text a marker with its sig, and keeps nothing', () => {
    const w = planNode('n1', { sig: ['S'], texts: [] }, [stored('x', 0, 'h\na'), stored('m', 0, null)], new Set());
    expect(w.kept).toEqual([]);
    expect(w.rows).toEqual([]);
    expect(w.marker).toMatchObject({ sig: ['S'] });
    expect(num(w.marker!.chunk)).toBe(0);
  });

  it('writes a header alone to nameText, moves one the older layout kept in chunkText, and leaves both alone under an older full-text index', () => {
    const want = { sig: ['S'], texts: [{ text: 'Cholesterol (Metabolite)', nameOnly: true }] };
    const fresh = planNode('n1', want, [], new Set());
    expect(fresh.rows[0]!.props).toMatchObject({ nameText: 'Cholesterol (Metabolite)', chunkText: null });
    const moved = planNode('n1', want, [stored('x', 0, 'Cholesterol (Metabolite)')], new Set());
    expect(moved.kept[0]!.props).toMatchObject({ nameText: 'Cholesterol (Metabolite)', chunkText: null });
    const older = planNode('n1', want, [stored('x', 0, 'Cholesterol (Metabolite)')], new Set(), false);
    expect(older.kept[0]!.props).not.toHaveProperty('nameText');
    expect(older.kept[0]!.props).not.toHaveProperty('chunkText');
    expect(planNode('n1', want, [], new Set(), false).rows[0]!.props).toMatchObject({
      chunkText: 'Cholesterol (Metabolite)',
      nameText: null,
    });
  });
});
