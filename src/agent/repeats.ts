/**
 * Repeated tool calls within one answer. Small models (SmolLM2, Gemma 3 270M in
 * `npm run test:real-model`) send the call they just made again, with the same arguments, until
 * the step limit. Running it again gives the model nothing new and costs a database round trip
 * and a full result in the context, so a repeat of a call that worked is answered from memory:
 * the first time with the earlier result under a line that says so (the context budget may have
 * cut that result from older turns), after that with only the line. A call that failed is kept
 * too when the failure is about the call (wrong Cypher, a refused write, bad arguments), not
 * when it is about the moment (the database down or slow), which may pass.
 */
import { cut, type ToolCallResult } from './tools.js';

/** What was said about one call: the step it first ran in, its result, and how often it came again. */
interface Entry {
  step: number;
  result: ToolCallResult;
  repeats: number;
}

/** The calls of one answer that worked, by tool name and arguments. */
export interface CallMemory {
  /** True when the last call answered by {@link repeat} had already been told to move on: the model is stuck on it. */
  readonly stuck: boolean;
  /** The answer to a call seen before at another step or earlier in this one; undefined for a new call. */
  repeat(name: string, args: unknown): ToolCallResult | undefined;
  /** Keeps a call's result unless it failed for a reason that may pass. */
  remember(name: string, args: unknown, step: number, result: ToolCallResult): void;
}

/** JSON with object keys sorted, so `{a, b}` and `{b, a}` are the same call. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );
}

/** An empty memory for one answer. */
export function createCallMemory(): CallMemory {
  const calls = new Map<string, Entry>();
  const keyOf = (name: string, args: unknown) => `${name}\u0000${canonical(args)}`;
  let stuck = false;
  return {
    get stuck() {
      return stuck;
    },
    repeat(name, args) {
      const earlier = calls.get(keyOf(name, args));
      stuck = false;
      if (!earlier) return undefined;
      earlier.repeats++;
      stuck = earlier.repeats > 2;
      const same = `This exact call (${name} with the same arguments) already ran at step ${earlier.step}`;
      if (earlier.repeats > 1) {
        const text = `Tool error: ${same} and has now been sent again ${earlier.repeats} times; it gives the same every time. Call another tool, change the arguments, or write the answer now.`;
        return { text, summary: cut(text), ok: false };
      }
      return {
        text: `${same}; not run again, its result is the same:\n${earlier.result.text}\nUse it, change the arguments, or answer.`,
        summary: cut(`same as step ${earlier.step}: ${earlier.result.summary}`),
        ok: earlier.result.ok,
      };
    },
    remember(name, args, step, result) {
      if (!result.transient) calls.set(keyOf(name, args), { step, result, repeats: 0 });
    },
  };
}
