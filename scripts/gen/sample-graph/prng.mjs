import { prng } from '../prng.mjs';

// Seeded PRNG helpers for the sample-graph generator: same seed, same graph, byte for byte.

/** A seeded random source with the helpers the generator uses (templates, sample facts). */
export function createRng(seed) {
  const next = prng(seed);
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (arr) => arr[Math.floor(next() * arr.length)];
  const chance = (p) => next() < p;
  const round = (x, digits) => Number(x.toFixed(digits));
  /** Fisher–Yates on a copy. */
  const shuffle = (arr) => {
    const out = arr.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  };
  const sample = (arr, n) => shuffle(arr).slice(0, Math.min(n, arr.length));
  /** A value near `x` (±spread as a fraction), rounded: keeps made-up figures plausible. */
  const near = (x, spread, digits = 1) => round(x * (1 + (next() * 2 - 1) * spread), digits);
  return { next, int, pick, chance, round, shuffle, sample, near };
}
