/**
 * The router: one language-model call classifying a message as `lookup` (a narrow fact,
 * entity or definition) or `agent` (everything else). It asks for JSON through structured
 * output (`response_format: json_schema`), falling back to JSON mode and then to a plain call
 * when the server refuses that form; a `lookup` below the confidence threshold and unparseable
 * output both become `agent`.
 */
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { LlmTarget } from '../llm/types.js';
import { complete } from '../llm/complete.js';
import type { Message, TokenUsage } from '../contract/chat.js';
import { usageOf } from '../llm/usage.js';
import { estimateTokens, fitContext } from '../llm/context-budget.js';
import { isRefusal, LlmRefusedError, noteRefusal, refusalText, STRUCTURED_FORMS, type StructuredForm } from '../llm/protocol.js';

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

/** `route` and `confidence` read from JSON that was cut off, or null. */
function partialDecision(text: string): Record<string, unknown> | null {
  const route = /"route"\s*:\s*"(\w+)"/.exec(text)?.[1];
  const confidence = /"confidence"\s*:\s*(-?\d+(?:\.\d+)?)/.exec(text)?.[1];
  const reasoning = /"reasoning"\s*:\s*"((?:[^"\\]|\\.)*)/.exec(text)?.[1];
  return route && confidence ? { route, confidence: Number(confidence), reasoning: reasoning ? `${reasoning}…` : '' } : null;
}

/** Parses the model's text into a route, confidence and reasoning, or null when it cannot. */
export function parseDecision(text: string | null | undefined): Omit<RouterDecision, 'token_usage'> | null {
  if (!text) return null;
  // Models sometimes wrap JSON in a code fence or add a sentence around it.
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0) return null;
  let obj: unknown;
  try {
    obj = JSON.parse(text.slice(start, end + 1));
  } catch {
    // Cut off by max_tokens in the middle of its reasoning (small models write long ones):
    // the route and confidence come first and are still there.
    obj = partialDecision(text.slice(start));
  }
  if (!obj) return null;
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

/** The router's answer is one small JSON object. */
const ROUTER_MAX_TOKENS = 256;

/** The request in one structured-output form: JSON mode and plain text carry the schema in the prompt instead. */
function inForm(base: ChatCompletionCreateParamsNonStreaming, form: StructuredForm): ChatCompletionCreateParamsNonStreaming {
  if (form === 'json_schema') {
    return {
      ...base,
      response_format: { type: 'json_schema', json_schema: { name: 'router_decision', strict: true, schema: DECISION_SCHEMA } },
    };
  }
  const [system, ...rest] = base.messages;
  const withSchema = {
    role: 'system' as const,
    content: `${system!.content as string}\nJSON schema of the answer: ${JSON.stringify(DECISION_SCHEMA)}`,
  };
  // `schema` beside `json_object` is llama.cpp's extension (output held to the schema); others ignore it.
  // Its grammar also holds the reasoning short, so the answer ends before max_tokens.
  const schema = { ...DECISION_SCHEMA, properties: { ...DECISION_SCHEMA.properties, reasoning: { type: 'string', maxLength: 200 } } };
  const jsonMode = { response_format: { type: 'json_object' as const, schema } as { type: 'json_object' } };
  return { ...base, messages: [withSchema, ...rest], ...(form === 'json_object' ? jsonMode : {}) };
}

/**
 * Classifies `question` (with trimmed `history`, shortened to the router's context budget)
 * with one model call, in the best structured-output form the server has not refused; a
 * refused form is followed by the next one down (see src/llm/protocol.ts), and a form that
 * worked after a refusal is remembered for the server and model.
 * @throws LlmRefusedError when every form was refused; ContextBudgetError when the question does not fit.
 */
export async function classify(target: LlmTarget, question: string, history: Message[], opts: ClassifyOptions): Promise<RouterDecision> {
  const maxTokens = Math.min(ROUTER_MAX_TOKENS, target.maxTokens);
  const { messages } = fitContext(
    [
      { role: 'system', content: ROUTER_PROMPT },
      ...history.map((m) => ({ role: m.role, content: m.content }) as ChatCompletionMessageParam),
      { role: 'user', content: question },
    ],
    [],
    {
      contextTokens: target.contextTokens,
      reserveTokens: maxTokens + estimateTokens(JSON.stringify(DECISION_SCHEMA)),
      setting: target.contextSetting,
    },
    history.length + 1,
  );
  const base: ChatCompletionCreateParamsNonStreaming = { model: target.model, messages, temperature: 0, max_tokens: maxTokens };
  const call = (params: ChatCompletionCreateParamsNonStreaming) =>
    complete(target.client, params, { delayMs: opts.retryDelayMs, signal: opts.signal, onRetry: opts.onRetry });
  const forms = target.forms;
  const refused: string[] = [];
  for (const form of STRUCTURED_FORMS.slice(STRUCTURED_FORMS.indexOf(forms.structured))) {
    try {
      const completion = await call(inForm(base, form));
      if (form !== forms.structured) forms.structured = form;
      return decide(parseDecision(completion.choices?.[0]?.message?.content), opts.threshold, usageOf(completion));
    } catch (err) {
      if (!isRefusal(err)) throw err;
      noteRefusal(forms, `response_format ${form}`, err);
      refused.push(`${form === 'text' ? 'a plain request' : `response_format ${form}`}: ${refusalText(err)}`);
      if (form === 'text') {
        throw new LlmRefusedError(`it refused ${refused.join('; ')}`, (err as { status?: number }).status, { cause: err });
      }
    }
  }
  // Unreachable: the loop returns or throws at `text`.
  throw new Error('router: no request form left');
}
