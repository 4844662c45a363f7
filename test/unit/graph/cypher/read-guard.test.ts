/** The read-only policy of graph_query: text deny-list, size limits and plan checks. */
import type { Plan } from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import {
  MAX_CODE_CHARS,
  MAX_NESTING,
  MAX_NODE_PATTERNS,
  MAX_OPERATORS,
  MAX_QUERY_CHARS,
  MAX_RELATIONSHIPS,
} from '../../../../src/graph/cypher/query-size.js';
import { checkPlan, checkQueryText, codeOf, maskLiterals, QueryRefusedError } from '../../../../src/graph/cypher/read-guard.js';

const plan = (operatorType: string, details = '', children: Plan[] = []): Plan =>
  ({ operatorType, identifiers: [], arguments: { Details: details }, children }) as unknown as Plan;

describe('checkQueryText', () => {
  it('refuses deep nesting at once, counting brackets outside strings only', () => {
    const deep = `RETURN ${'['.repeat(9_000)}1${']'.repeat(9_000)} AS x`;
    const started = performance.now();
    expect(() => checkQueryText(deep)).toThrow(/nest 9,000 deep; at most 32/);
    expect(performance.now() - started).toBeLessThan(500);
    expect(() => checkQueryText(`RETURN ${'['.repeat(MAX_NESTING)}1${']'.repeat(MAX_NESTING)} AS x`)).not.toThrow();
    expect(() => checkQueryText(`RETURN ${'['.repeat(MAX_NESTING + 1)}1${']'.repeat(MAX_NESTING + 1)} AS x`)).toThrow(/nest 33 deep/);
    expect(() => checkQueryText(`RETURN '${'('.repeat(500)}' AS x`)).not.toThrow();
  });

  it.each([
    ['LOAD CSV FROM "file:///etc/passwd" AS l RETURN l', /LOAD CSV/],
    ['load   csv with headers from $url as row return row', /LOAD CSV/],
    ['CALL dbms.listConfig()', /dbms\.listConfig/],
    ['CALL `dbms`.`listConfig`() YIELD name RETURN name', /dbms\.listConfig/],
    ['CALL dbms /* c */ . components()', /dbms\.components/],
    ['CALL apoc.load.json("http://example.com/x.json")', /apoc\.load\.json/],
    ['CALL apoc.import.csv([], [], {})', /apoc\.import/],
    ['RETURN apoc.cypher.runFirstColumnSingle("MATCH (n) DETACH DELETE n", {})', /apoc\.cypher/],
    ['CALL db.createLabel("X")', /db\.createLabel/],
    ['CALL db.stats.collect("QUERIES")', /db\.stats/],
    ['CALL tx.setMetaData({a: 1})', /tx\.setMetaData/],
    ['SHOW SETTINGS', /administration/],
    ['TERMINATE TRANSACTIONS "neo4j-transaction-1"', /administration/],
    ['USE system MATCH (n) RETURN n', /USE/],
    ['MATCH (n) CALL { WITH n RETURN n AS m } IN TRANSACTIONS RETURN m', /IN TRANSACTIONS/],
    ['EXPLAIN MATCH (n) RETURN n', /without EXPLAIN/],
    ['PROFILE MATCH (n) RETURN n', /without EXPLAIN/],
    ['   ', /empty/],
    ["MATCH (n) WHERE n.x = 'a\\'b' CALL dbms.listConfig() YIELD name RETURN name", /dbms\.listConfig/],
    ['MATCH (n) /* hidden */ SET n.x = 1 WITH n LOAD CSV FROM $u AS l RETURN l', /LOAD CSV/],
  ])('refuses %s', (cypher, why) => {
    expect(() => checkQueryText(cypher)).toThrow(QueryRefusedError);
    expect(() => checkQueryText(cypher)).toThrow(why);
  });

  it.each([
    'MATCH (n:Person) WHERE n.name CONTAINS $q RETURN n.name LIMIT 10',
    'CALL db.labels() YIELD label RETURN label',
    'CALL db.schema.visualization()',
    'MATCH (n) RETURN n.user AS user, point.distance(n.p, n.q) AS d',
    'SHOW INDEXES',
    'MATCH (n) WHERE n.dbId = 3 RETURN elementId(n), valueType(n.x)',
    "MATCH (n) WHERE toLower(n.text) CONTAINS 'use case' OR n.text CONTAINS 'load csv' RETURN n",
    'MATCH (n) WHERE n.note = "call dbms.listConfig() // not code" RETURN n',
    "MATCH (n:`it's`) RETURN n // USE system",
  ])('lets %s through', (cypher) => {
    expect(() => checkQueryText(cypher)).not.toThrow();
  });
});

