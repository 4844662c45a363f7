/**
 * Quirk profiles of the scripted model server: what real OpenAI-compatible servers do
 * differently, so `npm test` guards every fallback without the real server.
 *
 * - `llama-cpp-python`: the stock `python -m llama_cpp.server --chat_format
 *   chatml-function-calling`, as measured in ../shared/tools/llm-server/README.md:
 *   `response_format: json_schema` → HTTP 500 (`json_object` works); a streamed call with tools
 *   and `tool_choice: "auto"` → an empty 200 stream; `tool_choice: "required"` → 500; an
 *   assistant message with `content: null` → 500; role `developer` → 500; streams carry no
 *   usage (`stream_options.include_usage` is ignored); errors are HTTP 500.
 * - `ollama`: Ollama's `/v1` (documented behaviour; not measured here, no Ollama on this
 *   machine): a prompt longer than the context window (`num_ctx`, 4,096 tokens by default in
 *   recent versions) is cut from the start rather than refused, so `usage.prompt_tokens` never
 *   exceeds it; models are listed as `name:latest`. Everything else as the OpenAI API.
 */

/** A profile name; `none` answers as the OpenAI API does. */
export type QuirkProfile = 'none' | 'llama-cpp-python' | 'ollama';

/** What a quirk does to one chat-completions request, before the script is consulted. */
export type QuirkAnswer = { status: number; message: string } | 'empty-stream' | null;

/** The answer `profile` gives `body` instead of the scripted reply, or null to answer normally. */
export function quirkAnswer(profile: QuirkProfile, body: any): QuirkAnswer {
  if (profile !== 'llama-cpp-python' || !body) return null;
  if (body.response_format?.type === 'json_schema') {
    return {
      status: 500,
      message: "1 validation error for CreateChatCompletionRequest response_format.type Input should be 'text' or 'json_object'",
    };
  }
  const messages: any[] = Array.isArray(body.messages) ? body.messages : [];
  if (messages.some((m) => m.role === 'assistant' && m.content === null)) {
    return { status: 500, message: 'validation error: messages.assistant.content Input should be a valid string' };
  }
  if (messages.some((m) => m.role === 'developer'))
    return { status: 500, message: "Input tag 'developer' found using 'role' does not match" };
  if (body.tool_choice === 'required') return { status: 500, message: "tool_choice 'required' is not supported" };
  if (body.stream && Array.isArray(body.tools) && body.tools.length && body.tool_choice === 'auto') return 'empty-stream';
  return null;
}

/** Whether streams carry usage when asked for. */
export const streamsUsage = (profile: QuirkProfile) => profile !== 'llama-cpp-python';

/** The prompt tokens a server reports: Ollama cuts a prompt to its context window. */
export const reportedPromptTokens = (profile: QuirkProfile, tokens: number) => (profile === 'ollama' ? Math.min(tokens, 4_096) : tokens);
