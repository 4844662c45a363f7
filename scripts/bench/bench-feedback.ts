/**
 * `npm run bench:feedback`: how well graph_query explains model-written Cypher mistakes (issue
 * 24). Runs the corpus scripts/data/cypher-mistakes.jsonl (written by
 * scripts/gen/gen-cypher-mistakes.mjs) through `runReadQuery` with the skeleton cache, as MCP and
 * the agent call it, against the sample graph and WikiPathways in the configured database
 * (loaded first when missing), and prints:
 *   - queries refused though readable (must be 0),
 *   - queries Neo4j warns about (its own EXPLAIN: unknown label, type or property key), how many
 *     of them the result explains, and how many name the right existing name where one is
 *     within edit distance 3 or differs only in case or plural,
 *   - reversed-direction queries explained, and notices on the correct queries (should be none),
 *   - the time of a graph_query with and without the checks (interleaved rounds) and the CPU
 *     time of the checks alone.
 *
 * Then the value part (issue 38, scripts/bench/lib/value-bench.ts) on the public movies + Northwind
 * graphs: value-miss queries told, correct queries' rows unchanged and without value notices,
 * and the schema elements typical questions need that the first view shows.
 *
 * Options: --rounds <n> (5) timing rounds over the corpus; --json for machine-readable output;
 * --values-only: only the value part (no WikiPathways load, no corpus);
 * --meaning: suggest names by meaning too, with EMBEDDING_MODEL (as the service does), and
 * report the synonym mistakes no spelling rule reaches, e.g. with the minilm server:
 *   EMBEDDING_MODEL=all-minilm EMBEDDING_BASE_URL=http://127.0.0.1:18528/v1 npm run bench:feedback -- --meaning
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config.js';
import { createGraphStore } from '../../src/graph/access/driver.js';
import { createEmbeddersFromConfig } from '../../src/embeddings/embedders.js';
import { createNamesByMeaning } from '../../src/lib/names-by-meaning.js';
import { editDistance } from '../../src/lib/close-names.js';
import { queryNotices } from '../../src/graph/cypher/query-notices.js';
import { type ReadQueryError, readQueryLimits, runReadQuery, type ReadQueryResult } from '../../src/graph/cypher/read-query.js';
import { loadSampleGraph, type SampleGraph } from '../../src/graph/access/sample.js';
import sample from '../../src/graph/access/sample-data.json' with { type: 'json' };
import { createSkeletonCache } from '../../src/graph/shape/skeleton-cache.js';
import { describeMachine } from './bench-common.js';
import { pct } from './lib/stats.js';
import { loadWikiPathways } from '../load-wikipathways.js';
import { runValueBench, type ValueBenchFigures } from './lib/value-bench.js';

interface Entry {
  id: number;
  graph: 'sample' | 'wikipathways';
  mistake: string;
  cypher: string;
  slot?: 'L' | 'T' | 'P';
  wrong?: string;
  right: string | null;
}

const { values } = parseArgs({
  options: { rounds: { type: 'string' }, json: { type: 'boolean' }, meaning: { type: 'boolean' }, 'values-only': { type: 'boolean' } },
});
const ROUNDS = Number(values.rounds ?? 5);
const corpus: Entry[] = readFileSync('scripts/data/cypher-mistakes.jsonl', 'utf8') // run from the repository root, as npm does
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Entry);

const config = loadConfig({ GRAPHDB_URL: '127.0.0.1', LOG_LEVEL: 'warn', ...process.env });
const graph = createGraphStore(config);
const database = config.GRAPHDB_GRAPH;

/** Runs and prints the value part. */
async function valuePart(): Promise<ValueBenchFigures> {
  const v = await runValueBench(graph, database, readQueryLimits(config));
  if (values.json) return v;
  console.log(
    `\nvalues (public movies + Northwind, loaded as published: ${v.loaded.nodes} nodes, ${v.loaded.relationships} relationships):`,
  );
  console.log(`value-miss queries told what the graph holds: ${v.missesTold} of ${v.misses} (empty or zero-count: ${v.missesEmpty})`);
  console.log(
    `correct queries: same rows with and without the checks ${v.correctSameRows} of ${v.correct}; with a value notice ${v.correctWithValueNotice}; refused or failed ${v.refused}`,
  );
  console.log(`value-miss graph_query p50 (query + checks, cold then warm sample cache): ${v.p50NoticeMs.toFixed(1)} ms`);
  console.log(
    `first view: ${v.shownNow} of ${v.needed} needed schema elements shown in ${v.viewChars} characters (budget ${v.viewBudget}); the seed's view: ${v.shownSeed} of ${v.needed}`,
  );
  for (const l of v.lines) console.log(l);
  return v;
}
if (values['values-only']) {
  const v = await valuePart();
  if (values.json) console.log(JSON.stringify({ ...v, lines: undefined }, null, 2));
  await graph.close();
  process.exit(0);
}
const count = async (label: string) =>
  Number((await graph.driver.executeQuery(`MATCH (n:${label}) RETURN count(n) AS c`, {}, { database })).records[0]!.get('c'));
