/** The lookup route through the real vector search over an index built on the suite's own nodes. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildVectorIndex } from '../../../src/vector-index/build/build.js';
import { routerReply } from '../../helpers/llm-server.js';
import { startHarness, type Harness } from '../helpers/chat-harness.js';
import { createIndexFixture, createTextNodes, dropIndexFixture } from '../helpers/index-fixtures.js';

const MODEL = 'minishlab/potion-base-8M';
const f = createIndexFixture(MODEL, { VECTOR_SEARCH_TOP_K: '2' });
const texts = [
  'Calcium channels open in muscle cells and let calcium ions in.',
  'The insulin receptor binds insulin at the plasma membrane of liver cells.',
  'Ribosomes translate messenger RNA into proteins in the cytoplasm.',
];
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ env: f.env, realSearch: true });
  await createTextNodes(h.deps.graph.driver, f, texts);
  await buildVectorIndex(h.deps, { graph: 'neo4j', model: MODEL });
});
afterAll(async () => {
  await dropIndexFixture(h.deps.graph.driver, f);
  await h.close();
});

it('answers a lookup with the best-matching nodes of the real index', async () => {
  h.llm.script(routerReply('lookup', 0.95));
  const sub = await h.submit(texts[1]!);
  const job = await h.waitJob(sub.job_id);
  expect(job.status).toBe('done');
  const { result } = job;
  expect(result.sources).toHaveLength(2);
  expect(result.sources[0]).toMatchObject({ dbId: 1, text: texts[1], labels: [f.label] });
  expect(result.answer.startsWith(`### ${result.sources[0].displayName}\n`)).toBe(true);
  expect(result.answer).toContain(texts[1]);
});

it('says the graph database is unavailable, without its address, when a lookup cannot reach it', async () => {
  // Nothing listens on port 1: the driver's own text would name 127.0.0.1:1.
  const down = await startHarness({ env: { ...f.env, GRAPHDB_PORT: '1' }, realSearch: true });
  try {
    down.llm.script(routerReply('lookup', 0.95));
    const job = await down.waitJob((await down.submit('insulin receptor')).job_id);
    expect(job).toMatchObject({ status: 'error', error: 'the graph database is unavailable; try again shortly' });
  } finally {
    await down.close();
  }
});
