/**
 * How long Neo4j takes to plan (`EXPLAIN`) a query as it grows in one direction: `OR`-ed and
 * `AND`-ed comparisons, a long list or string, longer patterns and more of them, and deeper
 * expressions (`+` chains, nested `CASE`, brackets, lists, maps, property chains, `NOT`). The
 * figures behind read-guard.ts's size, operator, pattern and depth limits (docs/benchmarks.md,
 * "Queries too large to plan").
 *
 * Planning cannot be stopped once it starts (a terminated transaction keeps planning), so each
 * shape grows geometrically and stops at the first EXPLAIN over --stop-ms, and never takes a step
 * whose time, extrapolated from the last two, would pass the transaction timeout. An expression
 * deep enough overflows the server's stack and the server never answers: that shows as "no
 * answer" after 25 s, and the shape is bisected to where it starts. Every EXPLAIN carries a tag;
 * anything of ours still running is terminated before the next one and at the end. Beside the
 * wall time it prints the server's CPU time over the EXPLAIN (all of the JVM, from /proc): the
 * steadier figure on a shared machine, when nothing else uses that server.
 *
 * Usage: node scripts/run-ts.mjs scripts/bench/bench-query-limits.ts [--port 1234] [--stop-ms 3000]
 *        [--shapes or,…] (see SHAPES) [--start n] [--step factor] [--database neo4j]
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import neo4j, { type Driver } from 'neo4j-driver';
import { cpuMs } from './lib/proc-cpu.js';

const { values: args } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.GRAPHDB_PORT ?? '1234' },
    'stop-ms': { type: 'string', default: '3000' },
    shapes: {
      type: 'string',
      default: 'or,and,and-range,or-keys,list,string,path,star,parts,optional,matches,cartesian,lists,maps,plus,case,parens,dots,not',
    },
    database: { type: 'string', default: 'neo4j' },
    start: { type: 'string' },
    step: { type: 'string' },
  },
});
const STOP_MS = Number(args['stop-ms']);
const TX_TIMEOUT_MS = 20_000;
const TAG = `bench-query-limits-${process.pid}`;
const RUN = `${process.pid.toString(36)}${Date.now().toString(36)}`;

/**
 * A query of `n` units of one shape. `v` is a variable name used once (this run and this query
 * in it): with it in every term, no cache of the server's (plans, parsed text, or Neo4j
 * 2026's cache of expressions seen before) can answer a query or any part of it.
 */
