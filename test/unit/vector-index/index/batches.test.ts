import { describe, expect, it } from 'vitest';
import { chunkBatches, chunkHeader, HEADER_NAME_CHARS, type TextNode } from '../../../../src/vector-index/index/source.js';
import { chunkLabel, isIndexLabel, quoteName } from '../../../../src/graph/dialect/names.js';

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

  it('yields every chunk once, in node order, and counts the nodes finished by each batch', async () => {
    const batches = await collect(nodes, 3);
    expect(batches.flatMap((b) => b.chunks.map((c) => `${c.nodeId}${c.chunk}:${c.text}`))).toEqual([
      'a0:a0',
      'a1:a1',
      'a2:a2',
      'c0:c0',
      'd0:d0',
      'd1:d1',
      'd2:d2',
      'd3:d3',
    ]);
    expect(batches.map((b) => b.index)).toEqual(batches.map((_, i) => i));
    expect(batches.at(-1)!.nodesDone).toBe(4);
    expect(await collect(nodes, 3)).toEqual(batches); // deterministic
  });

  /** 1,000 nodes of 1 to 5 chunks each. */
  const many = (ids: number[], text = (id: number) => Array.from({ length: 1 + (id % 5) }, (_, k) => `n${id}c${k}`).join('|')) =>
    ids.map((id) => ({ nodeId: `4:x:${id}`, text: text(id) }));
  const keysOf = async (list: TextNode[], size: number) => new Set((await collect(list, size)).map((b) => JSON.stringify(b.chunks)));
  const changed = (before: Set<string>, after: Set<string>) => [...after].filter((k) => !before.has(k)).length;
  const ids = Array.from({ length: 1_000 }, (_, i) => i * 2);

  it('keeps batches between a quarter of and twice batchSize, about batchSize on average', async () => {
    const batches = await collect(many(ids), 32);
    const sizes = batches.map((b) => b.chunks.length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(64);
    expect(Math.min(...sizes.slice(0, -1))).toBeGreaterThanOrEqual(8);
    const mean = sizes.reduce((a, b) => a + b, 0) / sizes.length;
    expect(mean).toBeGreaterThan(32 * 0.7);
    expect(mean).toBeLessThan(32 * 1.3);
  });

  it('changes at most two batches when a node is inserted or deleted, and one when a text is edited', async () => {
    const before = await keysOf(many(ids), 32);
    const inserted = [...ids.slice(0, 500), 999, ...ids.slice(500)]; // an odd id between two others
    expect(changed(before, await keysOf(many(inserted), 32))).toBeLessThanOrEqual(2);
    const deleted = ids.filter((id) => id !== 1_000);
    expect(changed(before, await keysOf(many(deleted), 32))).toBeLessThanOrEqual(2);
    const edited = many(ids, (id) => Array.from({ length: 1 + (id % 5) }, (_, k) => `n${id}c${k}${id === 600 ? ' edited' : ''}`).join('|'));
    expect(changed(before, await keysOf(edited, 32))).toBe(1);
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

  it('mark a chunk that is a header alone (a node with a name and no text) as name-only, and no other', async () => {
    const batches = [];
    const nodes: TextNode[] = [
      { nodeId: 'a', text: 'a0', displayName: 'Alpha', labels: ['Thing'] },
      { nodeId: 'b', text: '', displayName: 'Beta', labels: ['Thing'] },
      { nodeId: 'c', text: 'c0' },
    ];
    for await (const b of chunkBatches(from(nodes), split, 8)) batches.push(b);
    expect(batches[0]!.chunks.map((c) => [c.text, c.nameOnly ?? false])).toEqual([
      ['Alpha (Thing)\na0', false],
      ['Beta (Thing)', true],
      ['c0', false],
    ]);
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
