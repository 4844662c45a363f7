/** `eval --write-examples` and `--examples`: the examples a run yields, and the side-by-side table. */
import { describe, expect, it } from 'vitest';
import { examplesOfRun, sideBySide } from '../../../../src/cli/eval/examples.js';
import { summarize, type EvalReport } from '../../../../src/cli/eval/report.js';
import type { QuestionResult } from '../../../../src/cli/eval/result.js';
import { parseExamples } from '../../../../src/examples/format.js';

const result = (id: string, over: Partial<QuestionResult> = {}): QuestionResult => ({
  id,
  line: 2,
  question: `Question ${id}?`,
  session: null,
  status: 'done',
  error: null,
  job_id: null,
  session_id: null,
  route: 'agent',
  confidence: 0.9,
  fallback: false,
  fallback_reason: null,
  agent_steps: 2,
  tool_calls: [],
  tool_errors: [],
  notices: [],
  model_retries: 0,
  cypher: [],
  sources: [],
  answer: 'an answer',
  expected_route: null,
  route_ok: null,
  expected_nodes: [],
  expected_answer_contains: [{ text: 'x', found: true }],
  latency_ms: { first_event: 1, first_answer: 2, done: 3 },
  tokens: { input: 10, output: 2 },
  rate_limit_wait_ms: 0,
  ...over,
});

const report = (questions: QuestionResult[]): EvalReport => ({
  version: 1,
  created_at: '2026-11-28T00:00:00Z',
  service: 'http://127.0.0.1:8000',
  questions_file: 'q.csv',
  settings: { concurrency: 1, timeout_seconds: 120 },
  service_config: null,
  summary: summarize(questions),
  questions,
});

describe('eval and examples', () => {
  it('writes the right answers with the last Cypher they ran, as a file the examples reader takes', () => {
    const runs = [
      result('a', { cypher: ['MATCH (n) RETURN n LIMIT 1', 'MATCH (m:Movie) RETURN count(m)'] }),
      result('b', { cypher: ['RETURN 1'], expected_answer_contains: [{ text: 'x', found: false }] }),
      result('c', { route: 'lookup' }),
    ];
    const out = examplesOfRun(runs, 'q.csv');
    expect(out).toMatchObject({ written: 1, noCypher: 1 });
    const { examples, rejected } = parseExamples(out.text, 'neo4j');
    expect(rejected).toEqual([]);
    expect(examples).toMatchObject([
      { question: 'Question a?', cypher: 'MATCH (m:Movie) RETURN count(m)', note: expect.stringContaining('question a') },
    ]);
  });

  it('shows a run without and one with examples side by side', () => {
    const without = report([result('a', { expected_answer_contains: [{ text: 'x', found: false }] }), result('b')]);
    const withExamples = report([result('a'), result('b')]);
    const table = sideBySide(without, withExamples, 'ex.jsonl');
    expect(table).toContain('| Measure | without examples | with examples |');
    expect(table).toContain('| All checks passed | 1/2 | 2/2 |');
    expect(table).toContain('`ex.jsonl`');
  });
});
