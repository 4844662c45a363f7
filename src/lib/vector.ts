/** Small vector helpers shared by the embedding providers. */

/** Scales `v` to unit length in place and returns it; a zero vector stays zero. */
export function normalize(v: Float32Array): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let k = 0; k < v.length; k++) v[k]! *= scale;
  return v;
}
