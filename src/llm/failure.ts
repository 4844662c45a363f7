/**
 * Why a language-model call failed, in terms a person can act on: nothing answered (connection
 * refused, DNS), no answer within LLM_TIMEOUT_MS (a slow server, not a missing one), the server
 * is overloaded (5xx, 429 after the retries), the key was refused (401/403) or the model is not
 * there (404). The chat worker falls back to lookup when
 * the router fails this way, and names the provider, address, model and fix when the agent does.
 */
import { APIConnectionError, APIConnectionTimeoutError } from 'openai';
import { CONTEXT_SETTING, type LlmRole } from './clients.js';
import { ContextBudgetError } from './context-budget.js';
import { isRefusal, LlmRefusedError, refusalText, statusOf } from './protocol.js';
import type { LlmTarget } from './types.js';

/** The kinds of {@link llmFailureOf}. */
export type LlmFailure = 'unreachable' | 'timeout' | 'unavailable' | 'key-refused' | 'unknown-model' | 'refused' | 'context';

/** The kind of failure `err` is, or null when it is not the model server's (e.g. a bad answer). */
export function llmFailureOf(err: unknown): LlmFailure | null {
  // The class, not `name`: the package's errors report the base class's name.
  // A time-out first: the package's time-out error is a connection error too.
  if (err instanceof APIConnectionTimeoutError || (err instanceof Error && err.name === 'TimeoutError')) return 'timeout';
  if (err instanceof APIConnectionError) return 'unreachable';
  if (err instanceof LlmRefusedError) return 'refused';
  if (err instanceof ContextBudgetError) return 'context';
  const status = statusOf(err);
  if (status === 401 || status === 403) return 'key-refused';
  if (status === 404) return 'unknown-model';
  // A server that refuses the request itself (a form it does not know) is not overloaded.
  if (isRefusal(err)) return 'refused';
  if (status === 429 || (status !== undefined && status >= 500)) return 'unavailable';
  return null;
}

const MODEL_SETTING: Record<LlmRole, Record<LlmTarget['provider'], string>> = {
  agent: { local: 'LOCAL_LLM_AGENT_MODEL', hosted: 'HOSTED_LLM_AGENT_MODEL' },
  router: { local: 'LOCAL_LLM_ROUTER_MODEL', hosted: 'HOSTED_LLM_ROUTER_MODEL' },
};

/**
 * What to do about `failure` of the `role` model: a command or a setting. Shared by job errors
 * and the readiness report (`GET /status`), so both say the same thing.
 */
export function llmFailureFix(target: Pick<LlmTarget, 'provider' | 'model'>, role: LlmRole, failure: LlmFailure): string {
  const local = target.provider === 'local';
  switch (failure) {
    case 'unreachable':
      return local
        ? `start the model server (for Ollama: \`ollama serve\` and \`ollama pull ${target.model}\`), or use LLM_PROVIDER=hosted with HOSTED_LLM_API_KEY`
        : 'check HOSTED_LLM_BASE_URL and the network';
    case 'timeout':
      return 'raise LLM_TIMEOUT_MS for a slow model server, or use a smaller model';
    case 'unknown-model':
      return local
        ? `run \`ollama pull ${target.model}\`, or set ${MODEL_SETTING[role].local} to a model it has`
        : `set ${MODEL_SETTING[role].hosted} to a model of your provider`;
    case 'key-refused':
      return 'set HOSTED_LLM_API_KEY to a valid key';
    case 'unavailable':
      return 'try again shortly';
    case 'refused':
      return 'use a model server that speaks the OpenAI chat-completions protocol, or report what it refused';
    case 'context':
      return `raise ${CONTEXT_SETTING[role]} if the model has a larger context`;
  }
}

/** What was found, per kind; a time-out's names its limit (see {@link describeLlmFailure}). */
const FOUND: Record<Exclude<LlmFailure, 'timeout'>, string> = {
  unreachable: 'could not be reached',
  'unknown-model': 'is not on that server (HTTP 404)',
  'key-refused': 'refused the API key (HTTP 401/403)',
  unavailable: 'is overloaded or failing (HTTP 5xx, or 429 after the retries)',
  refused: 'refused the request',
  context: 'has too small a context for this question',
};

/**
 * One sentence naming what failed (provider, address, model) and the fix; with `err`, a
 * refusal or a context overflow also says what exactly was refused or how large the prompt was.
 */
export function describeLlmFailure(
  target: Pick<LlmTarget, 'provider' | 'model' | 'client'>,
  role: LlmRole,
  failure: LlmFailure,
  err?: unknown,
): string {
  const where = `the ${role} model "${target.model}" (provider ${target.provider}, ${target.client.baseURL})`;
  if (failure === 'context' && err instanceof Error) return `${where}: ${err.message}`;
  const sep = failure === 'unavailable' ? '; ' : ': ';
  const found =
    failure === 'unknown-model' && target.provider === 'hosted'
      ? 'does not exist there (HTTP 404)'
      : failure === 'timeout'
        ? `did not answer within ${target.client.timeout} ms (LLM_TIMEOUT_MS)`
        : FOUND[failure];
  const detail = failure !== 'refused' || !err ? '' : err instanceof LlmRefusedError ? ` (${err.message})` : ` (${refusalText(err)})`;
  return `${where} ${found}${detail}${sep}${llmFailureFix(target, role, failure)}`;
}
