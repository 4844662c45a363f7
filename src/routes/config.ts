/** `GET /config`: the active language-model configuration (no secrets). */
import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../deps.js';
import { createRouter } from './openapi.js';

const LlmConfigSchema = z
  .object({
    llm_provider: z.string().openapi({ example: 'local' }),
    router_provider: z.string().openapi({ example: 'local' }),
    local_agent_model: z.string(),
    local_router_model: z.string(),
    hosted_agent_model: z.string(),
    hosted_router_model: z.string(),
  })
  .openapi('LlmConfig');

const route = createRoute({
  method: 'get',
  path: '/config',
  tags: ['config'],
  summary: 'Active language-model configuration; the UI initialises its selectors from it',
  responses: { 200: { description: 'Configuration', content: { 'application/json': { schema: LlmConfigSchema } } } },
});

/** Config routes. */
export function configRoutes({ config }: AppDeps) {
  const body = {
    llm_provider: config.LLM_PROVIDER,
    router_provider: config.ROUTER_PROVIDER,
    local_agent_model: config.LOCAL_LLM_AGENT_MODEL,
    local_router_model: config.LOCAL_LLM_ROUTER_MODEL,
    hosted_agent_model: config.HOSTED_LLM_AGENT_MODEL,
    hosted_router_model: config.HOSTED_LLM_ROUTER_MODEL,
  };
  return createRouter().openapi(route, (c) => c.json(body, 200));
}
