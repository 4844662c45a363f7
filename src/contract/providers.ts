/** The language-model providers a deployment and a request (`x-llm-provider`) can name, and `GET /config`. */
import { z } from '@hono/zod-openapi';

/** `local`: an OpenAI-compatible server such as Ollama; `hosted`: an OpenAI-compatible API with a key. */
export const PROVIDERS = ['local', 'hosted'] as const;

/** One of {@link PROVIDERS}. */
export const ProviderSchema = z.enum(PROVIDERS);

/** One of {@link PROVIDERS}. */
export type LlmProvider = z.infer<typeof ProviderSchema>;

/** `GET /config`: the active language-model configuration (no secrets); the UI's selectors start from it. */
export const LlmConfigSchema = z
  .object({
    llm_provider: z.string().openapi({ example: 'local' }),
    router_provider: z.string().openapi({ example: 'local' }),
    local_agent_model: z.string(),
    local_router_model: z.string(),
    hosted_agent_model: z.string(),
    hosted_router_model: z.string(),
    hosted_available: z
      .boolean()
      .optional()
      .openapi({ description: 'The server has a key for the hosted provider (extension): without it, `hosted` is refused' }),
    anon_reads: z
      .enum(['open', 'owner'])
      .optional()
      .openapi({
        description:
          'Who may read, stream, rename or delete a session or job created under an identity (extension, ANON_READS): ' +
          '`open`: also a caller without x-anon-id that holds its UUID (the contract); `owner`: only that identity',
      }),
    limits: z
      .record(z.string(), z.number())
      .optional()
      .openapi({ description: 'The abuse limits in force (extension): per user, per client address, queue and query bounds' }),
  })
  .openapi('LlmConfig');

/** The body of `GET /config`. */
export type LlmConfig = z.infer<typeof LlmConfigSchema>;
