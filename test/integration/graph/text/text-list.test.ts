/**
 * A `TEXT_PROPERTY` that holds a list of strings is indexed, its items joined as lists of strings
 * are everywhere (', ', placeholders dropped), and a search returns that text; a list of other
 * values is still left out. A handful of nodes of the suite's own label and text property.
 */
import neo4j from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkLabel, quoteName } from '../../../../src/graph/dialect/names.js';
import { createTestApp } from '../../helpers/deps.js';
import { createIndexFixture, dropIndexFixture } from '../../helpers/index-fixtures.js';

const MODEL = 'minishlab/potion-base-32M';
const f = createIndexFixture(MODEL);
const { app, deps } = createTestApp(f.env);
const driver = deps.graph.driver;
const post = (path: string, body: unknown) =>
  app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const ids: Record<string, string> = {};

beforeAll(async () => {
  const texts: Record<string, unknown> = {
    plain: 'a plain text about an okapi',
    list: [' a listed text about a quokka ', 'NULL', 'and a numbat'],
    numbers: [1, 2, 3],
  };
  for (const [key, text] of Object.entries(texts)) {
    const { records } = await driver.executeQuery(
      `CREATE (n:${quoteName(f.label)} {dbId: $i, name: $key}) SET n[$prop] = $text RETURN elementId(n) AS id`,
      { i: neo4j.int(Object.keys(ids).length), key, prop: f.prop, text },
      { database: 'neo4j' },
    );
    ids[key] = records[0]!.get('id') as string;
  }
  const res = await post('/dev/build_vector_index', { graph_name: 'neo4j', model: MODEL });
  expect(res.status).toBe(200);
}, 120_000);
afterAll(async () => {
  await dropIndexFixture(driver, f);
  await deps.close();
});

describe('a TEXT_PROPERTY holding a list of strings', () => {
  it('is indexed, joined', async () => {
    const { records } = await driver.executeQuery(
      `MATCH (c:${quoteName(chunkLabel(f.index))}) RETURN c.nodeId AS nodeId, coalesce(c.chunkText, c.nameText) AS text`,
      {},
      { database: 'neo4j' },
    );
    const byNode = new Map(records.map((r) => [r.get('nodeId') as string, r.get('text') as string]));
    expect(byNode.get(ids.plain!)).toContain('a plain text about an okapi');
    expect(byNode.get(ids.list!)).toContain('a listed text about a quokka, and a numbat');
    expect(byNode.has(ids.numbers!)).toBe(false);
  });

  it('is what a search returns', async () => {
    const res = await post('/vector/search', { graph_name: 'neo4j', model: MODEL, query: 'quokka', top_k: 1, mode: 'fulltext' });
    expect(res.status).toBe(200);
    const [hit] = (await res.json()) as { text: string }[];
    expect(hit?.text).toBe('a listed text about a quokka, and a numbat');
  });
});
