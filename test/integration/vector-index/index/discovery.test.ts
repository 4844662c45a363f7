/**
 * Graphs without a `text` property (a movies-plus-Northwind graph of the public examples'
 * shape, test/helpers/movies-northwind.ts): the plan discovery makes, the build following it
 * (no blob embedded, a name-only node indexed by its name), search returning the composed text,
 * an explicit choice, and every refusal of a bad choice. Real Neo4j and Redis, the generated
 * tiny potion model; names are found by the full-text half of hybrid search.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkLabel, quoteName } from '../../../../src/graph/dialect/names.js';
import { dropSearchIndex } from '../../../../src/graph/access/index-writer.js';
import { searchableProperties } from '../../../../src/vector-index/index/record.js';
import { buildVectorIndex } from '../../../../src/vector-index/build/build.js';
import { computeSkeleton, formatSkeleton } from '../../../../src/graph/shape/skeleton.js';
import { createTestApp } from '../../helpers/deps.js';
import {
  loadMoviesNorthwind,
  moviesNorthwindLabels,
  moviesNorthwindQueries,
  removeMoviesNorthwind,
} from '../../../helpers/movies-northwind.js';

const MODEL = 'minishlab/potion-base-32M';
const tag = Math.random().toString(36).slice(2, 8);
const suffix = `_d${tag}`;
const labels = moviesNorthwindLabels({ suffix });
const L = (name: string) => `${name}${suffix}`;
const index = `test_disc_${tag}`;
const { app, deps } = createTestApp({
  INDEX_DISCOVER: 'true',
  INDEX_LABELS: labels.join(','),
  VECTOR_INDEX_NAME: index,
  EMBEDDING_MODEL: MODEL,
});
const driver = deps.graph.driver;
let keys = new Map<string, string>();

const post = (path: string, body: unknown) =>
  app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const search = async (body: Record<string, unknown>) => {
  const res = await post('/vector/search', { graph_name: 'neo4j', model: MODEL, ...body });
  expect(res.status).toBe(200);
  return (await res.json()) as { dbId: number; displayName: string; text: string; labels: string[] }[];
};
const q = async (cypher: string, params: Record<string, unknown> = {}) =>
  (await driver.executeQuery(cypher, params, { database: 'neo4j' })).records.map((r) => r.toObject());

type PlanBody = {
  labels: { label: string; source: string; name: string[]; text: string[]; skipped: { property: string; reason: string }[] }[];
};
let built: { total_chunks: number; plan: PlanBody };

beforeAll(async () => {
  await removeMoviesNorthwind(driver, 'neo4j', { suffix });
  keys = await loadMoviesNorthwind(driver, 'neo4j', { suffix });
  const res = await post('/dev/build_vector_index', { graph_name: 'neo4j', model: MODEL });
  expect(res.status).toBe(200);
  built = await res.json();
}, 180_000);
afterAll(async () => {
  await removeMoviesNorthwind(driver, 'neo4j', { suffix });
  await dropSearchIndex(driver, 'neo4j', index);
  await deps.close();
});

const entry = (plan: PlanBody, label: string) => plan.labels.find((l) => l.label === L(label))!;

describe('text discovery', () => {
  it('plans each label by rule: names, descriptive text, and every left-out property with its reason', () => {
    const { plan } = built;
    expect(entry(plan, 'Movie')).toMatchObject({ source: 'discovered', name: ['title'], text: ['tagline'] });
    expect(entry(plan, 'Person')).toMatchObject({ source: 'discovered', name: ['name'], text: [] });
    expect(entry(plan, 'Product')).toMatchObject({ name: ['productName'] });
    expect(entry(plan, 'Category')).toMatchObject({ name: ['categoryName'], text: ['description'] });
    expect(entry(plan, 'Employee').name).toEqual(['firstName', 'lastName']);
    expect(entry(plan, 'Employee').text[0]).toBe('notes');
    expect(entry(plan, 'Supplier').name).toEqual(['companyName']);
    const reasons = (label: string) => Object.fromEntries(entry(plan, label).skipped.map((s) => [s.property, s.reason]));
    expect(reasons('Category')).toMatchObject({ picture: 'blob', categoryID: 'identifier' });
    expect(reasons('Employee')).toMatchObject({ photo: 'blob', photoPath: 'url', birthDate: 'date', employeeID: 'identifier' });
    expect(reasons('Product')).toMatchObject({ unitPrice: 'number', discontinued: 'number' });
    expect(reasons('Movie')).toMatchObject({ released: 'not a string' });
    // An order's ship-to fields repeat its customer's: a category, not a description; orders have no name.
    expect(entry(plan, 'Order')).toMatchObject({ source: 'none', name: [], text: [] });
    expect(reasons('Order')).toMatchObject({ shipName: 'repeats', orderDate: 'date', customerID: 'identifier' });
  });

  it('indexes every node with text, one header-only chunk for a name-only node, never a blob', async () => {
    const [row] = await q(
      `MATCH (c:${quoteName(chunkLabel(index))}) RETURN count(DISTINCT c.nodeId) AS nodes,
         sum(CASE WHEN c.chunkText CONTAINS '0x424D' THEN 1 ELSE 0 END) AS blobs`,
    );
    // Every node but the 830 orders.
    expect(row).toEqual({ nodes: 1218 - 830, blobs: 0 });
    const person = keys.get('Person:1')!;
    // A person has a name and no other text: one chunk, its header, kept in `nameText` apart from the texts.
    const [chunk] = await q(`MATCH (c:${quoteName(chunkLabel(index))} {nodeId: $id}) RETURN c.nameText AS t, c.chunkText AS body`, {
      id: person,
    });
    expect(chunk?.body).toBeNull();
    expect(chunk?.t).toMatch(new RegExp(`^[^\\n]+ \\(${L('Person')}\\)$`));
  });

  it('finds ≥ 95 % of named nodes by their name in the top 3 of hybrid search', async () => {
    const { names } = moviesNorthwindQueries({ suffix });
    const elementToKey = new Map([...keys].map(([k, id]) => [id, k]));
    const [ids] = await q('UNWIND $ids AS id MATCH (n) WHERE elementId(n) = id RETURN collect([id(n), elementId(n)]) AS pairs', {
      ids: [...keys.values()],
    });
    const byDbId = new Map((ids!.pairs as [number, string][]).map(([n, e]) => [Number(n), elementToKey.get(e)]));
    let found = 0;
    for (const { key, query } of names) {
      const hits = await search({ query, mode: 'hybrid', top_k: 3 });
      if (hits.some((h) => byDbId.get(h.dbId) === key)) found++;
    }
    expect(found / names.length).toBeGreaterThanOrEqual(0.95);
  }, 120_000);

  it('returns the composed text: the descriptive properties, or the name of a name-only node', async () => {
    const movies = await search({ query: 'movie', labels: [L('Movie')], mode: 'fulltext', top_k: 3 });
    const [taglines] = await q(`MATCH (m:${quoteName(L('Movie'))}) RETURN collect(m.tagline) AS t`);
    for (const m of movies) expect(taglines!.t).toContain(m.text);
    const [person] = await q(`MATCH (p:${quoteName(L('Person'))}) RETURN p.name AS name LIMIT 1`);
    const hits = await search({ query: person!.name, labels: [L('Person')], mode: 'fulltext', top_k: 1 });
    expect(hits[0]).toMatchObject({ displayName: person!.name, text: person!.name });
  });

  it('POST /dev/text_plan shows the plan without building, and honours an explicit choice', async () => {
    const res = await post('/dev/text_plan', {
      graph_name: 'neo4j',
      labels: [L('Movie'), L('Category')],
      properties: { [L('Movie')]: ['title', 'tagline'] },
    });
    expect(res.status).toBe(200);
    const plan = (await res.json()) as PlanBody;
    expect(plan.labels.map((l) => l.label).sort()).toEqual([L('Category'), L('Movie')].sort());
    expect(entry(plan, 'Movie')).toMatchObject({ source: 'explicit', name: ['title'], text: ['tagline'] });
    expect(entry(plan, 'Category')).toMatchObject({ source: 'discovered' });
  });

  it('/status shows the plan the index was built with, and for a graph without text points at the plan', async () => {
    const res = await app.request('/status');
    const status = (await res.json()) as {
      graph: { text_nodes: number };
      index_text: { source: string; built_at: string; plan: PlanBody };
      checks: { id: string; ok: boolean; detail: string; fix?: string }[];
    };
    expect(status.index_text.source).toBe('build');
    expect(entry(status.index_text.plan, 'Movie')).toMatchObject({ name: ['title'], text: ['tagline'] });
    expect(status.graph.text_nodes).toBe(1218 - 830);
    expect(status.checks.find((c) => c.id === 'graph')).toMatchObject({
      ok: true,
      detail: expect.stringContaining('8 discovered, 0 as chosen, 1 with no text'),
    });

    // Orders alone hold nothing that reads as text: not ready, and the fix says where to look.
    const orders = createTestApp({
      INDEX_DISCOVER: 'true',
      INDEX_LABELS: L('Order'),
      VECTOR_INDEX_NAME: `${index}_none`,
      EMBEDDING_MODEL: MODEL,
    });
    try {
      const s = (await (await orders.app.request('/status')).json()) as typeof status;
      expect(s.index_text.source).toBe('preview');
      expect(s.graph.text_nodes).toBe(0);
      const check = s.checks.find((c) => c.id === 'graph')!;
      expect(check.ok).toBe(false);
      expect(check.fix).toContain('POST /dev/text_plan');
      expect(check.fix).toContain('INDEX_PROPERTIES');
    } finally {
      await orders.deps.close();
    }
  });

  it("the agent's graph overview names the properties search finds each label by", async () => {
    const data = await computeSkeleton(deps.graph, 'neo4j', {
      labelFilter: (l) => labels.includes(l),
      searchable: (db) => searchableProperties(driver, db, index),
    });
    const text = formatSkeleton(data);
    expect(text).toContain('search: properties vector_search matches');
    expect(text).toMatch(new RegExp(`- :${L('Movie')} \\(38\\).* search: title, tagline\n`));
    expect(text).toMatch(new RegExp(`- :${L('Employee')} \\(9\\).* search: firstName, lastName, notes`));
    expect(text).not.toMatch(new RegExp(`- :${L('Order')} .*search:`));
  });

  it('a label whose nodes have TEXT_PROPERTY indexes exactly as without discovery (the sample graph, WikiPathways)', async () => {
    const label = `TextDoc_${tag}`;
    await q(
      `UNWIND range(0, 19) AS i CREATE (:${quoteName(label)} {name: 'Doc ' + i, text: 'Body text number ' + i + ' of a document with text.',
         notes: 'Other descriptive words ' + i, code: 'X-' + i})`,
    );
    const [on, off] = [`${index}_on`, `${index}_off`];
    try {
      const a = await buildVectorIndex(deps, { graph: 'neo4j', model: MODEL, indexName: on, choice: { labels: [label] }, discover: true });
      const b = await buildVectorIndex(deps, {
        graph: 'neo4j',
        model: MODEL,
        indexName: off,
        choice: { labels: [label] },
        discover: false,
      });
      expect(a.plan.labels).toEqual([expect.objectContaining({ label, source: 'text', body: ['text'] })]);
      expect(b.plan.labels).toEqual([]);
      const content = async (i: string) =>
        (await q(`MATCH (c:${quoteName(chunkLabel(i))}) RETURN c.batch AS b, coalesce(c.chunkText, c.nameText) AS t ORDER BY t`)).map(
          (r) => `${r.b}|${r.t}`,
        );
      const chunks = await content(on);
      expect(chunks).toHaveLength(20);
      expect(chunks).toEqual(await content(off));
      expect(chunks[0]).toMatch(new RegExp(`\\|Doc 0 \\(${label}\\)\nBody text number 0 `));
    } finally {
      await q(`MATCH (n:${quoteName(label)}) DETACH DELETE n`);
      await dropSearchIndex(driver, 'neo4j', on);
      await dropSearchIndex(driver, 'neo4j', off);
    }
  });

  it('422 naming an unknown label or property with close names, and a choice that yields no text', async () => {
    const bad = async (body: Record<string, unknown>) => {
      const res = await post('/dev/text_plan', { graph_name: 'neo4j', ...body });
      expect(res.status).toBe(422);
      return (await res.json()) as { detail: string; errors: { path: string; message: string }[] };
    };
    const unknownLabel = await bad({ labels: [L('Movie').replace('Movie', 'Movies')] });
    expect(unknownLabel.errors[0]).toMatchObject({ path: 'body.labels.0' });
    expect(unknownLabel.errors[0]!.message).toContain(`close names: "${L('Movie')}"`);
    const unknownProp = await bad({ properties: { [L('Movie')]: ['titel'] } });
    expect(unknownProp.errors[0]).toMatchObject({ path: `body.properties.${L('Movie')}.0` });
    expect(unknownProp.errors[0]!.message).toContain('"title"');
    const noText = await bad({ properties: { [L('Movie')]: ['released'] } });
    expect(noText.errors[0]).toMatchObject({ path: `body.properties.${L('Movie')}.0` });
    expect(noText.errors[0]!.message).toMatch(/^"released" of \S+ holds INTEGER values, not text/);
    // The build refuses the same way, before taking its lock.
    const res = await post('/dev/build_vector_index', { graph_name: 'neo4j', model: MODEL, properties: { [L('Movie')]: ['titel'] } });
    expect(res.status).toBe(422);
  });
});
