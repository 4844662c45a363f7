/**
 * `eval <questions.csv|jsonl> [--url] [--concurrency] [--timeout] [--out] [--examples f] [--write-examples f]`:
 * runs a question set through a running service's chat and reports what each answer did
 * (src/cli/eval/); with `--examples`, twice, without and with the service's examples, side by
 * side (./examples.ts); and `eval --compare a.json b.json`: what got better and worse between
 * two runs. Exit codes: 0 the run finished (whatever the answers were), 1 the service does not
 * answer, 2 bad arguments or a bad file.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { loadConfig, type Config } from '../../config.js';
import { parseCommandLine, type Command } from '../command.js';
import { createProgressBar } from '../progress.js';
import { reachable } from '../status.js';
import { createChatClient, ServiceDownError } from './client.js';
import { compareReports, formatComparison } from './compare.js';
import { renderMarkdown } from './markdown.js';
import { QuestionFileError, parseQuestions, type EvalQuestion } from './questions.js';
import { parseReport, summarize, type EvalReport } from './report.js';
import type { QuestionResult } from './result.js';
import { runQuestions, toLanes } from './run.js';
import { trimChar } from '../../lib/text.js';
import { checkServiceExamples, examplesOfRun, sideBySide } from './examples.js';

const USAGE = `usage: node dist/cli.js eval <questions.csv|.jsonl> [--url http://127.0.0.1:8000] [--concurrency 4] [--timeout 120] [--out report]
       node dist/cli.js eval --compare a.json b.json
  --out report   writes report.md and report.json (default: the Markdown report on stdout)
  --examples f   runs the set without and with the service's examples (it must run with EXAMPLES_FILE=f):
                 report.without.*, report.with.* and report.md side by side
  --write-examples f  writes the questions judged right, with the Cypher that answered them, as an examples file to review
  columns/keys   question, expected_nodes, expected_answer_contains, expected_route, session, id (docs/evaluation.md)`;

const defaultUrl = (config: Config) => `http://${reachable(config.HOST)}:${config.PORT}`;

/** A positive number option, or an error message. */
function positive(name: string, raw: string | undefined, fallback: number, integer: boolean): number | string {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  return n > 0 && (!integer || Number.isInteger(n)) ? n : `--${name} must be a positive ${integer ? 'integer' : 'number'}`;
}

/** Reads a file, or prints why it cannot and returns null. */
async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    console.error(`eval: cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    return null;
  }
}

async function compare(paths: string[]): Promise<number> {
  if (paths.length !== 2) {
    console.error(`eval --compare takes two report files\n${USAGE}`);
    return 2;
  }
  const texts = await Promise.all(paths.map(readText));
  if (texts.some((t) => t === null)) return 2;
  try {
    const [a, b] = texts.map((t, i) => parseReport(t!, paths[i]!)) as [EvalReport, EvalReport];
    console.log(formatComparison(compareReports(a, b), [paths[0]!, paths[1]!]));
    return 0;
  } catch (err) {
    console.error(`eval: ${(err as Error).message}`);
    return 2;
  }
}

/** The progress line's text after each question. */
function describeRun(results: QuestionResult[], total: number, last: QuestionResult): string {
  const n = (s: string) => results.filter((r) => r.status === s).length;
  return `${results.length}/${total} questions · ${n('done')} done, ${n('error')} error, ${n('timeout')} timeout · last ${last.id}: ${last.status}`;
}

/** What a run is told. */
interface EvalOptions {
  url: string;
  concurrency: number;
  timeout: number;
  out?: string;
  examples?: string;
  writeExamples?: string;
  adminToken: string;
}

/** Runs the set once; its report, or the exit code when the service is down. */
async function evaluate(file: string, questions: EvalQuestion[], opts: EvalOptions, messageHeaders?: Record<string, string>) {
  const bar = createProgressBar({ label: messageHeaders ? 'eval (no examples)' : 'eval' });
  const done: QuestionResult[] = [];
  const client = createChatClient({
    url: opts.url,
    messageHeaders,
    onWait: (seconds, why) => bar.draw((done.length / questions.length) * 100, `waiting ${seconds} s: ${why}`),
  });
  try {
    await client.bootstrap();
  } catch (err) {
    if (!(err instanceof ServiceDownError)) throw err;
    console.error(`eval: ${err.message}; start it with \`npm start\` or point --url at it`);
    return 1;
  }
  const serviceConfig = await client.serviceConfig();
  bar.draw(0, `0/${questions.length} questions`);
  let results: QuestionResult[];
  try {
    results = await runQuestions(questions, {
      client,
      concurrency: opts.concurrency,
      timeoutSeconds: opts.timeout,
      onResult: (r, finished, total) => {
        done.push(r);
        bar.draw((finished / total) * 100, describeRun(done, total, r));
      },
    });
  } catch (err) {
    bar.finish();
    if (!(err instanceof ServiceDownError)) throw err;
    console.error(`eval: ${err.message} (after ${done.length} of ${questions.length} questions); no report written`);
    return 1;
  }
  bar.finish();
  return {
    version: 1,
    created_at: new Date().toISOString(),
    service: opts.url,
    questions_file: file,
    settings: { concurrency: opts.concurrency, timeout_seconds: opts.timeout },
    service_config: serviceConfig,
    summary: summarize(results),
    questions: results,
  } satisfies EvalReport;
}

