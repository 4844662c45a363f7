import { describe, expect, it } from 'vitest';
import { chunkBatches, chunkHeader, HEADER_NAME_CHARS, type TextNode } from '../../src/vector-index/index-source.js';
import { chunkLabel, isIndexLabel, quoteName } from '../../src/graph/dialect.js';

async function* from(nodes: TextNode[]) {
  yield* nodes;
}
/** Splits on `|`, dropping empty pieces. */
const split = (t: string) => t.split('|').filter(Boolean);

async function collect(nodes: TextNode[], size: number) {
  const out = [];
  for await (const b of chunkBatches(from(nodes), split, size)) out.push(b);
  return out;
}

describe('chunkBatches', () => {
  const nodes: TextNode[] = [
    { nodeId: 'a', text: 'a0|a1|a2' },
    { nodeId: 'b', text: '' },
    { nodeId: 'c', text: 'c0' },
    { nodeId: 'd', text: 'd0|d1|d2|d3' },
  ];

  it('yields fixed-size batches in node order, chunks spanning batch boundaries', async () => {
    const batches = await collect(nodes, 3);
    expect(batches.map((b) => b.chunks.map((c) => `${c.nodeId}${c.chunk}:${c.text}`))).toEqual([
      ['a0:a0', 'a1:a1', 'a2:a2'],
      ['c0:c0', 'd0:d0', 'd1:d1'],
      ['d2:d2', 'd3:d3'],
    ]);
    expect(batches.map((b) => b.index)).toEqual([0, 1, 2]);
    // Nodes finished by the end of each batch: a; then b (no chunks) and c; then d.
    expect(batches.map((b) => b.nodesDone)).toEqual([1, 3, 4]);
  });

  it('is deterministic and keeps a batch size exactly', async () => {
    expect(await collect(nodes, 2)).toEqual(await collect(nodes, 2));
    const sizes = (await collect(nodes, 2)).map((b) => b.chunks.length);
    expect(sizes).toEqual([2, 2, 2, 2]);
  });

  it('yields nothing for a graph without text', async () => {
    expect(await collect([{ nodeId: 'x', text: '' }], 4)).toEqual([]);
  });
});

describe('chunk headers', () => {
  it('name the node and its labels, leaving index labels out', () => {
    expect(chunkHeader('Statin pathway', ['Pathway'])).toBe('Statin pathway (Pathway)');
    expect(chunkHeader('  IL-9\n signaling ', ['Pathway', 'Curated', '__Chunk_x'])).toBe('IL-9 signaling (Pathway, Curated)');
    expect(chunkHeader('', ['Pathway'])).toBe('(Pathway)');
    expect(chunkHeader('Alone', [])).toBe('Alone');
    expect(chunkHeader('', [])).toBe('');
    expect(chunkHeader('x'.repeat(500), ['L'])).toBe(`${'x'.repeat(HEADER_NAME_CHARS - 1)}… (L)`);
  });

  it('go in front of every chunk of their node; a node without one keeps its bare chunks', async () => {
    const batches = [];
    const nodes: TextNode[] = [
      { nodeId: 'a', text: 'a0|a1', displayName: 'Alpha', labels: ['Thing'] },
      { nodeId: 'b', text: 'b0' },
    ];
    for await (const b of chunkBatches(from(nodes), split, 8)) batches.push(b);
    expect(batches[0]!.chunks.map((c) => c.text)).toEqual(['Alpha (Thing)\na0', 'Alpha (Thing)\na1', 'b0']);
  });
});

describe('dialect naming', () => {
  it('marks chunk labels as index data and leaves user labels alone', () => {
    expect(chunkLabel('neo4j_minishlab_potion_base_32M')).toBe('__Chunk_neo4j_minishlab_potion_base_32M');
    expect(isIndexLabel(chunkLabel('x'))).toBe(true);
    expect(isIndexLabel('Pathway')).toBe(false);
    expect(isIndexLabel('_Private')).toBe(false);
  });
  it('quotes names with backticks', () => {
    expect(quoteName('a`b')).toBe('`a``b`');
  });
});
