/** Language-model access: an `openai` client bound to one provider and model. */
import type OpenAI from 'openai';
import type { LlmProvider } from '../contract/providers.js';
import type { ServerForms } from './protocol.js';

/** A client and the model to call with it. */
export interface LlmTarget {
  provider: LlmProvider;
  model: string;
  client: OpenAI;
  /** The request forms this server and model accept (learned; shared by every target of them). */
  forms: ServerForms;
  /** The model's context window in tokens, and the setting it comes from. */
  contextTokens: number;
  contextSetting: string;
  /** `max_tokens` of every call (`LLM_MAX_TOKENS`). */
  maxTokens: number;
}
