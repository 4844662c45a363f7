/**
 * `eval <questions.csv|jsonl> [--url] [--concurrency] [--timeout] [--out]`: runs a question set
 * through a running service's chat and reports what each answer did (src/cli/eval/); and
 * `eval --compare a.json b.json`: what got better and worse between two runs. Exit codes: 0 the
 * run finished (whatever the answers were), 1 the service does not answer, 2 bad arguments or a
 * bad file.
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
import { runQuestions } from './run.js';
import { trimChar } from '../../lib/text.js';

const USAGE = `usage: node dist/cli.js eval <questions.csv|.jsonl> [--url http://127.0.0.1:8000] [--concurrency 4] [--timeout 120] [--out report]
       node dist/cli.js eval --compare a.json b.json
  --out report   writes report.md and report.json (default: the Markdown report on stdout)
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

/** Runs the set and writes the report; the exit code. */
async function evaluate(
  file: string,
  questions: EvalQuestion[],
  opts: { url: string; concurrency: number; timeout: number; out?: string },
) {
  const bar = createProgressBar({ label: 'eval' });
  const done: QuestionResult[] = [];
  const client = createChatClient({
    url: opts.url,
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
  const report: EvalReport = {
    version: 1,
    created_at: new Date().toISOString(),
    service: opts.url,
    questions_file: file,
    settings: { concurrency: opts.concurrency, timeout_seconds: opts.timeout },
    service_config: serviceConfig,
    summary: summarize(results),
    questions: results,
  };
  const markdown = renderMarkdown(report);
  if (!opts.out) {
    console.log(markdown);
    return 0;
  }
  const base = opts.out.replace(/\.(md|json)$/i, '');
  await writeFile(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(`${base}.md`, markdown);
  const s = report.summary;
  console.error(
    `eval: ${s.questions} questions: ${s.done} done, ${s.error} error, ${s.timeout} timeout; ` +
      `${s.all_checks_passed} passed every check. Wrote ${base}.md and ${base}.json`,
  );
  return 0;
}

/** The `eval` command. */
export const evalCommand: Command = async (args, env) => {
  const cli = parseCommandLine(args, { strings: ['url', 'concurrency', 'timeout', 'out'], flags: ['compare'], positionals: true }, USAGE);
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
  return evaluate(file, questions, { url, concurrency: concurrency as number, timeout: timeout as number, out: cli.values.out });
};
