/** Token-aware chunking: budgets, overlap, determinism, edge cases. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHUNKING, chunkText, estimateTokens } from '../../src/embeddings/chunking.js';

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
});