const terms = (n: number, term: (i: number) => string, sep: string) => Array.from({ length: n }, (_, i) => term(i + 1)).join(sep);
const timed = (f: () => unknown) => {
  const started = performance.now();
  f();
  return performance.now() - started;
};
const refusal = (cypher: string) => {
  try {
    checkQueryText(cypher);
  } catch (e) {
    if (e instanceof QueryRefusedError) return e.message;
    throw e;
  }
  return undefined;
};

describe('checkQueryText: queries too large or too deep to plan', () => {
  it('bounds the whole text, string literals included', () => {
    const text = (n: number) => `RETURN '${'x'.repeat(n - 14)}' AS s`;
    expect(text(MAX_QUERY_CHARS)).toHaveLength(MAX_QUERY_CHARS);
    expect(refusal(text(MAX_QUERY_CHARS))).toBeUndefined();
    expect(refusal(text(MAX_QUERY_CHARS + 1))).toMatch(/is 100,001 characters long; at most 100,000/);
  });

  it('bounds the code, leaving out comments and string literals', () => {
    const code = (n: number) => `RETURN 1 AS ${'a'.repeat(n - 12)}`;
    expect(codeOf(code(MAX_CODE_CHARS))).toHaveLength(MAX_CODE_CHARS);
    expect(refusal(code(MAX_CODE_CHARS))).toBeUndefined();
    expect(refusal(code(MAX_CODE_CHARS + 1))).toMatch(/has 20,001 characters of code; at most 20,000/);
    expect(refusal(`// ${'x'.repeat(MAX_CODE_CHARS * 2)}\nRETURN '${'y'.repeat(MAX_CODE_CHARS)}' AS s`)).toBeUndefined();
  });

  it('bounds the operators: commas, AND/OR/XOR, comparisons and arithmetic', () => {
    // n items: n - 1 commas
    const list = (n: number) => `MATCH (n) WHERE n.x IN [${terms(n, String, ', ')}] RETURN n`;
    expect(refusal(list(MAX_OPERATORS))).toBeUndefined(); // and IN: MAX_OPERATORS
    expect(refusal(list(MAX_OPERATORS + 1))).toMatch(/has 301 operators; at most 300 .*WHERE n\.x IN \$values/);
    // n comparisons: n `=` and n - 1 OR
    const ors = (n: number) => `MATCH (n) WHERE ${terms(n, (i) => `n.x = ${i}`, ' OR ')} RETURN n`;
    expect(refusal(ors(150))).toBeUndefined();
    expect(refusal(ors(151))).toMatch(/has 301 operators/);
    // each character of an operator counts: <> is two
    expect(refusal(`MATCH (n) WHERE ${terms(101, (i) => `n.x <> ${i}`, ' AND ')} RETURN n`)).toMatch(/has 302 operators/);
  });

  it('bounds the relationships of all patterns together', () => {
    const path = (n: number) => `MATCH (a0)${terms(n, (i) => `-[:R]->(a${i})`, '')} RETURN a0`;
    expect(refusal(path(MAX_RELATIONSHIPS))).toBeUndefined();
    expect(refusal(path(MAX_RELATIONSHIPS + 1))).toMatch(/patterns have 17 relationships; at most 16/);
    const star = (n: number) => `MATCH ${terms(n, (i) => `(c)<--(a${i})`, ', ')} RETURN c`;
    expect(refusal(star(MAX_RELATIONSHIPS))).toBeUndefined();
    expect(refusal(star(MAX_RELATIONSHIPS + 1))).toMatch(/17 relationships/);
    const parts = (n: number) => terms(n, (i) => `OPTIONAL MATCH (a)-[:R${i}]-(b${i})`, ' ');
    expect(refusal(`MATCH (a) ${parts(MAX_RELATIONSHIPS + 1)} RETURN a`)).toMatch(/17 relationships/);
    // subtraction of bracketed values reads like an arrow, so a chain of them is bounded too
    expect(refusal(`RETURN ${terms(30, () => '(1)', '-')} AS x`)).toMatch(/relationships/);
    expect(refusal(`RETURN ${terms(MAX_NESTING + 2, () => '[1]', '-')} AS x`)).toMatch(/nest/);
  });

  it('bounds the node patterns, with or without commas between them', () => {
    const nodes = (n: number, sep: string) => `MATCH ${terms(n, (i) => `(a${i})`, sep)} RETURN a1`;
    expect(refusal(nodes(MAX_NODE_PATTERNS, ', '))).toBeUndefined();
    expect(refusal(nodes(MAX_NODE_PATTERNS + 1, ', '))).toMatch(/has 65 node patterns and bracketed expressions; at most 64/);
    expect(refusal(nodes(MAX_NODE_PATTERNS + 1, ' MATCH '))).toMatch(/65 node patterns/);
    // function calls are not node patterns
    expect(refusal(`RETURN ${terms(MAX_NODE_PATTERNS + 1, (i) => `abs(${i})`, ', ')} AS x`)).toBeUndefined();
  });

  it('counts CASE … END and operator chains in the depth, not only brackets', () => {
    const cases = (n: number) => `RETURN ${'CASE WHEN true THEN '.repeat(n)}0${' ELSE 1 END'.repeat(n)} AS x`;
    expect(refusal(cases(MAX_NESTING))).toBeUndefined();
    expect(refusal(cases(MAX_NESTING + 1))).toMatch(/nest 33 deep; at most 32/);
    const plus = (n: number) => `RETURN 1${' + 1'.repeat(n)} AS x`;
    expect(refusal(plus(MAX_NESTING))).toBeUndefined();
    expect(refusal(plus(MAX_NESTING + 1))).toMatch(/nest 33 deep/);
    expect(refusal(`RETURN {a: 1}${'.a'.repeat(MAX_NESTING + 1)} AS x`)).toMatch(/nest/);
    expect(refusal(`RETURN [[1]]${'[0]'.repeat(MAX_NESTING + 1)} AS x`)).toMatch(/nest/);
    expect(refusal(`RETURN ${'NOT '.repeat(MAX_NESTING + 1)}true AS x`)).toMatch(/nest/);
    expect(refusal(`RETURN ${'-'.repeat(MAX_NESTING + 1)}1 AS x`)).toMatch(/nest/);
    // a chain goes on past a CASE inside it, and past commas of a bracket it has left
    const across = terms(MAX_NESTING + 2, () => 'CASE WHEN true THEN 1 END', ' + ');
    expect(refusal(`RETURN ${across} AS x`)).toMatch(/nest/);
    expect(refusal(`RETURN ${terms(40, () => 'f(1, 2)', ' + ')} AS x`)).toMatch(/nest/);
  });

  it('reads end, when and case as names where a keyword cannot stand', () => {
    // `end` after THEN or an operator is a variable and closes nothing
    const sneaky = (n: number) => `WITH 1 AS end RETURN ${'CASE WHEN end = 1 THEN end + '.repeat(n)}0${' END'.repeat(n)} AS x`;
    expect(refusal(sneaky(10))).toBeUndefined();
    expect(refusal(sneaky(MAX_NESTING))).toMatch(/nest/);
    expect(refusal(`WITH 1 AS when RETURN 1${' + when'.repeat(MAX_NESTING + 1)} AS x`)).toMatch(/nest/);
    for (const ok of [
      'WITH 1 AS end, 2 AS case RETURN CASE WHEN end = 1 THEN end ELSE end END + case AS x',
      'MATCH (a)-[r]->(b) RETURN startNode(r) AS start, endNode(r) AS end, r.when AS when',
      "MATCH (n) WHERE n.name STARTS WITH 'A' AND n.name ENDS WITH 'z' AND n.x IS NOT NULL RETURN n.end",
    ]) {
      expect(refusal(ok)).toBeUndefined();
    }
  });

  it('lets long ordinary queries through, far below every limit', () => {
    const names = terms(60, (i) => `'Person ${i}'`, ', ');
    const query = `
      MATCH (p:Person)-[:ACTED_IN]->(m:Movie)<-[:DIRECTED]-(d:Person)
      WHERE p.name IN [${names}] AND m.released >= 1990 AND m.released < 2010
        AND (m.title CONTAINS 'the' OR m.tagline =~ '(?i).*love.*' OR d.born IS NULL)
      OPTIONAL MATCH (m)<-[r:REVIEWED]-(critic:Person)
      WITH p, m, d, collect(DISTINCT critic.name)[0..5] AS critics, avg(r.rating) AS rating
      RETURN p.name AS actor, m.title AS title, d.name AS director, critics,
        CASE WHEN rating IS NULL THEN 'unrated' WHEN rating > 80 THEN 'good' ELSE 'mixed' END AS verdict,
        m.released - d.born AS directorAge, size([(m)<-[:ACTED_IN]-(x) | x]) AS castSize,
        COUNT { (p)-[:ACTED_IN]->() } AS films
      ORDER BY m.released DESC, actor LIMIT 25`;
    expect(refusal(query)).toBeUndefined();
  });

  it('refuses the shapes Neo4j could not stop, at once', () => {
    const shapes = [
      `MATCH (n) WHERE ${terms(20_000, (i) => `n.x = ${i}`, ' OR ')} RETURN n`, // 500 KB
      `MATCH (n) WHERE ${terms(1_500, (i) => `n.x=${i}`, ' OR ')} RETURN n`, // under 20 KB of code
      `MATCH (n) RETURN ${'CASE WHEN n.x = 1 THEN '.repeat(300)}0${' ELSE 1 END'.repeat(300)} AS x`,
      `RETURN 1${' + 1'.repeat(50_000)} AS x`,
      `RETURN 1${'+1'.repeat(5_000)} AS x`,
    ];
    for (const q of shapes) {
      expect(timed(() => expect(refusal(q)).toMatch(/^refused: /))).toBeLessThan(500);
    }
  });

  it('reads a 1 MB query in linear time, whatever it holds', () => {
    const mb = 1_000_000;
    for (const q of [
      `RETURN 1 AS x${' '.repeat(mb)}`,
      `RETURN ${'a.'.repeat(mb / 2)}b() AS x`,
      `RETURN ${'('.repeat(mb)}`,
      `RETURN '${"\\'".repeat(mb / 2)}' AS x`,
    ]) {
      expect(timed(() => expect(refusal(q)).toMatch(/^refused: /))).toBeLessThan(500);
    }
    // maskLiterals and codeOf (read by the other Cypher readers) on input no limit has cut yet
    for (const q of [
      ' '.repeat(mb),
      `a${' '.repeat(mb)}b`,
      `a${' '.repeat(mb)}.${' '.repeat(mb)}b`,
      '. '.repeat(mb / 2),
      `/*${'*'.repeat(mb)}`,
    ]) {
      expect(timed(() => codeOf(q))).toBeLessThan(500);
    }
    // the largest code the limits let through, built to make a rescanning reader quadratic
    for (const q of [`RETURN ${'a.'.repeat(MAX_CODE_CHARS / 2 - 10)}b AS x`, `RETURN ${'(1)'.repeat(6_000)}`]) {
      expect(timed(() => refusal(q))).toBeLessThan(500);
    }
  });

  it('keeps maskLiterals and codeOf as they were on ordinary input', () => {
    expect(maskLiterals("MATCH (n) WHERE n . name = 'a . b' RETURN n .  `x y` , n\t.\nz // c").code).toBe(
      "MATCH (n) WHERE n.name = '#0' RETURN n.x y , n.z  ",
    );
    expect(codeOf('CALL dbms /* c */ . components()')).toBe('CALL dbms.components()');
    expect(codeOf('RETURN 1.5 AS x, [1 .. 3]')).toBe('RETURN 1.5 AS x, [1..3]');
  });
});

