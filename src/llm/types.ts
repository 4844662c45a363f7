/** Language-model access: an `openai` client bound to one provider and model. */
import type OpenAI from 'openai';

/** Provider names of the contract. */
export type LlmProvider = 'local' | 'hosted';

/** A client and the model to call with it. */
export interface LlmTarget {
  provider: LlmProvider;
  model: string;
  client: OpenAI;
}
