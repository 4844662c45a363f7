/**
 * A lookup answer carries its nodes' own values and, where the neighbour list is cut, their
 * relationships counted by type (issue 49), in the Markdown and in the sources' optional
 * fields, on the public movies graph as published (test/integration/helpers/published-graph.ts).
 * Through the whole chat job (router scripted, real search over an index of the suite's own
 * labels, the generated tiny model); then the facts read alone: a hub's counts from the count
 * store, and a node identified by its `dbId` property.
 */
import { rm } from 'node:fs/promises';
import neo4j from 'neo4j-driver';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SourceNode } from '../../../src/contract/search.js';
import { dropSearchIndex } from '../../../src/graph/access/index-writer.js';
import { quoteName } from '../../../src/graph/dialect/names.js';
import { createNodeFacts } from '../../../src/graph/shape/node-facts.js';
import { computeSkeleton } from '../../../src/graph/shape/skeleton.js';
import { buildVectorIndex } from '../../../src/vector-index/build/build.js';
import { routerReply } from '../../helpers/llm-server.js';
import { startHarness, type Harness } from '../helpers/chat-harness.js';
import { loadPublishedGraph, removePublishedGraph } from '../helpers/published-graph.js';

const MODEL = 'minishlab/potion-base-32M';
const tag = Math.random().toString(36).slice(2, 8);
const suffix = `_lf${tag}`;
const L = (label: string) => `${label}${suffix}`;
const index = `test_lookup_facts_${tag}`;
const dataDir = `test-output/lookup-facts-${tag}`;
let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    realSearch: true,
    env: {
      INDEX_DISCOVER: 'true',
      INDEX_LABELS: [L('Movie'), L('Person')].join(','),
      VECTOR_INDEX_NAME: index,
      EMBEDDING_MODEL: MODEL,
      DATA_DIR: dataDir,
      SEARCH_NEIGHBORS: '3',
      VECTOR_SEARCH_TOP_K: '3',
    },
  });
  await loadPublishedGraph(h.deps.graph.driver, 'neo4j', { suffix });
  await buildVectorIndex(h.deps, { graph: 'neo4j', model: MODEL });
}, 180_000);
afterAll(async () => {
  await removePublishedGraph(h.deps.graph.driver, 'neo4j', { suffix });
  await h.deps.graph.driver.executeQuery(`MATCH (n:${quoteName(L('Thing'))}) DELETE n`, {}, { database: 'neo4j' });
  await dropSearchIndex(h.deps.graph.driver, 'neo4j', index);
  await h.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The Markdown section of the node named `name` in a lookup answer. */
const sectionOf = (answer: string, name: string) => answer.split(/^(?=### )/m).find((s) => s.startsWith(`### ${name}\n`)) ?? '';

/** The Matrix's relationships in the published graph: 5 actors, 2 directors, 1 producer. */
const MATRIX_COUNTS = [
  { type: 'ACTED_IN', direction: 'in', count: 5, labels: [L('Person')] },
  { type: 'DIRECTED', direction: 'in', count: 2, labels: [L('Person')] },
  { type: 'PRODUCED', direction: 'in', count: 1, labels: [L('Person')] },
];

it("answers with a film's release year and, its neighbours cut at 3, its relationships counted by type", async () => {
  h.llm.script(routerReply('lookup', 0.95));
  const job = await h.waitJob((await h.submit('When was The Matrix released?')).job_id);
  expect(job.status).toBe('done');
  const sources = job.result.sources as SourceNode[];
  const matrix = sources.find((s) => s.displayName === 'The Matrix');
  expect(matrix, JSON.stringify(sources.map((s) => s.displayName))).toBeDefined();
  expect(matrix!.neighbors).toHaveLength(3);
  expect(matrix!.degree).toBe(8);
  // The title names the node and the tagline is its text: only the year is a fact of its own.
  expect(matrix!.facts).toEqual([{ key: 'released', value: 1999 }]);
  expect(matrix!.relationshipCounts).toEqual(MATRIX_COUNTS);
  const section = sectionOf(job.result.answer, 'The Matrix');
  expect(section).toContain('- **Facts:** released: 1999\n');
  const person = L('Person').replace(/_/g, '\\_');
  expect(section).toContain(`- **Relationships by type:** ACTED_IN ← 5 ${person}; DIRECTED ← 2 ${person}; PRODUCED ← 1 ${person}\n`);
});

it("counts a hub's relationships in the count store, whatever the scan saw, and reads a node by its dbId property", async () => {
  const { driver } = h.deps.graph;
  const [row] = (
    await driver.executeQuery(`MATCH (m:${quoteName(L('Movie'))} {title: 'The Matrix'}) RETURN id(m) AS id`, {}, { database: 'neo4j' })
  ).records;
  const matrix: SourceNode = { dbId: Number(row!.get('id')), displayName: 'The Matrix', text: '', score: 1, labels: [L('Movie')] };
  // A scan of 2 relationships sees one type or two; the schema names the others, and the count store counts each.
  const schema = await computeSkeleton(h.deps.graph, 'neo4j', { labelFilter: (l) => l.endsWith(suffix) });
  const [hub] = await createNodeFacts({ graph: h.deps.graph, scan: 2, schema: async () => schema })('neo4j', [matrix]);
  expect(hub!.relationshipCounts!.map(({ type, direction, count }) => ({ type, direction, count }))).toEqual(
    MATRIX_COUNTS.map(({ type, direction, count }) => ({ type, direction, count })),
  );
  expect(hub!.facts).toContainEqual({ key: 'released', value: 1999 });

  await driver.executeQuery(`CREATE (:${quoteName(L('Thing'))} {dbId: 987654321, year: 2001, code: 'X-1'})`, {}, { database: 'neo4j' });
  const thing: SourceNode = { dbId: 987_654_321, displayName: 'Thing', text: '', score: 1, labels: [L('Thing')] };
  const other: SourceNode = { ...thing, labels: ['NotThere'] };
  const [found, stale] = await createNodeFacts({ graph: h.deps.graph })('neo4j', [thing, other]);
  expect(found).toEqual({ ...thing, facts: [{ key: 'year', value: 2001 }] });
  // A node that now has other labels than the search saw is left as the search returned it.
  expect(stale).toEqual(other);
  expect(neo4j.isInt(found!.facts![0]!.value)).toBe(false);
});
