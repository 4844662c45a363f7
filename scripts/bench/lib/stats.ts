/** Statistics of the benchmark scripts (no imports: the chat bench loads it in worker threads too). */

/** The `p`-th percentile of ascending `sorted` (nearest rank; NaN when empty). */
export const pct = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
