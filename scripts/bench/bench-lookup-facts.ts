/**
 * `npm run bench:lookup-facts` (issue 49): questions asking a node's own value (a film's
 * release year, a person's birth year, a product's price or stock, a category's number of
 * products, a supplier's country, an employee's hire date or orders sold) through the chat's
 * lookup path, without a language model: search (`RETRIEVAL_MODE`, top 5, `SEARCH_NEIGHBORS`
 * 8), then the Markdown answer (src/chat/lookup.ts). Counted: questions whose value is in the
 * answer's FIRST source's section, before (the answer as it was: no `facts`, no counts) and
 * after (src/graph/shape/node-facts.ts, with the graph's skeleton as the service passes it);
 * and, apart, how often that first source is the node asked about at all (retrieval, the same
 * both times).
 *
 * Graphs: the public movies + Northwind as their owners load them
 * (test/integration/helpers/published-graph.ts; labels with the suffix `_lfb`), indexed with
 * discovery under their own index (every label but Order, which no question asks about),
 * removed at the end; the embedding cache stays in test-output/bench-lookup-facts for the next run. The value expected is read from the
 * graph by Cypher, not typed in; it counts as present when the section holds it as a word,
 * outside its `Node ID` line.
 *
 * Model: `EMBEDDING_MODEL` if set; else minishlab/potion-base-32M when scripts/fetch-models has
 * put its files in ./models; else all-minilm from ../shared/tools/minilm-server at
 * `EMBEDDING_BASE_URL` (default http://127.0.0.1:18438/v1):
 *
 *   .local/minilm-venv/bin/python ../shared/tools/minilm-server/server.py "$(../shared/tools/minilm-server/setup.sh)" 18438 &
 *   npm run bench:lookup-facts
 */
import { existsSync } from 'node:fs';
import { createLookupHandler } from '../../src/chat/lookup.js';
import type { RouteInput } from '../../src/chat/types.js';
import { loadConfig } from '../../src/config.js';
import type { SourceNode } from '../../src/contract/search.js';
import { createEmbeddersFromConfig } from '../../src/embeddings/embedders.js';
import { createGraphStore } from '../../src/graph/access/driver.js';
import { dropSearchIndex } from '../../src/graph/access/index-writer.js';
import { quoteName } from '../../src/graph/dialect/names.js';
import { createNodeFacts } from '../../src/graph/shape/node-facts.js';
import { computeSkeleton } from '../../src/graph/shape/skeleton.js';
import { createLogger } from '../../src/lib/log.js';
import { createKvStore } from '../../src/store/redis.js';
import { buildVectorIndex } from '../../src/vector-index/build/build.js';
import { createVectorSearcher } from '../../src/vector-index/search/searcher.js';
import { loadPublishedGraph, publishedLabels, removePublishedGraph } from '../../test/integration/helpers/published-graph.js';
import { BENCH_MODEL, describeMachine, fmt } from './bench-common.js';

const SUFFIX = '_lfb';
const L = (label: string) => quoteName(`${label}${SUFFIX}`);
const INDEX = 'bench_lookup_facts';
const DATA_DIR = 'test-output/bench-lookup-facts';

/** A question, the node it asks about (label, name), and Cypher over that node `n` returning the value asked. */
interface Question {
  q: string;
  label: string;
  name: string;
  value: string;
}

/** Cypher matching a node by its name, per label (Employees by first and last name). */
const BY_NAME: Record<string, string> = {
  Movie: 'n.title = $name',
  Person: 'n.name = $name',
  Product: 'n.productName = $name',
  Category: 'n.categoryName = $name',
  Supplier: 'n.companyName = $name',
  Customer: 'n.companyName = $name',
  Employee: "n.firstName + ' ' + n.lastName = $name",
};

