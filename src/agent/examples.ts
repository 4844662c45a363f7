/**
 * The agent's examples: the graph's examples closest to the question (src/examples/), as many as
 * `AGENT_EXAMPLES` allows and the context budget holds (the rule is in src/examples/prompt.ts),
 * as one block of the system prompt, before the graph overview. Inside the one system message,
 * not a message of their own: llama-cpp-python's function-calling template writes the tool
 * definitions after every system message, so a second one cost the prompt ~1,500 tokens there.
 * The context budget never cuts the block (its floor ends after it); the overview is cut first.
 * With no examples there is no block, so the prompt is what it was without the feature.
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { AgentExamples } from '../examples/examples.js';
import { EXAMPLES_SHARE, examplesBlock } from '../examples/prompt.js';
import { spareTokens } from '../llm/context-budget.js';
import type { LlmTarget } from '../llm/types.js';
import type { Logger } from '../lib/log.js';
import { buildSystemPrompt, type SystemPromptOptions, systemPromptFloor } from './prompt.js';
import { type AgentTool, toOpenAiTools } from './tools.js';

/** Inputs of {@link examplesForPrompt}. */
export interface ExamplesPromptOptions {
  examples: AgentExamples;
  graph: string;
  /** Examples at most (`AGENT_EXAMPLES`). */
  k: number;
  /** The system prompt's inputs, without examples. */
  prompt: SystemPromptOptions;
  /** History and question, as they will be sent after the system prompt. */
  conversation: readonly ChatCompletionMessageParam[];
  tools: readonly AgentTool[];
  llm: Pick<LlmTarget, 'contextTokens' | 'maxTokens'>;
  log?: Logger;
}

/** Tokens the examples may take in this prompt (see src/examples/prompt.ts). */
export function examplesRoom(opts: Pick<ExamplesPromptOptions, 'prompt' | 'conversation' | 'tools' | 'llm'>): number {
  const budget = { contextTokens: opts.llm.contextTokens, reserveTokens: opts.llm.maxTokens };
  const share = Math.floor((budget.contextTokens - budget.reserveTokens) * EXAMPLES_SHARE);
  const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: buildSystemPrompt(opts.prompt) }, ...opts.conversation];
  return Math.min(share, spareTokens(messages, toOpenAiTools(opts.tools), budget, systemPromptFloor(opts.prompt)));
}

/** The examples block for the question (the last user message), or null when none fits or there are none. */
export async function examplesForPrompt(opts: ExamplesPromptOptions): Promise<string | null> {
  const question = opts.conversation.findLast((m) => m.role === 'user')?.content;
  if (typeof question !== 'string') return null;
  const ranked = await opts.examples.closest(opts.graph, question, Number.POSITIVE_INFINITY);
  if (!ranked.length) return null;
  const room = examplesRoom(opts);
  const block = examplesBlock(ranked, opts.k, room);
  opts.log?.debug('agent examples', { offered: ranked.length, shown: block?.examples.length ?? 0, room });
  return block?.text ?? null;
}
