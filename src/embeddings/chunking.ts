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
 *
 * Characters bound a chunk as well as tokens, whatever the tokenizer says: a WordPiece tokenizer
 * counts a word it cannot split (over 100 characters, or of unknown characters) as one unknown
 * token, so a 200,000-character token would make one chunk of over 200,000 characters. The bound is
 * {@link CHARS_PER_TOKEN_CEILING} characters per token of the budget (2,048 for 256 tokens):
 * about twice the 4-5 characters per token of English and German prose and far above code,
 * URLs and CJK text (fewer characters per token), so no chunk a tokenizer counts truly is ever
 * cut by it; only undercounted runs are.
 *
 * Blobs inside prose are cut out before chunking ({@link cutBlobs}): base64 pictures, hex
 * hashes and other long unbroken ASCII runs, by the patterns text discovery uses for a
 * whole property (src/lib/blob.ts). A 26 KB base64 picture inside a description became 65 chunks of noise that
 * matched nothing a user asks and pulled the node's vectors off its real topic.
 */
import { BASE64_BLOB, HEX_BLOB, isLongEncodedRun } from '../lib/blob.js';

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

/**
 * Most characters (UTF-16 code units) per token of the budget a chunk may hold: a chunk is at
 * most `maxTokens × 8` characters (see the header for why 8).
 */
export const CHARS_PER_TOKEN_CEILING = 8;

/** The character bound of a chunk for a budget of `maxTokens` tokens (2,048 for the default 256). */
export function maxChunkChars(maxTokens: number): number {
  return Math.max(2, Math.floor(maxTokens)) * CHARS_PER_TOKEN_CEILING;
}

/**
 * What stands in a text where {@link cutBlobs} took a blob out: the editor's mark of an omission.
 * Marked rather than removed so a reader of the chunk sees that something was there, and so a
 * text that was only a blob is seen to be empty ({@link chunkText} gives no chunks for it); it
 * has no letters, so the full-text analyzer indexes nothing for it, and it adds at most a few
 * tokens to a vector.
 */
export const BLOB_MARKER = '[…]';

/** Shortest run that can be a blob (a 32-digit hex hash). */
const BLOB_MIN = /\S{32,}/;
/** The short last line of MIME base64 (wrapped at 76 characters), after a blob. */
const BASE64_TAIL = /^[A-Za-z0-9+/]+={1,2}$/;
/** Punctuation around a word that is not part of it (quotes, brackets, a comma or full stop after it). */
// The closing run starts where no closing mark precedes it, so a long run is tried once, not from each of its marks.
const AROUND = /^[("'<[{]+|(?<![)"'>\]},.;:!?])[)"'>\]},.;:!?]+$/g;

/**
 * True when a whitespace-free run is encoded data, not a word. Only printable ASCII runs: an
 * unspaced run of CJK or Thai is prose (the chunk's character bound cuts it instead). Hex of
 * 32+ digits; base64 of 40+ characters with a digit, `+` or `/` (a 45-letter word of chemistry
 * is not cut); any run over 64 characters (a data URI, a base64url token), except a URL, which
 * reads as words to a user and a search.
 */
function isBlob(token: string): boolean {
  if (!/^[\x21-\x7e]+$/.test(token)) return false;
  const core = token.replace(AROUND, '');
  if (HEX_BLOB.test(core)) return true;
  if (BASE64_BLOB.test(core) && /[0-9+/]/.test(core)) return true;
  return isLongEncodedRun(token);
}

/**
 * `text` with each run of blobs (consecutive blob tokens with only whitespace between, such as
 * MIME base64 wrapped at 76 characters) replaced by one {@link BLOB_MARKER}; everything else,
 * whitespace included, as it was. Deterministic and cheap on text without long runs (one regex test).
 */
export function cutBlobs(text: string): string {
  if (!BLOB_MIN.test(text)) return text;
  let out = '';
  let at = 0;
  let run: { start: number; end: number } | null = null;
  const flush = () => {
    if (!run) return;
    out += text.slice(at, run.start) + BLOB_MARKER;
    at = run.end;
    run = null;
  };
  for (const m of text.matchAll(/\S+/g)) {
    const end = m.index + m[0].length;
    if (isBlob(m[0])) {
      if (run) run.end = end;
      else run = { start: m.index, end };
    } else if (run && BASE64_TAIL.test(m[0])) {
      run.end = end;
      flush();
    } else flush();
  }
  flush();
  return out + text.slice(at);
}

interface Word {
  start: number;
  end: number;
  tokens: number;
}

/**
 * Splits `text` into overlapping chunks of at most `opts.maxTokens` tokens and
 * {@link maxChunkChars} characters, after cutting its blobs out ({@link cutBlobs}; chunks are
 * substrings of the text so cut). Empty or whitespace-only text, or text that was only blobs,
 * gives no chunks; a text within both bounds is one chunk (trimmed). A single word longer than
 * either bound (a URL, a sequence, unspaced CJK text) is cut into equal pieces that fit, at
 * code point boundaries.
 */
export function chunkText(raw: string, count: TokenCounter, opts: ChunkingOptions = DEFAULT_CHUNKING): string[] {
  const max = Math.max(1, Math.floor(opts.maxTokens));
  const maxChars = maxChunkChars(max);
  const overlap = Math.min(Math.max(0, Math.floor(opts.overlapTokens)), max - 1);
  const text = cutBlobs(raw);
  if (text !== raw && !text.replaceAll(BLOB_MARKER, '').trim()) return [];
  const words = splitWords(text, count, max, maxChars);
  if (!words.length) return [];

  const chunks: string[] = [];
  let start = 0;
  for (;;) {
    let end = start;
    let sum = 0;
    const from = words[start]!.start;
    const fits = (w: Word) => sum + w.tokens <= max && w.end - from <= maxChars;
    while (end < words.length && (end === start || fits(words[end]!))) sum += words[end++]!.tokens;
    chunks.push(text.slice(words[start]!.start, words[end - 1]!.end));
    if (end === words.length) return chunks;
    // Step back over whole words while they fit in the overlap, always moving forward overall.
    let next = end;
    let carried = 0;
    while (next - 1 > start && carried + words[next - 1]!.tokens <= overlap) carried += words[--next]!.tokens;
    start = next;
  }
}

function splitWords(text: string, count: TokenCounter, max: number, maxChars: number): Word[] {
  const words: Word[] = [];
  for (const m of text.matchAll(/\S+/g)) {
    const start = m.index;
    const word = m[0];
    const tokens = count(word);
    if (tokens <= max && word.length <= maxChars) {
      words.push({ start, end: start + word.length, tokens });
      continue;
    }
    // Cut at code point boundaries into pieces of about `max` tokens and at most `maxChars`
    // characters each: greedy up to an even share of the word, so the pieces are alike.
    const pieces = Math.max(Math.ceil(tokens / max), Math.ceil(word.length / maxChars));
    const share = Math.ceil(word.length / pieces);
    let at = start;
    let piece = '';
    const push = () => {
      words.push({ start: at, end: at + piece.length, tokens: Math.min(max, count(piece)) });
      at += piece.length;
      piece = '';
    };
    for (const point of word) {
      if (piece && piece.length + point.length > share) push();
      piece += point;
    }
    if (piece) push();
  }
  return words;
}