const QUESTIONS: Question[] = [
  { q: 'What year was The Matrix released?', label: 'Movie', name: 'The Matrix', value: 'n.released' },
  { q: 'When did Top Gun come out?', label: 'Movie', name: 'Top Gun', value: 'n.released' },
  { q: 'In which year was Apollo 13 released?', label: 'Movie', name: 'Apollo 13', value: 'n.released' },
  { q: 'In which year was Tom Hanks born?', label: 'Person', name: 'Tom Hanks', value: 'n.born' },
  { q: 'When was Keanu Reeves born?', label: 'Person', name: 'Keanu Reeves', value: 'n.born' },
  { q: 'What is the birth year of Meg Ryan?', label: 'Person', name: 'Meg Ryan', value: 'n.born' },
  { q: 'How many movies has Tom Hanks acted in?', label: 'Person', name: 'Tom Hanks', value: 'COUNT { (n)-[:ACTED_IN]->() }' },
  { q: 'What is the unit price of Chai?', label: 'Product', name: 'Chai', value: 'n.unitPrice' },
  { q: 'How much does Chang cost?', label: 'Product', name: 'Chang', value: 'n.unitPrice' },
  { q: 'How many units of Aniseed Syrup are in stock?', label: 'Product', name: 'Aniseed Syrup', value: 'n.unitsInStock' },
  { q: "Is Chef Anton's Gumbo Mix discontinued?", label: 'Product', name: "Chef Anton's Gumbo Mix", value: 'n.discontinued' },
  { q: 'How many products are in the Beverages category?', label: 'Category', name: 'Beverages', value: 'COUNT { (n)<-[:PART_OF]-() }' },
  { q: 'How many products does the Seafood category have?', label: 'Category', name: 'Seafood', value: 'COUNT { (n)<-[:PART_OF]-() }' },
  { q: 'In which country is the supplier Tokyo Traders?', label: 'Supplier', name: 'Tokyo Traders', value: 'n.country' },
  { q: 'Which country is Exotic Liquids in?', label: 'Supplier', name: 'Exotic Liquids', value: 'n.country' },
  { q: 'What country is the customer Alfreds Futterkiste in?', label: 'Customer', name: 'Alfreds Futterkiste', value: 'n.country' },
  {
    q: 'How many orders has Save-a-lot Markets placed?',
    label: 'Customer',
    name: 'Save-a-lot Markets',
    value: 'COUNT { (n)-[:PURCHASED]->() }',
  },
  { q: 'When was Nancy Davolio hired?', label: 'Employee', name: 'Nancy Davolio', value: 'left(n.hireDate, 10)' },
  { q: 'When was Andrew Fuller born?', label: 'Employee', name: 'Andrew Fuller', value: 'left(n.birthDate, 10)' },
  { q: 'How many orders did Margaret Peacock sell?', label: 'Employee', name: 'Margaret Peacock', value: 'COUNT { (n)-[:SOLD]->() }' },
];

/** The model to use and a line describing it (see the header). */
function chooseModel(): { env: Record<string, string>; description: string } {
  const base = process.env.EMBEDDING_BASE_URL ?? 'http://127.0.0.1:18438/v1';
  if (process.env.EMBEDDING_MODEL) return { env: {}, description: process.env.EMBEDDING_MODEL };
  if (existsSync(`${process.env.MODELS_DIR ?? './models'}/${BENCH_MODEL}/model.safetensors`)) {
    return { env: { EMBEDDING_MODEL: BENCH_MODEL }, description: `${BENCH_MODEL} (real files)` };
  }
  return { env: { EMBEDDING_MODEL: 'all-minilm', EMBEDDING_BASE_URL: base }, description: `all-minilm from the model server at ${base}` };
}

/** True when `section` holds `value` as a word (no letter or digit around it), outside its Node ID line. */
function holds(section: string, value: string): boolean {
  const body = section.replace(/^- \*\*Node ID:\*\*.*$/m, '');
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'iu').test(body);
}

