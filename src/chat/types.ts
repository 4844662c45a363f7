/**
 * The seam a route handler (lookup, agent) plugs into. The wire
 * shapes (Message, JobEvent, TokenUsage, ChatResponse) are in src/contract/chat.ts.
 */
import type { JobEvent, Message, TokenUsage } from '../contract/chat.js';
import type { SourceNode } from '../contract/search.js';
import type { LlmTarget } from '../llm/types.js';

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
  /** False: leave the graph's examples out of the agent's prompt (`x-agent-examples: off`); default true. */
  examples?: boolean;
}

/** What a route handler returns; the worker adds the router's usage and the session id. */
export interface RouteOutput {
  answer: string;
  sources: SourceNode[];
  token_usage: TokenUsage | null;
}

/** A handler of one route (`lookup` or `agent`). Failures throw; the worker turns them into `job_error`. */
export type RouteHandler = (input: RouteInput) => Promise<RouteOutput>;