describe('checkPlan', () => {
  const read = plan('ProduceResults@neo4j', 'n', [plan('AllNodesScan@neo4j', 'n')]);

  it('accepts a read plan on the session database', () => {
    expect(() => checkPlan('r', read, 'neo4j')).not.toThrow();
  });

  it.each([
    ['w', /writes/],
    ['rw', /reads and writes/],
    ['s', /schema or the server/],
    [undefined, /not a read/],
  ])('refuses query type %s', (type, why) => {
    expect(() => checkPlan(type, read, 'neo4j')).toThrow(why);
  });

  it('refuses LOAD CSV, admin operators and denied procedures however they were spelled', () => {
    const wrap = (p: Plan) => plan('ProduceResults@neo4j', '', [p]);
    expect(() => checkPlan('r', wrap(plan('LoadCSV@neo4j', 'l')), 'neo4j')).toThrow(/LoadCSV/);
    expect(() => checkPlan('r', wrap(plan('ShowSettings@neo4j')), 'neo4j')).toThrow(/ShowSettings/);
    expect(() => checkPlan('r', wrap(plan('TerminateTransactions@neo4j')), 'neo4j')).toThrow(/TerminateTransactions/);
    expect(() => checkPlan('r', wrap(plan('ProcedureCall@neo4j', 'dbms.listConfig() :: (name :: STRING)')), 'neo4j')).toThrow(
      /dbms\.listConfig/,
    );
    expect(() => checkPlan('r', wrap(plan('ProcedureCall@neo4j', 'db.stats.collect($autostring_0) :: (x)')), 'neo4j')).toThrow(/db\.stats/);
    expect(() => checkPlan('r', wrap(plan('ProcedureCall@neo4j', 'db.labels() :: (label :: STRING)')), 'neo4j')).not.toThrow();
    expect(() => checkPlan('r', wrap(plan('ShowIndexes@neo4j')), 'neo4j')).not.toThrow();
  });

  it('refuses an operator running on another database', () => {
    expect(() => checkPlan('r', plan('ProduceResults@system', ''), 'neo4j')).toThrow(/database "system"/);
  });
});
