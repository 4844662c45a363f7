/**
 * Read-only Cypher against the real Neo4j: results as plain JSON, every kind of write and
 * outside access refused with the graph unchanged, database errors passed through, the
 * timeout, and the row and character caps. Test data lives under a label unique to this run.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReadQuery, formatReadQueryResult, ReadQueryError, type ReadQueryLimits } from '../../../../src/graph/cypher/read-query.js';
import { createTestDeps, type TestDeps } from '../../helpers/deps.js';

const tag = randomUUID().slice(0, 8);
const L = `RQ_${tag}`;
const EVIL = `Evil_${tag}`;
const limits: ReadQueryLimits = { timeoutMs: 10_000, maxRows: 100, maxChars: 20_000 };
let deps: TestDeps;

const run = (cypher: string, params: Record<string, unknown> = {}, l: Partial<ReadQueryLimits> = {}) =>
  runReadQuery(deps.graph, 'neo4j', cypher, params, { ...limits, ...l });

async function failure(p: Promise<unknown>): Promise<ReadQueryError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ReadQueryError);
  return err as ReadQueryError;
}

/** A fingerprint of our test data and of the labels in the database. */
async function snapshot() {
  const { records } = await deps.graph.driver.executeQuery(
    `MATCH (n:${L}) RETURN count(n) AS n, collect(n.name + ':' + coalesce(n.flag, '-')) AS names`,
    {},
    { database: 'neo4j' },
  );
  const labels = await deps.graph.driver.executeQuery('CALL db.labels() YIELD label RETURN collect(label) AS l', {}, { database: 'neo4j' });
  return { n: records[0]!.get('n'), names: [...records[0]!.get('names')].sort(), evil: labels.records[0]!.get('l').includes(EVIL) };
}

beforeAll(async () => {
  deps = createTestDeps();
  await deps.graph.driver.executeQuery(
    `CREATE (a:${L} {name: 'Ada', born: date('1815-12-10'), embedding: [x IN range(1, 128) | toFloat(x) / 128]})
     CREATE (b:${L} {name: 'Engine', tags: ['machine', 'design']})
     CREATE (a)-[:DESIGNED {year: 1837}]->(b)`,
    {},
    { database: 'neo4j' },
  );
});
afterAll(async () => {
  await deps.graph.driver.executeQuery(`MATCH (n:${L}) DETACH DELETE n`, {}, { database: 'neo4j' });
  await deps.close();
});

