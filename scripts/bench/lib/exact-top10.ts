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

/**
 * Exact top `k` of every query over the `n` rows of `all` by dot product (cosine for unit vectors):
 * one pass over the rows, four queries per read of a row (the loads of `all` are shared).
 */
export function exactTop(all: Float32Array, n: number, dims: number, qs: readonly Float32Array[], k = 10): ExactTop {
  const nq = qs.length;
  const flat = new Float32Array(Math.ceil(nq / 4) * 4 * dims);
  qs.forEach((q, j) => flat.set(q, j * dims));
  const ids = qs.map(() => [] as number[]);
  const scores = qs.map(() => [] as number[]);
  const floor = new Float64Array(nq).fill(Number.NEGATIVE_INFINITY);
  const keep = (j: number, i: number, s: number) => {
    if (s <= floor[j]!) return;
    const sc = scores[j]!;
    let at = sc.findIndex((x) => s > x);
    if (at < 0) at = sc.length;
    sc.splice(at, 0, s);
    ids[j]!.splice(at, 0, i);
    if (sc.length > k) sc.pop(), ids[j]!.pop();
    if (sc.length === k) floor[j] = sc[k - 1]!;
  };
  for (let i = 0; i < n; i++) {
    const base = i * dims;
    for (let j = 0; j < nq; j += 4) {
      const o0 = j * dims;
      const o1 = o0 + dims;
      const o2 = o1 + dims;
      const o3 = o2 + dims;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let d = 0; d < dims; d++) {
        const a = all[base + d]!;
        s0 += flat[o0 + d]! * a;
        s1 += flat[o1 + d]! * a;
        s2 += flat[o2 + d]! * a;
        s3 += flat[o3 + d]! * a;
      }
      keep(j, i, s0);
      if (j + 1 < nq) keep(j + 1, i, s1);
      if (j + 2 < nq) keep(j + 2, i, s2);
      if (j + 3 < nq) keep(j + 3, i, s3);
    }
  }
  return { ids, kth: scores.map((sc) => sc[k - 1]!) };
}

/** Dot product of `q` with row `i` of `all`. */
export function dotRow(all: Float32Array, dims: number, q: Float32Array, i: number): number {
  let s = 0;
  for (let d = 0; d < dims; d++) s += q[d]! * all[i * dims + d]!;
  return s;
}
