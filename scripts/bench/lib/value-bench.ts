/**
 * The value part of `npm run bench:feedback` (issue 38), on the public movies + Northwind graphs
 * as their owners load them (test/integration/helpers/published-graph.ts: Northwind's numbers and dates as
 * strings, `NULL` placeholders): 12 queries whose values miss, of the kinds language models
 * write (near-miss and case-slipped names, countries and categories by another name, numbers,
 * dates and strings compared with properties of another type), each told or not; correct
 * queries, whose rows must be the same with the checks as without and carry no value notice;
 * and the share of the schema elements typical questions need that the first view (the
 * skeleton: agent overview and MCP schema resource) shows, beside the seed's view emulated.
 */
import type { QueryNotice } from '../../../src/contract/graph.js';
import type { GraphStore } from '../../../src/graph/access/driver.js';
import { type ReadQueryLimits, runReadQuery } from '../../../src/graph/cypher/read-query.js';
import type { PropertyInfo } from '../../../src/graph/shape/schema.js';
import { createSkeletonCache } from '../../../src/graph/shape/skeleton-cache.js';
import { computeSkeleton, DEFAULT_SKELETON_CHARS, formatSkeleton, type SkeletonData } from '../../../src/graph/shape/skeleton.js';
import { loadPublishedGraph, publishedLabels } from '../../../test/integration/helpers/published-graph.js';

/** A query whose value misses, and a text the notice must contain to count as told (the fix or the value held). */
interface Miss {
  cypher: string;
  params?: Record<string, unknown>;
  expect: string;
}

const SUFFIX = '_vb38';
const L = (label: string) => `${label}${SUFFIX}`;

const MISSES: Miss[] = [
  { cypher: `MATCH (c:${L('Customer')} {country: 'United Kingdom'}) RETURN c.companyName`, expect: '"UK"' },
  { cypher: `MATCH (c:${L('Customer')}) WHERE c.country = 'United States' RETURN count(c) AS n`, expect: '"USA"' },
  { cypher: `MATCH (p:${L('Person')} {name: 'Tom Hank'})-[:ACTED_IN]->(m) RETURN m.title`, expect: '"Tom Hanks"' },
  { cypher: `MATCH (p:${L('Person')}) WHERE p.name = 'keanu reeves' RETURN p.born`, expect: '"Keanu Reeves"' },
  { cypher: `MATCH (c:${L('Category')} {categoryName: 'Beverage'})<-[:PART_OF]-(p) RETURN count(p) AS n`, expect: '"Beverages"' },
  { cypher: `MATCH (p:${L('Product')}) WHERE p.productName = 'Chai Tea' RETURN p.unitPrice`, expect: '"Chai"' },
  { cypher: `MATCH (m:${L('Movie')}) WHERE m.title = $title RETURN m.released`, params: { title: 'the matrix' }, expect: '"The Matrix"' },
  { cypher: `MATCH (m:${L('Movie')} {released: '1999'}) RETURN m.title`, expect: 'm.released = 1999' },
  { cypher: `MATCH (o:${L('Order')}) WHERE o.freight > 100 RETURN count(o) AS n`, expect: 'toFloat(o.freight) > 100' },
  { cypher: `MATCH (o:${L('Order')}) WHERE o.orderDate > date('1998-01-01') RETURN count(o) AS n`, expect: 'date(left(o.orderDate, 10))' },
  { cypher: `MATCH (o:${L('Order')})-[r:ORDERS]->(p) WHERE r.discount >= 0.2 RETURN count(r) AS n`, expect: 'toFloat(r.discount) >= 0.2' },
  { cypher: `MATCH (p:${L('Person')})-[r:ACTED_IN]->(m) WHERE r.roles = 'Neo' RETURN m.title`, expect: "'Neo' IN r.roles" },
];

