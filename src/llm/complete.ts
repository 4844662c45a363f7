/**
 * One chat completion with the contract's retry policy and the caller's abort signal: what the
 * router and the agent call, so neither deals with the `openai` client's quirks. The timeout
 * is the client's own (`LLM_TIMEOUT_MS`, src/llm/clients.ts).
 */
import type OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { type LlmRetryOptions, withLlmRetry } from './retry.js';

/** Options of {@link complete}. */
export interface CompleteOptions extends LlmRetryOptions {
  /**
   * When given, the completion is streamed and every piece of assistant text is passed here as
   * it arrives; the result is the same assembled completion (tool calls, usage) either way.
   */
  onText?: (delta: string) => void;
}

/**
 * Creates a completion, retrying HTTP 429 answers (see {@link withLlmRetry}); aborting
 * `opts.signal` stops the request and any wait between tries.
 */
export async function complete(
  client: OpenAI,
  body: ChatCompletionCreateParamsNonStreaming,
  opts: CompleteOptions = {},
): Promise<ChatCompletion> {
  // The `openai` client never removes the abort listener it adds to a caller's signal, and a
  // job's signal outlives many calls: each call gets a child signal that is let go after.
  opts.signal?.throwIfAborted();
  const child = new AbortController();
  const forward = () => child.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', forward, { once: true });
  const { onText } = opts;
  try {
    return await withLlmRetry(
      () => (onText ? streamed(client, body, child.signal, onText) : client.chat.completions.create(body, { signal: child.signal })),
      opts,
    );
  } finally {
    opts.signal?.removeEventListener('abort', forward);
  }
}

/**
 * A streamed completion, assembled by the `openai` package's stream helper (tool-call pieces
 * joined by index, usage from the last chunk). A 429 arrives as the HTTP status before any
 * text, so retrying the whole call never repeats text already passed on.
 */
async function streamed(
  client: OpenAI,
  body: ChatCompletionCreateParamsNonStreaming,
  signal: AbortSignal,
  onText: (delta: string) => void,
) {
  const stream = client.chat.completions.stream({ ...body, stream: true, stream_options: { include_usage: true } }, { signal });
  stream.on('content', (delta) => onText(delta));
  return (await stream.finalChatCompletion()) as ChatCompletion;
}
