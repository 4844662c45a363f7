/**
 * The bundled sample graph against the real Neo4j: loading is idempotent, numbers keep their
 * types, every relationship lands, and a database with data is left alone when `ifEmpty` is set.
 * The `neo4j` database is shared with other suites, so this suite never wipes it: it only removes
 * the sample nodes and constraints it added itself.
 */
import neo4j, { type Driver } from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import data from '../../../../src/graph/access/sample-data.json' with { type: 'json' };
import { loadSampleGraph, type SampleGraph } from '../../../../src/graph/access/sample.js';

const DATABASE = 'neo4j';
const sample: SampleGraph = data;
// Sample nodes are matched on primary label + dbId (other suites may use the same dbIds), one
// label at a time so the lookups use the dbId constraint indexes, not a scan of a busy database.
const idsByLabel: Record<string, neo4j.Integer[]> = {};
for (const n of sample.nodes) (idsByLabel[n.labels[0] ?? ''] ??= []).push(neo4j.int(n.properties.dbId as number));
const MATCH_SAMPLE = `CALL { ${Object.keys(idsByLabel)
  .map((label) => `MATCH (n:\`${label}\`) WHERE n.dbId IN $ids.${label} RETURN n`)
  .join(' UNION ALL ')} }`;
/** Sample nodes `n` that satisfy a condition. */
const sampleWhere = (condition: string) => `${MATCH_SAMPLE} WITH n WHERE ${condition}`;

let driver: Driver;
let hadSample = false;
let constraintsBefore = new Set<string>();

async function query<T = number>(cypher: string, params: Record<string, unknown> = {}): Promise<T> {
  const res = await driver.executeQuery(cypher, { ids: idsByLabel, ...params }, { database: DATABASE });
  return res.records[0]?.get('c') as T;
}

async function constraintNames(): Promise<Set<string>> {
  const res = await driver.executeQuery('SHOW CONSTRAINTS YIELD name', {}, { database: DATABASE });
  return new Set(res.records.map((r) => r.get('name') as string));
}

beforeAll(async () => {
  driver = neo4j.driver(`bolt://127.0.0.1:${process.env.TEST_GRAPHDB_PORT ?? '1234'}`, undefined, { disableLosslessIntegers: true });
  hadSample = (await query(`${MATCH_SAMPLE} RETURN count(n) AS c`)) > 0;
  constraintsBefore = await constraintNames();
});

afterAll(async () => {
  // Leave the shared database as we found it.
  if (driver && !hadSample) {
    await driver.executeQuery(`${MATCH_SAMPLE} DETACH DELETE n`, { ids: idsByLabel }, { database: DATABASE });
    for (const name of await constraintNames()) {
      if (name.startsWith('sample_dbId_') && !constraintsBefore.has(name)) {
        await driver.executeQuery(`DROP CONSTRAINT \`${name}\` IF EXISTS`, {}, { database: DATABASE });
      }
    }
  }
  await driver?.close();
});

describe('sample graph data', () => {
  it('has the promised size and unique integer dbIds', () => {
    expect(sample.nodes.length).toBeGreaterThanOrEqual(250);
    expect(sample.nodes.length).toBeLessThanOrEqual(400);
    expect(sample.relationships.length).toBeGreaterThanOrEqual(600);
    expect(sample.relationships.length).toBeLessThanOrEqual(1200);
    expect(sample.nodes.map((n) => n.properties.dbId)).toEqual(sample.nodes.map((_, i) => i + 1));
    const lengths = data.nodes.map((n) => n.properties.text.length);
    expect(Math.min(...lengths)).toBeGreaterThanOrEqual(200);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(1500);
  });
});

describe('loadSampleGraph', () => {
  it('is idempotent when loaded twice with ifEmpty: false', async () => {
    const first = await loadSampleGraph(driver, sample, { database: DATABASE, ifEmpty: false });
    const second = await loadSampleGraph(driver, sample, { database: DATABASE, ifEmpty: false });
    const expected = { loaded: true, nodes: sample.nodes.length, relationships: sample.relationships.length };
    expect(first).toEqual(expected);
    expect(second).toEqual(expected);
    expect(await query(`${MATCH_SAMPLE} RETURN count(n) AS c`)).toBe(sample.nodes.length);
  }, 120_000); // ~1 s on an idle machine; the shared database is sometimes busy with other suites.

  it('stores dbId and other whole numbers as INTEGER', async () => {
    expect(await query(`${sampleWhere("valueType(n.dbId) STARTS WITH 'INTEGER'")} RETURN count(n) AS c`)).toBe(sample.nodes.length);
    const years = sample.nodes.filter((n) => 'launchYear' in n.properties).length;
    expect(years).toBeGreaterThan(0);
    expect(await query(`${sampleWhere("valueType(n.launchYear) STARTS WITH 'INTEGER'")} RETURN count(n) AS c`)).toBe(years);
  });

  it('stores float properties as FLOAT, even where a value is whole', async () => {
    const withMass = sample.nodes.filter((n) => typeof n.properties.massKg === 'number');
    expect(withMass.some((n) => Number.isInteger(n.properties.massKg))).toBe(true);
    expect(await query(`${sampleWhere("valueType(n.massKg) STARTS WITH 'FLOAT'")} RETURN count(n) AS c`)).toBe(withMass.length);
  });

  it('keeps lists, booleans, dates and non-ASCII text intact', async () => {
    const mission = sample.nodes.find((n) => n.properties.displayName === 'Apollo 11');
    const res = await driver.executeQuery(
      'MATCH (m:Mission {dbId: $id}) RETURN m.targets AS targets, m.crewed AS crewed, m.launchDate AS date, valueType(m.targets) AS t',
      { id: mission?.properties.dbId },
      { database: DATABASE },
    );
    expect(res.records[0]?.toObject()).toEqual({
      targets: ['Moon'],
      crewed: true,
      date: '1969-07-16',
      t: 'LIST<STRING NOT NULL> NOT NULL',
    });
    for (const name of ['Tiangong 天宫', 'Northstar "Polaris" Consortium', "Académie d'astronautique"]) {
      expect(await query(`${sampleWhere('n.displayName = $name')} RETURN count(n) AS c`, { name })).toBe(1);
    }
  });

  it('creates every relationship between sample nodes, with typed properties', async () => {
    const between = `${MATCH_SAMPLE} WITH collect(n) AS ns UNWIND ns AS a MATCH (a)-[r]->(b) WHERE b IN ns`;
    expect(await query(`${between} RETURN count(r) AS c`)).toBe(sample.relationships.length);
    const visits = sample.relationships.filter((r) => r.type === 'VISITED').length;
    expect(
      await query(
        `${between} AND type(r) = 'VISITED' AND valueType(r.year) STARTS WITH 'INTEGER' AND r.kind IN ['flyby', 'orbit', 'landing'] RETURN count(r) AS c`,
      ),
    ).toBe(visits);
  });

  it('does nothing with ifEmpty: true when the database already has nodes', async () => {
    expect(await loadSampleGraph(driver, sample, { database: DATABASE, ifEmpty: true })).toEqual({
      loaded: false,
      nodes: 0,
      relationships: 0,
    });
    expect(await loadSampleGraph(driver, sample, { database: DATABASE })).toEqual({ loaded: false, nodes: 0, relationships: 0 });
  });
});
