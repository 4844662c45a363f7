/**
 * The report of an evaluation run: what was run against which settings, the summary figures and
 * every question's record. Written as JSON (`report.json`, what `--compare` reads) and as
 * Markdown (`report.md`, src/cli/eval/markdown.ts).
 */
import type { QuestionResult } from './result.js';

/** Nearest-rank percentiles of some latencies, in ms (null when there are none). */
export interface LatencyFigures {
  p50: number | null;
  p95: number | null;
}

/** A count of checks passed out of those made; `rate` 0..1, null when none were made. */
export interface Tally {
  passed: number;
  total: number;
  rate: number | null;
}

/** The summary of a run. */
export interface EvalSummary {
  questions: number;
  done: number;
  error: number;
  timeout: number;
  /** Questions whose every check passed (status done, route, nodes, strings). */
  all_checks_passed: number;
  route: Tally;
  /** Expected nodes among the sources or named in the answer. */
  nodes: Tally;
  /** Expected nodes among the sources. */
  nodes_in_sources: Tally;
  answer_contains: Tally;
  latency_ms: { first_event: LatencyFigures; first_answer: LatencyFigures; done: LatencyFigures };
  tokens: { input: number; output: number };
  agent_steps: number;
  tool_calls: number;
  tool_errors: number;
  fallbacks: number;
}

/** A whole report as written to `report.json`. */
export interface EvalReport {
  /** Format version of this file. */
  version: 1;
  created_at: string;
  /** API address the run used. */
  service: string;
  /** The question file as given. */
  questions_file: string;
  settings: { concurrency: number; timeout_seconds: number };
  /** `GET /config` of the service at the start (models, providers, limits), when it answered. */
  service_config: Record<string, unknown> | null;
  summary: EvalSummary;
  questions: QuestionResult[];
}

/** Nearest-rank percentile `p` (0..100) of `values`. */
export function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const tally = (passed: number, total: number): Tally => ({ passed, total, rate: total ? passed / total : null });

const latency = (values: (number | null)[]): LatencyFigures => {
  const v = values.filter((x): x is number => x !== null);
  return { p50: percentile(v, 50), p95: percentile(v, 95) };
};

/** Whether every check of a question passed (a question with no expectations needs only to be done). */
export function allChecksPassed(r: QuestionResult): boolean {
  return (
    r.status === 'done' &&
    r.route_ok !== false &&
    r.expected_nodes.every((n) => n.hit !== null) &&
    r.expected_answer_contains.every((c) => c.found)
  );
}

/** The summary figures of a run's records. */
export function summarize(results: QuestionResult[]): EvalSummary {
  const count = (f: (r: QuestionResult) => boolean) => results.filter(f).length;
  const nodes = results.flatMap((r) => r.expected_nodes);
  const strings = results.flatMap((r) => r.expected_answer_contains);
  const sum = (f: (r: QuestionResult) => number) => results.reduce((n, r) => n + f(r), 0);
  return {
    questions: results.length,
    done: count((r) => r.status === 'done'),
    error: count((r) => r.status === 'error'),
    timeout: count((r) => r.status === 'timeout'),
    all_checks_passed: count(allChecksPassed),
    route: tally(
      count((r) => r.route_ok === true),
      count((r) => r.route_ok !== null),
    ),
    nodes: tally(nodes.filter((n) => n.hit !== null).length, nodes.length),
    nodes_in_sources: tally(nodes.filter((n) => n.hit === 'source').length, nodes.length),
    answer_contains: tally(strings.filter((s) => s.found).length, strings.length),
    latency_ms: {
      first_event: latency(results.map((r) => r.latency_ms.first_event)),
      first_answer: latency(results.map((r) => r.latency_ms.first_answer)),
      done: latency(results.map((r) => r.latency_ms.done)),
    },
    tokens: { input: sum((r) => r.tokens?.input ?? 0), output: sum((r) => r.tokens?.output ?? 0) },
    agent_steps: sum((r) => r.agent_steps),
    tool_calls: sum((r) => r.tool_calls.length),
    tool_errors: sum((r) => r.tool_errors.length),
    fallbacks: count((r) => r.fallback),
  };
}

/**
 * Reads a report written by `eval --out`.
 * @throws Error naming the file when it is not such a report.
 */
export function parseReport(text: string, name: string): EvalReport {
  let report: EvalReport;
  try {
    report = JSON.parse(text) as EvalReport;
  } catch (err) {
    throw new Error(`${name}: not JSON (${(err as Error).message})`);
  }
  if (report?.version !== 1 || !Array.isArray(report.questions) || !report.summary) {
    throw new Error(`${name}: not an eval report (write one with: eval <questions> --out <name>)`);
  }
  return report;
}