/** Writes `report` to `<base>.json` and `<base>.md` and says so; without a base, prints the Markdown. */
async function writeReport(report: EvalReport, base: string | undefined, say = true): Promise<void> {
  const markdown = renderMarkdown(report);
  if (!base) {
    console.log(markdown);
    return;
  }
  await writeFile(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(`${base}.md`, markdown);
  const s = report.summary;
  if (say)
    console.error(
      `eval: ${s.questions} questions: ${s.done} done, ${s.error} error, ${s.timeout} timeout; ` +
        `${s.all_checks_passed} passed every check. Wrote ${base}.md and ${base}.json`,
    );
}

/** The reports without and with examples, and both side by side (`<base>.md`, else stdout); `quiet` while a run goes on. */
async function writeBoth([without, withExamples]: [EvalReport, EvalReport], base: string | undefined, examples: string, quiet: boolean) {
  const names: [string, string] = ['without examples', 'with examples'];
  const both = `${sideBySide(without, withExamples, examples)}\n\n\`\`\`\n${formatComparison(compareReports(without, withExamples), names)}\n\`\`\`\n`;
  if (!base) {
    await writeReport(without, undefined);
    await writeReport(withExamples, undefined);
    console.log(both);
    return;
  }
  await writeReport(without, `${base}.without`, !quiet);
  await writeReport(withExamples, `${base}.with`, !quiet);
  await writeFile(`${base}.md`, both);
  if (!quiet) console.error(`eval: wrote ${base}.md (side by side), ${base}.without.{md,json} and ${base}.with.{md,json}`);
}

/** Runs the set (twice with `--examples`), writes the reports and the examples file; the exit code. */
async function evaluateAll(file: string, questions: EvalQuestion[], opts: EvalOptions): Promise<number> {
  const base = opts.out?.replace(/\.(md|json)$/i, '');
  let report: EvalReport;
  if (opts.examples) {
    const text = await readText(opts.examples);
    if (text === null) return 2;
    const why = await checkServiceExamples(opts.url, text, opts.examples, opts.adminToken);
    if (why) {
      console.error(`eval: ${why}`);
      return 2;
    }
    // Lane by lane (a session, or a lone question), without then with: both runs see the same
    // load on the model server, and a run stopped part-way leaves reports of the same questions.
    let pair: [EvalReport, EvalReport] | null = null;
    const merge = (a: EvalReport | undefined, b: EvalReport) =>
      a ? { ...a, summary: summarize([...a.questions, ...b.questions]), questions: [...a.questions, ...b.questions] } : b;
    for (const lane of toLanes(questions)) {
      const without = await evaluate(file, lane, opts, { 'x-agent-examples': 'off' });
      if (typeof without === 'number') return without;
      const withExamples = await evaluate(file, lane, opts);
      if (typeof withExamples === 'number') return withExamples;
      pair = [merge(pair?.[0], without), merge(pair?.[1], withExamples)];
      if (base) await writeBoth(pair, base, opts.examples, true);
    }
    if (!pair) return 2;
    await writeBoth(pair, base, opts.examples, false);
    report = pair[1];
  } else {
    const one = await evaluate(file, questions, opts);
    if (typeof one === 'number') return one;
    await writeReport(one, base);
    report = one;
  }
  if (opts.writeExamples) {
    const { text, written, noCypher } = examplesOfRun(report.questions, file);
    await writeFile(opts.writeExamples, text);
    console.error(
      `eval: wrote ${written} example${written === 1 ? '' : 's'} to ${opts.writeExamples}` +
        `${noCypher ? ` (${noCypher} right answer${noCypher === 1 ? '' : 's'} ran no Cypher)` : ''}; review them, e.g. node dist/cli.js examples check ${opts.writeExamples}`,
    );
  }
  return 0;
}

/** The `eval` command. */
export const evalCommand: Command = async (args, env) => {
  const cli = parseCommandLine(
    args,
    { strings: ['url', 'concurrency', 'timeout', 'out', 'examples', 'write-examples'], flags: ['compare'], positionals: true },
    USAGE,
  );
  if (typeof cli === 'number') return cli;
  if (cli.values.compare) return compare(cli.positionals);
  const [file, ...extra] = cli.positionals;
  if (!file || extra.length) {
    console.error(`eval takes one question file\n${USAGE}`);
    return 2;
  }
  const concurrency = positive('concurrency', cli.values.concurrency, 4, true);
  const timeout = positive('timeout', cli.values.timeout, 120, false);
  for (const v of [concurrency, timeout]) {
    if (typeof v === 'string') {
      console.error(`${v}\n${USAGE}`);
      return 2;
    }
  }
  const text = await readText(file);
  if (text === null) return 2;
  let questions: EvalQuestion[];
  try {
    questions = parseQuestions(text, file);
  } catch (err) {
    if (!(err instanceof QuestionFileError)) throw err;
    console.error(`eval: ${file}: ${err.message}`);
    return 2;
  }
  // The server's own address settings give the default, as for `status`; --url needs no config.
  const url = trimChar(cli.values.url ?? defaultUrl(loadConfig(env)), '/');
  return evaluateAll(file, questions, {
    url,
    concurrency: concurrency as number,
    timeout: timeout as number,
    out: cli.values.out,
    examples: cli.values.examples,
    writeExamples: cli.values['write-examples'],
    adminToken: env.ADMIN_TOKEN ?? '',
  });
};
