/**
 * One chat completion with the contract's retry policy and the caller's abort signal: what the
 * router and the agent call, so neither deals with the `openai` client's quirks. The timeout
 * is the client's own (`LLM_TIMEOUT_MS`, src/llm/clients.ts).
 */
import type OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { type LlmRetryOptions, withLlmRetry } from './retry.js';

/**
 * Creates a completion, retrying HTTP 429 answers (see {@link withLlmRetry}); aborting
 * `opts.signal` stops the request and any wait between tries.
 */
export async function complete(
  client: OpenAI,
  body: ChatCompletionCreateParamsNonStreaming,
  opts: LlmRetryOptions = {},
): Promise<ChatCompletion> {
  // The `openai` client never removes the abort listener it adds to a caller's signal, and a
  // job's signal outlives many calls: each call gets a child signal that is let go after.
  opts.signal?.throwIfAborted();
  const child = new AbortController();
  const forward = () => child.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', forward, { once: true });
  try {
    return await withLlmRetry(() => client.chat.completions.create(body, { signal: child.signal }), opts);
  } finally {
    opts.signal?.removeEventListener('abort', forward);
  }
}