const CORRECT: Array<{ cypher: string; params?: Record<string, unknown> }> = [
  { cypher: `MATCH (c:${L('Customer')} {country: 'UK'}) RETURN c.companyName AS name ORDER BY name` },
  { cypher: `MATCH (c:${L('Customer')}) WHERE c.country = 'USA' RETURN count(c) AS n` },
  { cypher: `MATCH (p:${L('Person')} {name: 'Tom Hanks'})-[:ACTED_IN]->(m) RETURN m.title AS t ORDER BY t` },
  { cypher: `MATCH (p:${L('Person')}) WHERE toLower(p.name) = 'keanu reeves' RETURN p.born` },
  { cypher: `MATCH (c:${L('Category')} {categoryName: 'Beverages'})<-[:PART_OF]-(p) RETURN count(p) AS n` },
  { cypher: `MATCH (m:${L('Movie')}) WHERE m.title = $title RETURN m.released`, params: { title: 'The Matrix' } },
  { cypher: `MATCH (m:${L('Movie')} {released: 1999}) RETURN count(m) AS n` },
  { cypher: `MATCH (m:${L('Movie')}) WHERE m.released > 2020 RETURN count(m) AS n` },
  { cypher: `MATCH (o:${L('Order')}) WHERE toFloat(o.freight) > 100 RETURN count(o) AS n` },
  { cypher: `MATCH (o:${L('Order')}) WHERE o.orderDate >= '1998-01-01' RETURN count(o) AS n` },
  { cypher: `MATCH (o:${L('Order')})-[r:ORDERS]->(p) WHERE toFloat(r.discount) >= 0.2 RETURN count(r) AS n` },
  { cypher: `MATCH (p:${L('Person')})-[r:ACTED_IN]->(m) WHERE 'Neo' IN r.roles RETURN m.title AS t ORDER BY t` },
  { cypher: `MATCH (p:${L('Product')}) WHERE p.unitPrice > 50 RETURN p.productName AS n ORDER BY n` },
  { cypher: `MATCH (s:${L('Supplier')} {country: 'Japan'}) RETURN s.companyName AS n ORDER BY n` },
  { cypher: `MATCH (e:${L('Employee')}) WHERE e.title = 'Vice President, Sales' RETURN e.lastName` },
  {
    cypher: `MATCH (c:${L('Customer')} {country: 'Germany'})-[:PURCHASED]->(o:${L('Order')} {shipCountry: 'France'}) RETURN count(o) AS n`,
  },
  { cypher: `MATCH (p:${L('Person')}) WHERE p.name STARTS WITH 'Tom' RETURN count(p) AS n` },
  {
    cypher: `MATCH (p:${L('Product')})-[:PART_OF]->(c:${L('Category')}) WHERE c.categoryName IN ['Seafood', 'Produce'] RETURN count(p) AS n`,
  },
];

/**
 * Schema elements typical questions need (who acted in, reviews' ratings, orders by country and
 * date, freight, discounts, stock, reporting lines): `Label.prop`, `TYPE.prop`, `:TYPE`, and
 * `Label.prop~` where the view must also say the strings hold numbers or dates.
 */
const NEEDED = [
  'Movie.title',
  'Movie.released',
  'Movie.tagline',
  'Person.name',
  'Person.born',
  ':ACTED_IN',
  'ACTED_IN.roles',
  ':DIRECTED',
  ':PRODUCED',
  ':WROTE',
  ':REVIEWED',
  'REVIEWED.rating',
  'REVIEWED.summary',
  ':FOLLOWS',
  'Product.productName',
  'Product.unitPrice',
  'Product.unitsInStock',
  'Product.discontinued',
  'Product.reorderLevel',
  'Category.categoryName',
  'Category.description',
  'Supplier.companyName',
  'Supplier.country',
  'Customer.companyName',
  'Customer.country',
  'Customer.city',
  'Customer.contactName',
  'Order.orderDate~',
  'Order.freight~',
  'Order.shipCountry',
  'Order.shippedDate~',
  'Order.shipCity',
  'Employee.firstName',
  'Employee.lastName',
  'Employee.title',
  'Employee.hireDate~',
  ':ORDERS',
  'ORDERS.quantity',
  'ORDERS.unitPrice~',
  'ORDERS.discount~',
  ':PART_OF',
  ':SUPPLIES',
  ':PURCHASED',
  ':SOLD',
  ':REPORTS_TO',
];

