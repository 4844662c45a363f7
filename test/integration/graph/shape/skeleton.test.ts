/**
 * The graph skeleton and schema introspection against the real Neo4j: the whole shared
 * database (whatever other suites loaded, e.g. the sample graph) stays under the bound, a
 * generated 200-label graph stays under it too, index data never shows, and a database that
 * is down leaves the agent without a skeleton instead of hanging.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGraphStore } from '../../../../src/graph/access/driver.js';
import { graphCounts, labelProperties, typePatterns } from '../../../../src/graph/shape/schema.js';
import { createSkeletonCache } from '../../../../src/graph/shape/skeleton-cache.js';
import { computeSkeleton, DEFAULT_SKELETON_CHARS, formatSkeleton } from '../../../../src/graph/shape/skeleton.js';
import { createTestDeps, type TestDeps } from '../../helpers/deps.js';

const tag = randomUUID().slice(0, 8).replace(/-/g, '');
const P = `Sk${tag}_`;
const CHUNK = `__Chunk_sk${tag}`;
const LABELS = 200;
let deps: TestDeps;

const db = (cypher: string, params: Record<string, unknown> = {}) => deps.graph.driver.executeQuery(cypher, params, { database: 'neo4j' });

beforeAll(async () => {
  deps = createTestDeps();
  // 200 labels with 1..5 nodes each, a chain of LINK relationships and a second type, plus index data.
  const rows = Array.from({ length: LABELS }, (_, i) => ({ label: `${P}Label${String(i).padStart(3, '0')}`, n: (i % 5) + 1 }));
  // The chain is one generated CREATE with literal labels (a MATCH on dynamic labels would scan).
  const firsts = rows.map((r, i) => `(n${i}:${r.label} {name: '${r.label}#1', k: 1, score: 0.5})`);
  const links = rows.slice(1).map((_, i) => `(n${i})-[:${P}LINK {w: ${i}}]->(n${i + 1})`);
  await db(`CREATE ${[...firsts, ...links, `(n0)-[:${P}OTHER]->(n1)`].join(',\n')}`);
  await db(
    `UNWIND $rows AS row
     CALL (row) { UNWIND range(2, row.n) AS k CREATE (x:$(row.label) {name: row.label + '#' + k, k: k, score: toFloat(k) / 2}) }`,
    { rows },
  );
  await db(`CREATE (:$($chunk) {nodeId: 'x', embedding: [x IN range(1, 100) | 0.1]})`, { chunk: CHUNK });
});
afterAll(async () => {
  await db(`MATCH (n) WHERE any(l IN labels(n) WHERE l STARTS WITH $prefix OR l = $chunk) DETACH DELETE n`, { prefix: P, chunk: CHUNK });
  await deps.close();
});

const ours = (label: string) => label.startsWith(P);

describe('schema introspection', () => {
  it('counts labels and types from the count store, without index data', async () => {
    const { labels, types } = await graphCounts(deps.graph, 'neo4j');
    expect(labels.filter((l) => ours(l.label))).toHaveLength(LABELS);
    expect(labels.find((l) => l.label === `${P}Label004`)?.count).toBe(5);
    expect(labels.some((l) => l.label === CHUNK || l.label.startsWith('__'))).toBe(false);
    expect(types.find((t) => t.type === `${P}LINK`)?.count).toBe(LABELS - 1);
  });

  it('reads label properties with types, fill and examples', async () => {
    const { sampled, properties } = await labelProperties(deps.graph, 'neo4j', `${P}Label002`);
    expect(sampled).toBe(3);
    expect(properties.map((p) => [p.name, p.types, p.fill])).toEqual([
      ['k', ['INTEGER'], 1],
      ['name', ['STRING'], 1],
      ['score', ['FLOAT'], 1],
    ]);
  });

  it('reads label-to-label patterns of a type with exact counts', async () => {
    const patterns = await typePatterns(deps.graph, 'neo4j', { type: `${P}OTHER`, count: 1 });
    expect(patterns).toEqual([{ from: `${P}Label000`, type: `${P}OTHER`, to: `${P}Label001`, count: 1, estimated: false }]);
    const sampled = await typePatterns(deps.graph, 'neo4j', { type: `${P}LINK`, count: LABELS - 1 }, { sample: 50 });
    expect(sampled.every((p) => p.estimated)).toBe(true);
    expect(sampled.reduce((n, p) => n + p.count, 0)).toBeCloseTo(LABELS - 1, -1);
  });
});

describe('skeleton', () => {
  it('keeps a generated 200-label graph under the size bound, largest labels first', async () => {
    const data = await computeSkeleton(deps.graph, 'neo4j', { labelFilter: ours });
    expect(data.labels).toHaveLength(LABELS);
    const text = formatSkeleton(data);
    expect(text.length).toBeLessThanOrEqual(DEFAULT_SKELETON_CHARS);
    expect(text.split('\n')[0]).toBe(`Graph "neo4j": ${LABELS} labels, ${LABELS} relationship patterns, ${LABELS} relationships.`);
    // The largest labels keep their properties (the name first), the others are named.
    expect(text).toMatch(new RegExp(`- :${P}Label004 \\(5\\) \\{name: STRING, k: INTEGER, score: FLOAT\\}`));
    expect(text).toMatch(/- … \d+ more labels \(\d+ nodes\): /);
    // A relationship type's properties are on its first pattern.
    expect(text).toMatch(new RegExp(`- \\(:${P}Label\\d+\\)-\\[:${P}LINK \\{w: INTEGER\\}\\]->\\(:${P}Label\\d+\\) 1\n`));
    expect(text).toMatch(new RegExp(`- \\(:${P}Label000\\)-\\[:${P}LINK( \\{w: INTEGER\\})?\\]->\\(:${P}Label001\\) 1\n`));
    expect(text).toMatch(new RegExp(`- … \\d+ more patterns of types: ${P}LINK, ${P}OTHER`));
    expect(text).not.toContain('__');
  }, 90_000); // it samples every relationship type of the shared database, and 40 labels: slow on a busy machine

  it('keeps the whole shared database (sample graph included) under the bound, without index data', async () => {
    const cache = createSkeletonCache({ graph: deps.graph });
    const text = await cache.refresh('neo4j');
    expect(text.length).toBeLessThanOrEqual(DEFAULT_SKELETON_CHARS);
    expect(text).toMatch(/^Graph "neo4j": \d+ labels/);
    expect(text).not.toContain(CHUNK);
    expect(cache.peek('neo4j')).toBe(text);
    expect(await cache.current('neo4j')).toBe(text);
  });

  it('gives no skeleton, quickly, when the database is down', async () => {
    const dead = createGraphStore({
      GRAPHDB_URL: '127.0.0.1',
      GRAPHDB_PORT: 1,
      GRAPHDB_GRAPH: 'neo4j',
      GRAPHDB_USER: '',
      GRAPHDB_PASSWORD: '',
    });
    try {
      const cache = createSkeletonCache({ graph: dead });
      const started = Date.now();
      expect(await cache.current('neo4j', 1_000)).toBeNull();
      expect(Date.now() - started).toBeLessThan(2_500);
      await expect(cache.refresh('neo4j')).rejects.toThrow();
    } finally {
      await dead.close();
    }
  });
});
