/** Language-model access: an `openai` client bound to one provider and model. */
import type OpenAI from 'openai';
import type { LlmProvider } from '../contract/providers.js';

/** A client and the model to call with it. */
export interface LlmTarget {
  provider: LlmProvider;
  model: string;
  client: OpenAI;
}
