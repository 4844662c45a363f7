/**
 * Names on the public movies and Northwind graphs as published (test/integration/helpers/published-graph.ts:
 * every Northwind value a string, `NULL` for a missing one): the plan names each label by its
 * own name (a company's `companyName`, not its contact's job title), search hits and
 * `/graph/node` show every node by that name, phone and fax numbers are codes, and no chunk or
 * hit carries a placeholder as text. Then nodes whose name cannot be read (a list, a number,
 * `NULL`): the build indexes them, each named by the next rule or its label and id. Real Neo4j
 * and Redis, the generated tiny potion model.
 */
import neo4j from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkLabel, quoteName } from '../../../../src/graph/dialect/names.js';
import { displayName } from '../../../../src/graph/text/node-name.js';
import { NAME_CHARS } from '../../../../src/graph/text/text-rules.js';
import { dropSearchIndex } from '../../../../src/graph/access/index-writer.js';
import { createTestApp } from '../../helpers/deps.js';
import {
  loadPublishedGraph,
  PUBLISHED_COUNTS,
  PUBLISHED_RELATIONSHIPS,
  publishedLabels,
  removePublishedGraph,
} from '../../helpers/published-graph.js';

const MODEL = 'minishlab/potion-base-32M';
const tag = Math.random().toString(36).slice(2, 8);
const suffix = `_n${tag}`;
const labels = publishedLabels({ suffix });
const L = (name: string) => `${name}${suffix}`;
const index = `test_names_${tag}`;
const { app, deps } = createTestApp({
  INDEX_DISCOVER: 'true',
  INDEX_LABELS: labels.join(','),
  VECTOR_INDEX_NAME: index,
  EMBEDDING_MODEL: MODEL,
});
const driver = deps.graph.driver;

const post = (path: string, body: unknown) =>
  app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const q = async (cypher: string, params: Record<string, unknown> = {}) =>
  (await driver.executeQuery(cypher, params, { database: 'neo4j' })).records.map((r) => r.toObject());

type Hit = { dbId: number; displayName: string; text: string };
type PlanBody = { labels: { label: string; name: string[]; text: string[]; skipped: { property: string; reason: string }[] }[] };
let plan: PlanBody;

/** Nodes sampled per label for the name measure (`INDEX_NAMES_SAMPLE=1000` measures every node). */
const SAMPLE = Number(process.env.INDEX_NAMES_SAMPLE ?? 10);

/** A node's own name, as a user names it: Cypher over node `n` per label (Orders have none). */
const OWN_NAME: Record<string, string> = {
  Movie: 'n.title',
  Person: 'n.name',
  Product: 'n.productName',
  Category: 'n.categoryName',
  Supplier: 'n.companyName',
  Customer: 'n.companyName',
  Shipper: 'n.companyName',
  Employee: "n.firstName + ' ' + n.lastName",
};

beforeAll(async () => {
  await removePublishedGraph(driver, 'neo4j', { suffix });
  await loadPublishedGraph(driver, 'neo4j', { suffix });
  const res = await post('/dev/build_vector_index', { graph_name: 'neo4j', model: MODEL });
  expect(res.status).toBe(200);
  plan = ((await res.json()) as { plan: PlanBody }).plan;
}, 180_000);
afterAll(async () => {
  await removePublishedGraph(driver, 'neo4j', { suffix });
  await dropSearchIndex(driver, 'neo4j', index);
  await deps.close();
});

const entry = (label: string) => plan.labels.find((l) => l.label === L(label))!;
const reasons = (label: string) => Object.fromEntries(entry(label).skipped.map((s) => [s.property, s.reason]));

