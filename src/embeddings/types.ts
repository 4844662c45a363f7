/** The seam every embedding model implements. */

/** One loaded embedding model. */
export interface Embedder {
  /** Registry name. */
  readonly name: string;
  readonly dimensions: number;
  /** Deterministic, token-aware split of a text into overlapping chunks. */
  chunk(text: string): string[];
  /**
   * One unit-length vector per text, in order (a text with no known token, e.g. `''`, gives an
   * all-zero vector). Batch for speed: one call per few hundred chunks, not one per chunk.
   */
  embed(texts: string[]): Promise<Float32Array[]>;
  /**
   * Cumulative counters since the model was loaded (for benchmarks and progress output); take
   * two readings and subtract. Every embedder built by `createEmbedders` has it.
   */
  stats?(): EmbedderStats;
}

/** Cumulative work done by one {@link Embedder} (see `Embedder.stats`). */
export interface EmbedderStats {
  /** Texts passed to `embed`. */
  texts: number;
  /** Tokens those texts had (after truncation); estimated for the local model server. */
  tokens: number;
  /** Milliseconds spent tokenising inside `embed` and `chunk`. */
  tokenizeMs: number;
  /** Milliseconds spent computing vectors (table gather, ONNX run, or the server round trip). */
  inferenceMs: number;
}
