/**
 * The `/mcp` transport over real HTTP: stateful sessions (id header, GET stream, DELETE, cap),
 * stateless requests (no session id, and `MCP_STATELESS=true` with the SDK client), several
 * clients at once, and JSON-RPC errors for bad requests instead of problem+json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, INIT, rawPost, startMcpServer, type McpTestServer } from '../helpers/mcp-fixtures.js';

let srv: McpTestServer;
const toolCall = (id: number, cypher: string, params: Record<string, unknown> = {}) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'graph_query', arguments: { cypher_query: cypher, parameters: params } },
  });

/** The JSON-RPC messages of a response, whether it came as JSON or as an SSE stream. */
async function messages(res: Response): Promise<any[]> {
  const body = await res.text();
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) return [JSON.parse(body)];
  return body
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)));
}

beforeAll(async () => {
  srv = await startMcpServer({ MAX_BODY_BYTES: '4096' });
});
afterAll(async () => {
  await srv.close();
});

describe('stateful sessions', () => {
  it('opens a session on initialize for the SDK client, honours its id and ends it on DELETE', async () => {
    const { client, transport } = await connectClient(srv.url);
    const sid = transport.sessionId!;
    expect(sid).toMatch(/^[0-9a-f-]{36}$/);
    // The same session answers a raw request that carries its id.
    const res = await rawPost(srv.url, toolCall(7, 'RETURN 7 AS x'), { 'mcp-session-id': sid });
    expect(res.status).toBe(200);
    expect((await messages(res))[0].result.structuredContent.rows).toEqual([{ x: 7 }]);
    await transport.terminateSession();
    const after = await rawPost(srv.url, toolCall(8, 'RETURN 1'), { 'mcp-session-id': sid });
    expect(after.status).toBe(404);
    expect(await after.json()).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32001, message: expect.stringMatching(/^Session not found/) },
    });
    await client.close();
  });

  it('gives each event of a POST stream an id, and replays what came after one on a GET with Last-Event-ID', async () => {
    const { client, transport } = await connectClient(srv.url);
    const headers = { 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-11-25' };
    const res = await rawPost(srv.url, toolCall(11, 'RETURN 11 AS x'), headers);
    const text = await res.text();
    const ids = [...text.matchAll(/^id: (.+)$/gm)].map((m) => m[1]!);
    expect(ids).toHaveLength(2); // a priming event (protocol 2025-11-25), then the answer
    expect(text).toContain('"rows":[{"x":11}]');
    // Resuming after the priming event replays the answer, with its id.
    const ac = new AbortController();
    const replay = await fetch(srv.url, {
      headers: { ...headers, accept: 'text/event-stream', 'last-event-id': ids[0]! },
      signal: ac.signal,
    });
    const reader = replay.body!.getReader();
    let got = '';
    while (!got.includes('"x":11')) got += new TextDecoder().decode((await reader.read()).value);
    ac.abort();
    expect(got).toContain(`id: ${ids[1]}`);
    await client.close();
  });

  it('gives a raw session its SSE stream on GET (one per session) and ends it on DELETE', async () => {
    const init = await rawPost(srv.url, INIT);
    const sid = init.headers.get('mcp-session-id')!;
    expect((await messages(init))[0].result.serverInfo.name).toBe('graph-chat');
    const headers = { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' };
    expect((await rawPost(srv.url, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), headers)).status).toBe(202);
    const ac = new AbortController();
    const stream = await fetch(srv.url, { headers: { ...headers, accept: 'text/event-stream' }, signal: ac.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    const second = await fetch(srv.url, { headers: { ...headers, accept: 'text/event-stream' } });
    expect(second.status).toBe(409);
    await second.body?.cancel();
    const del = await fetch(srv.url, { method: 'DELETE', headers });
    expect(del.status).toBe(200);
    // Ending the session ends its stream.
    const reader = stream.body!.getReader();
    while (!(await reader.read()).done);
    ac.abort();
    expect((await rawPost(srv.url, toolCall(2, 'RETURN 1'), headers)).status).toBe(404);
  });

  it('serves two clients at once, each in its own session with its own answers', async () => {
    const a = await connectClient(srv.url, 'a');
    const b = await connectClient(srv.url, 'b');
    try {
      expect(a.transport.sessionId).not.toBe(b.transport.sessionId);
      const ask = (c: typeof a, who: string, i: number) =>
        c.client.callTool({ name: 'graph_query', arguments: { cypher_query: 'RETURN $who AS who, $i AS i', parameters: { who, i } } });
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => [ask(a, 'a', i), ask(b, 'b', i)]).flat());
      results.forEach((r, k) => {
        expect(r.structuredContent).toMatchObject({ rows: [{ who: k % 2 ? 'b' : 'a', i: Math.floor(k / 2) }] });
      });
    } finally {
      await Promise.all([a.client.close(), b.client.close()]);
    }
  });

  it('closes the least recently used session beyond MCP_MAX_SESSIONS', async () => {
    const capped = await startMcpServer({ MCP_MAX_SESSIONS: '2' });
    const clients = [];
    try {
      for (const name of ['first', 'second', 'third']) clients.push(await connectClient(capped.url, name));
      const [first, second, third] = clients;
      await expect(first!.client.listTools()).rejects.toThrow(/404|Session not found/);
      expect((await second!.client.listTools()).tools).toHaveLength(2);
      expect((await third!.client.listTools()).tools).toHaveLength(2);
    } finally {
      await Promise.allSettled(clients.map((c) => c.client.close()));
      await capped.close();
    }
  });
});

