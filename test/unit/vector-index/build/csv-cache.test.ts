import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  batchKey,
  cacheDir,
  createCsvCache,
  fromCsv,
  storedBatchKey,
  toCsv,
  type ChunkRef,
} from '../../../../src/vector-index/build/csv-cache.js';
import { decodeBase64, encodeBase64 } from '../../../../src/lib/base64.js';

const chunks: ChunkRef[] = [
  { nodeId: '4:abc:1', chunk: 0, text: 'first chunk' },
  { nodeId: '4:abc:1', chunk: 1, text: 'second, "quoted" chunk' },
  { nodeId: 'odd,id"x', chunk: 0, text: 'third' },
];
const vec = (seed: number, dims = 8) => Float32Array.from({ length: dims }, (_, i) => Math.sin(seed * 7.1 + i) / 3);

describe('base64', () => {
  it('round-trips every length and matches the platform encoder', () => {
    for (let n = 0; n < 40; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 97 + n * 13) & 255);
      const s = encodeBase64(bytes);
      expect(s).toBe(Buffer.from(bytes).toString('base64'));
      expect(decodeBase64(s)).toEqual(bytes);
    }
  });
  it('rejects malformed input', () => {
    expect(decodeBase64('abc')).toBeNull();
    expect(decodeBase64('ab$=')).toBeNull();
  });
});

describe('csv format', () => {
  it('round-trips float32 vectors bit-exactly, with quoted ids', () => {
    const vectors = chunks.map((_, i) => vec(i));
    const csv = toCsv(chunks, vectors);
    expect(csv.split('\n')[0]).toBe('node_id,chunk,embedding');
    expect(csv).toContain('"odd,id""x",0,');
    const back = fromCsv(csv, chunks, 8);
    expect(back).not.toBeNull();
    back!.forEach((v, i) => expect(Array.from(v)).toEqual(Array.from(vectors[i]!)));
  });
  it('treats a file that does not match its batch as a miss', () => {
    const csv = toCsv(
      chunks,
      chunks.map((_, i) => vec(i)),
    );
    expect(fromCsv(csv, chunks, 16)).toBeNull(); // other dimensions
    expect(fromCsv(csv, chunks.slice(0, 2), 8)).toBeNull(); // other row count
    expect(fromCsv(csv.slice(0, -20), chunks, 8)).toBeNull(); // truncated
    const moved = chunks.map((c) => ({ ...c, chunk: c.chunk + 1 }));
    expect(fromCsv(csv, moved, 8)).toBeNull(); // other chunk numbers
  });
});

describe('batchKey', () => {
  it('changes with any text, id, chunk number or model, and is stable otherwise', async () => {
    const base = await batchKey('m', 8, chunks);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(
      await batchKey(
        'm',
        8,
        chunks.map((c) => ({ ...c })),
      ),
    ).toBe(base);
    const changed = [
      await batchKey('other', 8, chunks),
      await batchKey('m', 16, chunks),
      await batchKey('m', 8, [{ ...chunks[0]!, text: 'first chunk!' }, ...chunks.slice(1)]),
      await batchKey('m', 8, [{ ...chunks[0]!, nodeId: '4:abc:2' }, ...chunks.slice(1)]),
      await batchKey('m', 8, [{ ...chunks[0]!, chunk: 5 }, ...chunks.slice(1)]),
      // Moving text between neighbouring chunks must not collide either.
      await batchKey('m', 8, [{ ...chunks[0]!, text: 'first chunk\t1' }, { ...chunks[1]!, text: chunks[1]!.text }, chunks[2]!]),
    ];
    expect(new Set([base, ...changed]).size).toBe(changed.length + 1);
  });
});

describe('storedBatchKey', () => {
  it('keeps the text key of a plain batch and of carried values; a batch with name-only chunks gets a key of its own', async () => {
    const text = await batchKey('m', 8, chunks);
    expect(await storedBatchKey(text, chunks)).toBe(text);
    const named = chunks.map((c, i) => (i === 2 ? { ...c, nameOnly: true } : c));
    // The same text (same cache entry, no re-embedding), stored anew: an index written before names had their field is rewritten.
    expect(await batchKey('m', 8, named)).toBe(text);
    const namedKey = await storedBatchKey(text, named);
    expect(namedKey).toMatch(/^[0-9a-f]{64}$/);
    expect(namedKey).not.toBe(text);
    const carried = chunks.map((c) => ({ ...c, carry: { 'prop:year': 1999 } }));
    const carriedKey = await storedBatchKey(text, carried);
    expect(
      await storedBatchKey(
        text,
        carried.map((c, i) => (i === 2 ? { ...c, nameOnly: true } : c)),
      ),
    ).not.toBe(carriedKey);
    expect(new Set([text, namedKey, carriedKey]).size).toBe(3);
  });
});

describe('createCsvCache', () => {
  let dir: string;
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('writes atomically, reads back, misses on garbage and prunes unused files', async () => {
    dir = await mkdtemp(join(tmpdir(), 'csv-cache-'));
    const cache = createCsvCache({ dataDir: dir, indexName: 'idx', dimensions: 8 });
    const vectors = chunks.map((_, i) => vec(i));
    expect(await cache.read('k1', chunks)).toBeNull();
    await cache.write('k1', chunks, vectors);
    await cache.write('k2', chunks, vectors);
    const folder = cacheDir(dir, 'idx');
    expect((await readdir(folder)).sort()).toEqual(['k1.csv', 'k2.csv']); // no temp files left
    expect((await cache.read('k1', chunks))!.map((v) => Array.from(v))).toEqual(vectors.map((v) => Array.from(v)));

    await writeFile(join(folder, 'k2.csv'), 'garbage\n');
    expect(await cache.read('k2', chunks)).toBeNull();
    await writeFile(join(folder, '.k3.1234.tmp'), 'half a file');
    expect(await cache.prune(new Set(['k1']))).toBe(2);
    expect(await readdir(folder)).toEqual(['k1.csv']);
  });
});
