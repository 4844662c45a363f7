/**
 * `/mcp`: the Model Context Protocol endpoint for outside agents (streamable HTTP; tools
 * `vector_search` and `graph_query`). The protocol work is in src/mcp/; this file mounts it and
 * lists it on the OpenAPI page. It speaks JSON-RPC, so its errors are JSON-RPC error bodies,
 * not problem+json, and it applies `MAX_BODY_BYTES` itself (as a JSON-RPC 413).
 */
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppDeps } from '../deps.js';
import { createMcpHandler, jsonRpcError } from '../mcp/http.js';
import { type AppEnv, createRouter } from './openapi.js';

// As strict as the transport's own parsing (the SDK's JSONRPCRequestSchema): no other members,
// an integer or string id, named params only (MCP never sends a list), `_meta` an object.
const JsonRpcSchema = z
  .strictObject({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number().int()]).optional(),
    method: z.string(),
    params: z
      .looseObject({
        _meta: z.looseObject({ progressToken: z.union([z.string(), z.number().int()]).optional() }).optional(),
      })
      .optional(),
  })
  .openapi('JsonRpcMessage');

const DESCRIPTION =
  'Model Context Protocol over streamable HTTP (JSON-RPC 2.0) for MCP clients; use an MCP client, not this page. ' +
  'Tools: `vector_search(sentence, graph_name?, top_k?)` and `graph_query(cypher_query, graph_name?, parameters?)`, read-only. ' +
  'POST `initialize` without `Mcp-Session-Id` opens a session (the id comes back in `Mcp-Session-Id`); send that header on later ' +
  'POSTs, on GET (server-to-client SSE stream) and on DELETE (ends the session). A POST of any other request without the header ' +
  'is answered statelessly. Send `Accept: application/json, text/event-stream`.';

/**
 * A request that accepts any type (the media range star-slash-star, or no Accept at all, which
 * RFC 9110 reads the same way) is given the two types the MCP transport asks clients to list, instead of a 406:
 * such a client takes the JSON or the event stream the transport answers with. A client that
 * names types and leaves one of those out still gets the transport's 406.
 */
function acceptingAll(req: Request): Request {
  const accept = req.headers.get('accept');
  if (accept && !accept.includes('*/*')) return req;
  const headers = new Headers(req.headers);
  headers.set('accept', 'application/json, text/event-stream');
  return new Request(req, { headers });
}

/** The MCP endpoint at `/mcp` (and `/mcp/`). */
export function mcpRoutes(deps: AppDeps) {
  const mcp = createMcpHandler(deps);
  // Open session streams (GET) would keep the server draining forever at shutdown.
  deps.stopping?.addEventListener('abort', () => void mcp.close(), { once: true });
  const router = createRouter();
  router.openAPIRegistry.registerPath({
    method: 'post',
    path: '/mcp',
    tags: ['mcp'],
    summary: 'MCP endpoint for outside agents (JSON-RPC over streamable HTTP)',
    description: DESCRIPTION,
    request: { body: { required: true, content: { 'application/json': { schema: JsonRpcSchema } } } },
    responses: {
      200: { description: 'JSON-RPC response, as JSON or as an SSE stream (`text/event-stream`)' },
      202: { description: 'Notification or response accepted' },
      400: { description: 'JSON-RPC error: parse error, invalid message, missing session id' },
      404: { description: 'JSON-RPC error: the session ended or expired; initialize again' },
      406: { description: 'JSON-RPC error: `Accept` must list both application/json and text/event-stream' },
      413: { description: 'JSON-RPC error: the body is larger than MAX_BODY_BYTES' },
      415: { description: 'JSON-RPC error: the body must be application/json' },
    },
  });
  const SESSION_HEADER = z.object({ 'mcp-session-id': z.string().min(1).openapi({ description: 'The id `initialize` returned' }) });
  router.openAPIRegistry.registerPath({
    method: 'get',
    path: '/mcp',
    tags: ['mcp'],
    summary: "An MCP session's server-to-client event stream",
    description: 'Send `Accept: text/event-stream` and the session id; one stream per session.',
    request: { headers: SESSION_HEADER },
    responses: {
      200: { description: 'Server-Sent Events carrying JSON-RPC messages', content: { 'text/event-stream': { schema: z.string() } } },
      404: { description: 'JSON-RPC error: the session ended or expired; initialize again' },
      405: { description: 'JSON-RPC error: no Mcp-Session-Id (there is no stream outside a session)' },
      406: { description: 'JSON-RPC error: `Accept` must list text/event-stream' },
      409: { description: 'JSON-RPC error: the session already has an open stream' },
    },
  });
  router.openAPIRegistry.registerPath({
    method: 'delete',
    path: '/mcp',
    tags: ['mcp'],
    summary: 'Ends an MCP session',
    request: { headers: SESSION_HEADER },
    responses: {
      200: { description: 'The session is closed' },
      400: { description: 'JSON-RPC error: Mcp-Session-Id header is required' },
      404: { description: 'JSON-RPC error: the session ended or expired' },
    },
  });
  const handle = async (req: Request, client: string) => {
    try {
      return await mcp.handle(req, client);
    } catch (err) {
      deps.log.error('mcp request failed', { error: err });
      return jsonRpcError(500, -32603, 'Internal error');
    }
  };
  const limited = async (c: Context<AppEnv>) => {
    const client = c.get('client');
    // A key-value store that is down must not take the graph tools with it: the limit is skipped.
    const hit = await deps.limiter.hitAddress('mcp', client, deps.config.MCP_REQUESTS_PER_MINUTE, 60_000).catch((err: unknown) => {
      deps.log.warn('mcp rate limit not checked', { error: err });
      return { ok: true as const };
    });
    if (!hit.ok) {
      const retry = String(hit.retryAfterSeconds);
      return jsonRpcError(
        429,
        -32000,
        `Too many requests: at most ${deps.config.MCP_REQUESTS_PER_MINUTE} per minute from one address; retry after ${retry} s`,
        {
          'retry-after': retry,
        },
      );
    }
    return handle(acceptingAll(c.req.raw), client);
  };
  router.all('/mcp', limited);
  router.all('/mcp/', limited);
  return router;
}
