/** The user's words as a Lucene query: escaping, operators as words, caps (hybrid fusion itself is one Cypher query: test/integration/vector-index/search/searcher.test.ts). */
import { describe, expect, it } from 'vitest';
import { escapeLucene, MAX_QUERY_TERMS, queryTerms, toLuceneQuery } from '../../../../src/vector-index/search/fulltext-query.js';

describe('toLuceneQuery', () => {
  it('joins lower-cased words with spaces (OR) and drops repeats', () => {
    expect(toLuceneQuery('Statin  pathway statin')).toBe('statin pathway');
  });

  it('escapes every Lucene syntax character inside words', () => {
    expect(toLuceneQuery('HMG-CoA (reductase)')).toBe('hmg\\-coa \\(reductase\\)');
    expect(toLuceneQuery('a:b c/d e~ f^2 "g" h* i? [j] {k} l!m n&&o p||q r\\s +t')).toBe(
      'a\\:b c\\/d e\\~ f\\^2 \\"g\\" h\\* i\\? \\[j\\] \\{k\\} l\\!m n\\&\\&o p\\|\\|q r\\\\s \\+t',
    );
    expect(escapeLucene('+-&|!(){}[]^"~*?:\\/')).toBe('\\+\\-\\&\\|\\!\\(\\)\\{\\}\\[\\]\\^\\"\\~\\*\\?\\:\\\\\\/');
  });

  it('turns operators into plain words', () => {
    expect(toLuceneQuery('cats AND dogs OR NOT TO')).toBe('cats and dogs or not to');
  });

  it('returns null when no word has a letter or digit', () => {
    expect(toLuceneQuery('')).toBeNull();
    expect(toLuceneQuery('   ')).toBeNull();
    expect(toLuceneQuery('&& || ! * ? ~ ^ : ( ) "" -- ++')).toBeNull();
  });

  it('keeps words of any script and caps the number of words', () => {
    expect(toLuceneQuery('Zürich 東京 ΔG')).toBe('zürich 東京 δg');
    const long = Array.from({ length: 500 }, (_, i) => `w${i}`).join(' ');
    expect(toLuceneQuery(long)!.split(' ')).toHaveLength(MAX_QUERY_TERMS);
  });
});

describe('queryTerms', () => {
  it('cuts words as the analyzer does: lower-cased runs of letters and digits, each once', () => {
    expect(queryTerms('HMG-CoA (reductase) and hmg')).toEqual(['hmg', 'coa', 'reductase', 'and']);
    expect(queryTerms('Zürich 東京 ΔG')).toEqual(['zürich', '東京', 'δg']);
    expect(queryTerms('&& --')).toEqual([]);
  });

  it('gives the same words for the Lucene query as for the text (the searcher counts them from the query)', () => {
    const text = 'a:b "Statin" HMG-CoA pathway* (x)';
    expect(queryTerms(toLuceneQuery(text)!)).toEqual(queryTerms(text));
    const long = Array.from({ length: 500 }, (_, i) => `w${i}`).join(' ');
    expect(queryTerms(long)).toHaveLength(MAX_QUERY_TERMS);
  });
});
