/**
 * The tool-calling loop: call the model with the conversation and the tools, run every tool
 * call it asks for (in order), feed the results back, and stop when it answers without tool
 * calls. Iteration limit: at most `maxIterations` (32) model calls in total. The last allowed
 * call is made with `tool_choice: "none"` and an instruction to answer with what it has, so a
 * model that never stops costs exactly 32 calls and still yields an answer; the answer then
 * ends with a note that the limit was reached. HTTP 429 is retried (3 times, 2 s apart by
 * default); a fourth 429 or any other model error fails the job. A call repeated with the same
 * arguments is answered from memory (./repeats.ts).
 */
import type OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionMessageFunctionToolCall, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { JobEvent, TokenUsage } from '../contract/chat.js';
import { estimateTokens, fitContext } from '../llm/context-budget.js';
import { noteRefusal } from '../llm/protocol.js';
import { addUsage, usageOf } from '../llm/usage.js';
import type { LlmTarget } from '../llm/types.js';
import { type CompleteOptions, complete } from '../llm/complete.js';
import { isRateLimited, modelRetry } from '../llm/retry.js';
import { createAnswerStream } from './answer-stream.js';
import { limitReachedInstruction, STUCK_INSTRUCTION } from './prompt.js';
import { createCallMemory } from './repeats.js';
import { eventExtras, parseArgs, runTool, toOpenAiTools, toolArgs, type AgentTool, type ToolContext } from './tools.js';

/** The contract's iteration limit. */
export const MAX_ITERATIONS = 32;

/** Options of {@link runAgentLoop}. */
export interface AgentLoopOptions {
  llm: LlmTarget;
  /** System prompt, history and the question, in order. */
  messages: ChatCompletionMessageParam[];
  tools: readonly AgentTool[];
  ctx: ToolContext;
  emit(event: JobEvent): Promise<void>;
  recordUsage(usage: TokenUsage): Promise<void>;
  signal?: AbortSignal;
  /** Default {@link MAX_ITERATIONS}. */
  maxIterations?: number;
  /** Wait between 429 retries in ms (config `LLM_RETRY_DELAY_MS`, default 2,000). */
  retryDelayMs?: number;
  /** 429 retries per model call (default 3). */
  retries?: number;
  /** Characters of the system prompt the context budget keeps at least (`systemPromptFloor`: its examples are never cut). */
  systemFloorChars?: number;
}

/** The loop's outcome. */
export interface AgentLoopResult {
  answer: string;
  /** Summed over every model call; null when no call reported usage. */
  usage: TokenUsage | null;
  /** Model calls made. */
  iterations: number;
  limitReached: boolean;
}

/** The job error after the last 429 retry. */
export function rateLimitedMessage(retries: number, delayMs: number): string {
  return `the language model kept answering HTTP 429 (rate limited) after ${retries} retries ${delayMs / 1000} s apart; try again later`;
}

/** Appended to the answer when the loop hit its limit. */
export function limitNote(maxIterations: number): string {
  return `_(Stopped at the limit of ${maxIterations} steps; this answer may be incomplete.)_`;
}

/** Ends an answer cut short because the model repeated one call ({@link STUCK_INSTRUCTION}). */
export const STUCK_NOTE = '_(Stopped early: the model kept repeating the same tool call; this answer may be incomplete.)_';

/** Runs the loop to an answer. Tool failures go back to the model; model failures throw. */
export async function runAgentLoop(opts: AgentLoopOptions): Promise<AgentLoopResult> {
  const max = opts.maxIterations ?? MAX_ITERATIONS;
  const retries = opts.retries ?? 3;
  const delayMs = opts.retryDelayMs ?? 2_000;
  const tools = toOpenAiTools(opts.tools);
  const messages = [...opts.messages];
  const questionIndex = messages.findLastIndex((m) => m.role === 'user');
  const { llm } = opts;
  const budget = { contextTokens: llm.contextTokens, reserveTokens: llm.maxTokens, setting: llm.contextSetting };
  let usage: TokenUsage | null = null;
  const memory = createCallMemory();

  let stuck = false;
  for (let iteration = 1; iteration <= max; iteration++) {
    const atLimit = iteration === max;
    // A model that keeps sending a call it was told twice gives the same would run to the limit.
    const last = atLimit || stuck;
    if (atLimit && max > 1) messages.push({ role: 'system', content: limitReachedInstruction(max) });
    else if (stuck) messages.push({ role: 'system', content: STUCK_INSTRUCTION });
    const fitted = fitContext(messages, tools, budget, questionIndex, opts.systemFloorChars);
    await opts.emit({ type: 'agent_step', data: { iteration, model: llm.model, prompt_tokens: fitted.promptTokens } });

    const body = {
      model: llm.model,
      messages: fitted.messages,
      tools,
      tool_choice: last ? ('none' as const) : ('auto' as const),
      max_tokens: llm.maxTokens,
    };
    const { completion, estimated } = await callModel(llm, body, fitted.promptTokens, opts, delayMs, retries);

    const u = usageOf(completion) ?? estimated;
    usage = addUsage(usage, u);
    await opts.recordUsage(u);
    const message = completion.choices?.[0]?.message;
    if (!message) throw new Error('the language model returned no message (an empty "choices" list)');
    const calls = toolCallsOf(message);
    const content = message.content?.trim() ?? '';

    if (!calls.length || last) {
      if (!last) return { answer: content || 'The model returned an empty answer.', usage, iterations: iteration, limitReached: false };
      const [fallback, note] = atLimit
        ? ['I could not finish answering within the step limit.', limitNote(max)]
        : ['I could not finish answering: the model kept repeating one tool call.', STUCK_NOTE];
      return { answer: `${content || fallback}\n\n${note}`, usage, iterations: iteration, limitReached: atLimit };
    }

    // `content: ""`, not null: some servers (llama-cpp-python) answer a null content with HTTP 500.
    messages.push({ role: 'assistant', content: message.content ?? '', tool_calls: calls });
    stuck = true;
    for (const call of calls) {
      opts.signal?.throwIfAborted();
      const name = call.function.name;
      const raw = call.function.arguments ?? '';
      const args = parseArgs(raw);
      await opts.emit({ type: 'tool_call', data: { tool: name, args } });
      const key = toolArgs(opts.tools, name, args);
      let result = memory.repeat(name, key);
      if (!result) {
        result = await runTool(opts.tools, name, raw, opts.ctx);
        memory.remember(name, key, iteration, result);
      }
      stuck &&= memory.stuck;
      await opts.emit({ type: 'tool_result', data: { tool: name, summary: result.summary, ...eventExtras(result) } });
      messages.push({ role: 'tool', tool_call_id: call.id, content: result.text });
    }
  }
  // Unreachable: the last iteration always returns.
  throw new Error('agent loop ended without an answer');
}

