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
 * Discovery (`--discover off|on|both`, default both; issue 37): `off` indexes the subset's
 * `wp_quality_text` alone (INDEX_DISCOVER=false, as before discovery existed); `on` is the
 * service's default, every WikiPathways label discovered beside it (the Metabolites' names, the
 * species, …; restricted to the loader's labels so that other work in the shared database stays
 * out), in an index of its own. Same queries, same relevance; `both` prints them side by side
 * with the chunks per label and the queries that lose or gain rank 1 (scripts/bench/lib/quality-discovery.ts).
 * `--labels A,B` narrows the `on` index to some labels (to measure one label's effect apart).
 *
 * Every text embedded (chunks and queries) is kept in test-output/bench-data/quality-vectors
 * (scripts/bench/lib/quality-vectors.ts), so an index of other labels or rules re-embeds only new texts.
 *
 * Needs the minilm server (LOCAL_LLM_BASE_URL, default http://127.0.0.1:18437/v1), Neo4j and
 * Redis. Options: --pathways <n> (400), --alpha 0.2,0.3 (hybrid variants by vector weight; default HYBRID_ALPHA),
 * --analyzer <name> (FULLTEXT_ANALYZER), --latency <n> (queries per mode timed, default 200),
 * --flips <n> (queries listed per set that lose or gain rank 1, default 8), --bm25-alone (full-text
 * and hybrid also with the scores alone, as before issue 37, and with only name chunks weighed by
 * the share of the query's words they hold: src/graph/dialect/search-query.ts TERM_SHARE),
 * --fusion z,best (hybrid rows by fusion, the first being the default row; default HYBRID_FUSION),
 * --term-share names|all|none (the share of the vector, full-text and default hybrid rows; default
 * the service's), --dump <file> (every row's per-query ranks, as JSON), --source-only (see below).
 *
 * Issue 50: each set also gets `BM25 whole text` (a full-text index over each pathway's whole
 * text, not chunks) and that list fused with the default hybrid's, and a check of every hybrid row
 * against the better of its lists (scripts/bench/lib/quality-whole-text.ts). A description or
 * passage query's relevant nodes include every pathway whose description holds its sentence word
 * for word (53 of the 400 share one CPTAC sentence); `--source-only` counts only same titles and
 * descriptions, as before.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createEmbeddersFromConfig } from '../../src/embeddings/embedders.js';
import { buildVectorIndex } from '../../src/vector-index/build/build.js';
import type { RetrievalMode } from '../../src/contract/search.js';
import { HYBRID_ALPHA, HYBRID_FUSION, TERM_SHARE_DEFAULT } from '../../src/vector-index/search/plan.js';
import type { Fusion } from '../../src/graph/dialect/search-query.js';
import { createVectorSearcher } from '../../src/vector-index/search/searcher.js';
import { createGraphStore } from '../../src/graph/access/driver.js';
import { createLogger } from '../../src/lib/log.js';
import { createKvStore } from '../../src/store/redis.js';
import { benchConfig, describeMachine, fmt } from './bench-common.js';
import { pct } from './lib/stats.js';
import { DEFAULT_DIR, loadWikiPathways } from '../load-wikipathways.js';
import { runFilteredQuality } from './lib/filtered-quality.js';
import type { SearchFilterFields } from '../../src/vector-index/search/filter.js';
import type { SourceNode } from '../../src/contract/search.js';
import type { GraphStore } from '../../src/graph/access/driver.js';
import type { KvStore } from '../../src/store/redis.js';
import { type CachedPool, cachedEmbedders } from './lib/quality-vectors.js';
import {
  type ModeResult,
  type SetScores,
  chunksPerLabel,
  describePlan,
  printFlips,
  printSideBySide,
  score,
} from './lib/quality-discovery.js';
import { measureChurn } from './lib/quality-churn.js';
import { HYBRID_PLUS_WHOLE, WHOLE_TEXT, ensureWholeTextIndex, printListCheck, rrfFuse, searchWholeText } from './lib/quality-whole-text.js';

const { values } = parseArgs({
  options: {
    pathways: { type: 'string' },
    alpha: { type: 'string' },
    analyzer: { type: 'string' },
    latency: { type: 'string' },
    filtered: { type: 'string' },
    discover: { type: 'string' },
    labels: { type: 'string' },
    flips: { type: 'string' },
    'bm25-alone': { type: 'boolean' },
    fusion: { type: 'string' },
    dump: { type: 'string' },
    'source-only': { type: 'boolean' },
    'term-share': { type: 'string' },
    churn: { type: 'string' },
    'churn-edits': { type: 'string' },
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
type TermShare = 'none' | 'names' | 'all';
/** The index with discovery on: its own chunks beside the text-only index's. */
const INDEX_DISCOVERED = 'bench_quality_all_minilm_discover';
/** The loader's labels (scripts/load-wikipathways.ts): "the whole WikiPathways graph". */
const WIKIPATHWAYS_LABELS = ['Pathway', 'Species', 'OntologyTerm', 'DataNode', 'GeneProduct', 'Protein', 'Metabolite', 'Rna'];
const TOP_K = 10;
const DISCOVER = values.discover ?? 'both';
if (!['off', 'on', 'both'].includes(DISCOVER)) throw new Error(`--discover must be off, on or both, not ${DISCOVER}`);
const FLIPS = Number(values.flips ?? 8);
/** `--source-only`: a description or passage query's relevant nodes as before issue 50 (same title or description only, not every description holding the sentence). */
const SOURCE_ONLY = values['source-only'] ?? false;
/** `--bm25-alone`: also the full-text and hybrid variants without the share of the query's words (as before issue 37), and with it on name chunks only. */
const BM25_ALONE = values['bm25-alone'] ?? false;
/** `--churn <rounds>`: after the last mode's sets, recall after that many sync rounds of `--churn-edits` (100) edited pathways against the same chunks freshly indexed (./lib/quality-churn.ts). */
const CHURN = Number(values.churn ?? 0);
const CHURN_EDITS = Number(values['churn-edits'] ?? 100);
/** Every text the bench embedded, by model (scripts/bench/lib/quality-vectors.ts). */
const VECTORS_DIR = `${process.env.BENCH_DATA_DIR ?? 'test-output/bench-data'}/quality-vectors`;
const baseUrl = process.env.LOCAL_LLM_BASE_URL ?? 'http://127.0.0.1:18437/v1';
/** The bench's config with discovery off (the text-only index) or on (the service's default). */
const configFor = (discover: boolean) =>
  benchConfig('models', {
    TEXT_PROPERTY: PROP,
    EMBEDDING_MODEL: MODEL,
    VECTOR_INDEX_NAME: discover ? INDEX_DISCOVERED : INDEX,
    GRAPHDB_GRAPH: 'neo4j',
    LOCAL_LLM_BASE_URL: baseUrl,
    // On a server whose vector indexes take filter properties (Neo4j 2026.x) the species is carried on the chunks.
    INDEX_FILTER_PROPERTIES: SPECIES_PROP,
    INDEX_DISCOVER: String(discover),
    ...(discover ? { INDEX_LABELS: values.labels ?? WIKIPATHWAYS_LABELS.join(',') } : {}),
    ...(values.analyzer ? { FULLTEXT_ANALYZER: values.analyzer } : {}),
  });
const config = configFor(false);
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
  /**
   * `relevant` and, unless `--source-only`, every pathway of the subset whose description holds
   * `sentence` too: a sentence that many descriptions share word for word ("Proteins on this
   * pathway have targeted assays available via the CPTAC Assay Portal.", in 53 of the 400) is
   * answered by each of them alike, and which one a search puts first is chance (issue 50).
   */
  /** Each description as its sentences read (links reduced to their text), where a query's sentence is looked for. */
  const plain = new Map(subset.map((o) => [o, sentences(o.description).join(' ')]));
  const holding = (relevant: Set<number>, sentence: string) =>
    SOURCE_ONLY ? relevant : new Set([...relevant, ...subset.filter((o) => plain.get(o)!.includes(sentence)).map((o) => o.dbId)]);
  const relevantTo = (p: Pathway) =>
    new Set(subset.filter((o) => norm(o.title) === norm(p.title) || o.description === p.description).map((o) => o.dbId));
  const sets: Record<string, Query[]> = { title: [], description: [], question: [], passage: [] };
  subset.forEach((p, i) => {
    const relevant = relevantTo(p);
    const source = p.dbId;
    sets.title!.push({ text: p.title, relevant, source });
    const [first, ...rest] = sentences(p.description);
    const desc = withoutTitleWords(first ?? '', p.title);
    if (words(desc).length >= 4) sets.description!.push({ text: desc, relevant: holding(relevant, first ?? ''), source });
    sets.question!.push({ text: QUESTIONS[i % QUESTIONS.length]!(p.title.toLowerCase()), relevant, source });
    const later = rest.filter((s) => words(s).length >= 8).sort((a, b) => b.length - a.length)[0];
    if (later) {
      const passage = withoutTitleWords(later, p.title);
      if (words(passage).length >= 6) sets.passage!.push({ text: passage, relevant: holding(relevant, later), source });
    }
  });
  return sets;
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
  const embed = cachedEmbedders(createEmbeddersFromConfig(config), VECTORS_DIR);
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
    const sets = querySets(subset);
    // Every query embedded up front, in batches: the searches then find their vectors in the cache.
    await (await embed.get(MODEL)).embed([...new Set(Object.values(sets).flatMap((qs) => qs.map((q) => q.text)))]);
    const results: ModeResult[] = [];
    for (const mode of DISCOVER === 'both' ? (['off', 'on'] as const) : [DISCOVER as 'off' | 'on']) {
      results.push(await runMode(mode, { graph, kv, embed, sets, subset, species }));
    }
    // `--dump <file>`: every row's per-query outcomes, to compare variants query by query.
    if (values.dump) writeFileSync(values.dump, JSON.stringify(results.map((r) => ({ mode: r.mode, outcomes: r.outcomes }))));
    const [off, on] = results;
    if (off && on) {
      printSideBySide(off, on);
      if (FLIPS > 0) printFlips(off, on, FLIPS);
    }
    console.log(
      `\nembedding (minilm server; the rest from test-output/bench-data/quality-vectors): ${fmt(embed.stats.embedded)} texts embedded ` +
        `of ${fmt(embed.stats.asked)} asked, ${fmt(embed.stats.ms / 1000, 1)} s`,
    );
  } finally {
    await kv.close();
    await embed.close();
    await graph.close();
  }
}

/** What every mode's run shares. */
interface RunContext {
  graph: GraphStore;
  kv: KvStore;
  embed: CachedPool;
  sets: Record<string, Query[]>;
  subset: Pathway[];
  species: Map<number, string>;
}

/** Builds the index of one discovery mode and measures every query set and variant on it. */
async function runMode(mode: 'off' | 'on', { graph, kv, embed, sets, subset, species }: RunContext): Promise<ModeResult> {
  const cfg = configFor(mode === 'on');
  const index = cfg.VECTOR_INDEX_NAME;
  console.log(`\n## discovery ${mode}: index ${index}${mode === 'on' ? ` (labels ${cfg.INDEX_LABELS?.join(', ')})` : ''}`);
  const t0 = performance.now();
  const built = await buildVectorIndex(
    { config: cfg, graph, kv, embedders: embed, log: createLogger('warn') },
    { graph: db, model: MODEL },
  );
  console.log(
    `index ${index}: ${subset.length} pathways, ${fmt(built.nodes)} nodes, ${fmt(built.total_chunks)} chunks, ${built.batches_computed} batches embedded, ` +
      `${built.batches_skipped} from cache, ${fmt((performance.now() - t0) / 1000, 1)} s; full-text analyzer ${cfg.FULLTEXT_ANALYZER}`,
  );
  if (mode === 'on') console.log(`text plan:\n${describePlan(built.plan).join('\n')}`);
  const perLabel = await chunksPerLabel(graph.driver, db, index);

  const alphas = (values.alpha ?? String(HYBRID_ALPHA)).split(',').map(Number);
  const fusions = (values.fusion ?? HYBRID_FUSION).split(',') as Fusion[];
  /** The share of the query's words for the default rows (`--term-share`, default the service's). */
  const share = (values['term-share'] ?? TERM_SHARE_DEFAULT) as TermShare;
  const hybrids = (termShare: TermShare, tag: string) =>
    alphas.flatMap((alpha) =>
      fusions.map((fusion) => ({
        name: `hybrid${alphas.length > 1 ? ` (α=${alpha})` : ''}${fusions.length > 1 ? ` ${fusion}` : ''}${tag}`,
        mode: 'hybrid' as const,
        alpha,
        termShare,
        fusion,
      })),
    );
  const variants: { name: string; mode: RetrievalMode; alpha?: number; termShare?: TermShare; fusion?: Fusion }[] = [
    { name: 'vector', mode: 'vector', termShare: share },
    { name: 'fulltext', mode: 'fulltext', termShare: share },
    ...hybrids(share, ''),
    // The scores before issue 37 (no share of the query's words), and the share on name chunks only, beside.
    ...(BM25_ALONE
      ? [
          { name: 'fulltext, BM25 alone', mode: 'fulltext' as const, termShare: 'none' as const },
          ...hybrids('none', ', BM25 alone'),
          { name: 'fulltext, names only', mode: 'fulltext' as const, termShare: 'names' as const },
          ...hybrids('names', ', names only'),
        ]
      : []),
  ];
  /** The variant whose per-query outcomes are compared between modes: the service's default. */
  const defaultVariant = Math.max(
    0,
    variants.findIndex((v) => v.mode === 'hybrid' && v.alpha === alphas[0] && v.termShare === share && v.fusion === fusions[0]),
  );
  const searchers = variants.map((v) =>
    createVectorSearcher({ config: cfg, graph, embedders: embed }, { alpha: v.alpha, termShare: v.termShare, fusion: v.fusion }),
  );
  const paths = new Map<string, number>();
  const onFilterPath = (p: string) => paths.set(p, (paths.get(p) ?? 0) + 1);
  const search = (i: number, text: string, filter?: SearchFilterFields) =>
    searchers[i]!.search({ query: text, graph: db, model: MODEL, topK: TOP_K, mode: variants[i]!.mode, ...filter, onFilterPath });
  /** Variant `i`'s scores and per-query outcomes on `queries`, searched one after another. */
  const scoreSet = async (i: number, queries: readonly Query[]) => {
    const hits: SourceNode[][] = [];
    for (const q of queries) hits.push(await search(i, q.text));
    return score(queries, hits);
  };
  const result: ModeResult = {
    mode,
    index,
    chunks: built.total_chunks,
    perLabel,
    scores: {},
    outcomes: {},
    defaultVariant: variants[defaultVariant]!.name,
  };
  if (FILTERED !== 'off') {
    const bySource = (q: { source: number }) => species.has(q.source);
    const filterSets = Object.fromEntries(Object.entries(sets).map(([k, qs]) => [k, qs.filter(bySource)]));
    const server = await graph.server();
    console.log(`graph server: Neo4j ${server.version}; vector indexes take filter properties: ${server.vectorFilters}`);
    await runFilteredQuality({ variants, search, sets: filterSets, species, property: SPECIES_PROP, latencyQueries: LATENCY_QUERIES });
    console.log(`\nwhere the filters went (Search-Filter): ${[...paths].map(([p, n]) => `${p} ${n}`).join(', ')}`);
    if (FILTERED === 'only') return result;
  }

  const summary: Record<string, Record<string, number>> = {};
  // The issue-50 reference: BM25 over each pathway's whole text (./lib/quality-whole-text.ts).
  await ensureWholeTextIndex(graph.driver, db, subset, PROP, cfg.FULLTEXT_ANALYZER);
  const rows = [
    ...variants.map((v, i) => ({ name: v.name, run: (text: string) => search(i, text) })),
    { name: WHOLE_TEXT, run: (text: string) => searchWholeText(graph.driver, db, text, TOP_K) },
    {
      name: HYBRID_PLUS_WHOLE,
      run: async (text: string) =>
        rrfFuse([await search(defaultVariant, text), await searchWholeText(graph.driver, db, text, TOP_K)], TOP_K),
    },
  ];
  for (const [setName, queries] of Object.entries(sets)) {
    console.log(`\n${setName}: ${queries.length} queries, e.g. "${queries[1]?.text}"`);
    console.log('| mode | recall@1 | recall@5 | recall@10 | MRR | p50 ms | p99 ms |');
    console.log('|---|---|---|---|---|---|---|');
    for (const row of rows) {
      const hits: SourceNode[][] = [];
      for (const q of queries) hits.push(await row.run(q.text));
      const { scores, outcomes } = score(queries, hits);
      (result.scores[setName] ??= {})[row.name] = scores;
      (result.outcomes[setName] ??= {})[row.name] = outcomes;
      // Second pass, query vectors cached: the search's own latency.
      const times: number[] = [];
      for (const q of queries.slice(0, LATENCY_QUERIES)) {
        const s = performance.now();
        await row.run(q.text);
        times.push(performance.now() - s);
      }
      times.sort((a, b) => a - b);
      (summary[setName] ??= {})[row.name] = scores.r5;
      const cells = [scores.r1, scores.r5, scores.r10, scores.mrr].map((x) => fmt(x, 3));
      console.log(`| ${row.name} | ${cells.join(' | ')} | ${fmt(pct(times, 50), 1)} | ${fmt(pct(times, 99), 1)} |`);
    }
  }
  const short = printListCheck(result.scores, result.defaultVariant);
  console.log(`default (${result.defaultVariant}) short of the targets on: ${short.length ? short.join(', ') : 'none'}`);
  if (CHURN > 0 && mode === (DISCOVER === 'off' ? 'off' : 'on')) {
    const measured = [0, defaultVariant];
    await measureChurn({
      deps: { config: cfg, graph, kv, embedders: embed, log: createLogger('warn') },
      database: db,
      index,
      model: MODEL,
      prop: PROP,
      sourceProp: SOURCE_PROP,
      ids: subset.map((p) => p.dbId),
      rounds: CHURN,
      edits: CHURN_EDITS,
      async measure() {
        const out: Record<string, Record<string, SetScores>> = {};
        for (const [setName, queries] of Object.entries(sets)) {
          for (const i of measured) (out[setName] ??= {})[variants[i]!.name] = (await scoreSet(i, queries)).scores;
        }
        return out;
      },
    });
  }
  for (const [setName, byMode] of Object.entries(summary)) {
    const best = Math.max(byMode.vector ?? 0, byMode.fulltext ?? 0, byMode[WHOLE_TEXT] ?? 0);
    const hybrids = Object.entries(byMode).filter(([m]) => m.startsWith('hybrid'));
    console.log(
      `${setName}: best single mode recall@5 ${fmt(best, 3)}; ${hybrids.map(([m, r]) => `${m} ${fmt(r, 3)} (${r >= best - 0.01 ? 'ok' : 'BELOW'})`).join(', ')}`,
    );
  }
  return result;
}

await main();
