/**
 * A user's words as a Lucene query for the full-text index. Whatever the text holds (operators,
 * quotes, brackets, a lone `*`, `AND`), the query is a plain disjunction of its words, so it
 * never fails to parse and never means more than "documents with these words", ranked by BM25.
 */

/** Words kept at most: Lucene refuses queries of more than 1,024 clauses, and a chat message can hold thousands. */
export const MAX_QUERY_TERMS = 64;

/** Characters the Lucene classic query parser treats as syntax. */
const SPECIAL = /[+\-&|!(){}[\]^"~*?:\\/]/g;

/** Escapes every Lucene syntax character of one word with a backslash. */
export function escapeLucene(word: string): string {
  return word.replace(SPECIAL, (ch) => `\\${ch}`);
}

/**
 * The Lucene query for `text`, or null when it has no word with a letter or digit in it (the
 * caller then falls back to vector search). Words are split at whitespace, lower-cased (so
 * `AND`, `OR`, `NOT` and `TO` are plain words, not operators), de-duplicated, escaped, and
 * joined by spaces (the parser's default OR); the index's analyzer then cuts and stems them
 * exactly as it did the indexed text (`HMG-CoA` → `hmg`, `coa`).
 */
export function toLuceneQuery(text: string, maxTerms = MAX_QUERY_TERMS): string | null {
  const words: string[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(/\S+/g)) {
    const word = m[0].toLowerCase();
    if (!/[\p{L}\p{N}]/u.test(word) || seen.has(word)) continue;
    seen.add(word);
    words.push(escapeLucene(word));
    if (words.length === maxTerms) break;
  }
  return words.length ? words.join(' ') : null;
}

/**
 * The distinct words of `text` as the full-text index's analyzer cuts them (lower-cased runs
 * of letters and digits: `HMG-CoA` → `hmg`, `coa`), at most `maxTerms`: what a hit's share of
 * the query's words is counted over (src/graph/dialect.ts, full-text hits).
 */
export function queryTerms(text: string, maxTerms = MAX_QUERY_TERMS): string[] {
  const out = new Set<string>();
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    out.add(m[0]);
    if (out.size === maxTerms) break;
  }
  return [...out];
}