/** The tool calls of a message; a legacy `function_call` (llama-cpp-python's stream helper) counts as one. */
function toolCallsOf(message: Partial<ChatCompletion['choices'][number]['message']>): ChatCompletionMessageFunctionToolCall[] {
  const calls = (message.tool_calls ?? []).filter((c): c is ChatCompletionMessageFunctionToolCall => c.type === 'function');
  const legacy = (message as { function_call?: { name: string; arguments: string } | null }).function_call;
  return calls.length || !legacy?.name ? calls : [{ id: 'call_legacy_1', type: 'function', function: legacy }];
}

/**
 * One model call of the loop: streamed (text goes out as `answer_delta` while it is written)
 * unless the server was found to send empty streams with tools, in which case the call is made
 * again without streaming, and remembered. Usage a stream does not carry is estimated.
 */
async function callModel(
  llm: LlmTarget,
  body: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming,
  promptTokens: number,
  opts: AgentLoopOptions,
  delayMs: number,
  retries: number,
): Promise<{ completion: ChatCompletion; estimated: TokenUsage }> {
  const onRetry = (attempt: number) => opts.emit(modelRetry(llm.model, attempt, delayMs, retries));
  const base: CompleteOptions & { retries: number; delayMs: number } = { retries, delayMs, signal: opts.signal, onRetry };
  const estimate = (c: ChatCompletion): TokenUsage => {
    const m = c.choices?.[0]?.message;
    const written = (m?.content ?? '') + JSON.stringify(m?.tool_calls ?? []);
    return { input_tokens: promptTokens, output_tokens: estimateTokens(written), estimated: true };
  };
  const plain = async () => {
    const completion = await guardRateLimit(complete(llm.client, body, base), base);
    // The answer still reaches clients as a draft before `job_done`, in one piece.
    const text = completion.choices?.[0]?.message?.content;
    if (text && !completion.choices[0]!.message.tool_calls?.length) {
      const draft = createAnswerStream(opts.emit);
      draft.push(text);
      await draft.end();
    }
    return { completion, estimated: estimate(completion) };
  };
  if (!llm.forms.streamTools) return plain();

  // Text is streamed as `answer_delta` while it is written; if the model then calls tools, it
  // was not the answer, and the next `agent_step` tells clients to start a new draft.
  const draft = createAnswerStream(opts.emit);
  const completion = await guardRateLimit(complete(llm.client, body, { ...base, onText: draft.push }), base).catch((err: unknown) => {
    draft.discard();
    if (isEmptyStream(err)) return null;
    throw err;
  });
  await draft.end();
  const choice = completion?.choices?.[0];
  if (!completion || (!choice?.finish_reason && !choice?.message.content?.trim() && !toolCallsOf(choice?.message ?? {}).length)) {
    // An empty stream (no chunks, or none with a message or an end): llama-cpp-python's answer
    // to a streamed call with tools. Asked again unstreamed, now and for later calls.
    llm.forms.streamTools = false;
    noteRefusal(llm.forms, 'streamed call with tools', new Error('the stream ended with neither text nor tool calls'));
    return plain();
  }
  if (!completion.usage) llm.forms.streamUsage = false;
  return { completion, estimated: estimate(completion) };
}

/** The `openai` stream helper's error for a 200 stream that sent nothing. */
const isEmptyStream = (err: unknown) =>
  err instanceof Error && /ended without (sending any chunks|producing a ChatCompletion)/.test(err.message);

/** Turns the last 429 into the job's rate-limit message. */
async function guardRateLimit<T>(p: Promise<T>, o: { retries: number; delayMs: number }): Promise<T> {
  try {
    return await p;
  } catch (err) {
    if (isRateLimited(err)) throw new Error(rateLimitedMessage(o.retries, o.delayMs), { cause: err });
    throw err;
  }
}
