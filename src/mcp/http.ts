/**
 * The MCP endpoint as a web-standard handler (Request → Response) over the SDK's
 * `WebStandardStreamableHTTPServerTransport`, so it runs unchanged on Node, Bun and Deno.
 *
 * Two modes, as the streamable HTTP transport allows:
 * - Stateful (default): an `initialize` request without `Mcp-Session-Id` opens a session with
 *   its own MCP server and transport; the response carries the session id, and the client's
 *   later POSTs, its GET (server-to-client SSE stream) and its DELETE (end of session) go to
 *   that session. Sessions live in memory with an idle expiry and a cap (./sessions.ts).
 * - Stateless: any other POST without a session id, and every request when `MCP_STATELESS` is
 *   true, gets a fresh server and transport that answer it as plain JSON and are then closed.
 *   Nothing is kept, so several instances behind a load balancer can share the load.
 *
 * Every failure is a JSON-RPC error body (`{jsonrpc, error: {code, message}, id: null}`),
 * never the app's problem+json: MCP clients parse JSON-RPC only.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { readRequestBody, requestBodyTooLargeMessage } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { type McpContextDeps, registerGraphContext } from './context.js';
import { createEventStore } from './event-store.js';
import { createMcpSessionStore } from './sessions.js';
import { registerGraphTools, type McpToolDeps } from './tools.js';

/** What the endpoint uses from the app's dependencies. */
export type McpHttpDeps = McpToolDeps & McpContextDeps;

/** A mounted MCP endpoint. */
export interface McpHttpHandler {
  /** Answers one HTTP request to the endpoint; `client` is the caller's address (per-client session cap). */
  handle(req: Request, client: string): Promise<Response>;
  /** Ends every session (their open streams close). */
  close(): Promise<void>;
}

const SERVER_INFO = { name: 'graph-chat', version: '0.1.0' };
const INSTRUCTIONS =
  'Tools over a Neo4j graph whose nodes carry text. Start with vector_search to find the nodes a question is about, ' +
  'then use graph_query (read-only Cypher) to follow their relationships, count or filter. ' +
  'The resource graph://<graph>/schema lists labels, relationships and properties; the prompt answer-from-graph shows the way.';

/** A JSON-RPC error response, shaped like the SDK transport's own. */
export function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** Builds the endpoint; `config` supplies the mode, the session bounds and the body limit. */
export function createMcpHandler(deps: McpHttpDeps): McpHttpHandler {
  const { config, log } = deps;
  const maxRequestBodySize = config.MAX_BODY_BYTES;
  const sessions = createMcpSessionStore({
    idleMs: config.MCP_SESSION_IDLE_MS,
    maxSessions: config.MCP_MAX_SESSIONS,
    maxPerClient: config.MCP_MAX_SESSIONS_PER_CLIENT,
    onExpire: (id, reason) => log.info('mcp session closed', { session: id, reason }),
  });

  const newServer = () => {
    const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS });
    registerGraphTools(server, deps);
    registerGraphContext(server, deps);
    return server;
  };

  async function startSession(req: Request, parsedBody: unknown, client: string): Promise<Response> {
    const server = newServer();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      maxRequestBodySize,
      eventStore: createEventStore(),
      onsessioninitialized: (id) => {
        sessions.add(id, { server, transport }, client);
        log.info('mcp session opened', { session: id, sessions: sessions.size });
      },
      onsessionclosed: (id) => {
        sessions.remove(id);
        log.info('mcp session closed', { session: id, reason: 'deleted' });
      },
    });
    // Set before connect(): the SDK chains its own onclose after this one.
    transport.onclose = () => {
      if (transport.sessionId) sessions.remove(transport.sessionId);
    };
    await server.connect(transport);
    return transport.handleRequest(req, { parsedBody });
  }

  async function answerStateless(req: Request, parsedBody: unknown): Promise<Response> {
    const server = newServer();
    // JSON responses: the Response is complete when handleRequest resolves, so the pair can be
    // closed right away (an SSE body would still be streaming).
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true, maxRequestBodySize });
    await server.connect(transport);
    try {
      return await transport.handleRequest(req, { parsedBody });
    } finally {
      void server.close().catch(() => {});
    }
  }

  return {
    async handle(req, client) {
      const sessionId = req.headers.get('mcp-session-id');
      if (sessionId) {
        const session = sessions.get(sessionId);
        if (!session) {
          return jsonRpcError(404, -32001, 'Session not found: it ended or expired; send a new initialize request without Mcp-Session-Id');
        }
        return session.transport.handleRequest(req);
      }
      if (req.method === 'GET') {
        // The server-to-client stream belongs to a session; 405 tells a client there is none here.
        return jsonRpcError(405, -32000, 'Method not allowed: GET needs an Mcp-Session-Id (initialize a session first)', { allow: 'POST' });
      }
      if (req.method === 'DELETE') {
        return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
      }
      if (req.method !== 'POST') {
        return jsonRpcError(405, -32000, 'Method not allowed.', { allow: 'GET, POST, DELETE' });
      }
      // The body is read here (the same bound the transport applies) to see whether it opens a session.
      const body = await readRequestBody(req, maxRequestBodySize);
      if (body.tooLarge) return jsonRpcError(413, -32000, requestBodyTooLargeMessage(maxRequestBodySize));
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.text);
      } catch {
        return jsonRpcError(400, -32700, 'Parse error: Invalid JSON');
      }
      if (!config.MCP_STATELESS && isInitializeRequest(parsed)) return startSession(req, parsed, client);
      return answerStateless(req, parsed);
    },
    close: () => sessions.closeAll(),
  };
}
