/**
 * Graphs whose descriptions are written in Chinese, Japanese and Thai (prose that runs on without
 * spaces between words): discovery plans them as text, not as encoded data, the build indexes
 * them, and a phrase from one node (none of its title) finds that node first in full-text and
 * hybrid search, with the multilingual model. Real Neo4j and Redis; the generated
 * potion-multilingual-128M has a piece for each character of the prose (its vectors are random,
 * so the vector half only adds the characters a phrase shares with each text).
 *
 * Thai needs the `thai` analyzer: Lucene's standard one keeps a run of Thai between spaces as
 * one word (a phrase inside it matches nothing), and the `thai` one keeps a run of Han
 * characters as one word, so no one analyzer serves both (docs/configuration.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { dropSearchIndex } from '../../../../src/graph/access/index-writer.js';
import { createTestApp } from '../../helpers/deps.js';

const MODEL = 'minishlab/potion-multilingual-128M';
type Prose = { title: string; description: string };
const PROSE = JSON.parse(readFileSync('test/helpers/script-prose.json', 'utf8')) as { cjk: Prose[]; thai: Prose[] };
const tag = Math.random().toString(36).slice(2, 8);

/** One label of prose, its own index and app (the analyzer is the service's setting). */
function graphOf(name: string, nodes: Prose[], env: Record<string, string> = {}) {
  const label = `Pathway_${name}${tag}`;
  const index = `test_scripts_${name}${tag}`;
  const { app, deps } = createTestApp({
    INDEX_DISCOVER: 'true',
    INDEX_LABELS: label,
    VECTOR_INDEX_NAME: index,
    EMBEDDING_MODEL: MODEL,
    ...env,
  });
  const post = (path: string, body: unknown) =>
    app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const g = {
    label,
    nodes,
    post,
    plan: undefined as undefined | { label: string; text: string[]; skipped: { property: string }[] }[],
    async build() {
      await deps.graph.driver.executeQuery(
        `UNWIND $rows AS r CREATE (:${label} {title: r.title, description: r.description})`,
        { rows: nodes },
        { database: 'neo4j' },
      );
      const res = await post('/dev/build_vector_index', { graph_name: 'neo4j', model: MODEL });
      expect(res.status).toBe(200);
      g.plan = ((await res.json()) as { plan: { labels: NonNullable<typeof g.plan> } }).plan.labels;
    },
    async close() {
      await deps.graph.driver.executeQuery(`MATCH (n:${label}) DETACH DELETE n`, {}, { database: 'neo4j' });
      await dropSearchIndex(deps.graph.driver, 'neo4j', index);
      await deps.close();
    },
    async first(query: string, mode: 'fulltext' | 'hybrid') {
      const res = await post('/vector/search', { graph_name: 'neo4j', model: MODEL, query, mode, top_k: 3 });
      expect(res.status).toBe(200);
      return ((await res.json()) as { displayName: string }[])[0]?.displayName;
    },
  };
  return g;
}

const cjk = graphOf('cjk', PROSE.cjk);
const thai = graphOf('thai', PROSE.thai, { FULLTEXT_ANALYZER: 'thai' });

beforeAll(async () => {
  await cjk.build();
  await thai.build();
}, 120_000);
afterAll(async () => {
  await cjk.close();
  await thai.close();
});

describe('prose in scripts written without spaces between words', () => {
  it('is planned as text, not as encoded data, though its runs without a space are long', () => {
    for (const g of [cjk, thai]) {
      expect(g.nodes.every((p) => p.description.split(/\s+/).some((run) => run.length > 64))).toBe(true);
      const entry = g.plan!.find((l) => l.label === g.label)!;
      expect(entry.text).toEqual(['description']);
      expect(entry.skipped.find((s) => s.property === 'description')).toBeUndefined();
    }
  });

  it.each([
    [cjk, '叶绿体基质中固定二氧化碳', '光合作用'],
    [cjk, '血液中のアンモニアが増えて', '尿素回路'],
    [cjk, '细胞呼吸的第一个阶段', '糖酵解'],
    [thai, 'ไซโทพลาซึมของเซลล์', 'ไกลโคไลซิส'],
    [thai, 'คาร์บอนไดออกไซด์และน้ำ', 'การสังเคราะห์ด้วยแสง'],
    [thai, 'ขับยูเรียออกจากร่างกาย', 'วัฏจักรยูเรีย'],
  ])('finds its node first in full-text and hybrid mode: %#', async (g, phrase, title) => {
    expect(await g.first(phrase, 'fulltext'), phrase).toBe(title);
    expect(await g.first(phrase, 'hybrid'), phrase).toBe(title);
  });
});
