/**
 * `npm run bench:burst`: graph_query under a burst of value-miss queries, with the value notices
 * and without. The repro of the adversarial review: a label of --nodes nodes (default 10^6), each
 * `{code: 'c' + i}`, no index on `code`, and `MATCH (a:Label) WHERE a.code IN ['nope1', …] RETURN
 * count(a)`: a correct, empty (zero-count) result whose values the notices check.
 *
 * Prints, for the 100-value and the 10-value query (a list over 64 values gets no lookup, one of
 * 10 gets one):
 *   - single calls, with notices (the default options) and without, interleaved: p50 and the
 *     first (cold sample cache) time, successes, and the notices and note returned;
 *   - bursts of --burst (50) concurrent calls through runReadQuery with the service's default
 *     limits: admitted (not refused busy), failed by error kind with a sample message, the most
 *     open transactions seen by `SHOW TRANSACTIONS` every 250 ms (tagged `graph_query` / all but
 *     the poll itself, other workers' included), and the wall time. A burst with notices gets a
 *     sampler of its own, cold: the single calls would otherwise have cached its lookups.
 *
 * The label is removed at the end and on SIGINT/SIGTERM (a second signal exits at once), after
 * any transaction still reading it is terminated.
 *
 * Usage: node scripts/run-ts.mjs scripts/bench/bench-query-burst.ts [--nodes 1000000] [--burst 50] [--rounds 3] [--json]
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config.js';
import { createGraphStore } from '../../src/graph/access/driver.js';
import { type ReadQueryError, type ReadQueryOptions, readQueryLimits, runReadQuery } from '../../src/graph/cypher/read-query.js';
import { createValueSampler } from '../../src/graph/cypher/value-samples.js';
import { createSkeletonCache } from '../../src/graph/shape/skeleton-cache.js';
import { describeMachine, fmt } from './bench-common.js';
import { pct } from './lib/stats.js';

const { values: args } = parseArgs({
  options: {
    nodes: { type: 'string', default: '1000000' },
    burst: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '3' },
    json: { type: 'boolean' },
  },
});
const NODES = Number(args.nodes);
const BURST = Number(args.burst);
const ROUNDS = Number(args.rounds);
const BATCH = 50_000;

const config = loadConfig({ GRAPHDB_URL: '127.0.0.1', LOG_LEVEL: 'warn', ...process.env });
const graph = createGraphStore(config);
const database = config.GRAPHDB_GRAPH;
const limits = readQueryLimits(config);
const LABEL = `BigA_${randomBytes(4).toString('hex')}`;
const log = (line: string) => console.error(line); // progress on stderr: stdout stays the figures (or JSON)

/** The value-miss query with `n` values: 'nope1' … 'nope<n>', none held. */
const missQuery = (n: number) =>
  `MATCH (a:${LABEL}) WHERE a.code IN [${Array.from({ length: n }, (_, i) => `'nope${i + 1}'`).join(', ')}] RETURN count(a) AS n`;

/** Creates the label's nodes, one transaction per {@link BATCH}. */
async function createNodes(): Promise<number> {
  const t = performance.now();
  for (let from = 0; from < NODES; from += BATCH) {
    const to = Math.min(NODES, from + BATCH) - 1;
    await graph.driver.executeQuery(`UNWIND range($from, $to) AS i CREATE (:${LABEL} {code: 'c' + i})`, { from, to }, { database });
    if ((to + 1) % 200_000 === 0 || to + 1 === NODES) log(`  ${fmt(to + 1)} nodes`);
  }
  return (performance.now() - t) / 1000;
}

/** Deletes the label's nodes in batches (each its own transaction: no multi-MB delete at once). */
async function removeNodes(): Promise<void> {
  for (;;) {
    const { records } = await graph.driver.executeQuery(
      `MATCH (a:${LABEL}) WITH a LIMIT ${BATCH} DETACH DELETE a RETURN count(*) AS c`,
      {},
      { database },
    );
    if (Number(records[0]?.get('c') ?? 0) === 0) return;
  }
}

/**
 * Terminates the transactions still reading the label: the queries, the samples and the lookups
 * all name it (the label is in the text, never a parameter); returns how many.
 */
async function terminateLeftovers(): Promise<number> {
  const { records } = await graph.driver.executeQuery(
    'SHOW TRANSACTIONS YIELD transactionId, currentQuery WHERE currentQuery CONTAINS $label RETURN transactionId',
    { label: LABEL },
    { database },
  );
  const ids = records.map((r) => r.get('transactionId') as string);
  if (ids.length) await graph.driver.executeQuery('TERMINATE TRANSACTIONS $ids', { ids }, { database });
  return ids.length;
}

/** What the polls of `SHOW TRANSACTIONS` saw while a burst ran. */
interface Open {
  /** Most open transactions tagged `graph_query` at once. */
  ours: number;
  /** Most open transactions at once, the poll's own left out (other workers' counted). */
  all: number;
  /** Distinct exact lookups of the notices (`… RETURN 1 LIMIT 1` on the label) seen running. */
  lookups: number;
}

