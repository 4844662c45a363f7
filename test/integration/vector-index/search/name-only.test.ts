/**
 * Discovered name-only nodes beside nodes with text (issue 37, "Discovery beside text" in
 * docs/benchmarks.md): a node that is a name alone is one short chunk (`Cholesterol
 * (Metabolite)`), and BM25 divides by a chunk's length, so one word of the query in it used to
 * outscore a text that holds every word. Full-text hits are now weighed by the share of the
 * query's words they hold: the text that answers the question comes first, and a name is still
 * found by itself. Real Neo4j and Redis, the generated tiny potion model.
 */
import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkLabel, fulltextIndexName, namesIndexName, quoteName } from '../../../../src/graph/dialect/names.js';
import { toList } from '../../../../src/graph/access/index-writer.js';
import { cacheDir } from '../../../../src/vector-index/build/csv-cache.js';
import { buildVectorIndex } from '../../../../src/vector-index/build/build.js';
import { syncIndexNodes } from '../../../../src/vector-index/sync/node-sync.js';
import { readIndexMeta, writeIndexMeta } from '../../../../src/vector-index/index/record.js';
import { dropSearchIndex } from '../../../../src/graph/access/index-writer.js';
import { createTestApp } from '../../helpers/deps.js';

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
  await dropSearchIndex(driver, 'neo4j', `${index}_text`);
  await deps.close();
});

const q = async (cypher: string, params: Record<string, unknown> = {}) =>
  (await driver.executeQuery(cypher, params, { database: 'neo4j' })).records.map((r) => r.toObject());
const chunks = () =>
  q(
    `MATCH (c:${quoteName(chunkLabel(index))}) RETURN c.chunkText AS text, c.nameText AS name, c.batch AS batch ORDER BY coalesce(text, name)`,
  );
const fulltextFields = async (name: string) =>
  (await q('SHOW FULLTEXT INDEXES YIELD name, properties WHERE name = $name RETURN properties', { name }))[0]?.properties;
/** The full-text index's own scores (BM25, before any weighing) of `query`'s hits, by chunk text. */
const bm25 = async (ftIndex: string, query: string) =>
  new Map(
    (
      await q(
        'CALL db.index.fulltext.queryNodes($ftIndex, $query) YIELD node, score RETURN coalesce(node.chunkText, node.nameText) AS t, score',
        {
          ftIndex,
          query,
        },
      )
    ).map((r) => [r.t as string, r.score as number]),
  );

