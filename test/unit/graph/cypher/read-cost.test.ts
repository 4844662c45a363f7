/** Refusal of range() sizes Neo4j could not interrupt once evaluating. */
import { describe, expect, it } from 'vitest';
import { checkRanges, MAX_RANGE } from '../../../../src/graph/cypher/read-cost.js';
import { codeOf } from '../../../../src/graph/cypher/read-guard.js';

const check =
  (cypher: string, params: Record<string, unknown> = {}) =>
  () =>
    checkRanges(codeOf(cypher), params);

describe('checkRanges', () => {
  it.each([
    "RETURN reduce(s = '', i IN range(1, 3000000) | s + 'x') AS big",
    'RETURN size([x IN range(1, 30000000) | toString(x)]) AS n',
    'RETURN size([x IN range(1, 3_000_000) | x]) AS n',
    'RETURN size([x IN RANGE (0, 0x7fffffff) | x]) AS n',
    'RETURN [x IN range($a, $b) | x] AS n',
    'UNWIND range(1, 30000000) AS x WITH collect(toString(x)) AS xs RETURN size(xs)',
    'UNWIND range(1, 30000000) AS x RETURN DISTINCT x % 7',
  ])('refuses %s', (q) => {
    expect(check(q, { a: 1, b: 10_000_000 })).toThrow(/refused: range\(.*at most 100000/);
  });

  it('refuses nested ranges whose values multiply past the bound', () => {
    expect(check('RETURN [x IN range(1, 10000) | [y IN range(1, 10000) | x * y]] AS grid')).toThrow(/together/);
  });

  it.each([
    `UNWIND range(1, ${MAX_RANGE}) AS x RETURN count(x)`,
    'UNWIND range(1, 100000) AS a UNWIND range(1, 100000) AS b RETURN count(*)',
    'MATCH p = (a)-[*..3]-(b) RETURN [i IN range(0, size(nodes(p)) - 1) | i] LIMIT 5',
    'RETURN range(10, 1, -1) AS down, range(1, 1000000, 1000) AS sparse',
    "RETURN 'range(1, 99999999)' AS text // range(1, 99999999)",
  ])('allows %s', (q) => {
    expect(check(q)).not.toThrow();
  });
});