/** Polls `SHOW TRANSACTIONS` every 250 ms while `running` is unsettled. */
async function pollOpen(running: Promise<unknown>): Promise<Open> {
  let done = false;
  void running.finally(() => {
    done = true;
  });
  const max = { ours: 0, all: 0 };
  const lookups = new Set<string>();
  while (!done) {
    const next = new Promise((r) => setTimeout(r, 250));
    try {
      const { records } = await graph.driver.executeQuery(
        `SHOW TRANSACTIONS YIELD transactionId AS id, metaData, currentQuery AS q WHERE NOT q STARTS WITH 'SHOW TRANSACTIONS'
         RETURN count(*) AS all, count(metaData.graph_query) AS ours,
                collect(CASE WHEN q CONTAINS $label AND q ENDS WITH 'RETURN 1 LIMIT 1' THEN id END) AS lookups`,
        { label: LABEL },
        { database },
      );
      const row = records[0];
      max.ours = Math.max(max.ours, Number(row?.get('ours') ?? 0));
      max.all = Math.max(max.all, Number(row?.get('all') ?? 0));
      for (const id of (row?.get('lookups') as string[] | undefined) ?? []) lookups.add(id);
    } catch {
      // A poll that fails under load is a sample missed, not a figure.
    }
    await next;
  }
  return { ...max, lookups: lookups.size };
}

/** One call: its time, and what it returned or how it failed. */
interface Call {
  ms: number;
  error?: ReadQueryError;
  notices?: string[];
  note?: string;
}

async function call(cypher: string, options: ReadQueryOptions): Promise<Call> {
  const t = performance.now();
  try {
    const r = await runReadQuery(graph, database, cypher, {}, limits, options);
    return { ms: performance.now() - t, notices: (r.notices ?? []).map((n) => `${n.kind}: ${n.message}`), note: r.note };
  } catch (err) {
    return { ms: performance.now() - t, error: err as ReadQueryError };
  }
}

/** Single-call figures of one query and mode. */
interface Single {
  query: string;
  notices: boolean;
  p50Ms: number;
  firstMs: number;
  ok: number;
  rounds: number;
  errors: string[];
  returned: string[];
  note?: string;
}

/** Burst figures of one query and mode. */
interface Burst {
  query: string;
  notices: boolean;
  calls: number;
  admitted: number;
  ok: number;
  failed: Record<string, { n: number; sample: string }>;
  withValueNotice: number;
  withNote: number;
  noteSample?: string;
  maxOpenOurs: number;
  lookupsSeen: number;
  maxOpenAll: number;
  wallS: number;
  p50Ms: number;
}

/** A burst of {@link BURST} concurrent calls, with the open transactions polled meanwhile. */
async function burst(query: string, cypher: string, options: ReadQueryOptions, notices: boolean): Promise<Burst> {
  const t = performance.now();
  const running = Promise.all(Array.from({ length: BURST }, () => call(cypher, options)));
  const [calls, open] = await Promise.all([running, pollOpen(running)]);
  const wallS = (performance.now() - t) / 1000;
  const admitted = calls.filter((c) => c.error?.kind !== 'busy');
  const failed: Burst['failed'] = {};
  for (const c of admitted) {
    if (!c.error) continue;
    const f = (failed[c.error.kind] ??= { n: 0, sample: c.error.message.slice(0, 200) });
    f.n++;
  }
  const okMs = admitted.filter((c) => !c.error).map((c) => c.ms);
  return {
    query,
    notices,
    calls: calls.length,
    admitted: admitted.length,
    ok: okMs.length,
    failed,
    withValueNotice: calls.filter((c) => c.notices?.some((n) => n.startsWith('value-'))).length,
    withNote: calls.filter((c) => c.note).length,
    noteSample: calls.find((c) => c.note)?.note,
    maxOpenOurs: open.ours,
    lookupsSeen: open.lookups,
    maxOpenAll: open.all,
    wallS,
    p50Ms: pct(
      okMs.sort((a, b) => a - b),
      50,
    ),
  };
}

let cleaning: Promise<void> | undefined;
/** Terminates what still reads the label, then removes it; once, whoever asks first. */
const cleanUp = () =>
  (cleaning ??= (async () => {
    const left = await terminateLeftovers().catch(() => 0);
    if (left) log(`terminated ${left} leftover transaction(s)`);
    await removeNodes();
    log(`removed ${LABEL}`);
  })());
let signals = 0;
const onSignal = async (signal: string) => {
  if (++signals > 1) process.exit(130);
  log(`\n${signal}: removing ${LABEL} (a second signal exits at once)`);
  await cleanUp().catch((err) => log(`clean-up failed: ${err}`));
  process.exit(130);
};
process.on('SIGINT', () => void onSignal('SIGINT'));
process.on('SIGTERM', () => void onSignal('SIGTERM'));

