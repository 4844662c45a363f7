/**
 * The router: one language-model call classifying a message as `lookup` (a narrow fact,
 * entity or definition) or `agent` (everything else). It asks for JSON through structured
 * output (`response_format: json_schema`) and falls back to a plain call when the provider
 * refuses that; a `lookup` below the confidence threshold and unparseable output both become
 * `agent`.
 */
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { LlmTarget } from '../llm/types.js';
import { complete } from '../llm/complete.js';
import type { Message, TokenUsage } from '../contract/chat.js';
import { usageOf } from '../llm/usage.js';

/** The contract's RouterDecision. */
export interface RouterDecision {
  route: 'lookup' | 'agent';
  confidence: number;
  reasoning: string;
  token_usage: TokenUsage | null;
}

/** Options of {@link classify}. */
export interface ClassifyOptions {
  /** Minimum confidence for `lookup` (`RAG_CONFIDENCE_THRESHOLD`). */
  threshold: number;
  /** Wait between 429 retries in ms. */
  retryDelayMs?: number;
  signal?: AbortSignal;
  /** Called before each wait after a 429. */
  onRetry?: (attempt: number) => void | Promise<void>;
}

/** The router's system prompt. */
export const ROUTER_PROMPT = `You are the router of a question-answering service over a knowledge graph.
Classify the user's latest message into one route:
- "lookup": ONLY a narrow data-retrieval request for one specific fact, entity or definition that can be answered by showing the best-matching graph nodes as they are.
- "agent": everything else - anything that needs a written answer, an explanation, a comparison, reasoning over several steps, counting or aggregating, or traversing relationships in the graph. When in doubt, choose "agent".
Answer with JSON only: {"route": "lookup" | "agent", "confidence": <number between 0 and 1>, "reasoning": "<one short sentence>"}`;

const DECISION_SCHEMA = {
  type: 'object',
  properties: {
    route: { type: 'string', enum: ['lookup', 'agent'] },
    confidence: { type: 'number' },
    reasoning: { type: 'string' },
  },
  required: ['route', 'confidence', 'reasoning'],
  additionalProperties: false,
} as const;

/** Parses the model's text into a route, confidence and reasoning, or null when it cannot. */
export function parseDecision(text: string | null | undefined): Omit<RouterDecision, 'token_usage'> | null {
  if (!text) return null;
  // Models sometimes wrap JSON in a code fence or add a sentence around it.
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  let obj: unknown;
  try {
    obj = JSON.parse(text.slice(start, end + 1));
  } catch {
    return null;
  }
  const o = obj as { route?: unknown; confidence?: unknown; reasoning?: unknown };
  const route = typeof o.route === 'string' ? o.route.trim().toLowerCase() : '';
  const confidence = typeof o.confidence === 'string' ? Number(o.confidence) : o.confidence;
  if ((route !== 'lookup' && route !== 'agent') || typeof confidence !== 'number' || !Number.isFinite(confidence)) return null;
  return {
    route,
    confidence: Math.min(1, Math.max(0, confidence)),
    reasoning: typeof o.reasoning === 'string' ? o.reasoning : '',
  };
}

/** Turns a parsed decision (or null) into the final one, applying the contract's rules. */
export function decide(parsed: Omit<RouterDecision, 'token_usage'> | null, threshold: number, usage: TokenUsage | null): RouterDecision {
  if (!parsed) {
    return { route: 'agent', confidence: 0, reasoning: 'the router output could not be parsed; using the agent', token_usage: usage };
  }
  if (parsed.route === 'lookup' && parsed.confidence < threshold) {
    return {
      ...parsed,
      route: 'agent',
      reasoning: `${parsed.reasoning} (lookup confidence ${parsed.confidence} is below ${threshold}; using the agent)`.trim(),
      token_usage: usage,
    };
  }
  return { ...parsed, token_usage: usage };
}

/** True when the provider rejected the request itself (e.g. it does not know `json_schema`). */
const isRequestRejected = (err: unknown) => {
  const status = (err as { status?: unknown } | null)?.status;
  return status === 400 || status === 422;
};

/** Classifies `question` (with trimmed `history`) with one model call (two when structured output is refused). */
export async function classify(target: LlmTarget, question: string, history: Message[], opts: ClassifyOptions): Promise<RouterDecision> {
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: ROUTER_PROMPT },
    ...history.map((m) => ({ role: m.role, content: m.content }) as ChatCompletionMessageParam),
    { role: 'user', content: question },
  ];
  const base: ChatCompletionCreateParamsNonStreaming = { model: target.model, messages, temperature: 0 };
  const call = (params: ChatCompletionCreateParamsNonStreaming) =>
    complete(target.client, params, { delayMs: opts.retryDelayMs, signal: opts.signal, onRetry: opts.onRetry });
  let completion: Awaited<ReturnType<typeof call>>;
  try {
    completion = await call({
      ...base,
      response_format: { type: 'json_schema', json_schema: { name: 'router_decision', strict: true, schema: DECISION_SCHEMA } },
    });
  } catch (err) {
    if (!isRequestRejected(err)) throw err;
    completion = await call(base);
  }
  return decide(parseDecision(completion.choices?.[0]?.message?.content), opts.threshold, usageOf(completion));
}
