/**
 * Whether a language model answers, without spending tokens: `GET <base URL>/models` with a
 * short timeout. For the local provider (Ollama and the like) the list also says whether the
 * model was pulled; hosted APIs often list only part of what they serve, so there answering is
 * enough.
 */
import { llmFailureOf, type LlmFailure } from './failure.js';
import type { LlmTarget } from './types.js';

/**
 * Outcome of {@link probeLlm}: a model list that answers cannot have refused a form or overflowed
 * a context; a list not given within the probe's short time-out is `unreachable`.
 */
export type LlmProbe = 'ok' | Exclude<LlmFailure, 'refused' | 'context' | 'timeout'>;

/** True when `id` (as the server lists it) names `model`; Ollama lists `qwen2.5` as `qwen2.5:latest`. */
export function sameModel(id: string, model: string): boolean {
  const plain = (s: string) => s.replace(/:latest$/, '');
  return plain(id) === plain(model);
}

/** Asks the model server of `target` for its model list; never throws. */
export async function probeLlm(target: LlmTarget, timeoutMs: number): Promise<LlmProbe> {
  try {
    const page = await target.client.models.list({ timeout: timeoutMs, maxRetries: 0 });
    if (target.provider === 'local' && !page.data.some((m) => sameModel(m.id, target.model))) return 'unknown-model';
    return 'ok';
  } catch (err) {
    const failure = llmFailureOf(err);
    if (failure === 'timeout') return 'unreachable';
    return failure === null || failure === 'refused' || failure === 'context' ? 'unavailable' : failure;
  }
}
