/**
 * Making a model call fit its context window (`LLM_*_CONTEXT_TOKENS`). Tokens are estimated
 * without a tokenizer: one token per 3 characters of message text, tool arguments and tool
 * definitions, plus a few per message. Real tokenizers give about 4 characters per token for
 * English and 3 for JSON and code, so the estimate errs on the safe side. When a call does not
 * fit, the system prompt is cut from its end (the graph overview goes first), then older tool
 * results are cut to their first rows ("… N more rows, ask again") and then left out, then the
 * oldest history, then whole older tool turns (a long agent run goes on with its latest
 * steps), then the last turn's results; when the question alone cannot fit, {@link ContextBudgetError} names the setting to raise.
 */
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';

/** Estimated tokens of `text` (characters / 3, rounded up). */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 3);

/** Per-message overhead (role, separators) in estimated tokens. */
const PER_MESSAGE = 4;

function textOf(m: ChatCompletionMessageParam): string {
  const c = m.content;
  const content = typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => ('text' in p ? p.text : '')).join('') : '';
  const calls = 'tool_calls' in m && m.tool_calls ? JSON.stringify(m.tool_calls) : '';
  return content + calls;
}

/** Estimated prompt tokens of a call: its messages and its tool definitions. */
export function estimatePrompt(messages: readonly ChatCompletionMessageParam[], tools: readonly ChatCompletionTool[] = []): number {
  const defs = tools.length ? estimateTokens(JSON.stringify(tools)) : 0;
  return messages.reduce((n, m) => n + PER_MESSAGE + estimateTokens(textOf(m)), defs);
}

/** Thrown when even the question alone does not fit; its message names the setting. */
export class ContextBudgetError extends Error {
  override name = 'ContextBudgetError';
}

/** The budget of one call. */
export interface ContextBudget {
  /** The model's context window in tokens. */
  contextTokens: number;
  /** Tokens kept free for the answer (`max_tokens`). */
  reserveTokens: number;
  /** The setting that sets `contextTokens`, for the error message. */
  setting: string;
}

/** Characters the system prompt keeps at least (its instructions; what follows is notes and overview). */
const SYSTEM_FLOOR = 2_000;

/** A tool result cut to its first `rows` rows (JSON arrays) or characters (anything else). */
export function shortenToolResult(text: string, rows: number): string {
  if (text.startsWith('[')) {
    const end = text.indexOf('\n');
    try {
      const all = JSON.parse(end < 0 ? text : text.slice(0, end)) as unknown[];
      if (Array.isArray(all) && all.length > rows) {
        return `${JSON.stringify(all.slice(0, rows))}\n(… ${all.length - rows} more rows, cut to fit the context; ask again for them)`;
      }
    } catch {
      // Not a JSON list: cut as text.
    }
  }
  const max = Math.max(200, rows * 150);
  return text.length > max ? `${text.slice(0, max)}… (cut to fit the context; ask again for the rest)` : text;
}

/** Shortens the tool results at the indices `which` picks, in steps, until the call fits. */
function shortenResults(out: ChatCompletionMessageParam[], which: (i: number) => boolean, size: () => number, limit: number): void {
  for (const rows of [5, 1, 0]) {
    for (let i = 0; i < out.length && size() > limit; i++) {
      const m = out[i]!;
      if (!which(i) || m.role !== 'tool' || typeof m.content !== 'string') continue;
      out[i] = { ...m, content: rows ? shortenToolResult(m.content, rows) : LEFT_OUT };
    }
  }
}

/** What a tool result becomes when even its first row does not fit. */
const LEFT_OUT = '(result left out to fit the context; call the tool again if you need it)';

/** The system prompt cut to `chars` at a line end, saying what was left out. */
function shortenSystem(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const line = text.lastIndexOf('\n', chars);
  const cut = line > chars * 0.8 ? line : chars;
  return `${text.slice(0, cut)}\n… (the rest of the overview is left out to fit the context; call get_graph_overview for it)`;
}

