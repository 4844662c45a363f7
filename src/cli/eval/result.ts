/**
 * What one evaluated question did, read from its job's events: route, agent steps, tool calls
 * and errors, the Cypher that ran, sources, checks against the expectations, latency and tokens.
 * Pure: the runner collects the events, this turns them into the record the reports show.
 */
import type { Route } from '../../contract/chat.js';
import type { EvalQuestion } from './questions.js';

/** How a question ended: answered, job error (or refused request), or out of time. */
export type EvalStatus = 'done' | 'error' | 'timeout';

/** An event of the job's stream, as received (unknown types are kept, never rejected). */
export interface TimedEvent {
  type: string;
  data: Record<string, unknown>;
  /** Milliseconds since the message was sent. */
  atMs: number;
}

/** What the runner observed for one question. */
export interface RunOutcome {
  status: EvalStatus;
  /** Why it failed: the job's error, or the refusal of the request. */
  error?: string;
  jobId?: string;
  sessionId?: string;
  events: TimedEvent[];
  /** Time spent waiting out 429s / 503s before the message was accepted, in ms. */
  waitedMs: number;
}

/** Where an expected node was found: among the sources, only in the answer text, or nowhere. */
export type NodeHit = 'source' | 'answer' | null;

/** The record of one question in a report (snake_case: it is written as JSON). */
export interface QuestionResult {
  id: string;
  line: number;
  question: string;
  session: string | null;
  status: EvalStatus;
  error: string | null;
  job_id: string | null;
  session_id: string | null;
  route: Route | null;
  confidence: number | null;
  fallback: boolean;
  fallback_reason: string | null;
  agent_steps: number;
  tool_calls: { tool: string; args: unknown }[];
  tool_errors: { tool: string; summary: string }[];
  /** The `notices` a tool result carries (graph_query: unknown names, reversed relationships, …; src/graph/cypher/query-notices.ts). */
  notices: { tool: string; notice: unknown }[];
  model_retries: number;
  cypher: string[];
  sources: { dbId: number; displayName: string; score: number | null }[];
  answer: string;
  expected_route: Route | null;
  route_ok: boolean | null;
  expected_nodes: { node: string; hit: NodeHit }[];
  expected_answer_contains: { text: string; found: boolean }[];
  latency_ms: { first_event: number | null; first_answer: number | null; done: number | null };
  tokens: { input: number; output: number } | null;
  rate_limit_wait_ms: number;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const ms = (v: number | undefined) => (v === undefined ? null : Math.round(v));

/** Whether `node` (a dbId or a display name) is among `sources`, else named in `answer`. */
export function findNode(node: string, sources: QuestionResult['sources'], answer: string): NodeHit {
  const key = node.trim().toLowerCase();
  if (sources.some((s) => String(s.dbId) === key || s.displayName.trim().toLowerCase() === key)) return 'source';
  // A bare number says nothing when it turns up in prose ("1969"), so dbIds count among sources only.
  if (!/^\d+$/.test(key) && answer.toLowerCase().includes(key)) return 'answer';
  return null;
}

function readSources(value: unknown): QuestionResult['sources'] {
  if (!Array.isArray(value)) return [];
  return value.map((s: Record<string, unknown>) => ({
    dbId: Number(s.dbId),
    displayName: str(s.displayName),
    score: num(s.score),
  }));
}

/** Builds the record of `q` from what the runner saw. */
export function toQuestionResult(q: EvalQuestion, run: RunOutcome): QuestionResult {
  const of = (type: string) => run.events.filter((e) => e.type === type);
  const routing = of('routing_done')[0]?.data;
  const done = of('job_done')[0];
  const failed = of('job_error')[0];
  const answer = str(done?.data.answer);
  const sources = readSources(done?.data.sources);
  const toolCalls = of('tool_call').map((e) => ({ tool: str(e.data.tool), args: e.data.args }));
  const results = of('tool_result');
  const route = routing ? (str(routing.route) as Route) : done ? (str(done.data.route_taken) as Route) : null;
  const usage = done?.data.token_usage as { input_tokens?: number; output_tokens?: number } | null | undefined;
  const firstAnswer = run.events.find((e) => e.type === 'answer_delta' || e.type === 'job_done');
  return {
    id: q.id,
    line: q.line,
    question: q.question,
    session: q.session ?? null,
    status: run.status,
    error: run.error ?? (failed ? str(failed.data.error) : null),
    job_id: run.jobId ?? null,
    session_id: run.sessionId ?? null,
    route: route || null,
    confidence: routing ? num(routing.confidence) : null,
    fallback: routing?.fallback === true,
    fallback_reason: routing?.fallback === true ? str(routing.reasoning) : null,
    agent_steps: of('agent_step').length,
    tool_calls: toolCalls,
    tool_errors: results
      .filter((e) => str(e.data.summary).startsWith('Tool error'))
      .map((e) => ({ tool: str(e.data.tool), summary: str(e.data.summary) })),
    notices: results.flatMap((e) => {
      const n = e.data.notices;
      const list = Array.isArray(n) ? n : n === undefined || n === null ? [] : [n];
      return list.map((notice) => ({ tool: str(e.data.tool), notice }));
    }),
    model_retries: of('model_retry').length,
    cypher: toolCalls.filter((c) => c.tool === 'graph_query').map((c) => cypherOf(c.args)),
    sources,
    answer,
    expected_route: q.expectedRoute ?? null,
    // A route the router chose counts even when the answer then failed or ran out of time.
    route_ok: q.expectedRoute ? route === q.expectedRoute : null,
    expected_nodes: q.expectedNodes.map((node) => ({ node, hit: findNode(node, sources, answer) })),
    expected_answer_contains: q.expectedAnswerContains.map((text) => ({
      text,
      found: answer.toLowerCase().includes(text.toLowerCase()),
    })),
    latency_ms: {
      first_event: ms(run.events[0]?.atMs),
      first_answer: ms(firstAnswer?.atMs),
      done: ms((done ?? failed)?.atMs),
    },
    tokens: usage ? { input: usage.input_tokens ?? 0, output: usage.output_tokens ?? 0 } : null,
    rate_limit_wait_ms: Math.round(run.waitedMs),
  };
}

/** The Cypher of a `graph_query` call (its arguments as the model sent them when not an object). */
function cypherOf(args: unknown): string {
  if (args && typeof args === 'object' && 'cypher_query' in args) return str((args as { cypher_query: unknown }).cypher_query);
  return typeof args === 'string' ? args : JSON.stringify(args);
}
