/**
 * The readers of the caller's Cypher (patterns, comparisons, notices) on inputs built to make a
 * backtracking regular expression take exponential or quadratic time: each must read them in
 * time that grows with the query's length alone. The bounds are loose (a linear reading takes a
 * few ms; the exponential one took seconds at 27 labels and doubled with each more).
 */
import { describe, expect, it } from 'vitest';
import { readComparisons } from '../../../../src/graph/cypher/cypher-comparisons.js';
import { propertyOwners, readPatterns } from '../../../../src/graph/cypher/cypher-patterns.js';

const timed = (f: () => unknown) => {
  const t = performance.now();
  f();
  return performance.now() - t;
};
const readAll = (q: string) => {
  readPatterns(q);
  readComparisons(q, {});
  propertyOwners(readPatterns(q).code, 'name');
};

describe('Cypher readers on adversarial input', () => {
  it('a run of labels not closed by ) or { is read in linear time', () => {
    const labels = (n: number) => ':Person'.repeat(n);
    for (const q of [
      `MATCH (p${labels(40)} WHERE p.name = 'nobody') RETURN p.name LIMIT 1`,
      `MATCH (p${labels(40)}) WHERE p.name = 'nobody at all' RETURN p.name`,
      `MATCH (p${labels(40)} {name: 'x'} WHERE true) RETURN p`,
      `MATCH (p${labels(20_000)} WHERE p.name = 'nobody') RETURN p`,
    ]) {
      expect(timed(() => readAll(q))).toBeLessThan(500);
    }
  });

  it('long runs of spaces, digits, names and brackets are read in linear time', () => {
    const n = 100_000;
    for (const q of [
      `MATCH (a)-[${' '.repeat(n)}x]->(b) RETURN a`,
      `MATCH (a {k: [${' '.repeat(n)}1,${' '.repeat(n)}]}) RETURN a`,
      `MATCH (a:A) WHERE a.x = ${'1'.repeat(n)}x RETURN a`,
      `MATCH (a:A) WHERE ${'a'.repeat(n)} RETURN a`,
      `MATCH (a:A) WHERE a.${'b'.repeat(n)} ${' '.repeat(n)}( RETURN a`,
      `MATCH ${'('.repeat(n)}`,
      `MATCH (a {${'('.repeat(n)}`,
      `RETURN date(${' '.repeat(n)}x`,
      `MATCH (a:A) WHERE toLower(${' '.repeat(n)}a.b${' '.repeat(n)}x RETURN a`,
      `MATCH (a)-[:T${' '.repeat(n)}x`,
      `MATCH (a)-[:T*1..${' '.repeat(n)}x`,
    ]) {
      expect(timed(() => readAll(q))).toBeLessThan(500);
    }
  });

  it('still reads what it read before', () => {
    const { labelsOf, hops } = readPatterns(
      'MATCH (p : Person:Actor)-[r :ACTED_IN | :DIRECTED *1..2 {x: 1}]->(m:Movie {title: $t}) RETURN p',
    );
    expect(labelsOf.get('p')).toEqual(['Person', 'Actor']);
    expect(hops[0]).toMatchObject({ left: ['Person', 'Actor'], right: ['Movie'], types: ['ACTED_IN', 'DIRECTED'], variableLength: true });
    const c = readComparisons("MATCH (c:Customer {country: 'UK', n: [1, 2 ]}) WHERE date(c.d) > date( '1997-01-01' ) RETURN c", {});
    expect(c.map((x) => [x.subject, x.operator, x.value.kind])).toEqual([
      ['c.country', '=', 'string'],
      ['c.n', '=', 'list'],
      ['date(c.d)', '>', 'temporal'],
    ]);
  });
});
