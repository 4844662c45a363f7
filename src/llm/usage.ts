/** Token usage of language-model calls: reading it from a completion and adding it up. */
import type { TokenUsage } from '../contract/chat.js';

/** Adds two usages; null counts as zero, two nulls stay null. */
export function addUsage(a: TokenUsage | null, b: TokenUsage | null): TokenUsage | null {
  if (!a) return b;
  if (!b) return a;
  const estimated = a.estimated || b.estimated ? { estimated: true } : {};
  return { input_tokens: a.input_tokens + b.input_tokens, output_tokens: a.output_tokens + b.output_tokens, ...estimated };
}

/** The usage a chat completion reports, as TokenUsage; null when it reports none. */
export function usageOf(completion: { usage?: { prompt_tokens?: number; completion_tokens?: number } | null }): TokenUsage | null {
  const u = completion.usage;
  return u ? { input_tokens: u.prompt_tokens ?? 0, output_tokens: u.completion_tokens ?? 0 } : null;
}
