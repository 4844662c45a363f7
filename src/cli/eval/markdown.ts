/**
 * `report.md`: the summary table of an evaluation run, then one section per question with what
 * it did (route, steps, tools, the Cypher that ran, sources) and which checks passed.
 */
import { allChecksPassed, type EvalReport, type LatencyFigures, type Tally } from './report.js';
import type { QuestionResult } from './result.js';

/** `3/4 (75%)`, or `–` when nothing was checked. */
export const formatTally = (t: Tally) => (t.rate === null ? '–' : `${t.passed}/${t.total} (${Math.round(t.rate * 100)}%)`);

/** Milliseconds as `850 ms` or `1.2 s`. */
export const formatMs = (v: number | null) => (v === null ? '–' : v < 1000 ? `${Math.round(v)} ms` : `${(v / 1000).toFixed(1)} s`);

const p50p95 = (l: LatencyFigures) => `${formatMs(l.p50)} / ${formatMs(l.p95)}`;
const mark = (ok: boolean) => (ok ? '✓' : '✗');
/** Text safe in a table cell or a one-line list item. */
const inline = (s: string) => s.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

function summaryTable(r: EvalReport): string[] {
  const s = r.summary;
  const rows: [string, string][] = [
    ['Questions', String(s.questions)],
    ['Done / error / timeout', `${s.done} / ${s.error} / ${s.timeout}`],
    ['All checks passed', `${s.all_checks_passed}/${s.questions}`],
    ['Route accuracy', formatTally(s.route)],
    ['Expected nodes found (sources or answer)', formatTally(s.nodes)],
    ['Expected nodes among sources', formatTally(s.nodes_in_sources)],
    ['Answer contains expected text', formatTally(s.answer_contains)],
    ['Latency to first event p50 / p95', p50p95(s.latency_ms.first_event)],
    ['Latency to first answer text p50 / p95', p50p95(s.latency_ms.first_answer)],
    ['Latency to done p50 / p95', p50p95(s.latency_ms.done)],
    ['Tokens in / out', `${s.tokens.input} / ${s.tokens.output}`],
    ['Agent steps / tool calls / tool errors', `${s.agent_steps} / ${s.tool_calls} / ${s.tool_errors}`],
    ['Router fallbacks', String(s.fallbacks)],
  ];
  return ['| Measure | Value |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${v} |`)];
}

function settingsLines(r: EvalReport): string[] {
  const c = r.service_config ?? {};
  const agent = c.llm_provider ? `${c.llm_provider} ${c[`${c.llm_provider}_agent_model`] ?? ''}`.trim() : '(unknown)';
  const router = c.router_provider ? `${c.router_provider} ${c[`${c.router_provider}_router_model`] ?? ''}`.trim() : '(unknown)';
  return [
    `- Service: ${r.service} · questions: \`${r.questions_file}\` · run at ${r.created_at}`,
    `- Agent model: ${agent} · router model: ${router}`,
    `- Concurrency ${r.settings.concurrency} · timeout ${r.settings.timeout_seconds} s per question`,
  ];
}

function questionSection(q: QuestionResult): string[] {
  const lines = [`### ${q.id} ${mark(allChecksPassed(q))} ${inline(q.question)}`, ''];
  const route = q.route ? `route ${q.route}${q.confidence === null ? '' : ` (confidence ${q.confidence.toFixed(2)})`}` : 'no route';
  const expected = q.expected_route ? `, expected ${q.expected_route} ${mark(q.route_ok === true)}` : '';
  lines.push(
    `- ${q.status}${q.error ? `: ${inline(q.error)}` : ''} · ${route}${expected}${q.fallback ? ` · fallback: ${inline(q.fallback_reason ?? '')}` : ''}`,
    `- line ${q.line}${q.session ? ` · session ${q.session}` : ''} · agent steps ${q.agent_steps} · tokens ${q.tokens ? `${q.tokens.input}/${q.tokens.output}` : '–'} · first event ${formatMs(q.latency_ms.first_event)}, first answer ${formatMs(q.latency_ms.first_answer)}, done ${formatMs(q.latency_ms.done)}${q.rate_limit_wait_ms ? ` · waited ${formatMs(q.rate_limit_wait_ms)} for rate limits` : ''}`,
  );
  if (q.expected_nodes.length) {
    lines.push(
      `- Expected nodes: ${q.expected_nodes.map((n) => `${inline(n.node)} ${mark(n.hit !== null)}${n.hit ? ` (${n.hit})` : ''}`).join(', ')}`,
    );
  }
  if (q.expected_answer_contains.length) {
    lines.push(`- Answer contains: ${q.expected_answer_contains.map((c) => `"${inline(c.text)}" ${mark(c.found)}`).join(', ')}`);
  }
  if (q.sources.length) lines.push(`- Sources: ${q.sources.map((s) => `${inline(s.displayName)} (${s.dbId})`).join(', ')}`);
  if (q.tool_calls.length) {
    const counts = new Map<string, number>();
    for (const c of q.tool_calls) counts.set(c.tool, (counts.get(c.tool) ?? 0) + 1);
    lines.push(`- Tool calls: ${[...counts].map(([t, n]) => `${t} ×${n}`).join(', ')}`);
  }
  for (const e of q.tool_errors) lines.push(`- Tool error (${e.tool}): ${inline(e.summary)}`);
  for (const n of q.notices)
    lines.push(`- Notice (${n.tool}): ${inline(typeof n.notice === 'string' ? n.notice : JSON.stringify(n.notice))}`);
  if (q.model_retries) lines.push(`- Model retries (HTTP 429): ${q.model_retries}`);
  for (const cypher of q.cypher) lines.push('', '```cypher', cypher.trim(), '```');
  if (q.answer) {
    const answer = q.answer.length > 600 ? `${q.answer.slice(0, 600)}…` : q.answer;
    lines.push('', ...answer.split('\n').map((l) => `> ${l}`));
  }
  return [...lines, ''];
}

/** The report as Markdown. */
export function renderMarkdown(r: EvalReport): string {
  return [
    '# Evaluation report',
    '',
    ...settingsLines(r),
    '',
    '## Summary',
    '',
    ...summaryTable(r),
    '',
    '## Questions',
    '',
    ...r.questions.flatMap(questionSection),
  ].join('\n');
}
