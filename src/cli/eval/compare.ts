/**
 * `eval --compare a.json b.json`: what got better and what got worse from run `a` to run `b`,
 * per question (matched by id) and in the summary figures.
 */
import { formatMs, formatTally } from './markdown.js';
import type { EvalReport, EvalSummary, Tally } from './report.js';
import type { QuestionResult } from './result.js';

/** One change of one question; `better` says in which direction. */
export interface Change {
  better: boolean;
  what: string;
}

/** The changes of a question present in both runs. */
export interface QuestionChanges {
  id: string;
  question: string;
  changes: Change[];
}

/** A comparison of two runs. */
export interface Comparison {
  /** Questions with at least one change for the better and none for the worse. */
  better: QuestionChanges[];
  worse: QuestionChanges[];
  /** Questions that got better in one way and worse in another. */
  mixed: QuestionChanges[];
  unchanged: number;
  onlyInA: string[];
  onlyInB: string[];
  summary: Change[];
}

const STATUS_RANK = { done: 2, timeout: 1, error: 0 } as const;
/** Latency changes smaller than this factor or these milliseconds are noise, not news. */
const LATENCY_FACTOR = 1.5;
const LATENCY_MIN_MS = 1000;

function questionChanges(a: QuestionResult, b: QuestionResult): Change[] {
  const out: Change[] = [];
  if (a.status !== b.status) out.push({ better: STATUS_RANK[b.status] > STATUS_RANK[a.status], what: `status ${a.status} → ${b.status}` });
  if (a.route_ok !== null && b.route_ok !== null && a.route_ok !== b.route_ok) {
    out.push({ better: b.route_ok, what: `route ${a.route ?? 'none'} → ${b.route ?? 'none'} (expected ${b.expected_route})` });
  }
  const before = new Map(a.expected_nodes.map((n) => [n.node, n.hit]));
  for (const n of b.expected_nodes) {
    const was = before.get(n.node);
    if (was === undefined || (was !== null) === (n.hit !== null)) continue;
    out.push({ better: n.hit !== null, what: `node "${n.node}" ${n.hit ? `now found (${n.hit})` : 'no longer found'}` });
  }
  const found = new Map(a.expected_answer_contains.map((c) => [c.text, c.found]));
  for (const c of b.expected_answer_contains) {
    const was = found.get(c.text);
    if (was === undefined || was === c.found) continue;
    out.push({ better: c.found, what: `answer ${c.found ? 'now contains' : 'no longer contains'} "${c.text}"` });
  }
  // Fewer tool errors or a quicker end mean something only when both runs answered.
  if (a.status !== 'done' || b.status !== 'done') return out;
  if (a.tool_errors.length !== b.tool_errors.length) {
    out.push({
      better: b.tool_errors.length < a.tool_errors.length,
      what: `tool errors ${a.tool_errors.length} → ${b.tool_errors.length}`,
    });
  }
  const [la, lb] = [a.latency_ms.done, b.latency_ms.done];
  if (la !== null && lb !== null && Math.abs(lb - la) >= LATENCY_MIN_MS && Math.max(la, lb) >= LATENCY_FACTOR * Math.min(la, lb)) {
    out.push({ better: lb < la, what: `done in ${formatMs(la)} → ${formatMs(lb)}` });
  }
  return out;
}

/** A rate change (in percentage points), when both runs checked something. */
function tallyChange(name: string, a: Tally, b: Tally): Change | null {
  if (a.rate === null || b.rate === null || a.rate === b.rate) return null;
  const pts = Math.round((b.rate - a.rate) * 100);
  return { better: b.rate > a.rate, what: `${name} ${formatTally(a)} → ${formatTally(b)} (${pts > 0 ? '+' : ''}${pts} pts)` };
}

function countChange(name: string, a: number, b: number, moreIsBetter: boolean): Change | null {
  return a === b ? null : { better: b > a === moreIsBetter, what: `${name} ${a} → ${b}` };
}

