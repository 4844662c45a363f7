/**
 * Token-aware chunking. A text is cut at whitespace into words; each word's token count comes
 * from the model's tokenizer (or an estimate, for the local model server); chunks are the
 * longest runs of whole words that fit the token budget, and each next chunk starts with the
 * last words of the previous one (the overlap), so a sentence cut at a boundary is still seen
 * whole by one of the two vectors. Chunks are substrings of the original text (case, punctuation
 * and inner whitespace kept), so they can be shown to a user as they are. Deterministic: the same
 * text and parameters always give the same chunks.
 *
 * Defaults: 256 tokens per chunk, 32 of overlap. A potion model's vector is the mean of its
 * tokens' rows, so a long chunk blurs several topics into one vector; 256 tokens (~1,000-1,200
 * characters of English) keeps a typical paragraph or node description whole while most texts of
 * up to ~1,000 characters stay one chunk; that is well inside model2vec's 512-token truncation and
 * the 512-position limit of BERT-size encoders. 32 tokens (~ one sentence) of overlap costs ~14%
 * extra chunks on long texts.
 */

/** Chunk size and overlap, in tokens. */
export interface ChunkingOptions {
  /** Largest chunk, in tokens (default 256; `CHUNK_TOKENS`). */
  maxTokens: number;
  /** Tokens repeated from the end of one chunk at the start of the next (default 32; `CHUNK_OVERLAP_TOKENS`). */
  overlapTokens: number;
}

/** The documented defaults. */
export const DEFAULT_CHUNKING: Readonly<ChunkingOptions> = Object.freeze({ maxTokens: 256, overlapTokens: 32 });

/** Counts the tokens of one whitespace-free word. */
export type TokenCounter = (word: string) => number;

/**
 * Local-model-server estimate (no tokenizer is available locally): one token per 4 characters
 * of a word, at least one per word. English WordPiece averages ~1.3 tokens per word of ~5
 * characters plus punctuation, so this slightly overestimates and chunks stay inside the
 * budget the server's model really has.
 */
export const estimateTokens: TokenCounter = (word) => Math.max(1, Math.ceil(word.length / 4));

interface Word {
  start: number;
  end: number;
  tokens: number;
}

/**
 * Splits `text` into overlapping chunks of at most `opts.maxTokens` tokens.
 * Empty or whitespace-only text gives no chunks; a text within the budget is one chunk (trimmed).
 * A single word longer than the budget (a URL, a sequence, unspaced CJK text) is cut into equal
 * character pieces that fit.
 */
export function chunkText(text: string, count: TokenCounter, opts: ChunkingOptions = DEFAULT_CHUNKING): string[] {
  const max = Math.max(1, Math.floor(opts.maxTokens));
  const overlap = Math.min(Math.max(0, Math.floor(opts.overlapTokens)), max - 1);
  const words = splitWords(text, count, max);
  if (!words.length) return [];

  const chunks: string[] = [];
  let start = 0;
  for (;;) {
    let end = start;
    let sum = 0;
    while (end < words.length && (end === start || sum + words[end]!.tokens <= max)) sum += words[end++]!.tokens;
    chunks.push(text.slice(words[start]!.start, words[end - 1]!.end));
    if (end === words.length) return chunks;
    // Step back over whole words while they fit in the overlap, always moving forward overall.
    let next = end;
    let carried = 0;
    while (next - 1 > start && carried + words[next - 1]!.tokens <= overlap) carried += words[--next]!.tokens;
    start = next;
  }
}

function splitWords(text: string, count: TokenCounter, max: number): Word[] {
  const words: Word[] = [];
  for (const m of text.matchAll(/\S+/g)) {
    const start = m.index;
    const tokens = count(m[0]);
    if (tokens <= max) {
      words.push({ start, end: start + m[0].length, tokens });
      continue;
    }
    // Cut at code point boundaries into pieces of about `max` tokens each.
    const points = Array.from(m[0]);
    const pieces = Math.ceil(tokens / max);
    const size = Math.ceil(points.length / pieces);
    let at = start;
    for (let i = 0; i < points.length; i += size) {
      const piece = points.slice(i, i + size).join('');
      words.push({ start: at, end: at + piece.length, tokens: Math.min(max, count(piece)) });
      at += piece.length;
    }
  }
  return words;
}
