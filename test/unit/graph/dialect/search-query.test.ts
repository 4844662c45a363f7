import { describe, expect, it } from 'vitest';
import { searchQuery } from '../../../../src/graph/dialect/search-query.js';

/** The part of a search query that builds its lists, before the nodes are looked up. */
const lists = (cypher: string) => cypher.slice(0, cypher.indexOf('MATCH (n)'));

describe('searchQuery', () => {
  const modes = ['vector', 'fulltext', 'hybrid'] as const;

  it("reads no chunk's text to tell names from texts when every chunk is a text", () => {
    for (const mode of modes) {
      for (const inIndex of [undefined, { index: 'idx', where: 'c.`__carry_x` = $p0' }]) {
        const texts = lists(searchQuery(mode, { kinds: 'texts', inIndex }));
        expect(texts, mode).not.toMatch(/count\(c\.chunkText\)|chunkText IS NOT NULL|CONTAINS '\\n'/);
        // Every hit is still read for the share when every full-text hit is to be weighed (`$shareAll`).
        if (mode !== 'vector') expect(texts).toMatch(/NOT \$shareAll THEN 1\.0[\s\S]*c\.chunkText/);
        const mixed = lists(searchQuery(mode, { kinds: 'mixed', inIndex }));
        expect(mixed, mode).toMatch(/count\(c\.chunkText\)|chunkText IS NOT NULL/);
      }
    }
  });

  it('reads each name-like property of a result once, without a regular expression', () => {
    const cypher = searchQuery('hybrid');
    expect(cypher).not.toContain('=~');
    const names = cypher.slice(cypher.indexOf('AS textSize'), cypher.indexOf('AS nameFields'));
    expect(names.match(/n\[k\]/g)).toHaveLength(1);
  });

  it('sorts the candidates before their nodes are looked up, by the keys it sorts by after, so the lookups stop at $topK', () => {
    for (const mode of modes) {
      for (const withRels of [false, true]) {
        const cypher = searchQuery(mode, { withRels, filter: 'n:A' });
        const lookup = cypher.indexOf('MATCH (n)');
        expect(cypher.slice(0, lookup).trimEnd(), mode).toMatch(/ORDER BY score DESC, nodeId$/);
        expect(cypher.slice(lookup), mode).toMatch(/ORDER BY score DESC, nodeId LIMIT \$topK/);
        expect(cypher, mode).not.toContain('elementId(n) LIMIT');
      }
    }
  });
});
