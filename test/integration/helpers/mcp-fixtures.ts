/**
 * Shared set-up of the MCP suites: the app on a real HTTP server on a random port (the SDK's
 * client talks HTTP to it), and SDK clients connected over streamable HTTP.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createApp } from '../../../src/app.js';
import type { AppDeps } from '../../../src/deps.js';
import { createTestDeps, type TestDeps } from './deps.js';

/** A served app. */
export interface McpTestServer {
  /** `http://127.0.0.1:<port>/mcp` */
  url: URL;
  base: string;
  deps: TestDeps;
  close(): Promise<void>;
}

/** Serves a test app on 127.0.0.1 and a free port; `stopping` stands for the service's shutdown signal. */
export async function startMcpServer(
  env: Record<string, string> = {},
  stopping?: AbortSignal,
  extra: Pick<AppDeps, 'meaning'> = {},
): Promise<McpTestServer> {
  const deps = createTestDeps(env);
  const app = createApp({ ...deps, ...extra, stopping });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: new URL(`${base}/mcp`),
    base,
    deps,
    async close() {
      // Open MCP streams (GET) would keep server.close() waiting.
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await deps.close();
    },
  };
}

/** An SDK client connected over streamable HTTP. */
export async function connectClient(url: URL, name = 'test-client') {
  const client = new Client({ name, version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(url);
  await client.connect(transport);
  return { client, transport };
}

/** The text of a tool result's first content block. */
export function textOf(result: unknown): string {
  const block = (result as CallToolResult).content[0];
  return block?.type === 'text' ? block.text : '';
}

/** A raw `initialize` request body. */
export const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** A raw JSON-RPC POST to the endpoint, with the headers streamable HTTP requires. */
export function rawPost(url: URL, body: string, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
  });
}
