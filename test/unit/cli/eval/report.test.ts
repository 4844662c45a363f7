/** `eval`'s records, summary and `--compare`: pure functions over job events and reports. */
import { describe, expect, it } from 'vitest';
import { compareReports, formatComparison } from '../../../../src/cli/eval/compare.js';
import { renderMarkdown } from '../../../../src/cli/eval/markdown.js';
import type { EvalQuestion } from '../../../../src/cli/eval/questions.js';
import { percentile, summarize, type EvalReport } from '../../../../src/cli/eval/report.js';
import { toQuestionResult, type QuestionResult, type TimedEvent } from '../../../../src/cli/eval/result.js';

const question = (over: Partial<EvalQuestion> = {}): EvalQuestion => ({
  id: 'q1',
  line: 2,
  question: 'Who walked on the Moon first?',
  expectedNodes: ['Neil Armstrong', '43', 'Apollo 11'],
  expectedAnswerContains: ['1969', 'Buzz'],
  expectedRoute: 'agent',
  ...over,
});

const ev = (type: string, data: Record<string, unknown>, atMs: number): TimedEvent => ({ type, data, atMs });

/** An agent job: one graph_query, one failing tool call, a notice, then the answer. */
const agentEvents = (answer = 'Neil Armstrong, in 1969.'): TimedEvent[] => [
  ev('routing_started', {}, 12),
  ev('routing_done', { route: 'agent', confidence: 0.8, reasoning: 'needs prose' }, 40),
  ev('agent_step', { iteration: 1, model: 'm' }, 41),
  ev('tool_call', { tool: 'graph_query', args: { cypher_query: 'MATCH (p:Person) RETURN p LIMIT 1' } }, 50),
  ev('tool_result', { tool: 'graph_query', summary: '1 row', notices: ['cut at 100 rows'] }, 60),
  ev('tool_call', { tool: 'vector_search', args: { query: 'moon' } }, 61),
  ev('tool_result', { tool: 'vector_search', summary: 'Tool error: the index is missing' }, 70),
  ev('agent_step', { iteration: 2, model: 'm' }, 71),
  ev('answer_delta', { text: 'Neil' }, 90),
  ev(
    'job_done',
    {
      answer,
      route_taken: 'agent',
      session_id: 's',
      sources: [{ dbId: 43, displayName: 'Moon', text: '', score: 0.9, labels: [] }],
      token_usage: { input_tokens: 100, output_tokens: 20 },
    },
    120,
  ),
];

const record = (over: Partial<EvalQuestion> = {}, events = agentEvents()) =>
  toQuestionResult(question(over), { status: 'done', events, waitedMs: 0, jobId: 'j', sessionId: 's' });

describe('toQuestionResult', () => {
  it('reads route, steps, tools, errors, notices, Cypher, checks, latency and tokens from the events', () => {
    const r = record();
    expect(r).toMatchObject({
      status: 'done',
      route: 'agent',
      confidence: 0.8,
      route_ok: true,
      fallback: false,
      agent_steps: 2,
      cypher: ['MATCH (p:Person) RETURN p LIMIT 1'],
      tool_errors: [{ tool: 'vector_search', summary: 'Tool error: the index is missing' }],
      notices: [{ tool: 'graph_query', notice: 'cut at 100 rows' }],
      latency_ms: { first_event: 12, first_answer: 90, done: 120 },
      tokens: { input: 100, output: 20 },
    });
    expect(r.tool_calls.map((c) => c.tool)).toEqual(['graph_query', 'vector_search']);
    // A name in the answer counts; a dbId only among sources; a missing node is null.
    expect(r.expected_nodes).toEqual([
      { node: 'Neil Armstrong', hit: 'answer' },
      { node: '43', hit: 'source' },
      { node: 'Apollo 11', hit: null },
    ]);
    expect(r.expected_answer_contains).toEqual([
      { text: '1969', found: true },
      { text: 'Buzz', found: false },
    ]);
  });

  it('a lookup answer: wrong route, router fallback with its reason, first answer = done', () => {
    const r = record({ expectedRoute: 'agent' }, [
      ev('routing_done', { route: 'lookup', confidence: 0, reasoning: 'answered by lookup because the router is down', fallback: true }, 5),
      ev('job_done', { answer: '### Moon', route_taken: 'lookup', session_id: 's', sources: [], token_usage: null }, 30),
    ]);
    expect(r).toMatchObject({ route_ok: false, fallback: true, fallback_reason: 'answered by lookup because the router is down' });
    expect(r.latency_ms).toEqual({ first_event: 5, first_answer: 30, done: 30 });
    expect(r.tokens).toBeNull();
  });
});

