/**
 * Language-model access for both providers through the `openai` package: one client per
 * provider, built once, and `resolve` turning a job's `x-llm-*` overrides into an
 * {@link LlmTarget}. The clients' own retries are off (`maxRetries: 0`) so that the retry
 * policy is ours ({@link withLlmRetry}) and testable.
 */
import OpenAI from 'openai';
import type { Config } from '../config.js';
import { DomainError } from '../errors.js';
import type { LlmProvider } from '../contract/providers.js';
import { createProtocolMemory } from './protocol.js';
import type { LlmTarget } from './types.js';

/** Which call a target is for: the agent (answers) or the router (classification). */
export type LlmRole = 'agent' | 'router';

/** Per-request overrides from the `x-llm-*` headers; absent fields use the server's config. */
export interface LlmOverrides {
  provider?: LlmProvider;
  model?: string;
}

/** The language-model clients of the service. */
export interface LlmClients {
  /**
   * The provider and model for `role` after `overrides`.
   * @throws DomainError 422 when the provider is `hosted` and no `HOSTED_LLM_API_KEY` is set.
   */
  resolve(role: LlmRole, overrides?: LlmOverrides): LlmTarget;
  /** True when `provider` can be used (`hosted` needs a key). */
  available(provider: LlmProvider): boolean;
}

/** The setting of each role's context window. */
export const CONTEXT_SETTING: Record<LlmRole, 'LLM_AGENT_CONTEXT_TOKENS' | 'LLM_ROUTER_CONTEXT_TOKENS'> = {
  agent: 'LLM_AGENT_CONTEXT_TOKENS',
  router: 'LLM_ROUTER_CONTEXT_TOKENS',
};

/** Options of {@link createLlmClients}. */
export interface LlmClientsOptions {
  /** Injected `fetch` (tests); default the global one. */
  fetch?: typeof fetch;
}

/** The error a request gets when it asks for `hosted` and the server has no key for it. */
export function hostedKeyMissing(field: string): DomainError {
  return new DomainError(
    'invalid',
    'validation',
    `${field}: the hosted provider is not configured on this server (HOSTED_LLM_API_KEY is empty)`,
    {
      errors: [{ path: field, message: 'hosted provider has no API key configured' }],
    },
  );
}

/**
 * Context window assumed for a provider's models when none is set: local servers often run 8k
 * (Ollama less, unless set), hosted ones 128k. By the provider a call goes to, so a job that
 * overrides the provider gets that provider's window.
 */
export const contextDefault = (provider: LlmProvider): number => (provider === 'local' ? 8_192 : 128_000);

/** Builds one `openai` client per provider from config. */
export function createLlmClients(config: Config, opts: LlmClientsOptions = {}): LlmClients {
  const clients = new Map<LlmProvider, OpenAI>();
  const protocol = createProtocolMemory();
  const client = (provider: LlmProvider): OpenAI => {
    let c = clients.get(provider);
    if (!c) {
      c = new OpenAI({
        baseURL: provider === 'local' ? config.LOCAL_LLM_BASE_URL : config.HOSTED_LLM_BASE_URL,
        // Local servers (Ollama) ignore the key, but the package insists on one.
        apiKey: provider === 'local' ? 'local' : config.HOSTED_LLM_API_KEY,
        maxRetries: 0,
        timeout: config.LLM_TIMEOUT_MS,
        fetch: opts.fetch,
      });
      clients.set(provider, c);
    }
    return c;
  };
  const available = (p: LlmProvider) => p === 'local' || config.HOSTED_LLM_API_KEY !== '';
  return {
    available,
    resolve(role, overrides = {}) {
      const provider = overrides.provider ?? (role === 'agent' ? config.LLM_PROVIDER : config.ROUTER_PROVIDER);
      if (!available(provider)) throw hostedKeyMissing(role === 'agent' ? 'provider' : 'router_provider');
      const configured =
        provider === 'local'
          ? role === 'agent'
            ? config.LOCAL_LLM_AGENT_MODEL
            : config.LOCAL_LLM_ROUTER_MODEL
          : role === 'agent'
            ? config.HOSTED_LLM_AGENT_MODEL
            : config.HOSTED_LLM_ROUTER_MODEL;
      const model = overrides.model || configured;
      const c = client(provider);
      return {
        provider,
        model,
        client: c,
        forms: protocol.forms(c.baseURL, model),
        contextTokens: config[CONTEXT_SETTING[role]] ?? config.LLM_CONTEXT_TOKENS ?? contextDefault(provider),
        contextSetting: CONTEXT_SETTING[role],
        maxTokens: config.LLM_MAX_TOKENS,
      };
    },
  };
}
