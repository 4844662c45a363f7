/**
 * `eval` and the agent's examples (src/examples/):
 * - `--write-examples <file>`: the questions a run judged right (every check passed) that the
 *   agent answered with Cypher, each with the last `graph_query` of its run (the one its answer
 *   rests on), as an examples file to review (`node dist/cli.js examples check <file>`) before
 *   it becomes `EXAMPLES_FILE`.
 * - `--examples <file>`: the set runs twice, without examples (`x-agent-examples: off`) and with
 *   the service's, which must be that file's (checked through `GET /dev/examples`); the two
 *   reports are shown side by side and compared.
 */
import { exampleLine, parseExamples } from '../../examples/format.js';
import { formatMs, formatTally } from './markdown.js';
import { allChecksPassed, type EvalReport } from './report.js';
import type { QuestionResult } from './result.js';

/** The examples file text of a run's right answers, and how many right answers had no Cypher. */
export function examplesOfRun(
  results: readonly QuestionResult[],
  questionsFile: string,
): { text: string; written: number; noCypher: number } {
  const right = results.filter(allChecksPassed);
  const lines: string[] = [];
  for (const r of right) {
    const cypher = r.cypher.filter((c) => c.trim()).at(-1);
    if (cypher)
      lines.push(exampleLine({ question: r.question, cypher, note: `from eval of ${questionsFile}, question ${r.id}; review before use` }));
  }
  return { text: lines.length ? `${lines.join('\n')}\n` : '', written: lines.length, noCypher: right.length - lines.length };
}

/**
 * Whether the service uses the examples of `text` (file `name`): every question of the file is
 * among the service's examples from its EXAMPLES_FILE. The reason when not, else null.
 */
export async function checkServiceExamples(url: string, text: string, name: string, token: string): Promise<string | null> {
  const res = await fetch(`${url}/dev/examples`, { headers: token ? { authorization: `Bearer ${token}` } : {} }).catch(() => null);
  if (!res) return `${url}/dev/examples did not answer`;
  if (!res.ok)
    return `${url}/dev/examples answered HTTP ${res.status}${res.status === 401 ? ' (set ADMIN_TOKEN as the service has it)' : ''}`;
  const body = (await res.json()) as { file: string | null; examples: { source: string; question: string }[]; rejected: unknown[] };
  const served = new Set(body.examples.filter((e) => e.source === 'file').map((e) => e.question));
  const wanted = parseExamples(text, '').examples.map((e) => e.question);
  const missing = wanted.filter((q) => !served.has(q));
  if (!wanted.length) return `${name} holds no example`;
  if (missing.length) {
    return (
      `the service's examples (EXAMPLES_FILE=${body.file ?? 'unset'}) lack ${missing.length} of the ${wanted.length} in ${name}` +
      ` (first: ${JSON.stringify(missing[0])}); start it with EXAMPLES_FILE=${name} (rejected examples: GET /dev/examples)`
    );
  }
  return null;
}

/** The summaries of a run without and one with examples, as one Markdown table. */
export function sideBySide(without: EvalReport, withExamples: EvalReport, examplesFile: string): string {
  const a = without.summary;
  const b = withExamples.summary;
  const rows: [string, string, string][] = [
    ['Done / error / timeout', `${a.done} / ${a.error} / ${a.timeout}`, `${b.done} / ${b.error} / ${b.timeout}`],
    ['All checks passed', `${a.all_checks_passed}/${a.questions}`, `${b.all_checks_passed}/${b.questions}`],
    ['Route accuracy', formatTally(a.route), formatTally(b.route)],
    ['Expected nodes found', formatTally(a.nodes), formatTally(b.nodes)],
    ['Answer contains expected text', formatTally(a.answer_contains), formatTally(b.answer_contains)],
    [
      'Latency to done p50 / p95',
      `${formatMs(a.latency_ms.done.p50)} / ${formatMs(a.latency_ms.done.p95)}`,
      `${formatMs(b.latency_ms.done.p50)} / ${formatMs(b.latency_ms.done.p95)}`,
    ],
    ['Tokens in / out', `${a.tokens.input} / ${a.tokens.output}`, `${b.tokens.input} / ${b.tokens.output}`],
    [
      'Agent steps / tool calls / tool errors',
      `${a.agent_steps} / ${a.tool_calls} / ${a.tool_errors}`,
      `${b.agent_steps} / ${b.tool_calls} / ${b.tool_errors}`,
    ],
  ];
  return [
    `# Evaluation with and without examples`,
    '',
    `- Questions: \`${without.questions_file}\` · examples: \`${examplesFile}\` · service ${without.service}`,
    '',
    '| Measure | without examples | with examples |',
    '|---|---|---|',
    ...rows.map(([k, x, y]) => `| ${k} | ${x} | ${y} |`),
    '',
  ].join('\n');
}
