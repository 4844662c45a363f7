/**
 * Discovered name-only nodes beside nodes with text (issue 37, "Discovery beside text" in
 * docs/benchmarks.md): a node that is a name alone is one short chunk (`Cholesterol
 * (Metabolite)`), and BM25 divides by a chunk's length, so one word of the query in it used to
 * outscore a text that holds every word. Full-text hits are now weighed by the share of the
 * query's words they hold: the text that answers the question comes first, and a name is still
 * found by itself. Real Neo4j and Redis, the generated tiny potion model.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSearchIndex } from '../../src/vector-index/index-writer.js';
import { createTestApp } from '../helpers/deps.js';

const MODEL = 'minishlab/potion-base-32M';
const tag = Math.random().toString(36).slice(2, 8);
const PATHWAY = `Pathway_n${tag}`;
const METABOLITE = `Metabolite_n${tag}`;
const index = `test_nameonly_${tag}`;
const { app, deps } = createTestApp({
  INDEX_DISCOVER: 'true',
  INDEX_LABELS: `${PATHWAY},${METABOLITE}`,
  VECTOR_INDEX_NAME: index,
  EMBEDDING_MODEL: MODEL,
});
const driver = deps.graph.driver;

const PATHWAYS = [
  {
    name: 'Cholesterol biosynthesis pathway',
    text:
      'Cholesterol biosynthesis starts from acetyl-CoA and proceeds through mevalonate, squalene and lanosterol. ' +
      'The rate-limiting enzyme is HMG-CoA reductase, the target of statins. Cells regulate the synthesis through ' +
      'SREBP2, which senses the sterol level of the endoplasmic reticulum membrane and controls the transcription of ' +
      'the enzymes of the route, so that uptake from lipoproteins and synthesis inside the cell stay in balance.',
  },
  {
    name: 'Glycolysis and gluconeogenesis',
    text:
      'Glycolysis breaks glucose down to pyruvate and yields ATP and NADH; gluconeogenesis builds glucose from ' +
      'lactate, glycerol and amino acids in the liver and the kidney when the body fasts. Both routes share most ' +
      'of their enzymes and differ in three irreversible steps, which are regulated by insulin and glucagon.',
  },
  {
    name: 'Urea cycle',
    text:
      'The urea cycle turns the ammonia of amino acid breakdown into urea in the liver, through citrulline, ' +
      'argininosuccinate, arginine and ornithine; a defect in one of its enzymes leads to hyperammonemia.',
  },
];
const METABOLITES = [
  'Cholesterol',
  'Glucose',
  'Pyruvate',
  'Urea',
  'Ammonia',
  'Squalene',
  'Lactate',
  'Arginine',
  'Citrulline',
  'Mevalonate',
];

const search = async (query: string, mode: string) => {
  const res = await app.request('/vector/search', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ graph_name: 'neo4j', model: MODEL, query, top_k: 5, mode }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { displayName: string; labels: string[] }[];
};

const removeAll = () =>
  driver.executeQuery(`MATCH (n) WHERE n:\`${PATHWAY}\` OR n:\`${METABOLITE}\` DETACH DELETE n`, {}, { database: 'neo4j' });

beforeAll(async () => {
  await removeAll();
  await driver.executeQuery(
    `UNWIND $pathways AS p CREATE (:\`${PATHWAY}\` {displayName: p.name, text: p.text})
     WITH count(*) AS done UNWIND $metabolites AS m CREATE (:\`${METABOLITE}\` {displayName: m})`,
    { pathways: PATHWAYS, metabolites: METABOLITES },
    { database: 'neo4j' },
  );
  const res = await app.request('/dev/build_vector_index', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ graph_name: 'neo4j', model: MODEL }),
  });
  expect(res.status).toBe(200);
}, 180_000);
afterAll(async () => {
  await removeAll();
  await dropSearchIndex(driver, 'neo4j', index);
  await deps.close();
});

describe('name-only nodes beside text', () => {
  it('a title finds its pathway first, not a name-only node holding one of its words', async () => {
    for (const mode of ['fulltext', 'hybrid']) {
      expect((await search('Cholesterol biosynthesis pathway', mode))[0]?.displayName).toBe('Cholesterol biosynthesis pathway');
      expect((await search('Glycolysis and gluconeogenesis', mode))[0]?.displayName).toBe('Glycolysis and gluconeogenesis');
    }
  });

  it('a sentence naming metabolites finds the text it comes from first', async () => {
    for (const mode of ['fulltext', 'hybrid']) {
      const hits = await search('how the liver turns ammonia into urea through citrulline and arginine', mode);
      expect(hits[0]?.displayName).toBe('Urea cycle');
      const sterol = await search('squalene and mevalonate on the way from acetyl-CoA, regulated by SREBP2', mode);
      expect(sterol[0]?.displayName).toBe('Cholesterol biosynthesis pathway');
    }
  });

  it('a name alone still finds its node first', async () => {
    for (const mode of ['fulltext', 'hybrid']) {
      for (const name of ['Squalene', 'Pyruvate', 'Urea']) {
        const hits = await search(name, mode);
        expect(hits[0]).toMatchObject({ displayName: name, labels: [METABOLITE] });
      }
    }
  });
});
