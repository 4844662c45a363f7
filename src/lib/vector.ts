/** Small vector helpers shared by the embedding providers, name suggestions and the agent's examples. */

/** Scales `v` to unit length in place and returns it; a zero vector stays zero. */
export function normalize(v: Float32Array): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let k = 0; k < v.length; k++) v[k]! *= scale;
  return v;
}

/** Cosine similarity of two vectors (1 for the same direction; 0 when either is zero). */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let [dot, na, nb] = [0, 0, 0];
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}