const single: Single[] = [];
const bursts: Burst[] = [];
let createS = 0;
try {
  const machine = await describeMachine(graph.driver, database);
  log(`${machine}; load average ${loadavg()[0]!.toFixed(1)}\ncreating ${fmt(NODES)} :${LABEL} nodes…`);
  createS = await createNodes();
  const skeleton = createSkeletonCache({ graph });
  await skeleton.refresh(database);
  if (!(await skeleton.schema(database))?.labels.some((l) => l.label === LABEL)) log(`warning: the schema does not list ${LABEL}`);
  const queries = [
    { query: '100 values', cypher: missQuery(100) },
    { query: '10 values', cypher: missQuery(10) },
  ];
  // Single calls, the two modes interleaved (which goes first alternates by round).
  for (const { query, cypher } of queries) {
    const runs = { with: [] as Call[], without: [] as Call[] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const withNotices of round % 2 ? [false, true] : [true, false]) {
        const options: ReadQueryOptions = withNotices ? { schema: skeleton } : { values: false };
        runs[withNotices ? 'with' : 'without'].push(await call(cypher, options));
      }
    }
    for (const [mode, list] of Object.entries(runs)) {
      const ok = list.filter((c) => !c.error);
      single.push({
        query,
        notices: mode === 'with',
        p50Ms: pct(
          list.map((c) => c.ms).sort((a, b) => a - b),
          50,
        ),
        firstMs: list[0]!.ms,
        ok: ok.length,
        rounds: list.length,
        errors: list.filter((c) => c.error).map((c) => `${c.error!.kind}: ${c.error!.message.slice(0, 200)}`),
        returned: [...new Set(ok.flatMap((c) => c.notices ?? []))],
        note: ok.find((c) => c.note)?.note,
      });
    }
    log(`single calls of the ${query} query done`);
  }
  for (const { query, cypher } of queries) {
    for (const withNotices of [false, true]) {
      const options: ReadQueryOptions = withNotices ? { schema: skeleton, values: createValueSampler(graph) } : { values: false };
      bursts.push(await burst(query, cypher, options, withNotices));
      log(`burst of the ${query} query ${withNotices ? 'with' : 'without'} notices done (load ${loadavg()[0]!.toFixed(1)})`);
    }
  }
  await cleanUp();
  const figures = { machine, label: LABEL, nodes: NODES, createS, limits, burst: BURST, rounds: ROUNDS, single, bursts };
  if (args.json) console.log(JSON.stringify(figures, null, 2));
  else print(machine);
} catch (err) {
  log(`failed: ${err}`);
  await cleanUp().catch((e) => log(`clean-up failed: ${e}`));
  process.exitCode = 1;
} finally {
  await graph.close();
}

/** The figures as markdown. */
function print(machine: string): void {
  const s = (ms: number) => `${fmt(ms / 1000, 2)} s`;
  console.log(`${machine}\n`);
  console.log(
    `${fmt(NODES)} nodes created in ${fmt(createS, 1)} s; limits: ${limits.maxConcurrent} at once, ${limits.timeoutMs} ms timeout; burst of ${BURST}\n`,
  );
  console.log('| query | notices | single p50 | first | succeeded | returned |\n|---|---|---|---|---|---|');
  for (const r of single) {
    const said = [...r.returned.map((x) => x.slice(0, 160)), ...(r.note ? [`note: ${r.note}`] : []), ...r.errors].join('<br>') || '–';
    console.log(`| ${r.query} | ${r.notices ? 'on' : 'off'} | ${s(r.p50Ms)} | ${s(r.firstMs)} | ${r.ok} / ${r.rounds} | ${said} |`);
  }
  console.log(
    '\n| burst | notices | admitted | ok | failed (kind: n) | value notice / note | max open tx (graph_query / all) | lookups seen | wall | p50 of ok (with the wait) |\n|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const b of bursts) {
    const failed =
      Object.entries(b.failed)
        .map(([k, f]) => `${k}: ${f.n}`)
        .join(', ') || '0';
    console.log(
      `| ${b.query} | ${b.notices ? 'on' : 'off'} | ${b.admitted} / ${b.calls} | ${b.ok} | ${failed} | ${b.withValueNotice} / ${b.withNote} | ${b.maxOpenOurs} / ${b.maxOpenAll} | ${b.lookupsSeen} | ${fmt(b.wallS, 1)} s | ${s(b.p50Ms)} |`,
    );
  }
  for (const b of bursts)
    for (const [k, f] of Object.entries(b.failed)) console.log(`\n${b.query}, notices ${b.notices ? 'on' : 'off'}, ${k}: ${f.sample}`);
  for (const b of bursts) if (b.noteSample) console.log(`\n${b.query}, notices on, note: ${b.noteSample}`);
}
