/**
 * Exact nearest neighbours over a flat Float32 array of unit vectors, for the recall of an
 * approximate (HNSW) index: the recall queries and their exact cosine top k, computed in Node.
 */
import { prng } from '../../gen/prng.mjs';

/** Exact top-k of each query: row numbers, best first, and the k-th score (ties with it count as right). */
export interface ExactTop {
  ids: number[][];
  kth: number[];
}

/**
 * `count` queries over the `n` rows of `all` (`dims` each): the stored vectors of evenly spread
 * rows, each moved by Gaussian noise of total norm ~`noise` and normalised again (seeded).
 */
export function perturbedQueries(all: Float32Array, n: number, dims: number, count: number, noise = 0.05): Float32Array[] {
  const r = prng(39);
  const out: Float32Array[] = [];
  for (let k = 0; k < count; k++) {
    const i = Math.floor(((k + 0.5) * n) / count);
    const q = all.slice(i * dims, (i + 1) * dims);
    let norm = 0;
    for (let d = 0; d < dims; d++) {
      // Box–Muller: a step of σ noise/√dims per dimension.
      const g = Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
      q[d] = q[d]! + (g * noise) / Math.sqrt(dims);
      norm += q[d]! * q[d]!;
    }
    for (let d = 0; d < dims; d++) q[d] = q[d]! / Math.sqrt(norm);
    out.push(q);
  }
  return out;
}

/** Exact top `k` of every query over the `n` rows of `all` by dot product (cosine for unit vectors): one pass over the rows. */
export function exactTop(all: Float32Array, n: number, dims: number, qs: readonly Float32Array[], k = 10): ExactTop {
  const top = qs.map(() => ({ ids: [] as number[], scores: [] as number[] }));
  for (let i = 0; i < n; i++) {
    const base = i * dims;
    for (let j = 0; j < qs.length; j++) {
      const q = qs[j]!;
      let s = 0;
      for (let d = 0; d < dims; d++) s += q[d]! * all[base + d]!;
      const t = top[j]!;
      if (t.scores.length === k && s <= t.scores[k - 1]!) continue;
      let at = t.scores.findIndex((x) => s > x);
      if (at < 0) at = t.scores.length;
      t.scores.splice(at, 0, s);
      t.ids.splice(at, 0, i);
      t.scores.length = t.ids.length = Math.min(k, t.scores.length);
    }
  }
  return { ids: top.map((t) => t.ids), kth: top.map((t) => t.scores[k - 1]!) };
}

/** Dot product of `q` with row `i` of `all`. */
export function dotRow(all: Float32Array, dims: number, q: Float32Array, i: number): number {
  let s = 0;
  for (let d = 0; d < dims; d++) s += q[d]! * all[i * dims + d]!;
  return s;
}