if ((await count('Mission')) === 0) await loadSampleGraph(graph.driver, sample as SampleGraph, { database, ifEmpty: false });
if ((await count('Pathway')) === 0) {
  console.error('loading WikiPathways (about a minute)…');
  await loadWikiPathways(graph.driver, { database });
}
const skeleton = createSkeletonCache({ graph });
await skeleton.refresh(database);
const limits = readQueryLimits(config);
const embedders = createEmbeddersFromConfig(config);
// A slow model server (minilm: ~25 names/s) gets its time here; the service waits 1 s at most.
const meaning = values.meaning
  ? createNamesByMeaning(async (texts) => (await embedders.get(config.EMBEDDING_MODEL)).embed(texts), { waitMs: 120_000 })
  : undefined;
const checks = { schema: skeleton, meaning };

/** Within edit distance 3 (case-insensitive) or only case or a plural ending apart: the name must be suggested. */
function nearEnough(wrong: string, right: string): boolean {
  const a = wrong.toLowerCase();
  const b = right.toLowerCase();
  return a === b || a === `${b}s` || a === `${b}es` || editDistance(a, b) <= 3;
}

/** The database's own warnings about unknown names, from a plain EXPLAIN. */
async function warnings(cypher: string): Promise<string[]> {
  const session = graph.driver.session({ database, defaultAccessMode: 'READ' });
  try {
    const r = await session.run(`EXPLAIN ${cypher}`);
    return r.summary.notifications.filter((n) => /Unknown/.test(n.code)).map((n) => n.code);
  } catch {
    return [];
  } finally {
    await session.close();
  }
}

type Outcome = { entry: Entry; warned: string[]; result?: ReadQueryResult; error?: ReadQueryError };
const outcomes: Outcome[] = [];
for (const entry of corpus) {
  const warned = await warnings(entry.cypher);
  try {
    outcomes.push({ entry, warned, result: await runReadQuery(graph, database, entry.cypher, {}, limits, checks) });
  } catch (err) {
    outcomes.push({ entry, warned, error: err as ReadQueryError });
  }
}