/**
 * Tokens `budget` leaves beside `messages` and `tools` once the system prompt is cut to its
 * floor (`floorChars`, at least its instructions; its end, the graph overview, is what
 * {@link fitContext} cuts first): the room a block placed before the overview may take (the
 * agent's examples, src/examples/prompt.ts). Negative when even the floor does not fit.
 */
export function spareTokens(
  messages: readonly ChatCompletionMessageParam[],
  tools: readonly ChatCompletionTool[],
  budget: Pick<ContextBudget, 'contextTokens' | 'reserveTokens'>,
  floorChars = SYSTEM_FLOOR,
): number {
  const out = [...messages];
  const first = out[0];
  if (first?.role === 'system' && typeof first.content === 'string') {
    out[0] = { role: 'system', content: shortenSystem(first.content, Math.max(SYSTEM_FLOOR, floorChars)) };
  }
  return budget.contextTokens - budget.reserveTokens - estimatePrompt(out, tools);
}

/**
 * `messages` made to fit `budget` with `tools`; the input is not changed. `questionIndex` is
 * the index of the user's question: messages between the system prompt and it are history,
 * messages after it are this answer's tool turns. `systemFloor`: characters of the system prompt
 * kept at least (its instructions and the agent's examples; default and minimum 2,000).
 * @returns the messages to send and their estimated prompt tokens.
 * @throws ContextBudgetError when the system prompt's floor and the question alone do not fit.
 */
export function fitContext(
  messages: readonly ChatCompletionMessageParam[],
  tools: readonly ChatCompletionTool[],
  budget: ContextBudget,
  questionIndex: number,
  systemFloor = SYSTEM_FLOOR,
): { messages: ChatCompletionMessageParam[]; promptTokens: number } {
  const limit = budget.contextTokens - budget.reserveTokens;
  let out = [...messages];
  let q = questionIndex;
  const size = () => estimatePrompt(out, tools);
  if (size() <= limit) return { messages: out, promptTokens: size() };

  // 1. The system prompt from its end, in steps, down to its instructions.
  const system = out[0]?.role === 'system' && typeof out[0].content === 'string' ? out[0].content : null;
  const floor = Math.max(SYSTEM_FLOOR, systemFloor);
  for (let chars = system ? system.length : 0; system && size() > limit && chars > floor; ) {
    chars = Math.max(floor, Math.floor(chars * 0.7));
    out[0] = { role: 'system', content: shortenSystem(system, chars) };
  }
  // 2. Tool results older than the last turn: to 5 rows, to 1, then left out.
  const lastAssistant = out.findLastIndex((m) => m.role === 'assistant');
  const older = (i: number) => i > q && i < lastAssistant;
  shortenResults(out, older, size, limit);
  // 3. History, oldest first (whole messages; the question stays).
  while (size() > limit && q > 1) {
    out = [out[0]!, ...out.slice(2)];
    q--;
  }
  // 4. Whole older turns (a call and its results), oldest first, under one note: a long run keeps going.
  let dropped = 0;
  while (size() > limit) {
    const first = out.findIndex((m, i) => i > q && m.role === 'assistant');
    const next = out.findIndex((m, i) => i > first && m.role === 'assistant');
    if (first < 0 || next < 0) break;
    const noted = dropped > 0 ? 1 : 0; // the note sits just before `first`
    dropped += next - first;
    const note: ChatCompletionMessageParam = {
      role: 'system',
      content: `(${dropped} earlier messages of this answer left out to fit the context)`,
    };
    out.splice(first - noted, next - first + noted, note);
  }
  // 5. The last turn's results too.
  shortenResults(out, (i) => i > q, size, limit);
  const total = size();
  if (total > limit) {
    throw new ContextBudgetError(
      `the question needs about ${total} tokens of prompt with ${budget.reserveTokens} left for the answer, more than the model's context of ${budget.contextTokens} tokens (${budget.setting}); raise ${budget.setting} if the model has a larger context, or ask a shorter question`,
    );
  }
  return { messages: out, promptTokens: total };
}
