/**
 * What encoded data looks like, for the two places that keep it out of the index: text discovery
 * (src/graph/text/text-rules.ts: a property whose values are blobs is not text) and the chunker
 * (src/embeddings/chunking.ts: a blob inside prose is cut out before chunking).
 */

/** A run of non-space characters longer than this is not a word: a blob, a hash, an encoded file. */
export const LONG_TOKEN = 64;

/** Hex of 32 digits or more (a hash, a hex-encoded picture), with or without `0x`. */
export const HEX_BLOB = /^(0x)?[0-9a-f]{32,}$/i;

/** Base64 of 40 characters or more, padding included. */
export const BASE64_BLOB = /^[A-Za-z0-9+/]{40,}={0,2}$/;

/**
 * True when a whitespace-free run longer than {@link LONG_TOKEN} is encoded data, told by its
 * alphabet: printable ASCII only (a data URI, a base64url token, a long hash), and not a URL, which
 * reads as words to a user and a search. A missing space alone says nothing: Chinese, Japanese
 * and Thai prose runs on without one.
 */
export function isLongEncodedRun(token: string): boolean {
  return token.length > LONG_TOKEN && /^[\x21-\x7e]+$/.test(token) && !token.includes('://');
}