describe('shutdown', () => {
  it('ends every session and its open stream when the service starts to stop', async () => {
    const stop = new AbortController();
    const own = await startMcpServer({}, stop.signal);
    try {
      const init = await rawPost(own.url, INIT);
      const headers = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-06-18' };
      await init.text();
      const stream = await fetch(own.url, { headers: { ...headers, accept: 'text/event-stream' } });
      expect(stream.status).toBe(200);
      stop.abort();
      const reader = stream.body!.getReader();
      while (!(await reader.read()).done); // the stream ends instead of holding the server open
      expect((await rawPost(own.url, toolCall(1, 'RETURN 1'), headers)).status).toBe(404);
    } finally {
      await own.close();
    }
  });
});

describe('stateless requests', () => {
  it('answers a tools/call without a session id as plain JSON and opens no session', async () => {
    const res = await rawPost(srv.url, toolCall(3, 'RETURN "stateless" AS mode'));
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(res.headers.get('content-type')).toBe('application/json');
    const body = await res.json();
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 3, result: { structuredContent: { rows: [{ mode: 'stateless' }] } } });
  });

  it('works with the SDK client when MCP_STATELESS=true (no session id is ever issued)', async () => {
    const stateless = await startMcpServer({ MCP_STATELESS: 'true' });
    const { client, transport } = await connectClient(stateless.url);
    try {
      expect(transport.sessionId).toBeUndefined();
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['graph_query', 'vector_search']);
      const res = await client.callTool({ name: 'graph_query', arguments: { cypher_query: 'RETURN 2 AS two' } });
      expect(res.structuredContent).toMatchObject({ rows: [{ two: 2 }] });
      const init = await rawPost(stateless.url, INIT);
      expect(init.headers.get('mcp-session-id')).toBeNull();
    } finally {
      await client.close();
      await stateless.close();
    }
  });
});

describe('bad requests get JSON-RPC errors', () => {
  const expectJsonRpcError = async (res: Response, status: number, code: number) => {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { code }, id: null });
  };

  it('invalid JSON: 400 parse error', async () => {
    await expectJsonRpcError(await rawPost(srv.url, '{"jsonrpc": "2.0", "id": 1,'), 400, -32700);
  });

  it('JSON that is not JSON-RPC: 400', async () => {
    await expectJsonRpcError(await rawPost(srv.url, '{"hello": "world"}'), 400, -32700);
  });

  it('an unknown method: a JSON-RPC "method not found" answer', async () => {
    const res = await rawPost(srv.url, JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'nope/nothing' }));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: 9, error: { code: -32601 } });
  });

  it('an unknown session id: 404 "Session not found"', async () => {
    await expectJsonRpcError(await rawPost(srv.url, toolCall(1, 'RETURN 1'), { 'mcp-session-id': 'no-such-session' }), 404, -32001);
  });

  it('a body over MAX_BODY_BYTES: 413 as JSON-RPC, not problem+json', async () => {
    await expectJsonRpcError(await rawPost(srv.url, toolCall(1, `RETURN '${'x'.repeat(5000)}'`)), 413, -32000);
  });

  it('GET without a session: 405; DELETE without a session: 400; PUT: 405', async () => {
    await expectJsonRpcError(await fetch(srv.url, { headers: { accept: 'text/event-stream' } }), 405, -32000);
    await expectJsonRpcError(await fetch(srv.url, { method: 'DELETE' }), 400, -32000);
    await expectJsonRpcError(await fetch(srv.url, { method: 'PUT', body: '{}' }), 405, -32000);
  });

  it('a POST whose Accept names types but leaves out text/event-stream: 406', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json' };
    const res = await fetch(srv.url, { method: 'POST', headers, body: toolCall(1, 'RETURN 1') });
    await expectJsonRpcError(res, 406, -32000);
  });

  it('a POST that accepts anything (Accept: */*, as fetch sends, or none) is answered, not refused', async () => {
    // The OpenAPI document cannot declare Accept (OpenAPI ignores it as a parameter), so a
    // client built from it sends */* or nothing: it was a 406.
    for (const accept of ['*/*', undefined]) {
      const headers: Record<string, string> = { 'content-type': 'application/json', ...(accept ? { accept } : {}) };
      const res = await fetch(srv.url, { method: 'POST', headers, body: toolCall(1, 'RETURN 1') });
      expect(res.status, String(accept)).toBe(200);
      expect(await res.text()).toContain('"result"');
    }
  });
});

describe('CORS for browser-based MCP clients', () => {
  it('allows the MCP headers in a preflight and exposes Mcp-Session-Id', async () => {
    const pre = await fetch(srv.url, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:6274',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,mcp-session-id,mcp-protocol-version',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-headers')).toContain('mcp-session-id');
    const res = await rawPost(srv.url, INIT, { origin: 'http://localhost:6274' });
    expect(res.headers.get('access-control-expose-headers')).toContain('Mcp-Session-Id');
    expect(res.headers.get('mcp-session-id')).toBeTruthy();
    await res.body?.cancel();
  });
});