describe('name-only nodes beside text', () => {
  it('a title finds its pathway first, not a name-only node holding one of its words', async () => {
    for (const mode of ['fulltext', 'hybrid', 'vector']) {
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
    // Not vector mode: the generated test model knows no meaning, and the label's random suffix is part of the name chunk's text.
    for (const mode of ['fulltext', 'hybrid']) {
      for (const name of ['Squalene', 'Pyruvate', 'Urea']) {
        const hits = await search(name, mode);
        expect(hits[0]).toMatchObject({ displayName: name, labels: [METABOLITE] });
      }
    }
  });
});

describe('names in a field and a vector index of their own', () => {
  it('stores a name alone in nameText and a text in chunkText, both in the full-text index', async () => {
    const all = await chunks();
    expect(all.filter((c) => c.name !== null).map((c) => c.name)).toEqual(METABOLITES.map((m) => `${m} (${METABOLITE})`).sort());
    expect(all.filter((c) => c.name !== null).every((c) => c.text === null)).toBe(true);
    const texts = all.filter((c) => c.text !== null);
    expect(texts).toHaveLength(PATHWAYS.length);
    expect(texts.every((c) => (c.text as string).includes('\n') && c.name === null)).toBe(true);
    expect(await fulltextFields(fulltextIndexName(index))).toEqual(['chunkText', 'nameText']);
  });

  it("keeps a name's vector in the names' vector index: each index gives its own k nearest, and search asks both", async () => {
    const label = quoteName(chunkLabel(index));
    const layout = () =>
      q(
        `MATCH (c:${label}) RETURN c.nameText IS NOT NULL AS name, c.embedding IS NOT NULL AS text, c.nameEmbedding IS NOT NULL AS nameVector`,
      );
    const apart = (rows: Record<string, unknown>[]) => rows.every((c) => c.name === c.nameVector && c.name !== c.text);
    expect(apart(await layout())).toBe(true);
    // A query nearest the names: the texts' index still gives k texts (in one index the names took their places, issue 37).
    const [vector] = await (await deps.embedders.get(MODEL)).embed([METABOLITES.map((m) => `${m} (${METABOLITE})`).join(' ')]);
    const nearest = async (name: string) =>
      (
        await q('CALL db.index.vector.queryNodes($name, 3, $vector) YIELD node RETURN node.nameText IS NOT NULL AS name', {
          name,
          vector: toList(vector!),
        })
      ).map((r) => r.name);
    expect(await nearest(index)).toEqual([false, false, false]);
    expect(await nearest(namesIndexName(index))).toEqual([true, true, true]);
    // Vector search finds a name by its own vector (its chunk's text: the generated model knows no meaning).
    expect((await search(`Squalene (${METABOLITE})`, 'vector'))[0]).toMatchObject({ displayName: 'Squalene', labels: [METABOLITE] });
    // The sync writes a new name's vector where the build did.
    const sync = () => syncIndexNodes(deps, { graph: 'neo4j', model: MODEL, indexName: index });
    await q(`CREATE (:${quoteName(METABOLITE)} {displayName: 'Lanosterol'})`);
    expect(await sync()).toMatchObject({ nodesChanged: 1, chunksEmbedded: 1 });
    expect(apart(await layout())).toBe(true);
    expect((await search(`Lanosterol (${METABOLITE})`, 'vector'))[0]).toMatchObject({ displayName: 'Lanosterol' });
    await q(`MATCH (n:${quoteName(METABOLITE)} {displayName: 'Lanosterol'}) DELETE n`);
    expect(await sync()).toMatchObject({ nodesDeleted: 1, chunksDeleted: 1 });
  });

  it("leaves the texts' BM25 statistics as they are without the names", async () => {
    // The same pathways alone, in an index of their own: each text's score is the same to the last digit.
    await buildVectorIndex(deps, { graph: 'neo4j', model: MODEL, indexName: `${index}_text`, choice: { labels: [PATHWAY] } });
    for (const query of ['cholesterol pathway', 'urea liver enzymes', 'glucose']) {
      const alone = await bm25(fulltextIndexName(`${index}_text`), query);
      const beside = await bm25(fulltextIndexName(index), query);
      expect(alone.size).toBeGreaterThan(0);
      for (const [text, score] of alone) expect(beside.get(text)).toBeCloseTo(score, 6);
    }
    // The names are there too, scored in their field.
    expect([...(await bm25(fulltextIndexName(index), 'glucose')).keys()]).toContain(`Glucose (${METABOLITE})`);
  }, 120_000);

  it('a build moves an index written before (names in chunkText, full-text on chunkText alone) to the new layout from the cache', async () => {
    // The layout before: a name's header in chunkText, batches keyed by their text alone (the cache file's name), one field.
    const [textKey, ...rest] = (await readdir(cacheDir(deps.config.DATA_DIR, index))).map((f) => f.replace(/\.csv$/, ''));
    expect(rest).toEqual([]);
    const label = quoteName(chunkLabel(index));
    await q(`MATCH (c:${label}) SET c.batch = $textKey, c.chunkText = coalesce(c.chunkText, c.nameText) REMOVE c.nameText`, { textKey });
    // Every vector in the one vector index, and a record that says so (written as version 1 wrote it: no `version`).
    await q(`MATCH (c:${label}) WHERE c.nameEmbedding IS NOT NULL SET c.embedding = c.nameEmbedding REMOVE c.nameEmbedding`);
    await q(`DROP INDEX ${quoteName(namesIndexName(index))}`);
    const meta = (await readIndexMeta(driver, 'neo4j', index))!;
    const { version: _, ...before } = meta.settings;
    await writeIndexMeta(driver, 'neo4j', index, meta.plan, before as typeof meta.settings);
    const ft = quoteName(fulltextIndexName(index));
    await q(`DROP INDEX ${ft}`);
    await q(`CREATE FULLTEXT INDEX ${ft} FOR (c:${label}) ON EACH [c.chunkText]`);
    await q('CALL db.awaitIndex($name, 60)', { name: fulltextIndexName(index) });

    // The sync under that older full-text index writes a new name where the index reads it (chunkText), then removes it.
    const sync = () => syncIndexNodes(deps, { graph: 'neo4j', model: MODEL, indexName: index });
    await q(`CREATE (:${quoteName(METABOLITE)} {displayName: 'Lanosterol'})`);
    expect(await sync()).toMatchObject({ nodesChanged: 1, chunksEmbedded: 1 });
    expect((await chunks()).find((c) => (c.text ?? c.name) === `Lanosterol (${METABOLITE})`)).toMatchObject({ name: null });
    expect((await search('Lanosterol', 'fulltext'))[0]).toMatchObject({ displayName: 'Lanosterol' });
    // ... and its vector in the one vector index, which search asks alone until a build.
    expect((await search(`Lanosterol (${METABOLITE})`, 'vector'))[0]).toMatchObject({ displayName: 'Lanosterol' });
    expect((await search(`Squalene (${METABOLITE})`, 'vector'))[0]).toMatchObject({ displayName: 'Squalene' });
    await q(`MATCH (n:${quoteName(METABOLITE)} {displayName: 'Lanosterol'}) DELETE n`);
    expect(await sync()).toMatchObject({ nodesDeleted: 1, chunksDeleted: 1 });

    const res = await app.request('/dev/build_vector_index', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ graph_name: 'neo4j', model: MODEL }),
    });
    expect(res.status).toBe(200);
    // Nothing embedded again: the vectors come from the cache; the batch is rewritten under its new key.
    expect(await res.json()).toMatchObject({ batches_computed: 0, batches_skipped: 1, total_chunks: PATHWAYS.length + METABOLITES.length });
    const all = await chunks();
    expect(all).toHaveLength(PATHWAYS.length + METABOLITES.length);
    expect(all.filter((c) => c.name !== null)).toHaveLength(METABOLITES.length);
    expect(all.every((c) => c.batch !== textKey)).toBe(true);
    expect(await fulltextFields(fulltextIndexName(index))).toEqual(['chunkText', 'nameText']);
    // Names' vectors moved to the names' index (created by the build), from the cache.
    const moved = await q(
      `MATCH (c:${label}) WHERE c.nameText IS NOT NULL RETURN c.embedding IS NULL AND c.nameEmbedding IS NOT NULL AS apart`,
    );
    expect(moved.map((r) => r.apart)).toEqual(METABOLITES.map(() => true));
    expect((await search(`Squalene (${METABOLITE})`, 'vector'))[0]).toMatchObject({ displayName: 'Squalene' });
    // Created after the rewrite, the index counts no deleted name in the texts' statistics.
    for (const query of ['cholesterol pathway', 'urea liver enzymes']) {
      const alone = await bm25(fulltextIndexName(`${index}_text`), query);
      const beside = await bm25(fulltextIndexName(index), query);
      for (const [text, score] of alone) expect(beside.get(text)).toBeCloseTo(score, 6);
    }
    for (const mode of ['fulltext', 'hybrid']) {
      expect((await search('Squalene', mode))[0]).toMatchObject({ displayName: 'Squalene', labels: [METABOLITE] });
      expect((await search('Cholesterol biosynthesis pathway', mode))[0]?.displayName).toBe('Cholesterol biosynthesis pathway');
    }
  }, 120_000);
});