describe('summarize', () => {
  it('counts statuses and checks and takes nearest-rank percentiles', () => {
    expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3);
    expect(percentile([5, 1, 4, 2, 3], 95)).toBe(5);
    expect(percentile([], 50)).toBeNull();
    const ok = record({ expectedNodes: ['43'], expectedAnswerContains: ['1969'] });
    const wrong = record({ id: 'q2', expectedRoute: 'lookup' });
    const late = toQuestionResult(question({ id: 'q3' }), { status: 'timeout', events: agentEvents().slice(0, 3), waitedMs: 0 });
    const s = summarize([ok, wrong, late]);
    expect(s).toMatchObject({ questions: 3, done: 2, timeout: 1, error: 0, all_checks_passed: 1 });
    expect(s.route).toEqual({ passed: 2, total: 3, rate: 2 / 3 });
    expect(s.nodes).toMatchObject({ passed: 3, total: 7 });
    expect(s.nodes_in_sources).toMatchObject({ passed: 2, total: 7 });
    expect(s.answer_contains).toMatchObject({ passed: 2, total: 5 });
    expect(s.tokens).toEqual({ input: 200, output: 40 });
    expect(s.latency_ms.done).toEqual({ p50: 120, p95: 120 });
  });
});

const report = (questions: QuestionResult[]): EvalReport => ({
  version: 1,
  created_at: '2025-01-01T00:00:00Z',
  service: 'http://x',
  questions_file: 'set.csv',
  settings: { concurrency: 1, timeout_seconds: 5 },
  service_config: null,
  summary: summarize(questions),
  questions,
});

describe('compareReports', () => {
  it('sorts questions into better, worse, mixed and unchanged, and compares the summaries', () => {
    const q = (id: string, over: Partial<EvalQuestion> = {}, events = agentEvents()) => record({ id, ...over }, events);
    const a = report([
      q('same'),
      q('up', { expectedRoute: 'lookup' }),
      q('down', {}, agentEvents('no idea')),
      q('mixed', { expectedRoute: 'lookup' }),
      q('gone'),
    ]);
    const b = report([
      q('same'),
      q('up', { expectedRoute: 'lookup' }, [
        ev('routing_done', { route: 'lookup', confidence: 0.9, reasoning: '' }, 1),
        ...agentEvents().slice(2),
      ]),
      toQuestionResult(question({ id: 'down' }), { status: 'timeout', events: [], waitedMs: 0 }),
      q('mixed', { expectedRoute: 'lookup' }, [
        ev('routing_done', { route: 'lookup', confidence: 0.9, reasoning: '' }, 1),
        ...agentEvents('nothing useful').slice(2),
      ]),
      q('new'),
    ]);
    const c = compareReports(a, b);
    expect(c.better.map((x) => x.id)).toEqual(['up']);
    expect(c.better[0]!.changes).toEqual([{ better: true, what: 'route agent → lookup (expected lookup)' }]);
    expect(c.worse.map((x) => x.id)).toEqual(['down']);
    expect(c.worse[0]!.changes[0]).toEqual({ better: false, what: 'status done → timeout' });
    expect(c.mixed.map((x) => x.id)).toEqual(['mixed']);
    expect(c.unchanged).toBe(1);
    expect(c.onlyInA).toEqual(['gone']);
    expect(c.onlyInB).toEqual(['new']);
    expect(c.summary).toContainEqual({ better: false, what: 'done 5 → 4' });
    expect(c.summary).toContainEqual({ better: false, what: 'timeouts 0 → 1' });
    const text = formatComparison(c, ['a.json', 'b.json']);
    expect(text).toContain('Better (1):');
    expect(text).toContain('    - status done → timeout');
    expect(text).toContain('Only in a.json: gone');
    // Two equal runs: nothing to say.
    const same = compareReports(a, a);
    expect([same.better, same.worse, same.mixed, same.summary]).toEqual([[], [], [], []]);
  });
});

describe('renderMarkdown', () => {
  it('has the summary table and a section per question with its Cypher', () => {
    const md = renderMarkdown(report([record(), record({ id: 'q2', expectedRoute: 'lookup' })]));
    expect(md).toContain('| Done / error / timeout | 2 / 0 / 0 |');
    expect(md).toContain('| Route accuracy | 1/2 (50%) |');
    expect(md).toContain('### q1 ✗ Who walked on the Moon first?');
    expect(md).toContain('```cypher\nMATCH (p:Person) RETURN p LIMIT 1\n```');
    expect(md).toContain('- Tool error (vector_search): Tool error: the index is missing');
  });
});