describe('names on the published graphs', () => {
  it('loads the published graphs whole', async () => {
    const [row] = await q(`MATCH (n) WHERE any(l IN labels(n) WHERE l IN $labels) RETURN count(n) AS n`, { labels });
    expect(Number(row!.n)).toBe(Object.values(PUBLISHED_COUNTS).reduce((a, b) => a + b, 0));
    const [rels] = await q(`MATCH (n)-[r]->() WHERE any(l IN labels(n) WHERE l IN $labels) RETURN count(r) AS n`, { labels });
    expect(Number(rels!.n)).toBe(PUBLISHED_RELATIONSHIPS);
  });

  it("plans each label by its own name, never a contact's name or job title", () => {
    expect(entry('Supplier').name).toEqual(['companyName']);
    expect(entry('Customer').name).toEqual(['companyName']);
    expect(entry('Shipper').name).toEqual(['companyName']);
    expect(entry('Product').name).toEqual(['productName']);
    expect(entry('Category').name).toEqual(['categoryName']);
    expect(entry('Employee').name).toEqual(['firstName', 'lastName']);
    expect(entry('Movie').name).toEqual(['title']);
    expect(entry('Person').name).toEqual(['name']);
  });

  it('takes phone and fax numbers as codes on every label, and NULL as no value', () => {
    for (const label of ['Supplier', 'Customer']) expect(reasons(label)).toMatchObject({ phone: 'code', fax: 'code' });
    expect(reasons('Shipper')).toMatchObject({ phone: 'code' });
    expect(reasons('Employee')).toMatchObject({ homePhone: 'code' });
    for (const l of plan.labels) expect(l.text).not.toContain('fax');
  });

  it('shows ≥ 95 % of named nodes by their own name in search hits and /graph/node', async () => {
    let shown = 0;
    let total = 0;
    const report: string[] = [];
    const missed: string[] = [];
    for (const [label, own] of Object.entries(OWN_NAME)) {
      const all = await q(`MATCH (n:${quoteName(L(label))}) RETURN id(n) AS dbId, ${own} AS name ORDER BY dbId`);
      // Evenly spread over the label, as the issue's measure took them.
      const nodes = all.filter((_, i) => i % Math.ceil(all.length / SAMPLE) === 0);
      let ok = 0;
      for (const { dbId, name } of nodes as { dbId: number; name: string }[]) {
        const details = (await (await app.request(`/graph/node?id=${dbId}`)).json()) as { displayName: string };
        const res = await post('/vector/search', {
          graph_name: 'neo4j',
          model: MODEL,
          query: name,
          mode: 'fulltext',
          labels: [L(label)],
          top_k: 5,
        });
        const hit = ((await res.json()) as Hit[]).find((h) => h.dbId === Number(dbId));
        if (details.displayName === name && hit?.displayName === name) ok++;
        else
          missed.push(
            `${label} ${JSON.stringify(name)}: node ${JSON.stringify(details.displayName)}, hit ${JSON.stringify(hit?.displayName ?? null)}`,
          );
      }
      report.push(`${label} ${ok}/${nodes.length}`);
      shown += ok;
      total += nodes.length;
    }
    console.log(`shown by their own name: ${shown}/${total} (${((100 * shown) / total).toFixed(1)} %): ${report.join(', ')}`);
    if (missed.length) console.log(`not shown by their own name:\n${missed.join('\n')}`);
    expect(shown / total).toBeGreaterThanOrEqual(0.95);
  }, 300_000);

  it('shows an Order, which has no name of its own, as its label and order number', async () => {
    const [order] = await q(`MATCH (n:${quoteName(L('Order'))} {orderID: '10248'}) RETURN id(n) AS dbId`);
    const details = (await (await app.request(`/graph/node?id=${order!.dbId}`)).json()) as { displayName: string };
    expect(details.displayName).toBe(`${L('Order')} 10248`);
  });

  it('no chunk and no search hit has a line reading NULL', async () => {
    const [row] = await q(
      `MATCH (c:${quoteName(chunkLabel(index))}) RETURN count(c) AS chunks,
         count(CASE WHEN any(line IN split(coalesce(c.chunkText, c.nameText), '\n') WHERE trim(line) IN ['NULL', 'null'] OR line ENDS WITH ': NULL') THEN 1 END) AS nulls`,
    );
    expect(Number(row!.chunks)).toBeGreaterThan(0);
    expect(Number(row!.nulls)).toBe(0);
    const res = await post('/vector/search', { graph_name: 'neo4j', model: MODEL, query: 'London', mode: 'fulltext', top_k: 20 });
    const hits = (await res.json()) as Hit[];
    expect(hits.length).toBeGreaterThan(0);
    for (const h of hits) expect(h.text.split('\n')).not.toContain('NULL');
  });
});

