/**
 * `npm run bench:quality`: retrieval quality of each search mode on WikiPathways with a real
 * sentence-embedding model (all-MiniLM-L6-v2 served by ../shared/tools/minilm-server).
 *
 * A deterministic spread of `--pathways` pathways (default 400) with descriptions gets the text
 * property `wp_quality_text` and its own index; the rest of the WikiPathways graph (species,
 * participants, the other pathways without that property) stays around it, as in real use. Query
 * sets, built from the data:
 *
 * - `title`: the pathway's title, as a user who knows the name would type it;
 * - `description`: the description's first sentence with the title's words removed (the user
 *   describes the pathway in its own words but does not name it);
 * - `question`: the title inside a question ("Which genes are involved in …?"), lower-cased;
 * - `passage`: the longest later sentence of a description, title words removed (text far from
 *   the header, and from the start of long descriptions).
 *
 * A query's relevant nodes are the pathways of the subset with the same title or description as
 * the one it was built from (WikiPathways copies pathways between species). recall@k is the
 * share of queries with a relevant node among the first k; MRR uses the first relevant rank (0
 * beyond 10). Latency is measured in a second pass with query vectors cached, so it shows the
 * search itself (the minilm server takes ~40 ms per query vector, the same for vector and
 * hybrid); the embedding time is printed apart.
 *
 * Filtered search (`--filtered`, default on): each query again with `labels: ["Pathway"]` and
 * `where: {property: "wp_quality_species", op: "=", value: <the source pathway's species>}` (the
 * subset's species, copied from IN_SPECIES to a property), against the unfiltered search, both
 * judged by the relevant pathways of that species: what a user who says "in mouse" wants.
 * Printed per species share, as the filter is the more selective the rarer the species.
 *
 * Needs the minilm server (LOCAL_LLM_BASE_URL, default http://127.0.0.1:18437/v1), Neo4j and
 * Redis. Options: --pathways <n> (400), --alpha 0.2,0.3 (hybrid variants by vector weight; default HYBRID_ALPHA),
 * --analyzer <name> (FULLTEXT_ANALYZER), --latency <n> (queries per mode timed, default 200).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createEmbeddersFromConfig } from '../src/embeddings/embedders.js';
import { buildVectorIndex } from '../src/vector-index/index-build.js';
import type { RetrievalMode } from '../src/contract/search.js';
import type { Embedder } from '../src/embeddings/types.js';
import { HYBRID_ALPHA, createVectorSearcher } from '../src/vector-index/vector-search.js';
import { createGraphStore } from '../src/graph/driver.js';
import { createLogger } from '../src/lib/log.js';
import { createKvStore } from '../src/store/redis.js';
import { benchConfig, describeMachine, fmt } from './bench-common.js';
import { pct } from './lib/stats.js';
import { DEFAULT_DIR, loadWikiPathways } from './load-wikipathways.js';
import { runFilteredQuality } from './lib/filtered-quality.js';
import type { SearchFilterFields } from '../src/vector-index/filter.js';

const { values } = parseArgs({
  options: {
    pathways: { type: 'string' },
    alpha: { type: 'string' },
    analyzer: { type: 'string' },
    latency: { type: 'string' },
    filtered: { type: 'string' },
  },
});
const N = Number(values.pathways ?? 400);
const LATENCY_QUERIES = Number(values.latency ?? 200);
/** `--filtered only`: the filtered tables alone; `--filtered off`: none. */
const FILTERED = values.filtered ?? 'on';
const MODEL = 'all-minilm';
const PROP = 'wp_quality_text';
/** The subset's species as a property, for the filtered queries. */
const SPECIES_PROP = 'wp_quality_species';
/** Where the loader puts every description; the subset's is copied to PROP. */
const SOURCE_PROP = 'wp_description';
const INDEX = 'bench_quality_all_minilm';
const TOP_K = 10;
const baseUrl = process.env.LOCAL_LLM_BASE_URL ?? 'http://127.0.0.1:18437/v1';
const config = benchConfig('models', {
  TEXT_PROPERTY: PROP,
  EMBEDDING_MODEL: MODEL,
  VECTOR_INDEX_NAME: INDEX,
  GRAPHDB_GRAPH: 'neo4j',
  LOCAL_LLM_BASE_URL: baseUrl,
  // On a server whose vector indexes take filter properties (Neo4j 2026.x) the species is carried on the chunks.
  INDEX_FILTER_PROPERTIES: SPECIES_PROP,
  ...(values.analyzer ? { FULLTEXT_ANALYZER: values.analyzer } : {}),
});
const db = config.GRAPHDB_GRAPH;

