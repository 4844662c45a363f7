/**
 * `npm run bench:discovery`: retrieval over a graph as people have it, without a `text`
 * property (the movies + Northwind fixture, test/helpers/movies-northwind.ts, 1218 nodes), with
 * the text found by rule (src/graph/text/text-rules.ts) and written in each body format of
 * src/vector-index/index/node-text.ts: `values` (one value per line) and `keyed` (`name: value`).
 *
 * Per format: the fixture's labels (with a suffix, `_bench` unless `--suffix` says otherwise)
 * get an index of their own, built with discovery on and restricted to those labels (so nothing
 * else in the database is indexed); then for each mode (vector, fulltext, hybrid):
 *
 * - names: every named node (388) queried by its name as a user types it; found = the node among
 *   the first 3 results of a `top_k` 3 search;
 * - descriptive: 39 questions answered by one node's tagline, category description or employee
 *   notes, without its name; found = among the first 5 of a `top_k` 5 search, also per kind;
 * - MRR of both sets, from `top_k` 10 searches (0 beyond 10).
 *
 * Also: build time and chunks, and the chunks that hold a hex blob (`0x424D`, the fixture's
 * bitmaps; must be 0). Query vectors are embedded once, before the searches, and shared by the
 * formats (their time is printed apart). The fixture, the indexes and their cache files are
 * removed at the end.
 *
 * Model: `EMBEDDING_MODEL` (default minishlab/potion-base-32M: the real files when
 * scripts/fetch-models could fetch them, else the generated tiny model, which measures nothing
 * about meaning). For meaningful figures, the real all-MiniLM-L6-v2 of
 * ../shared/tools/minilm-server:
 *
 *   EMBEDDING_MODEL=all-minilm EMBEDDING_BASE_URL=http://127.0.0.1:18437/v1 npm run bench:discovery
 *
 * The suffix is part of every chunk's header (`Heat (Movie_bench)`), so it moves the vectors a
 * little, and the approximate vector index is built anew each run: a re-run with the same
 * suffix moves a name or two in vector mode; other suffixes (`--suffix _x`) show how much of a
 * difference between formats is such noise. One run per suffix at a time: a run removes what
 * an earlier, interrupted run with its suffix left behind.
 *
 * Options: --format values|keyed (default both), --suffix <label suffix> (default `_bench`).
 */
import { rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { findModel } from '../../src/contract/models.js';
import type { RetrievalMode } from '../../src/contract/search.js';
import { createEmbeddersFromConfig } from '../../src/embeddings/embedders.js';
import { chunkLabel, quoteName } from '../../src/graph/dialect/names.js';
import { createGraphStore } from '../../src/graph/access/driver.js';
import type { LabelPlan } from '../../src/graph/text/text-plan.js';
import { createLogger } from '../../src/lib/log.js';
import { createKvStore } from '../../src/store/redis.js';
import { cacheDir } from '../../src/vector-index/build/csv-cache.js';
import { buildVectorIndex } from '../../src/vector-index/build/build.js';
import { dropSearchIndex } from '../../src/graph/access/index-writer.js';
import type { TextFormat } from '../../src/vector-index/index/node-text.js';
import { createQueryVectors } from '../../src/vector-index/search/query-vectors.js';
import { createVectorSearcher } from '../../src/vector-index/search/searcher.js';
import {
  type DescriptiveKind,
  type FixtureQuery,
  loadMoviesNorthwind,
  moviesNorthwindLabels,
  moviesNorthwindQueries,
  removeMoviesNorthwind,
} from '../../test/helpers/movies-northwind.js';
import { BENCH_MODEL, benchConfig, benchModels, describeMachine, fmt } from './bench-common.js';

const FORMATS: readonly TextFormat[] = ['values', 'keyed'];
const MODES: readonly RetrievalMode[] = ['vector', 'fulltext', 'hybrid'];
const KINDS: readonly DescriptiveKind[] = ['tagline', 'category', 'notes'];
/** The fixture's bitmaps start so (test/helpers/movies-northwind.ts): no chunk may hold one. */
const BLOB_MARK = '0x424D';
const MRR_DEPTH = 10;
/** Missed queries listed per format, mode and set. */
const MAX_MISSES = 8;

const { values: args } = parseArgs({ options: { format: { type: 'string' }, suffix: { type: 'string' } } });
const formats = args.format ? (args.format.split(',') as TextFormat[]) : [...FORMATS];
for (const f of formats) {
  if (!FORMATS.includes(f)) {
    console.error(`--format must be one of ${FORMATS.join(', ')} (got "${f}")`);
    process.exit(2);
  }
}

const MODEL = process.env.EMBEDDING_MODEL ?? BENCH_MODEL;
const entry = findModel(MODEL);
if (!entry) {
  console.error(`EMBEDDING_MODEL "${MODEL}" is not a registered model`);
  process.exit(2);
}
const suffix = args.suffix ?? '_bench';
if (!/^_[A-Za-z0-9_]+$/.test(suffix)) {
  console.error(`--suffix must be "_" and letters, digits or "_" (got "${suffix}")`);
  process.exit(2);
}
const tag = suffix.slice(1);
const DATA_DIR = `test-output/bench-discovery-${tag}`;
const models = entry.provider === 'in-process' ? benchModels() : { dir: 'models', description: '' };
const configFor = (index: string) => benchConfig(models.dir, { EMBEDDING_MODEL: MODEL, VECTOR_INDEX_NAME: index, DATA_DIR });
const config = configFor(`bench_disc_${tag}`);
const db = config.GRAPHDB_GRAPH;
const modelDescription =
  entry.provider === 'local-server'
    ? `${MODEL} from the model server at ${config.EMBEDDING_BASE_URL}`
    : MODEL === BENCH_MODEL
      ? models.description
      : `${MODEL} (model files from ${models.dir})`;

/** Found-in-top-k counts and reciprocal ranks of one query set in one mode. */
interface SetScore {
  found: number;
  total: number;
  rr: number;
  /** Queries not found, with the keys found instead. */
  missed: string[];
  byKind: Partial<Record<DescriptiveKind, { found: number; total: number }>>;
}

/** Exits with a hint when the model server does not answer. */
async function checkServer(): Promise<void> {
  if (entry!.provider !== 'local-server') return;
  const base = config.EMBEDDING_BASE_URL;
  try {
    const res = await fetch(`${base}/models`, { signal: AbortSignal.timeout(5000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
  } catch (err) {
    console.error(
      `bench:discovery needs the ${MODEL} server at ${base} (${(err as Error).message}). For all-minilm:\n` +
        '  MODEL_DIR=$(../shared/tools/minilm-server/setup.sh)\n' +
        '  .local/minilm-venv/bin/python ../shared/tools/minilm-server/server.py "$MODEL_DIR" 18437 &\n' +
        '  EMBEDDING_MODEL=all-minilm EMBEDDING_BASE_URL=http://127.0.0.1:18437/v1 npm run bench:discovery',
    );
    process.exit(2);
  }
}

/** One label of the plan: `Movie_bx (38 nodes) discovered: name title; text tagline; skipped released (not a string)`. */
const planLine = (l: LabelPlan) =>
  `${l.label} (${l.nodes} nodes) ${l.source}: name ${l.name.join(' + ') || '-'}; text ${l.body.join(', ') || '-'}; ` +
  `skipped ${l.skipped.map((s) => `${s.property} (${s.reason})`).join(', ') || '-'}`;

const pctOf = (s: { found: number; total: number }) => `${fmt((100 * s.found) / Math.max(1, s.total), 1)} %`;

async function main() {
  await checkServer();
  const graph = createGraphStore(config);
  const driver = graph.driver;
  const kv = createKvStore({ url: config.KVSTORE_URL, prefix: `bench-discovery-${tag}:` });
  const embedders = createEmbeddersFromConfig(config);
  const log = createLogger('warn');
  const labels = moviesNorthwindLabels({ suffix });
  const { names, descriptive } = moviesNorthwindQueries({ suffix });
  const indexes: string[] = [];
  const results: Record<string, Record<string, { names: SetScore; descriptive: SetScore }>> = {};
  const builds: Record<string, { seconds: number; chunks: number; nodes: number; blobs: number }> = {};
  try {
    console.log(`machine: ${await describeMachine(driver, db)}`);
    console.log(`model: ${modelDescription}`);
    // What an interrupted run with this suffix left behind.
    await removeMoviesNorthwind(driver, db, { suffix });
    for (const format of formats) await dropSearchIndex(driver, db, `bench_disc_${format}_${tag}`);
    const keys = await loadMoviesNorthwind(driver, db, { suffix });
    // Search results carry the database id; the fixture's keys map to element ids.
    const { records } = await driver.executeQuery(
      'UNWIND $pairs AS p MATCH (n) WHERE elementId(n) = p[1] RETURN id(n) AS id, p[0] AS key',
      { pairs: [...keys] },
      { database: db },
    );
    const keyOf = new Map(records.map((r) => [Number(r.get('id')), r.get('key') as string]));
    console.log(
      `fixture: ${keys.size} nodes, labels ${labels.join(', ')}; ${names.length} name and ${descriptive.length} descriptive queries`,
    );

    // Every query embedded once, before any search: the searches then measure retrieval only.
    const queryVectors = createQueryVectors({ embedders, size: 4 * (names.length + descriptive.length) });
    const t0 = performance.now();
    for (const q of [...names, ...descriptive]) await queryVectors.get(MODEL, q.query);
    const embedMs = performance.now() - t0;

    for (const format of formats) {
      const index = `bench_disc_${format}_${tag}`;
      const cfg = configFor(index);
      indexes.push(index);
      const start = performance.now();
      const built = await buildVectorIndex(
        { config: cfg, graph, kv, embedders, log },
        { graph: db, model: MODEL, indexName: index, choice: { labels }, discover: true, format },
      );
      const seconds = (performance.now() - start) / 1000;
      const [row] = (
        await driver.executeQuery(
          `MATCH (c:${quoteName(chunkLabel(index))}) RETURN count(c) AS chunks,
             sum(CASE WHEN c.chunkText CONTAINS $blob THEN 1 ELSE 0 END) AS blobs`,
          { blob: BLOB_MARK },
          { database: db },
        )
      ).records;
      builds[format] = { seconds, chunks: built.total_chunks, nodes: built.nodes, blobs: Number(row?.get('blobs') ?? -1) };
      console.log(
        `\n${format}: built ${index} in ${fmt(seconds, 1)} s: ${built.nodes} nodes, ${built.total_chunks} chunks ` +
          `(${Number(row?.get('chunks'))} in the graph), ${builds[format].blobs} holding "${BLOB_MARK}"`,
      );
      if (format === formats[0]) for (const l of built.plan.labels) console.log(`  ${planLine(l)}`);

      const searcher = createVectorSearcher({ config: cfg, graph, embedders }, { queryVectors });
      const ranked = async (mode: RetrievalMode, query: string, topK: number) =>
        (await searcher.search({ query, graph: db, model: MODEL, topK, mode })).map((h) => keyOf.get(h.dbId));
      const score = async (mode: RetrievalMode, queries: (FixtureQuery & { kind?: DescriptiveKind })[], topK: number) => {
        const s: SetScore = { found: 0, total: queries.length, rr: 0, missed: [], byKind: {} };
        for (const q of queries) {
          const got = await ranked(mode, q.query, topK);
          const hit = got.includes(q.key);
          if (hit) s.found++;
          else s.missed.push(`"${q.query.slice(0, 60)}" → ${q.key}, got ${got.join(' ') || 'nothing'}`);
          if (q.kind) {
            const k = (s.byKind[q.kind] ??= { found: 0, total: 0 });
            k.total++;
            if (hit) k.found++;
          }
          const rank = (await ranked(mode, q.query, MRR_DEPTH)).indexOf(q.key) + 1;
          if (rank) s.rr += 1 / rank;
        }
        return s;
      };
      results[format] = {};
      for (const mode of MODES) {
        results[format][mode] = { names: await score(mode, names, 3), descriptive: await score(mode, descriptive, 5) };
      }
      await dropSearchIndex(driver, db, index);
      await rm(cacheDir(DATA_DIR, index), { recursive: true, force: true });
    }

    const kindCounts = KINDS.map((k) => `${k} ${descriptive.filter((q) => q.kind === k).length}`).join(', ');
    console.log(`\nnames: ${names.length} queries, found in top 3; descriptive: ${descriptive.length} (${kindCounts}), found in top 5`);
    console.log('| format | mode | names top 3 | names MRR | descriptive top 5 | tagline | category | notes | descriptive MRR |');
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const format of formats) {
      for (const mode of MODES) {
        const { names: n, descriptive: d } = results[format]![mode]!;
        const kinds = KINDS.map((k) => {
          const s = d.byKind[k] ?? { found: 0, total: 0 };
          return `${s.found}/${s.total}`;
        });
        console.log(
          `| ${format} | ${mode} | ${pctOf(n)} | ${fmt(n.rr / n.total, 3)} | ${pctOf(d)} | ${kinds.join(' | ')} | ${fmt(d.rr / d.total, 3)} |`,
        );
      }
    }
    console.log('\nmissed (query → the node wanted, got the first results):');
    for (const format of formats) {
      for (const mode of MODES) {
        for (const set of ['names', 'descriptive'] as const) {
          const { missed } = results[format]![mode]![set];
          for (const m of missed.slice(0, MAX_MISSES)) console.log(`  ${format} ${mode} ${set}: ${m}`);
          if (missed.length > MAX_MISSES) console.log(`  ${format} ${mode} ${set}: … and ${missed.length - MAX_MISSES} more`);
        }
      }
    }
    console.log('\n| format | build s | nodes | chunks | chunks with a blob |');
    console.log('|---|---|---|---|---|');
    for (const format of formats) {
      const b = builds[format]!;
      console.log(`| ${format} | ${fmt(b.seconds, 1)} | ${b.nodes} | ${b.chunks} | ${b.blobs} |`);
    }
    console.log(
      `\nquery embedding (once, shared by the formats): ${fmt(embedMs / 1000, 1)} s for ${names.length + descriptive.length} queries`,
    );
    if (formats.length === 2) {
      const [a, b] = formats as [TextFormat, TextFormat];
      for (const mode of MODES) {
        const ra = results[a]![mode]!;
        const rb = results[b]![mode]!;
        const diff = (x: SetScore, y: SetScore) => fmt((100 * (y.found - x.found)) / x.total, 1);
        console.log(
          `${mode}: ${b} − ${a}: names top 3 ${diff(ra.names, rb.names)} points, descriptive top 5 ${diff(ra.descriptive, rb.descriptive)} points`,
        );
      }
    }
    if (Object.values(builds).some((b) => b.blobs !== 0)) process.exitCode = 1;
  } finally {
    await removeMoviesNorthwind(driver, db, { suffix });
    for (const index of indexes) await dropSearchIndex(driver, db, index).catch(() => {});
    await rm(DATA_DIR, { recursive: true, force: true });
    await kv.close();
    await embedders.close();
    await graph.close();
  }
}

await main();