describe('a node whose name cannot be read', () => {
  const gizmo = `Gizmo_${tag}`;
  const loose = `Loose_${tag}`;
  const odd = createTestApp({ INDEX_DISCOVER: 'true', INDEX_LABELS: gizmo, VECTOR_INDEX_NAME: `${index}_odd`, EMBEDDING_MODEL: MODEL });
  const oddPost = (path: string, body: unknown) =>
    odd.app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const details = async (id: unknown) => (await (await app.request(`/graph/node?id=${id}`)).json()) as { displayName: string };
  let oddPlan: PlanBody;
  let ids: Record<string, number>;

  beforeAll(async () => {
    await q(
      `UNWIND range(1, 12) AS i CREATE (:${quoteName(gizmo)} {name: 'Gizmo ' + i, description: 'A small device that hums, number ' + i})`,
    );
    const [row] = await q(
      `CREATE (a:${quoteName(gizmo)} {name: ['gizmo', 'three'], title: 'Gizmo Three', description: 'A list for a name'})
       CREATE (b:${quoteName(gizmo)} {name: 'NULL', description: 'A placeholder for a name'})
       CREATE (c:${quoteName(gizmo)} {name: 42, description: 'A number for a name'})
       CREATE (d:${quoteName(gizmo)} {displayName: ['x', 'y'], name: 'Gizmo Proper', description: 'A list for a display name'})
       CREATE (e:${quoteName(loose)} {name: ['a', 'b'], contactTitle: 'Purchasing Manager', contactName: 'Ann Lee', companyName: 'Acme Parts'})
       RETURN id(a) AS list, id(b) AS placeholder, id(c) AS number, id(d) AS display, id(e) AS loose`,
    );
    ids = Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, Number(v)]));
    const res = await oddPost('/dev/build_vector_index', { graph_name: 'neo4j', model: MODEL });
    expect(res.status).toBe(200);
    oddPlan = ((await res.json()) as { plan: PlanBody }).plan;
  }, 120_000);
  afterAll(async () => {
    await q(`MATCH (n) WHERE n:${quoteName(gizmo)} OR n:${quoteName(loose)} DETACH DELETE n`);
    await dropSearchIndex(driver, 'neo4j', `${index}_odd`);
    await odd.deps.close();
  });

  it('indexes every node, and the plan says where the name key is not a string', async () => {
    const [row] = await q(`MATCH (c:${quoteName(chunkLabel(`${index}_odd`))}) RETURN count(DISTINCT c.nodeId) AS nodes`);
    expect(Number(row!.nodes)).toBe(16);
    const entry = oddPlan.labels.find((l) => l.label === gizmo)!;
    expect(entry.name).toEqual(['name']);
    const why = Object.fromEntries(entry.skipped.map((x) => [x.property, x]));
    expect(why.name).toMatchObject({ reason: 'not a string', detail: expect.stringContaining('LIST<STRING>') });
    expect(why.displayName).toMatchObject({ reason: 'not a string', detail: expect.stringContaining('no name') });
  });

  it('names each by the next rule, else its label and id, in /graph/node and search hits; a list name is still text', async () => {
    const expected: Record<string, string> = {
      list: 'Gizmo Three',
      placeholder: `${gizmo} #${ids.placeholder}`,
      number: `${gizmo} #${ids.number}`,
      display: 'Gizmo Proper',
    };
    const res = await oddPost('/vector/search', { graph_name: 'neo4j', model: MODEL, query: 'name', mode: 'fulltext', top_k: 10 });
    expect(res.status).toBe(200);
    const hits = new Map(((await res.json()) as Hit[]).map((h) => [h.dbId, h]));
    for (const [key, name] of Object.entries(expected)) {
      expect((await details(ids[key])).displayName).toBe(name);
      expect(hits.get(ids[key]!)).toMatchObject({ displayName: name });
    }
    expect(hits.get(ids.list!)!.text).toContain('gizmo, three');
    const [chunk] = await q(
      `MATCH (c:${quoteName(chunkLabel(`${index}_odd`))}) WHERE c.chunkText CONTAINS 'gizmo, three' RETURN c.chunkText AS t`,
    );
    expect(chunk?.t).toMatch(/^Gizmo Three \(/);
  });

  it('a node no plan covers: its company, not its contact or job title; the fields the database sends name it as its whole properties do', async () => {
    expect((await details(ids.loose)).displayName).toBe('Acme Parts');
    const cases: [Record<string, unknown>, string | null][] = [
      [{ firstName: 'Nancy', lastName: 'Davolio', title: 'Sales Representative' }, 'Nancy Davolio'],
      [{ firstName: 'Nancy', lastName: 42, title: 'Sales Representative' }, 'Sales Representative'],
      [{ looseName: 'Own Name', name: 'NULL' }, 'Own Name'],
      [{ looseID: 'L-7', shipName: '  ' }, `${loose} L-7`],
      [{ loose_id: 12n }, `${loose} 12`],
      [{ loose_id: 12.5 }, null],
      [{ displayName: '  Spaced  ', name: 'x' }, 'Spaced'],
      [{ albumTitle: 'Blue', contactName: 'Ann Lee', contactTitle: 'Boss' }, 'Blue'],
      [{ contactTitle: 'Boss', born: 1964, tags: ['a'] }, null],
      [{ name: 'y'.repeat(300) }, `${'y'.repeat(NAME_CHARS - 1)}…`],
      [{ name: `   ${'z'.repeat(5_000_000)}` }, `${'z'.repeat(NAME_CHARS - 1)}…`],
      [{ name: `${' '.repeat(70)}late`, title: 'Titled' }, 'Titled'],
      [{ name: new neo4j.types.Date(2020, 1, 2), title: 'Dated' }, 'Dated'],
      [{ loose_id: new neo4j.types.Date(2020, 1, 2), displayName: ['a', 'b'] }, null],
    ];
    for (const [props, expected] of cases) {
      const stored = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, typeof v === 'bigint' ? neo4j.int(v) : v]));
      const [row] = await q(`CREATE (n:${quoteName(loose)}) SET n = $props RETURN id(n) AS id`, { props: stored });
      const id = Number(row!.id);
      const shown = (await details(id)).displayName;
      expect(shown).toBe(expected ?? `${loose} #${id}`);
      // One rule (src/graph/text/node-name.ts): what dialect.ts `nameFieldsOf` leaves out or cuts changes no name.
      expect(shown).toBe(displayName([], [loose], Object.entries(props), id));
    }
  });
});
