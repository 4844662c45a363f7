/**
 * Shapes shared by the chat worker, its route handlers (lookup, agent) and the API: the
 * contract's Message, JobEvent, TokenUsage and ChatResponse, and the seam a route handler plugs
 * into.
 */
import type { SourceNode } from '../embeddings/types.js';
import type { LlmTarget } from '../llm/types.js';

/** Token counts; two usages add field by field. */
export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
}

/** One event of a job (`routing_started`, `routing_done`, `agent_step`, `tool_call`, …). */
export interface JobEvent {
  type: string;
  data: Record<string, unknown>;
}

/** A message of a session's history. */
export interface Message {
  role: 'user' | 'assistant';
  content: string;
  route: 'lookup' | 'agent' | null;
  confidence: number | null;
  events: JobEvent[];
}

/** The result of a finished job. */
export interface ChatResponse {
  session_id: string;
  answer: string;
  route_taken: 'lookup' | 'agent';
  sources: SourceNode[];
  token_usage: TokenUsage | null;
}

/** What a route handler receives for one job. */
export interface RouteInput {
  /** The user's message. */
  question: string;
  /** Earlier messages of the session, already trimmed to the last 10 pairs. */
  history: Message[];
  /** The graph (Neo4j database) the chat runs against. */
  graph: string;
  /** The agent model for this job (provider and model after `x-llm-*` overrides). */
  llm: LlmTarget;
  /** Records an event; it reaches SSE clients through Redis. */
  emit(event: JobEvent): Promise<void>;
  /** Counts tokens as they are consumed (rate limit) — call after every model call. */
  recordUsage(usage: TokenUsage): Promise<void>;
  /** Aborted when the worker shuts down past its grace period. */
  signal: AbortSignal;
}

/** What a route handler returns; the worker adds the router's usage and the session id. */
export interface RouteOutput {
  answer: string;
  sources: SourceNode[];
  token_usage: TokenUsage | null;
}

/** A handler of one route (`lookup` or `agent`). Failures throw; the worker turns them into `job_error`. */
export type RouteHandler = (input: RouteInput) => Promise<RouteOutput>;

/** Adds two usages; null counts as zero, two nulls stay null. */
export function addUsage(a: TokenUsage | null, b: TokenUsage | null): TokenUsage | null {
  if (!a) return b;
  if (!b) return a;
  return { input_tokens: a.input_tokens + b.input_tokens, output_tokens: a.output_tokens + b.output_tokens };
}

/** The usage a chat completion reports, as TokenUsage; null when it reports none. */
export function usageOf(completion: {
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
}): TokenUsage | null {
  const u = completion.usage;
  return u ? { input_tokens: u.prompt_tokens ?? 0, output_tokens: u.completion_tokens ?? 0 } : null;
}