interface Pathway {
  dbId: number;
  title: string;
  description: string;
}

interface Query {
  text: string;
  relevant: Set<number>;
  /** dbId of the pathway the query was built from. */
  source: number;
}

const STOP = new Set(['a', 'an', 'the', 'of', 'and', 'in', 'to', 'for', 'by', 'with', 'on', 'is', 'are']);
const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** `text` without the words of `title` (stop words stay, so the sentence still reads). */
function withoutTitleWords(text: string, title: string): string {
  const drop = new Set(words(title).filter((w) => !STOP.has(w)));
  return text
    .replace(/[\p{L}\p{N}]+/gu, (w) => (drop.has(w.toLowerCase()) ? '' : w))
    .replace(/\s+/g, ' ')
    .trim();
}

/** Sentences of a description, Markdown links reduced to their text. */
function sentences(description: string): string[] {
  return description
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .split(/(?<=[.!?])\s+(?=[A-Z0-9])/)
    .map((s) => s.trim())
    .filter(Boolean);
}

function pickPathways(): Pathway[] {
  const all = readFileSync(`${DEFAULT_DIR}/pathways.jsonl`, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { wpid: string; title: string; description?: string })
    .filter((p) => typeof p.description === 'string' && p.description.trim().length >= 60)
    .map((p) => ({ dbId: Number(p.wpid.replace(/\D/g, '')), title: p.title, description: p.description!.trim() }));
  const step = all.length / Math.min(N, all.length);
  return Array.from({ length: Math.min(N, all.length) }, (_, i) => all[Math.floor(i * step)]!);
}

const QUESTIONS = [
  (t: string) => `what is the ${t}?`,
  (t: string) => `which genes are involved in ${t}?`,
  (t: string) => `explain ${t} to me`,
  (t: string) => `how does ${t} work`,
];

function querySets(subset: Pathway[]): Record<string, Query[]> {
  const norm = (s: string) => words(s).join(' ');
  const relevantTo = (p: Pathway) =>
    new Set(subset.filter((o) => norm(o.title) === norm(p.title) || o.description === p.description).map((o) => o.dbId));
  const sets: Record<string, Query[]> = { title: [], description: [], question: [], passage: [] };
  subset.forEach((p, i) => {
    const relevant = relevantTo(p);
    const source = p.dbId;
    sets.title!.push({ text: p.title, relevant, source });
    const [first, ...rest] = sentences(p.description);
    const desc = withoutTitleWords(first ?? '', p.title);
    if (words(desc).length >= 4) sets.description!.push({ text: desc, relevant, source });
    sets.question!.push({ text: QUESTIONS[i % QUESTIONS.length]!(p.title.toLowerCase()), relevant, source });
    const later = rest.filter((s) => words(s).length >= 8).sort((a, b) => b.length - a.length)[0];
    if (later) {
      const passage = withoutTitleWords(later, p.title);
      if (words(passage).length >= 6) sets.passage!.push({ text: passage, relevant, source });
    }
  });
  return sets;
}

/** Wraps the embedder pool so each query is embedded once; reports the time spent embedding. */
function cachingEmbedders(pool: ReturnType<typeof createEmbeddersFromConfig>) {
  const cache = new Map<string, Float32Array>();
  const stats = { calls: 0, ms: 0 };
  return {
    stats,
    pool: {
      close: () => pool.close(),
      async get(model: string): Promise<Embedder> {
        const inner = await pool.get(model);
        return Object.assign(Object.create(inner) as Embedder, {
          async embed(texts: string[]): Promise<Float32Array[]> {
            const missing = texts.filter((t) => !cache.has(t));
            if (missing.length) {
              const t0 = performance.now();
              const vectors = await inner.embed(missing);
              stats.ms += performance.now() - t0;
              stats.calls += missing.length;
              missing.forEach((t, i) => cache.set(t, vectors[i]!));
            }
            return texts.map((t) => cache.get(t)!);
          },
        });
      },
    },
  };
}

