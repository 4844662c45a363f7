/**
 * A graph whose descriptions are written in Chinese and Japanese (prose that runs on without
 * spaces): discovery plans them as text, not as encoded data, the build indexes them, and a
 * phrase from one node finds that node first in full-text search. Real Neo4j and Redis, the
 * generated tiny model (its vectors say nothing about these scripts, so only the full-text half
 * is judged).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSearchIndex } from '../../../../src/graph/access/index-writer.js';
import { createTestApp } from '../../helpers/deps.js';

const MODEL = 'minishlab/potion-base-32M';
const tag = Math.random().toString(36).slice(2, 8);
const LABEL = `Pathway_s${tag}`;
const index = `test_scripts_${tag}`;
const { app, deps } = createTestApp({
  INDEX_DISCOVER: 'true',
  INDEX_LABELS: LABEL,
  VECTOR_INDEX_NAME: index,
  EMBEDDING_MODEL: MODEL,
});
const driver = deps.graph.driver;

const PATHWAYS = [
  {
    title: '糖酵解',
    description:
      '糖酵解是将葡萄糖分解为丙酮酸并释放能量的代谢途径，它发生在几乎所有活细胞的细胞质中，是细胞呼吸的第一个阶段，也为许多其他代谢途径提供原料。在缺氧的条件下，丙酮酸会被还原为乳酸，从而使糖酵解能够继续进行。',
  },
  {
    title: '光合作用',
    description:
      '光合作用是绿色植物利用叶绿体吸收光能，把二氧化碳和水合成有机物并放出氧气的过程，它为地球上几乎所有的生命提供了能量和食物的来源。光反应在类囊体膜上进行，暗反应则在叶绿体基质中固定二氧化碳。',
  },
  {
    title: 'クエン酸回路',
    description:
      'クエン酸回路はミトコンドリアの中で働き、アセチルＣｏＡを二酸化炭素にまで酸化して、その過程で得られた電子を呼吸鎖へ渡すことで多くのエネルギーを生み出している。この回路は糖や脂肪酸やアミノ酸の分解が合流する場所でもある。',
  },
  {
    title: '尿素回路',
    description:
      '尿素回路は肝臓で働く代謝経路であり、タンパク質の分解によって生じた有毒なアンモニアを尿素に変えて、腎臓から体の外へ安全に排出できるようにしている。この回路の酵素が欠けると、血液中のアンモニアが増えて重い症状を起こす。',
  },
];

const post = (path: string, body: unknown) =>
  app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

let built: { plan: { labels: { label: string; name: string[]; text: string[]; skipped: { property: string; reason: string }[] }[] } };

beforeAll(async () => {
  await driver.executeQuery(
    `UNWIND $rows AS r CREATE (:${LABEL} {title: r.title, description: r.description})`,
    { rows: PATHWAYS },
    { database: 'neo4j' },
  );
  const res = await post('/dev/build_vector_index', { graph_name: 'neo4j', model: MODEL });
  expect(res.status).toBe(200);
  built = await res.json();
}, 120_000);
afterAll(async () => {
  await driver.executeQuery(`MATCH (n:${LABEL}) DETACH DELETE n`, {}, { database: 'neo4j' });
  await dropSearchIndex(driver, 'neo4j', index);
  await deps.close();
});

describe('prose in scripts written without spaces', () => {
  it('is planned as text, not as encoded data', () => {
    expect(PATHWAYS.every((p) => p.description.length > 80 && !/\s/.test(p.description))).toBe(true);
    const entry = built.plan.labels.find((l) => l.label === LABEL)!;
    expect(entry.text).toEqual(['description']);
    expect(entry.skipped.find((s) => s.property === 'description')).toBeUndefined();
  });

  it('is found by a phrase of one node (none of its title), that node first', async () => {
    for (const [phrase, title] of [
      ['叶绿体基质中固定二氧化碳', '光合作用'],
      ['血液中のアンモニアが増えて', '尿素回路'],
    ] as const) {
      const res = await post('/vector/search', { graph_name: 'neo4j', model: MODEL, query: phrase, mode: 'fulltext', top_k: 3 });
      expect(res.status).toBe(200);
      const hits = (await res.json()) as { displayName: string }[];
      expect(hits[0]?.displayName, phrase).toBe(title);
    }
  });
});