function latencyChange(name: string, a: number | null, b: number | null): Change | null {
  if (a === null || b === null || a === b) return null;
  return { better: b < a, what: `${name} ${formatMs(a)} → ${formatMs(b)}` };
}

function summaryChanges(a: EvalSummary, b: EvalSummary): Change[] {
  return [
    countChange('done', a.done, b.done, true),
    countChange('errors', a.error, b.error, false),
    countChange('timeouts', a.timeout, b.timeout, false),
    countChange('questions with every check passed', a.all_checks_passed, b.all_checks_passed, true),
    tallyChange('route accuracy', a.route, b.route),
    tallyChange('node hit rate', a.nodes, b.nodes),
    tallyChange('nodes among sources', a.nodes_in_sources, b.nodes_in_sources),
    tallyChange('answer-contains rate', a.answer_contains, b.answer_contains),
    latencyChange('latency to done p50', a.latency_ms.done.p50, b.latency_ms.done.p50),
    latencyChange('latency to done p95', a.latency_ms.done.p95, b.latency_ms.done.p95),
    latencyChange('latency to first answer p50', a.latency_ms.first_answer.p50, b.latency_ms.first_answer.p50),
    countChange('tokens', a.tokens.input + a.tokens.output, b.tokens.input + b.tokens.output, false),
    countChange('tool errors', a.tool_errors, b.tool_errors, false),
    countChange('router fallbacks', a.fallbacks, b.fallbacks, false),
  ].filter((c): c is Change => c !== null);
}

/** Compares run `b` against run `a`. */
export function compareReports(a: EvalReport, b: EvalReport): Comparison {
  const inA = new Map(a.questions.map((q) => [q.id, q]));
  const idsB = new Set(b.questions.map((q) => q.id));
  const result: Comparison = {
    better: [],
    worse: [],
    mixed: [],
    unchanged: 0,
    onlyInA: a.questions.filter((q) => !idsB.has(q.id)).map((q) => q.id),
    onlyInB: b.questions.filter((q) => !inA.has(q.id)).map((q) => q.id),
    summary: summaryChanges(a.summary, b.summary),
  };
  for (const qb of b.questions) {
    const qa = inA.get(qb.id);
    if (!qa) continue;
    const changes = questionChanges(qa, qb);
    const entry = { id: qb.id, question: qb.question, changes };
    const up = changes.some((c) => c.better);
    const down = changes.some((c) => !c.better);
    if (up && down) result.mixed.push(entry);
    else if (up) result.better.push(entry);
    else if (down) result.worse.push(entry);
    else result.unchanged++;
  }
  return result;
}

/** The comparison as text for a terminal. */
export function formatComparison(c: Comparison, names: [string, string]): string {
  const lines = [`Comparing ${names[0]} → ${names[1]}`, ''];
  const section = (title: string, list: QuestionChanges[]) => {
    if (!list.length) return;
    lines.push(`${title} (${list.length}):`);
    for (const q of list) {
      lines.push(`  ${q.id} ${q.question.length > 70 ? `${q.question.slice(0, 70)}…` : q.question}`);
      for (const ch of q.changes) lines.push(`    ${ch.better ? '+' : '-'} ${ch.what}`);
    }
    lines.push('');
  };
  section('Better', c.better);
  section('Worse', c.worse);
  section('Mixed', c.mixed);
  lines.push(`Unchanged: ${c.unchanged} question${c.unchanged === 1 ? '' : 's'}`);
  if (c.onlyInA.length) lines.push(`Only in ${names[0]}: ${c.onlyInA.join(', ')}`);
  if (c.onlyInB.length) lines.push(`Only in ${names[1]}: ${c.onlyInB.join(', ')}`);
  lines.push('', 'Summary:');
  if (!c.summary.length) lines.push('  no change');
  for (const ch of c.summary) lines.push(`  ${ch.better ? '+ better' : '- worse '}  ${ch.what}`);
  return lines.join('\n');
}