describe('runReadQuery', () => {
  it('keeps columns named like Object.prototype members as columns', async () => {
    const r = await run('RETURN 1 AS `__proto__`, 2 AS `constructor`, 3 AS toString');
    expect(Object.keys(r.rows[0]!)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(JSON.stringify(r.rows[0])).toBe('{"__proto__":1,"constructor":2,"toString":3}');
  });

  it('returns nodes, relationships, paths and temporal values as plain JSON, vectors stripped', async () => {
    const r = await run(`MATCH p = (a:${L})-[r]->(b) RETURN a, r, b.tags AS tags, a.born AS born, p`);
    expect(r.columns).toEqual(['a', 'r', 'tags', 'born', 'p']);
    expect(r.truncated).toBe(false);
    const row = r.rows[0]!;
    expect(row.a).toMatchObject({ _labels: [L], name: 'Ada', born: '1815-12-10', embedding: '<vector of 128 numbers omitted>' });
    expect(typeof (row.a as { _id: unknown })._id).toBe('number');
    expect(row.r).toMatchObject({ _type: 'DESIGNED', year: 1837 });
    expect(row.tags).toEqual(['machine', 'design']);
    expect(row.born).toBe('1815-12-10');
    expect(JSON.stringify(row.p)).not.toContain('0.0078125');
    expect(formatReadQueryResult(r)).not.toContain('showing');
  });

  it('passes parameters', async () => {
    const r = await run(`MATCH (n:${L}) WHERE n.name = $name RETURN n.name AS name`, { name: 'Engine' });
    expect(r.rows).toEqual([{ name: 'Engine' }]);
  });

  it.each([
    ['CREATE', `CREATE (:${EVIL} {name: 'x'})`],
    ['MERGE', `MERGE (n:${L} {name: 'Merged'}) RETURN n`],
    ['SET', `MATCH (n:${L}) SET n.flag = 'hacked' RETURN n`],
    ['REMOVE', `MATCH (n:${L}) REMOVE n.name RETURN n`],
    ['DELETE', `MATCH (n:${L}) DETACH DELETE n`],
    ['write procedure', `CALL db.createLabel('${EVIL}')`],
    ['LOAD CSV', `LOAD CSV FROM 'file:///etc/passwd' AS line RETURN line`],
    ['LOAD CSV over HTTP', `LOAD CSV FROM 'http://127.0.0.1:1/x.csv' AS line RETURN line`],
    ['file/URL procedure', `CALL apoc.load.json('file:///etc/passwd')`],
    ['server settings procedure', 'CALL dbms.listConfig() YIELD name RETURN name'],
    ['quoted server procedure', 'CALL `dbms`.`listConfig`() YIELD name RETURN name'],
    ['SHOW SETTINGS', 'SHOW SETTINGS YIELD name RETURN name'],
    ['schema command', `CREATE INDEX idx_${tag} FOR (n:${L}) ON (n.name)`],
    ['CALL IN TRANSACTIONS', `MATCH (n:${L}) CALL { WITH n SET n.flag = 'x' } IN TRANSACTIONS`],
  ])('refuses %s and leaves the graph unchanged', async (_kind, cypher) => {
    const before = await snapshot();
    const err = await failure(run(cypher));
    expect(err.kind).toBe('refused');
    expect(err.message).toMatch(/refused/);
    expect(await snapshot()).toEqual(before);
    expect(before).toEqual({ n: 2, names: ['Ada:-', 'Engine:-'], evil: false });
  });

  it('refuses a write hidden from the text check by the database access mode', async () => {
    // A FOREACH write plans as "rw": the EXPLAIN check catches it before it runs.
    const err = await failure(run(`MATCH (n:${L}) FOREACH (x IN [1] | SET n.flag = 'f')`));
    expect(err.message).toMatch(/read-only/);
    expect((await snapshot()).names).toEqual(['Ada:-', 'Engine:-']);
  });

  it('returns the database message of a Cypher error, positioned in the caller query', async () => {
    const err = await failure(run(`MATCH (n:${L} RETURN n`));
    expect(err.kind).toBe('cypher');
    expect(err.message).toMatch(/^Invalid input 'RETURN'/);
    expect(err.message).toContain(`"MATCH (n:${L} RETURN n"`);
    expect(err.message).toContain(`column ${`MATCH (n:${L} `.length + 1}`);
    expect(err.message).not.toContain('EXPLAIN');
  });

  it('stops a slow query with the server-side timeout', async () => {
    const started = Date.now();
    const err = await failure(
      run('UNWIND range(1, 100000) AS a UNWIND range(1, 100000) AS b WITH a, b WHERE a * b = -1 RETURN count(*)', {}, { timeoutMs: 1_000 }),
    );
    expect(err.kind).toBe('timeout');
    expect(err.message).toMatch(/stopped after the 1000 ms timeout/);
    expect(Date.now() - started).toBeLessThan(8_000);
  });

  it('refuses what Neo4j could not stop, and the database stays idle and answering', async () => {
    const corpus = [
      "RETURN reduce(s = '', i IN range(1, 3000000) | s + 'x') AS big",
      'RETURN size([x IN range(1, 30000000) | toString(x)]) AS n',
      'RETURN [x IN range(1, 10000) | [y IN range(1, 10000) | x * y]] AS grid',
      `RETURN ${'('.repeat(50_000)}1${')'.repeat(50_000)} AS deep`,
      // Measured on Neo4j 5.26: gathering 30 million strings ran 33 s past a 1 s timeout.
      'UNWIND range(1, 30000000) AS x WITH collect(toString(x)) AS xs RETURN size(xs)',
      "UNWIND range(1, 100000) AS a UNWIND range(1, 1000) AS b RETURN count(DISTINCT toString(a) + ':' + toString(b))",
    ];
    for (const q of corpus) {
      const started = Date.now();
      expect((await failure(run(q, {}, { timeoutMs: 1_000 }))).kind).toBe('refused');
      expect(Date.now() - started).toBeLessThan(1_000);
    }
    const started = Date.now();
    expect((await run('RETURN 1 AS ok')).rows).toEqual([{ ok: 1 }]);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('leaves the database idle within twice the timeout after CPU- and memory-heavy queries it runs', async () => {
    const ours = async () => {
      const { records } = await deps.graph.driver.executeQuery(
        'SHOW TRANSACTIONS YIELD metaData WHERE metaData.graph_query IS NOT NULL RETURN count(*) AS n',
        {},
        { database: 'neo4j' },
      );
      return records[0]!.get('n') as number;
    };
    const corpus = [
      'MATCH (a), (b), (c) RETURN count(*)',
      'MATCH p = (a)-[*]-(b) RETURN count(p)',
      'UNWIND range(1, 100000) AS a UNWIND range(1, 100000) AS b WITH a, b WHERE a * b = -1 RETURN count(*)',
      'UNWIND range(1, 30000000) AS x RETURN count(x)',
      "UNWIND range(1, 100000) AS a UNWIND range(1, 100000) AS b WITH toString(a) + ':' + toString(b) AS s WHERE s = 'x' RETURN count(s)",
      'UNWIND range(1, 1000000) AS x WITH collect(toString(x)) AS xs RETURN size(xs)',
    ];
    for (const q of corpus) {
      const started = Date.now();
      await run(q, {}, { timeoutMs: 1_000 }).catch(() => {});
      while ((await ours()) > 0) {
        expect(Date.now() - started, q).toBeLessThan(2_000 + 500);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }, 60_000);

  it('runs at most maxConcurrent queries at once: later ones wait their turn, and too many waiting are refused as busy', async () => {
    const slow = 'UNWIND range(1, 100000) AS a UNWIND range(1, 100000) AS b WITH a, b WHERE a * b = -1 RETURN count(*)';
    const capped = { timeoutMs: 1_000, maxConcurrent: 1 };
    const started = Date.now();
    const first = run(slow, {}, capped).catch((e) => e);
    // The slot is taken by `first`: eight callers may wait for it, the ninth is refused.
    const waiting = Array.from({ length: 8 }, () => run('RETURN 1 AS ok', {}, capped));
    const refused = await failure(run('RETURN 1', {}, capped));
    expect(refused.kind).toBe('busy');
    expect(refused.message).toMatch(/^1 graph queries are running and 8 are waiting/);
    for (const r of await Promise.all(waiting)) expect(r.rows).toEqual([{ ok: 1 }]);
    expect(Date.now() - started).toBeGreaterThan(900); // they ran after the slow one ended
    expect((await first).kind).toBe('timeout');
  });

  it('caps rows and says how many were shown of how many', async () => {
    const exact = await run('UNWIND range(1, 250) AS x RETURN x');
    expect(exact.rows).toHaveLength(100);
    expect(exact).toMatchObject({ totalRows: 250, totalIsExact: true, truncated: true });
    expect(formatReadQueryResult(exact)).toContain('(showing 100 of 250 rows (the 100-row cap)');

    const huge = await run('UNWIND range(1, 5000000) AS x RETURN x', {}, { maxRows: 10 });
    expect(huge.rows).toHaveLength(10);
    expect(huge).toMatchObject({ totalRows: 10_000, totalIsExact: false, truncated: true });
    expect(huge.note).toMatch(/^showing 10 of more than 10000 rows/);
  });

  it('caps characters', async () => {
    const r = await run(
      "UNWIND range(1, 50) AS x RETURN x, reduce(s = '', i IN range(1, 100) | s + 'abcdefghij') AS text",
      {},
      { maxChars: 5_000 },
    );
    expect(r.rows.length).toBeGreaterThan(1);
    expect(r.rows.length).toBeLessThan(50);
    expect(JSON.stringify(r.rows).length).toBeLessThanOrEqual(5_000);
    expect(r.note).toMatch(new RegExp(`^showing ${r.rows.length} of 50 rows \\(the 5000-character cap\\)`));
  });

  it('reports a long string cut to 2,000 characters, and a single row cut to the cap, as truncated', async () => {
    const long = await run("RETURN reduce(s = '', i IN range(1, 300) | s + 'abcdefghij') AS text");
    expect(long.rows[0]!.text).toMatch(/… \[1000 more characters\]$/);
    expect(long).toMatchObject({ totalRows: 1, truncated: true });
    expect(long.note).toMatch(/^1 long string value cut/);

    const wide = await run("RETURN [x IN range(1, 300) | 'item-' + x] AS xs", {}, { maxChars: 1_000 });
    expect(wide).toMatchObject({ totalRows: 1, truncated: true });
    expect(wide.note).toMatch(/^showing 1 of 1 rows, cut \(the 1000-character cap\)/);
  });

  it('names an unknown graph', async () => {
    const err = await failure(runReadQuery(deps.graph, `nope${tag}`, 'RETURN 1', {}, limits));
    expect(err.kind).toBe('unknown-graph');
    expect(err.message).toBe(`graph "nope${tag}" does not exist on this server`);
  });
});
