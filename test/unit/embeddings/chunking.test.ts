/** Token-aware chunking: budgets, overlap, determinism, edge cases. */
import { describe, expect, it } from 'vitest';
import { BLOB_MARKER, DEFAULT_CHUNKING, chunkText, cutBlobs, estimateTokens, maxChunkChars } from '../../../src/embeddings/chunking.js';

/** One token per word, so budgets are easy to reason about. */
const perWord = () => 1;
const words = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `w${i + from}`).join(' ');

describe('chunkText', () => {
  it('gives no chunks for empty or whitespace-only text', () => {
    expect(chunkText('', perWord)).toEqual([]);
    expect(chunkText(' \n\t  ', perWord)).toEqual([]);
  });

  it('keeps a short text as one trimmed chunk, inner whitespace and case intact', () => {
    expect(chunkText('  Hello,\n  World!  ', perWord)).toEqual(['Hello,\n  World!']);
    expect(chunkText(words(256), perWord, DEFAULT_CHUNKING)).toEqual([words(256)]);
  });

  it('cuts at the budget and repeats the overlap at the next chunk start', () => {
    const chunks = chunkText(words(25), perWord, { maxTokens: 10, overlapTokens: 3 });
    expect(chunks).toEqual([words(10, 0), words(10, 7), words(10, 14), words(4, 21)]);
  });

  it('never exceeds the budget with multi-token words, and always makes progress', () => {
    const count = (w: string) => w.length;
    const text = 'aaaa bb cccccc d eeeee ff g hhhhhhh ii jjj';
    const chunks = chunkText(text, count, { maxTokens: 8, overlapTokens: 4 });
    for (const c of chunks) expect(c.split(' ').reduce((n, w) => n + w.length, 0)).toBeLessThanOrEqual(8);
    expect(chunks[0]).toBe('aaaa bb');
    expect(chunks.at(-1)!.endsWith('jjj')).toBe(true);
    // Overlap larger than the budget is clamped rather than looping forever.
    expect(chunkText(words(5), perWord, { maxTokens: 2, overlapTokens: 9 })).toHaveLength(4);
  });

  it('splits a single word longer than the budget into pieces at code point boundaries', () => {
    const long = '🧬'.repeat(30);
    const chunks = chunkText(long, (w) => Array.from(w).length, { maxTokens: 10, overlapTokens: 0 });
    expect(chunks).toEqual(['🧬'.repeat(10), '🧬'.repeat(10), '🧬'.repeat(10)]);
  });

  it('is deterministic', () => {
    const text = `${words(300)}\n\n${words(300, 1000)}`;
    expect(chunkText(text, estimateTokens)).toEqual(chunkText(text, estimateTokens));
  });

  it('estimates one token per 4 characters, at least one per word', () => {
    expect(estimateTokens('a')).toBe(1);
    expect(estimateTokens('protein')).toBe(2);
    expect(estimateTokens('phosphorylation,')).toBe(4);
  });

  it('bounds chunks in characters whatever the tokenizer says (one unknown token for any word)', () => {
    const oneToken = () => 1;
    const bound = maxChunkChars(DEFAULT_CHUNKING.maxTokens);
    expect(bound).toBe(2048);
    // An unspaced run that is not a blob (CJK prose), counted as one token: cut by characters.
    const cjk = '漢字'.repeat(100_000);
    const chunks = chunkText(cjk, oneToken);
    expect(chunks.every((c) => c.length <= bound)).toBe(true);
    expect(chunks.join('')).toBe(cjk);
    expect(chunks).toHaveLength(Math.ceil(cjk.length / bound));
    // Many short words that the counter undercounts: the run stops at the bound, with the overlap after it.
    const prose = Array.from({ length: 3000 }, (_, i) => `wörd${i}`).join(' ');
    const cut = chunkText(prose, () => 0, { maxTokens: 16, overlapTokens: 4 });
    expect(cut.every((c) => c.length <= maxChunkChars(16))).toBe(true);
    expect(cut.at(-1)!.endsWith('wörd2999')).toBe(true);
  });

  it('keeps astral characters whole and within the bound', () => {
    const emoji = '🧬'.repeat(5000);
    const chunks = chunkText(emoji, () => 1, { maxTokens: 16, overlapTokens: 0 });
    expect(chunks.every((c) => c.length <= maxChunkChars(16) && !/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(c))).toBe(true);
    expect(chunks.join('')).toBe(emoji);
  });

  it('cuts blobs out of prose before chunking, one marker per run', () => {
    const b64 = Buffer.from(Array.from({ length: 26_000 }, (_, i) => (i * 7919) % 256)).toString('base64');
    const mime = b64.match(/.{1,76}/g)!.join('\n');
    const text = `A photo of the bridge: ${mime}\nIt was built in 1890.`;
    expect(cutBlobs(text)).toBe(`A photo of the bridge: ${BLOB_MARKER}\nIt was built in 1890.`);
    expect(chunkText(text, estimateTokens)).toEqual([`A photo of the bridge: ${BLOB_MARKER}\nIt was built in 1890.`]);
    const hash = 'd41d8cd98f00b204e9800998ecf8427e';
    expect(cutBlobs(`checksum ${hash}, ok`)).toBe(`checksum ${BLOB_MARKER} ok`);
    expect(cutBlobs(`<img src="data:image/png;base64,${b64.slice(0, 200)}"> a cat`)).toBe(`<img ${BLOB_MARKER} a cat`);
    expect(cutBlobs(`x ${'a'.repeat(200_000)} y`)).toBe(`x ${BLOB_MARKER} y`);
  });

  it('leaves words, URLs and non-ASCII runs alone', () => {
    const words = 'Pneumonoultramicroscopicsilicovolcanoconiosis is a word; so is Donaudampfschifffahrtsgesellschaftskapitän.';
    expect(cutBlobs(words)).toBe(words);
    const url = `see https://example.org/${'path/'.repeat(30)}index.html for more`;
    expect(cutBlobs(url)).toBe(url);
    const thai = 'ภาษาไทย'.repeat(20);
    expect(cutBlobs(thai)).toBe(thai);
  });

  it('gives no chunks for a text that was only blobs', () => {
    expect(chunkText('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/==', estimateTokens)).toEqual([]);
    expect(chunkText(`  ${'0'.repeat(64)}\n`, estimateTokens)).toEqual([]);
  });
});