const SHAPES: Record<string, { start: number; max?: number; step?: number; build: (n: number, v: string) => string }> = {
  or: { start: 100, build: (n, v) => `MATCH (${v}) WHERE ${terms(n, (i) => `${v}.x = ${i}`, ' OR ')} RETURN ${v}` },
  and: { start: 100, build: (n, v) => `MATCH (${v}) WHERE ${terms(n, (i) => `${v}.x <> ${i}`, ' AND ')} RETURN ${v}` },
  'and-range': { start: 50, build: (n, v) => `MATCH (${v}) WHERE ${terms(n, (i) => `${v}.x > ${i}`, ' AND ')} RETURN ${v}` },
  'or-keys': { start: 50, build: (n, v) => `MATCH (${v}) WHERE ${terms(n, (i) => `${v}.p${i} = ${i}`, ' OR ')} RETURN ${v}` },
  plus: { start: 100, build: (n, v) => `MATCH (${v}) RETURN ${terms(n, () => `${v}.x`, ' + ')} AS r` },
  case: {
    start: 25,
    build: (n, v) => `MATCH (${v}) RETURN ${`CASE WHEN ${v}.x = 1 THEN `.repeat(n)}0${' ELSE 1 END'.repeat(n)} AS r`,
  },
  parens: { start: 25, build: (n, v) => `MATCH (${v}) RETURN ${`(${v}.x + `.repeat(n)}1${')'.repeat(n)} AS r` },
  dots: { start: 25, build: (n, v) => `MATCH (${v}) RETURN ${v}${'.x'.repeat(n)} AS r` },
  not: { start: 25, build: (n, v) => `MATCH (${v}) WHERE ${'NOT '.repeat(n)}${v}.x RETURN ${v}` },
  maps: { start: 25, build: (n, v) => `MATCH (${v}) RETURN ${'{a: '.repeat(n)}${v}.x${'}'.repeat(n)} AS r` },
  lists: { start: 16, step: 1.25, build: (n, v) => `MATCH (${v}) RETURN ${'['.repeat(n)}${v}.x${']'.repeat(n)} AS r` },
  path: { start: 4, step: 1.25, build: (n, v) => `MATCH (${v})${terms(n, (i) => `--(${v}_${i})`, '')} RETURN ${v}` },
  star: { start: 4, step: 1.25, build: (n, v) => `MATCH ${terms(n, (i) => `(${v})--(${v}_${i})`, ', ')} RETURN ${v}` },
  // n query parts of 8 relationships each, after WITH or OPTIONAL: does planning add up or multiply?
  parts: {
    start: 1,
    build: (n, v) => `${terms(n, (p) => `MATCH (${v})${terms(8, (i) => `--(${v}_${p}_${i})`, '')} WITH DISTINCT ${v}`, ' ')} RETURN ${v}`,
  },
  optional: {
    start: 1,
    build: (n, v) =>
      `MATCH (${v}) ${terms(n, (p) => `OPTIONAL MATCH (${v})${terms(8, (i) => `--(${v}_${p}_${i})`, '')}`, ' ')} RETURN ${v}`,
  },
  matches: { start: 5, build: (n, v) => `${terms(n, (i) => `MATCH (${v}_${i}) `, '')}RETURN ${v}_1` },
  cartesian: { start: 5, build: (n, v) => `MATCH ${terms(n, (i) => `(${v}_${i})`, ', ')} RETURN ${v}_1` },
  list: { start: 1000, build: (n, v) => `MATCH (${v}) WHERE ${v}.x IN [${terms(n, (i) => `${i}`, ', ')}] RETURN ${v}` },
  // Past ~40 MB the server closes the connection (a message too large), so stop at 10 MB.
  string: { start: 10_000, max: 10_240_000, build: (n, v) => `MATCH (${v}) WHERE ${v}.x = '${'x'.repeat(n)}' RETURN ${v}` },
};

function terms(n: number, term: (i: number) => string, sep: string): string {
  const out: string[] = [];
  for (let i = 1; i <= n; i++) out.push(term(i));
  return out.join(sep);
}

/** The pid of the Neo4j that scripts/services/neo4j.sh started on `port` (its CPU time is read), or NaN. */
function serverPid(port: string): number {
  for (const dir of readdirSync('.local').filter((d) => d.startsWith('neo4j'))) {
    const log = `.local/${dir}/neo4j.log`;
    if (existsSync(log) && readFileSync(log, 'utf8').includes(`ready on bolt://127.0.0.1:${port}`)) {
      return Number(readFileSync(`.local/${dir}/neo4j.pid`, 'utf8'));
    }
  }
  return Number.NaN;
}

/** Terminates every transaction of this bench still on the server; returns how many. */
async function terminateOurs(driver: Driver, database: string): Promise<number> {
  const { records } = await driver.executeQuery(
    'SHOW TRANSACTIONS YIELD transactionId, metaData WHERE metaData.bench = $tag RETURN transactionId',
    { tag: TAG },
    { database },
  );
  const ids = records.map((r) => r.get('transactionId') as string);
  if (ids.length) await driver.executeQuery('TERMINATE TRANSACTIONS $ids', { ids }, { database });
  return ids.length;
}

/** Wall milliseconds one EXPLAIN of `cypher` took and the server's CPU milliseconds meanwhile (with an error past the timeout). */
async function explainMs(
  driver: Driver,
  database: string,
  cypher: string,
  pid: number,
): Promise<{ ms: number; cpu: number; error?: string }> {
  const session = driver.session({ database, defaultAccessMode: neo4j.session.READ });
  const cpu0 = cpuMs(pid);
  const started = performance.now();
  try {
    // A terminated transaction may keep planning and never answer: give up waiting as well.
    let timer: NodeJS.Timeout | undefined;
    const giveUp = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('no answer after the timeout')), TX_TIMEOUT_MS + 5_000);
    });
    const tx = session.beginTransaction({ timeout: TX_TIMEOUT_MS, metadata: { bench: TAG } });
    try {
      await Promise.race([tx.run(`EXPLAIN ${cypher}`), giveUp]);
    } finally {
      clearTimeout(timer);
    }
    const ms = performance.now() - started;
    const cpu = cpuMs(pid) - cpu0;
    await tx.rollback();
    await session.close();
    return { ms, cpu };
  } catch (e) {
    void session.close().catch(() => {});
    return {
      ms: performance.now() - started,
      cpu: cpuMs(pid) - cpu0,
      error: String((e as Error).message)
        .split('\n')[0]!
        .slice(0, 120),
    };
  }
}