const problem = (o: Outcome) => (o.result?.notices ?? []).filter((n) => n.explainsEmpty);
const refused = outcomes.filter((o) => o.error?.kind === 'refused');
const warnedAbout = outcomes.filter((o) => o.warned.length);
const explained = warnedAbout.filter((o) => problem(o).some((n) => n.kind.startsWith('unknown-')));
const eligible = warnedAbout.filter((o) => o.entry.right && o.entry.wrong && nearEnough(o.entry.wrong, o.entry.right));
const named = eligible.filter((o) =>
  problem(o).some((n) => n.suggestions?.some((s) => s === o.entry.right || s.endsWith(`.${o.entry.right}`))),
);
// Names no spelling rule reaches (synonyms): suggested by meaning, right or not.
const byMeaning = (o: Outcome) => problem(o).filter((n) => n.message.includes('(closest in meaning)'));
const farNames = warnedAbout.filter((o) => o.entry.right && o.entry.wrong && !nearEnough(o.entry.wrong, o.entry.right));
const farNamed = farNames.filter((o) =>
  problem(o).some((n) => n.suggestions?.some((s) => s === o.entry.right || s.endsWith(`.${o.entry.right}`))),
);
const meaningWrong = warnedAbout.filter((o) => byMeaning(o).length && !farNamed.includes(o));
const reversed = outcomes.filter((o) => o.entry.mistake === 'reversed-direction');
const reversedExplained = reversed.filter((o) => problem(o).some((n) => n.kind === 'reversed-direction'));
const mistakes = outcomes.filter((o) => o.entry.mistake !== 'none');
const anyExplained = mistakes.filter((o) => problem(o).length);
const correct = outcomes.filter((o) => o.entry.mistake === 'none');
const falseNotices = correct.filter((o) => problem(o).some((n) => !n.kind.startsWith('value-')));
// The corpus's correct queries are right in their names; a value notice on one says its value is not in the graph (listed).
const valueOnCorrect = correct.filter((o) => problem(o).some((n) => n.kind.startsWith('value-')));
const empty = mistakes.filter(
  (o) => o.result && (o.result.rows.length === 0 || o.result.rows.every((r) => Object.values(r).every((v) => v === 0))),
);

// Timing: each query with the checks (schema) and without (the database's warnings only), interleaved.
const schema = await skeleton.schema(database);
const timed = { with: [] as number[], without: [] as number[], checks: [] as number[] };
const readable = outcomes.filter((o) => o.result).map((o) => o.entry.cypher);
// Rows with the checks and without, per query (first round): notices must never change them.
const rowsDiffer = new Set<string>();
for (let round = 0; round < ROUNDS; round++) {
  for (const cypher of readable) {
    const rows: string[] = [];
    for (const withChecks of round % 2 ? [false, true] : [true, false]) {
      const t = performance.now();
      const r = await runReadQuery(graph, database, cypher, {}, limits, withChecks ? checks : { values: false });
      (withChecks ? timed.with : timed.without).push(performance.now() - t);
      rows.push(JSON.stringify(r.rows));
    }
    if (rows[0] !== rows[1]) rowsDiffer.add(cypher);
    const summary = { gqlStatusObjects: [] };
    const t = performance.now();
    queryNotices(cypher, summary, schema);
    timed.checks.push(performance.now() - t);
  }
}
for (const list of Object.values(timed)) list.sort((a, b) => a - b);

const byMistake = new Map<string, { n: number; explained: number; named: number; eligible: number }>();
for (const o of mistakes) {
  const row = byMistake.get(o.entry.mistake) ?? { n: 0, explained: 0, named: 0, eligible: 0 };
  row.n++;
  if (problem(o).length) row.explained++;
  if (eligible.includes(o)) {
    row.eligible++;
    if (named.includes(o)) row.named++;
  }
  byMistake.set(o.entry.mistake, row);
}