/** Whether the first view `text` shows `element` (see {@link NEEDED}). */
function shows(text: string, element: string): boolean {
  const lines = text.split('\n');
  if (element.startsWith(':')) return text.includes(`[:${element.slice(1)}`);
  const kind = element.endsWith('~');
  const [owner, prop] = element.replace('~', '').split('.') as [string, string];
  const isType = owner === owner.toUpperCase();
  const line = lines.find((l) => (isType ? l.includes(`[:${owner} {`) : l.startsWith(`- :${L(owner)} (`)));
  if (!line) return false;
  const at = line.search(new RegExp(`(\\{|, )${prop}: `));
  if (at < 0) return false;
  return !kind || /^(\{|, )\w+: STRING of (numbers|integers|dates)/.test(line.slice(at));
}

/** The seed's label line: at most 6 properties filled on a fifth of the sample, by fill then name; no relationship properties. */
function seedView(data: SkeletonData): string {
  const lines = data.labels.map((l) => {
    const main = (data.properties.get(l.label) ?? [])
      .filter((p: PropertyInfo) => p.fill >= 0.2 && !p.types.some((t) => t.startsWith('VECTOR')))
      .slice(0, 6);
    return `- :${l.label} (${l.count}) {${main.map((p) => `${p.name}: ${p.types.join('|')}`).join(', ')}}`;
  });
  return [...lines, ...data.patterns.map((p) => `- (:${p.from})-[:${p.type}]->(:${p.to})`)].join('\n');
}

const told = (notices: QueryNotice[] | undefined, expect: string) =>
  (notices ?? []).some(
    (n) => n.kind.startsWith('value-') && n.explainsEmpty && (n.message.includes(expect) || n.suggestions?.some((s) => s.includes(expect))),
  );

/** Figures of the value bench. */
export interface ValueBenchFigures {
  /** Nodes and relationships of the loaded copy (published: 1,218 and 4,230). */
  loaded: { nodes: number; relationships: number };
  misses: number;
  missesEmpty: number;
  missesTold: number;
  correct: number;
  correctSameRows: number;
  correctWithValueNotice: number;
  refused: number;
  viewChars: number;
  viewBudget: number;
  needed: number;
  shownNow: number;
  shownSeed: number;
  p50NoticeMs: number;
  lines: string[];
}

/** Loads the published graphs (suffixed `_vb38`), measures, and removes them. */
export async function runValueBench(graph: GraphStore, database: string, limits: ReadQueryLimits): Promise<ValueBenchFigures> {
  const { records } = await graph.driver.executeQuery(`MATCH (n:${L('Order')}) RETURN count(n) AS n`, {}, { database });
  if (Number(records[0]?.get('n') ?? 0) === 0) await loadPublishedGraph(graph.driver, database, { suffix: SUFFIX });
  const ours = new Set(publishedLabels({ suffix: SUFFIX }));
  const size = await graph.driver.executeQuery(
    `MATCH (n) WHERE any(l IN labels(n) WHERE l ENDS WITH $suffix) OPTIONAL MATCH (n)-[r]->() RETURN count(DISTINCT n) AS nodes, count(r) AS rels`,
    { suffix: SUFFIX },
    { database },
  );
  const loaded = { nodes: Number(size.records[0]?.get('nodes')), relationships: Number(size.records[0]?.get('rels')) };
  const skeleton = createSkeletonCache({ graph, skeleton: { labelFilter: (l) => ours.has(l) } });
  await skeleton.refresh(database);
  const lines: string[] = [];
  let missesEmpty = 0;
  let missesTold = 0;
  let refused = 0;
  const times: number[] = [];
  for (const m of MISSES) {
    const t = performance.now();
    const r = await runReadQuery(graph, database, m.cypher, m.params ?? {}, limits, { schema: skeleton }).catch(() => null);
    times.push(performance.now() - t);
    if (!r) {
      refused++;
      continue;
    }
    const empty = r.rows.every((row) => Object.values(row).every((v) => v === 0 || v === null));
    if (empty) missesEmpty++;
    const ok = told(r.notices, m.expect);
    if (ok) missesTold++;
    lines.push(`${ok ? 'told  ' : 'MISSED'} ${m.cypher}\n       ${(r.notices ?? []).map((x) => x.message).join(' | ') || '(no notice)'}`);
  }
  let same = 0;
  let withNotice = 0;
  for (const c of CORRECT) {
    const checked = await runReadQuery(graph, database, c.cypher, c.params ?? {}, limits, { schema: skeleton }).catch(() => null);
    const plain = await runReadQuery(graph, database, c.cypher, c.params ?? {}, limits, { values: false }).catch(() => null);
    if (!checked || !plain) {
      refused++;
      continue;
    }
    if (JSON.stringify(checked.rows) === JSON.stringify(plain.rows)) same++;
    const notices = (checked.notices ?? []).filter((x) => x.kind.startsWith('value-'));
    if (notices.length) {
      withNotice++;
      lines.push(`FALSE  ${c.cypher}\n       ${notices.map((x) => x.message).join(' | ')}`);
    }
  }
  const data = await computeSkeleton(graph, database, { labelFilter: (l) => ours.has(l) });
  // The copy goes (it loads in seconds): other suites' checks read the shared database's labels.
  for (const label of ours) await graph.driver.executeQuery(`MATCH (n:${label}) DETACH DELETE n`, {}, { database });
  const view = formatSkeleton(data);
  const seed = seedView(data);
  times.sort((a, b) => a - b);
  const missing = NEEDED.filter((e) => !shows(view, e));
  if (process.env.BENCH_SHOW_VIEW) lines.push(view);
  if (missing.length) lines.push(`first view lacks: ${missing.join(', ')}`);
  return {
    loaded,
    misses: MISSES.length,
    missesEmpty,
    missesTold,
    correct: CORRECT.length,
    correctSameRows: same,
    correctWithValueNotice: withNotice,
    refused,
    viewChars: view.length,
    viewBudget: DEFAULT_SKELETON_CHARS,
    needed: NEEDED.length,
    shownNow: NEEDED.length - missing.length,
    shownSeed: NEEDED.filter((e) => shows(seed, e)).length,
    p50NoticeMs: times[Math.floor(times.length / 2)] ?? 0,
    lines,
  };
}