async function main() {
  const driver = neo4j.driver(`bolt://127.0.0.1:${args.port}`, undefined, {
    connectionTimeout: 3_000,
    maxTransactionRetryTime: 0,
    disableLosslessIntegers: true,
    logging: { level: 'error', logger: () => {} },
  });
  const database = args.database;
  try {
    const { records } = await driver.executeQuery('CALL dbms.components() YIELD versions RETURN versions[0] AS v', {}, { database });
    const cpu = cpus();
    console.log(
      `# ${cpu.length} × ${cpu[0]?.model.trim()}, ${(totalmem() / 2 ** 30).toFixed(0)} GB, Neo4j ${records[0]?.get('v')} on port ${args.port}`,
    );
    const pid = serverPid(args.port);
    // Warm the planner's code first: on a JVM just started, a cold planner alone costs ~0.5 s.
    let k = 0;
    for (let round = 0; round < 10; round++) {
      for (const shape of Object.values(SHAPES)) await explainMs(driver, database, shape.build(shape.start, `v${k++}_${RUN}`), pid);
    }
    console.log('shape\tunits\tchars\tms\tcpu_ms\tload');
    for (const name of args.shapes.split(',')) {
      const shape = SHAPES[name];
      if (!shape) throw new Error(`unknown shape ${name}`);
      let n = Number(args.start ?? shape.start);
      let last: { n: number; ms: number } | undefined;
      let bad: number | undefined;
      for (;;) {
        const left = await terminateOurs(driver, database);
        if (left) console.log(`# terminated ${left} leftover transaction(s)`);
        const cypher = shape.build(n, `v${k++}_${RUN}`);
        let { ms, cpu, error } = await explainMs(driver, database, cypher, pid);
        // The quicker of two runs (distinct texts): one run under other work says little.
        if (!error && ms < 1_000) {
          const again = await explainMs(driver, database, shape.build(n, `v${k++}_${RUN}`), pid);
          if (again.ms < ms) ({ ms, cpu } = again);
        }
        console.log(
          `${name}\t${n}\t${cypher.length}\t${ms.toFixed(0)}\t${cpu.toFixed(0)}\t${loadavg()[0]!.toFixed(1)}${error ? `\t${error}` : ''}`,
        );
        // No answer is a crash (a stack overflow the server cannot report), not slowness:
        // narrow down where it starts.
        const close = (a: number, b: number) => b - a <= Math.max(2, a / 10);
        if (error) bad = n;
        if (error && (!last || close(last.n, n))) break;
        if (error && last) {
          n = Math.round((last.n + n) / 2);
          continue;
        }
        if (ms > STOP_MS) break;
        // Extrapolate with the exponent seen so far; never start a step that may outrun the timeout.
        const exponent = last && last.ms > 20 ? Math.max(1, Math.log(ms / last.ms) / Math.log(n / last.n)) : 2;
        const step = Number(args.step ?? shape.step ?? 0) || (ms < STOP_MS / 4 ? 2 : Math.SQRT2);
        if (ms * step ** exponent > TX_TIMEOUT_MS / 2) break;
        last = { n, ms };
        if ((bad !== undefined && close(n, bad)) || n >= (shape.max ?? Number.POSITIVE_INFINITY)) break;
        n = bad !== undefined && n * step >= bad ? Math.round((n + bad) / 2) : Math.max(n + 1, Math.round(n * step));
      }
    }
  } finally {
    const left = await terminateOurs(driver, database).catch(() => 0);
    if (left) console.log(`# terminated ${left} leftover transaction(s)`);
    await driver.close();
  }
}

await main();
