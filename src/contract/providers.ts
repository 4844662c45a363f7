/** The language-model providers a deployment and a request (`x-llm-provider`) can name. */
import { z } from '@hono/zod-openapi';

/** `local`: an OpenAI-compatible server such as Ollama; `hosted`: an OpenAI-compatible API with a key. */
export const PROVIDERS = ['local', 'hosted'] as const;

/** One of {@link PROVIDERS}. */
export const ProviderSchema = z.enum(PROVIDERS);

/** One of {@link PROVIDERS}. */
export type LlmProvider = z.infer<typeof ProviderSchema>;