/** The first source's section of a lookup answer (up to the second `###` heading). */
const firstSection = (answer: string) => answer.split(/\n\n(?=### )/)[0] ?? '';

const { env, description } = chooseModel();
const config = loadConfig({
  GRAPHDB_URL: '127.0.0.1',
  ...process.env,
  ...env,
  INDEX_DISCOVER: 'true',
  VECTOR_INDEX_NAME: INDEX,
  DATA_DIR,
  LOG_LEVEL: 'warn',
  // Small requests: a model server on a busy machine answers each within its timeout.
  EMBEDDING_SERVER_BATCH_SIZE: process.env.EMBEDDING_SERVER_BATCH_SIZE ?? '16',
});
const db = config.GRAPHDB_GRAPH;

async function main() {
  const graph = createGraphStore(config);
  const { driver } = graph;
  const kv = createKvStore({ url: config.KVSTORE_URL, prefix: 'bench-lookup-facts:' });
  const embedders = createEmbeddersFromConfig(config);
  try {
    console.log(`machine: ${await describeMachine(driver, db)}`);
    console.log(`model: ${description}; mode ${config.RETRIEVAL_MODE}, top 5, neighbours ${config.SEARCH_NEIGHBORS}`);
    await removePublishedGraph(driver, db, { suffix: SUFFIX });
    await dropSearchIndex(driver, db, INDEX);
    await loadPublishedGraph(driver, db, { suffix: SUFFIX });
    // Orders (830 nodes, none asked about) are left out of the index: the MiniLM server embeds ~25 texts/s on 2 cores.
    const labels = publishedLabels({ suffix: SUFFIX }).filter((l) => l !== `Order${SUFFIX}`);
    const t0 = performance.now();
    const built = await buildVectorIndex(
      { config, graph, kv, embedders, log: createLogger('warn') },
      { graph: db, model: config.EMBEDDING_MODEL, indexName: INDEX, choice: { labels }, discover: true },
    );
    console.log(`index: ${built.nodes} nodes, ${built.total_chunks} chunks in ${fmt((performance.now() - t0) / 1000, 1)} s`);
    const skeleton = await computeSkeleton(graph, db, { labelFilter: (l) => l.endsWith(SUFFIX) });
    const search = createVectorSearcher({ config, graph, embedders });
    const common = { search, model: config.EMBEDDING_MODEL, topK: 5, neighbors: config.SEARCH_NEIGHBORS };
    const facts = createNodeFacts({ graph, schema: async () => skeleton });
    const before = createLookupHandler(common);
    const after = createLookupHandler({ ...common, facts });
    const input = (question: string) => ({ question, graph: db, history: [] }) as unknown as RouteInput;

    let first = 0;
    const found = { before: 0, after: 0 };
    const ms = { before: [] as number[], after: [] as number[], facts: [] as number[] };
    for (const item of QUESTIONS) {
      const cypher = `MATCH (n:${L(item.label)}) WHERE ${BY_NAME[item.label]} RETURN ${item.value} AS v`;
      const [row] = (await driver.executeQuery(cypher, { name: item.name }, { database: db })).records;
      const expected = String(row?.get('v'));
      const line: string[] = [];
      let top: SourceNode | undefined;
      // Once untimed: the question's embedding is then cached (the model server's time is not the lookup's).
      const warm = await before(input(item.q));
      const t = performance.now();
      await facts(db, warm.sources);
      ms.facts.push(performance.now() - t);
      for (const [kind, handler] of [
        ['before', before],
        ['after', after],
      ] as const) {
        const start = performance.now();
        const out = await handler(input(item.q));
        ms[kind].push(performance.now() - start);
        top = out.sources[0];
        const ok = holds(firstSection(out.answer), expected);
        if (ok) found[kind]++;
        line.push(`${kind} ${ok ? 'yes' : 'no '}`);
      }
      const isNode = top?.displayName === item.name;
      if (isNode) first++;
      console.log(
        `${line.join(', ')} | ${item.q} → ${expected} | first source: ${top?.displayName ?? '-'}${isNode ? '' : ' (another node)'}`,
      );
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    const n = QUESTIONS.length;
    console.log(`\nfirst source is the node asked about: ${first}/${n}`);
    console.log(`value in the first source's answer: before ${found.before}/${n}, after ${found.after}/${n}`);
    console.log(
      `lookup time (query embedding cached), median: before ${fmt(median(ms.before), 1)} ms, after ${fmt(median(ms.after), 1)} ms; ` +
        `the facts read alone ${fmt(median(ms.facts), 1)} ms (max ${fmt(Math.max(...ms.facts), 1)})`,
    );
  } finally {
    await removePublishedGraph(driver, db, { suffix: SUFFIX });
    await dropSearchIndex(driver, db, INDEX);
    await kv.close();
    await graph.close();
    await embedders.close();
  }
}

await main();