async function main() {
  try {
    const res = await fetch(`${baseUrl}/models`, { signal: AbortSignal.timeout(5000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
  } catch (err) {
    console.error(
      `bench:quality needs the all-minilm server at ${baseUrl} (${(err as Error).message}). Start it with:\n` +
        '  MODEL_DIR=$(../shared/tools/minilm-server/setup.sh)\n' +
        '  .local/minilm-venv/bin/python ../shared/tools/minilm-server/server.py "$MODEL_DIR" 18437 &',
    );
    process.exit(2);
  }
  const graph = createGraphStore(config);
  const embed = cachingEmbedders(createEmbeddersFromConfig(config));
  const kv = createKvStore({ url: config.KVSTORE_URL, prefix: 'bench:' });
  try {
    console.log(`machine: ${await describeMachine(graph.driver, db)}`);
    const subset = pickPathways();
    const { records } = await graph.driver.executeQuery(
      `MATCH (p:Pathway {dataset: 'wikipathways'}) WHERE p.${SOURCE_PROP} IS NOT NULL RETURN count(p) AS n`,
      {},
      { database: db },
    );
    if (Number(records[0]?.get('n')) < subset.length) {
      console.log('loading WikiPathways (once; scripts/load-wikipathways --drop removes it)...');
      await loadWikiPathways(graph.driver, { database: db, textProperty: SOURCE_PROP });
    }
    // Exactly the subset carries PROP (a changed --pathways moves it; the build then catches up).
    await graph.driver.executeQuery(
      `MATCH (p:Pathway) WHERE p.${PROP} IS NOT NULL AND NOT p.dbId IN $ids REMOVE p.${PROP}`,
      { ids: subset.map((p) => p.dbId) },
      { database: db },
    );
    await graph.driver.executeQuery(
      `UNWIND $ids AS id MATCH (p:Pathway {dataset: 'wikipathways', dbId: id}) SET p.${PROP} = p.${SOURCE_PROP}`,
      { ids: subset.map((p) => p.dbId) },
      { database: db },
    );
    // The subset's species as a property (from IN_SPECIES), for the filtered queries.
    await graph.driver.executeQuery(
      `MATCH (p:Pathway) WHERE p.${SPECIES_PROP} IS NOT NULL AND NOT p.dbId IN $ids REMOVE p.${SPECIES_PROP}`,
      { ids: subset.map((p) => p.dbId) },
      { database: db },
    );
    const speciesRows = await graph.driver.executeQuery(
      `UNWIND $ids AS id MATCH (p:Pathway {dataset: 'wikipathways', dbId: id})-[:IN_SPECIES]->(s:Species)
       SET p.${SPECIES_PROP} = s.name RETURN id, s.name AS species`,
      { ids: subset.map((p) => p.dbId) },
      { database: db },
    );
    const species = new Map(speciesRows.records.map((r) => [Number(r.get('id')), r.get('species') as string]));
    const t0 = performance.now();
    const built = await buildVectorIndex(
      { config, graph, kv, embedders: createEmbeddersFromConfig(config), log: createLogger('warn') },
      { graph: db, model: MODEL },
    );
    console.log(
      `index ${INDEX}: ${subset.length} pathways, ${built.total_chunks} chunks, ${built.batches_computed} batches embedded, ` +
        `${built.batches_skipped} from cache, ${fmt((performance.now() - t0) / 1000, 1)} s; full-text analyzer ${config.FULLTEXT_ANALYZER}`,
    );

    const sets = querySets(subset);
    const alphas = (values.alpha ?? String(HYBRID_ALPHA)).split(',').map(Number);
    const variants: { name: string; mode: RetrievalMode; alpha?: number }[] = [
      { name: 'vector', mode: 'vector' },
      { name: 'fulltext', mode: 'fulltext' },
      ...alphas.map((alpha) => ({ name: alphas.length > 1 ? `hybrid (α=${alpha})` : 'hybrid', mode: 'hybrid' as const, alpha })),
    ];
    const searchers = variants.map((v) => createVectorSearcher({ config, graph, embedders: embed.pool }, { alpha: v.alpha }));
    const paths = new Map<string, number>();
    const onFilterPath = (p: string) => paths.set(p, (paths.get(p) ?? 0) + 1);
    const search = (i: number, text: string, filter?: SearchFilterFields) =>
      searchers[i]!.search({ query: text, graph: db, model: MODEL, topK: TOP_K, mode: variants[i]!.mode, ...filter, onFilterPath });
    if (FILTERED !== 'off') {
      const bySource = (q: { source: number }) => species.has(q.source);
      const filterSets = Object.fromEntries(Object.entries(sets).map(([k, qs]) => [k, qs.filter(bySource)]));
      const server = await graph.server();
      console.log(`graph server: Neo4j ${server.version}; vector indexes take filter properties: ${server.vectorFilters}`);
      await runFilteredQuality({ variants, search, sets: filterSets, species, property: SPECIES_PROP, latencyQueries: LATENCY_QUERIES });
      console.log(`\nwhere the filters went (Search-Filter): ${[...paths].map(([p, n]) => `${p} ${n}`).join(', ')}`);
      if (FILTERED === 'only') return;
    }

    const summary: Record<string, Record<string, number>> = {};
    for (const [setName, queries] of Object.entries(sets)) {
      console.log(`\n${setName}: ${queries.length} queries, e.g. "${queries[1]?.text}"`);
      console.log('| mode | recall@1 | recall@5 | recall@10 | MRR | p50 ms | p99 ms |');
      console.log('|---|---|---|---|---|---|---|');
      for (let i = 0; i < variants.length; i++) {
        const at = [0, 0, 0];
        let mrr = 0;
        for (const q of queries) {
          const hits = await search(i, q.text);
          const rank = hits.findIndex((h) => q.relevant.has(h.dbId)) + 1;
          if (rank) {
            mrr += 1 / rank;
            [1, 5, 10].forEach((k, j) => (at[j]! += rank <= k ? 1 : 0));
          }
        }
        // Second pass, query vectors cached: the search's own latency.
        const times: number[] = [];
        for (const q of queries.slice(0, LATENCY_QUERIES)) {
          const s = performance.now();
          await search(i, q.text);
          times.push(performance.now() - s);
        }
        times.sort((a, b) => a - b);
        const n = queries.length;
        const [r1, r5, r10] = at.map((x) => x / n) as [number, number, number];
        (summary[setName] ??= {})[variants[i]!.name] = r5;
        console.log(
          `| ${variants[i]!.name} | ${fmt(r1, 3)} | ${fmt(r5, 3)} | ${fmt(r10, 3)} | ${fmt(mrr / n, 3)} | ${fmt(pct(times, 50), 1)} | ${fmt(pct(times, 99), 1)} |`,
        );
      }
    }
    console.log(
      `\nquery embedding (minilm server, not in the latencies above): ${fmt(embed.stats.ms / Math.max(1, embed.stats.calls), 1)} ms per query over ${embed.stats.calls} queries`,
    );
    for (const [setName, byMode] of Object.entries(summary)) {
      const best = Math.max(byMode.vector ?? 0, byMode.fulltext ?? 0);
      const hybrids = Object.entries(byMode).filter(([m]) => m.startsWith('hybrid'));
      console.log(
        `${setName}: best single mode recall@5 ${fmt(best, 3)}; ${hybrids.map(([m, r]) => `${m} ${fmt(r, 3)} (${r >= best - 0.01 ? 'ok' : 'BELOW'})`).join(', ')}`,
      );
    }
  } finally {
    await kv.close();
    await embed.pool.close();
    await graph.close();
  }
}

await main();
