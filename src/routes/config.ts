/** `GET /config`: the active language-model configuration (no secrets). */
import { createRoute } from '@hono/zod-openapi';
import { LlmConfigSchema, type LlmConfig } from '../contract/providers.js';
import type { AppDeps } from '../deps.js';
import { createRouter } from './openapi.js';

const route = createRoute({
  method: 'get',
  path: '/config',
  tags: ['config'],
  summary: 'Active language-model configuration; the UI initialises its selectors from it',
  responses: { 200: { description: 'Configuration', content: { 'application/json': { schema: LlmConfigSchema } } } },
});

/** Config routes. */
export function configRoutes({ config }: AppDeps) {
  const body: LlmConfig = {
    llm_provider: config.LLM_PROVIDER,
    router_provider: config.ROUTER_PROVIDER,
    local_agent_model: config.LOCAL_LLM_AGENT_MODEL,
    local_router_model: config.LOCAL_LLM_ROUTER_MODEL,
    hosted_agent_model: config.HOSTED_LLM_AGENT_MODEL,
    hosted_router_model: config.HOSTED_LLM_ROUTER_MODEL,
    hosted_available: config.HOSTED_LLM_API_KEY !== '',
    anon_reads: config.ANON_READS,
    limits: {
      requests_per_user_per_10_minutes: config.CHAT_RATE_LIMIT_REQUESTS,
      tokens_per_user_per_10_minutes: config.CHAT_RATE_LIMIT_TOKENS,
      new_identities_per_address_per_minute: config.ANON_MINT_PER_MINUTE,
      // 0: messages without x-anon-id are not limited (ANON_LIMITS=none).
      messages_without_identity_per_address_per_10_minutes: config.ANON_LIMITS === 'address' ? config.CHAT_RATE_LIMIT_REQUESTS : 0,
      mcp_requests_per_address_per_minute: config.MCP_REQUESTS_PER_MINUTE,
      queue_max_pending: config.QUEUE_MAX_PENDING,
      mcp_max_sessions: config.MCP_MAX_SESSIONS,
      mcp_max_sessions_per_client: config.MCP_MAX_SESSIONS_PER_CLIENT,
      graph_query_timeout_ms: config.GRAPH_QUERY_TIMEOUT_MS,
      graph_query_max_rows: config.GRAPH_QUERY_MAX_ROWS,
      graph_query_max_concurrent: config.GRAPH_QUERY_MAX_CONCURRENT,
      max_body_bytes: config.MAX_BODY_BYTES,
    },
  };
  return createRouter().openapi(route, (c) => c.json(body, 200));
}