const pc = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)} %` : '–');
const ms = (x: number) => `${x.toFixed(2)} ms`;
const figures = {
  queries: corpus.length,
  mistakes: mistakes.length,
  readable: readable.length,
  refusedThoughReadable: refused.length,
  neo4jWarned: warnedAbout.length,
  warnedExplained: explained.length,
  eligibleForName: eligible.length,
  rightNameSuggested: named.length,
  farNames: farNames.length,
  farNamesRightByMeaning: farNamed.length,
  wrongByMeaning: meaningWrong.length,
  reversed: reversed.length,
  reversedExplained: reversedExplained.length,
  mistakesExplained: anyExplained.length,
  mistakesEmpty: empty.length,
  correct: correct.length,
  correctWithNotice: falseNotices.length,
  correctWithValueNotice: valueOnCorrect.length,
  rowsDifferWithChecks: rowsDiffer.size,
  p50WithChecksMs: pct(timed.with, 50),
  p50WithoutChecksMs: pct(timed.without, 50),
  p50ChecksCpuMs: pct(timed.checks, 50),
  p99ChecksCpuMs: pct(timed.checks, 99),
};
const valueFigures = await valuePart();
if (values.json) {
  console.log(JSON.stringify({ ...figures, values: { ...valueFigures, lines: undefined } }, null, 2));
} else {
  console.log(await describeMachine(graph.driver, database));
  console.log(`corpus: ${corpus.length} queries (${mistakes.length} with a mistake, ${correct.length} correct), ${readable.length} ran`);
  console.log(`refused though readable: ${refused.length}`);
  console.log(`Neo4j warned about: ${warnedAbout.length}; explained: ${explained.length} (${pc(explained.length, warnedAbout.length)})`);
  console.log(
    `right name suggested where one is within distance 3 / case / plural: ${named.length} of ${eligible.length} (${pc(named.length, eligible.length)})`,
  );
  console.log(
    `names no spelling rule reaches (synonyms): right name suggested ${farNamed.length} of ${farNames.length}${meaning ? ` by meaning (${config.EMBEDDING_MODEL}); other names suggested by meaning: ${meaningWrong.length}` : ' (run with --meaning)'}`,
  );
  console.log(`reversed direction explained: ${reversedExplained.length} of ${reversed.length}`);
  console.log(
    `mistakes with an explanation (any kind): ${anyExplained.length} of ${mistakes.length} (${pc(anyExplained.length, mistakes.length)}); of them empty or zero-count: ${empty.length}`,
  );
  console.log(`queries whose rows differ with the checks and without: ${rowsDiffer.size} of ${readable.length}`);
  console.log(`correct queries with a problem notice about names or patterns: ${falseNotices.length} of ${correct.length}`);
  console.log(`correct queries with a value notice (their value is not in the graph): ${valueOnCorrect.length} of ${correct.length}`);
  for (const o of valueOnCorrect)
    console.log(
      `   #${o.entry.id} ${o.entry.cypher}\n     ${problem(o)
        .map((n) => n.message)
        .join(' | ')}`,
    );
  console.log(
    `graph_query p50 with checks ${ms(figures.p50WithChecksMs)}, without ${ms(figures.p50WithoutChecksMs)}; checks alone p50 ${ms(figures.p50ChecksCpuMs)}, p99 ${ms(figures.p99ChecksCpuMs)} (${ROUNDS} rounds × ${readable.length})`,
  );
  console.log('\n| mistake | queries | explained | right name / eligible |\n|---|---|---|---|');
  for (const [k, r] of byMistake) console.log(`| ${k} | ${r.n} | ${r.explained} | ${r.eligible ? `${r.named} / ${r.eligible}` : '–'} |`);
  const missed = warnedAbout.filter((o) => !explained.includes(o)).concat(eligible.filter((o) => !named.includes(o)));
  for (const o of missed.slice(0, 10))
    console.log(
      `missed #${o.entry.id} ${o.entry.mistake}: ${o.entry.cypher}\n   ${(o.result?.notices ?? []).map((n) => n.message).join(' | ') || o.error?.message || '(no notice)'}`,
    );
}
if (values.meaning) {
  for (const o of farNames)
    console.log(
      `  ${o.entry.wrong} → ${
        byMeaning(o)
          .flatMap((n) => n.suggestions ?? [])
          .join(', ') || '–'
      } (right: ${o.entry.right})`,
    );
}
await Promise.allSettled([graph.close(), embedders.close()]);
