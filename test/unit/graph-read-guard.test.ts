/** The read-only policy of graph_query: text deny-list and plan checks. */
import type { Plan } from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import { checkPlan, checkQueryText, QueryRefusedError } from '../../src/graph/cypher/read-guard.js';

const plan = (operatorType: string, details = '', children: Plan[] = []): Plan =>
  ({ operatorType, identifiers: [], arguments: { Details: details }, children }) as unknown as Plan;

describe('checkQueryText', () => {
  it('refuses deep nesting at once, counting brackets outside strings only', () => {
    const deep = `RETURN ${'('.repeat(50_000)}1${')'.repeat(50_000)} AS x`;
    const started = performance.now();
    expect(() => checkQueryText(deep)).toThrow(/nest 50000 deep; at most 64/);
    expect(performance.now() - started).toBeLessThan(500);
    expect(() => checkQueryText(`RETURN ${'['.repeat(64)}1${']'.repeat(64)} AS x`)).not.toThrow();
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
