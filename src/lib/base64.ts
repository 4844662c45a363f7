/**
 * Base64 (RFC 4648, standard alphabet, padded) over `Uint8Array`, without `Buffer` (not web
 * standard) or `btoa` (works on binary strings, slow for vectors written by the thousand).
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const ENCODE = new TextEncoder().encode(ALPHABET);
const PAD = 61; // '='
const ascii = new TextDecoder('latin1');
/** Every UTF-16 code unit → its 6-bit value, or -1: one table lookup validates and decodes. */
const DECODE = new Int8Array(65536).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

/** Encodes bytes as padded base64. */
export function encodeBase64(bytes: Uint8Array): string {
  // Characters go into a byte buffer decoded once, not joined as 4-char strings, which costs several
  // times as much per vector (docs/benchmarks.md, "Index build").
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  let i = 0;
  let o = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[o++] = ENCODE[n >> 18]!;
    out[o++] = ENCODE[(n >> 12) & 63]!;
    out[o++] = ENCODE[(n >> 6) & 63]!;
    out[o++] = ENCODE[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest > 0) {
    const n = (bytes[i]! << 16) | (rest === 2 ? bytes[i + 1]! << 8 : 0);
    out[o++] = ENCODE[n >> 18]!;
    out[o++] = ENCODE[(n >> 12) & 63]!;
    out[o++] = rest === 2 ? ENCODE[(n >> 6) & 63]! : PAD;
    out[o++] = PAD;
  }
  return ascii.decode(out);
}

/**
 * Decodes padded base64, or null when `s` is not valid base64. The result owns its buffer from
 * offset 0, so `new Float32Array(result.buffer)` needs no copy.
 */
export function decodeBase64(s: string): Uint8Array | null {
  if (s.length % 4 !== 0) return null;
  const pad = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((s.length / 4) * 3 - pad);
  const full = pad ? s.length - 4 : s.length;
  let o = 0;
  // Invalid characters map to -1; OR-ing every value keeps the sign bit set if any was invalid.
  let bad = 0;
  for (let i = 0; i < full; i += 4) {
    const a = DECODE[s.charCodeAt(i)]!;
    const b = DECODE[s.charCodeAt(i + 1)]!;
    const c = DECODE[s.charCodeAt(i + 2)]!;
    const d = DECODE[s.charCodeAt(i + 3)]!;
    bad |= a | b | c | d;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = n >> 16;
    out[o++] = (n >> 8) & 255;
    out[o++] = n & 255;
  }
  if (pad) {
    const a = DECODE[s.charCodeAt(full)]!;
    const b = DECODE[s.charCodeAt(full + 1)]!;
    const c = pad === 1 ? DECODE[s.charCodeAt(full + 2)]! : 0;
    bad |= a | b | c;
    const n = (a << 18) | (b << 12) | (c << 6);
    out[o++] = n >> 16;
    if (pad === 1) out[o++] = (n >> 8) & 255;
  }
  return bad < 0 ? null : out;
}
