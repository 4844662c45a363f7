/** The foundation over HTTP: health, config, docs and the problem bodies of every error path. */
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/deps.js';

const { app, deps } = createTestApp();
afterAll(() => deps.close());

async function problemOf(res: Response) {
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  return (await res.json()) as { type: string; title: string; status: number; detail: string; errors?: { path: string }[] };
}

describe('GET /health', () => {
  it('is ok with the real Neo4j and Redis', async () => {
    const res = await app.request('/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', graphdb: 'ok', kvstore: 'ok' });
  });

  it('is degraded, quickly, when the key-value store is unreachable', async () => {
    const bad = createTestApp({ KVSTORE_URL: 'redis://127.0.0.1:6390/0' });
    const started = Date.now();
    const res = await bad.app.request('/health');
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'degraded', graphdb: 'ok', kvstore: 'down' });
    await bad.deps.close();
  });

  it('is degraded when the graph database is unreachable', async () => {
    const bad = createTestApp({ GRAPHDB_PORT: '1299' });
    const started = Date.now();
    const res = await bad.app.request('/health');
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'degraded', graphdb: 'down', kvstore: 'ok' });
    await bad.deps.close();
  });
});

describe('GET /config', () => {
  it('returns the model configuration and no secret', async () => {
    const secret = createTestApp({ HOSTED_LLM_API_KEY: 'sk-very-secret' });
    const res = await secret.app.request('/config');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual([
      'anon_reads',
      'hosted_agent_model',
      'hosted_available',
      'hosted_router_model',
      'limits',
      'llm_provider',
      'local_agent_model',
      'local_router_model',
      'router_provider',
    ]);
    expect(JSON.stringify(body)).not.toContain('sk-very-secret');
    expect(body.hosted_available).toBe(true);
    await secret.deps.close();
    const keyless = createTestApp();
    expect((await (await keyless.app.request('/config')).json()).hosted_available).toBe(false);
    await keyless.deps.close();
  });
});

describe('documentation', () => {
  it('serves an OpenAPI 3.1 document listing the routes', async () => {
    const res = await app.request('/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/health', '/config', '/query']));
  });

  it('documents every method of /mcp with the statuses it really answers', async () => {
    const doc = (await (await app.request('/openapi.json')).json()) as { paths: Record<string, Record<string, { responses: object }>> };
    const mcp = doc.paths['/mcp']!;
    expect(Object.keys(mcp).sort()).toEqual(['delete', 'get', 'post']);
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    const wrongAccept = await app.request('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/html' },
      body: JSON.stringify(init),
    });
    expect(wrongAccept.status).toBe(406);
    expect(Object.keys(mcp.post!.responses)).toContain('406');
    const noSession = await app.request('/mcp', { method: 'GET', headers: { accept: 'text/event-stream' } });
    expect(Object.keys(mcp.get!.responses)).toContain(String(noSession.status));
    const deleteNoSession = await app.request('/mcp', { method: 'DELETE' });
    expect(Object.keys(mcp.delete!.responses)).toContain(String(deleteNoSession.status));
  });

  it('serves a docs page whose scripts and styles are local', async () => {
    const page = await app.request('/docs');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('swagger-ui');
    expect(html).not.toMatch(/https?:\/\//);
    for (const asset of ['/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css', '/docs/init.js']) {
      const res = await app.request(asset);
      expect(res.status, asset).toBe(200);
      expect((await res.arrayBuffer()).byteLength, asset).toBeGreaterThan(10);
    }
  });
});

describe('error paths', () => {
  it('answers an unknown route with a 404 problem', async () => {
    const res = await app.request('/no/such/route');
    expect(res.status).toBe(404);
    expect(await problemOf(res)).toMatchObject({ status: 404, title: 'Not Found' });
  });

  it('tells browsers not to sniff types, on answers, errors and docs alike', async () => {
    for (const path of ['/health', '/no/such/route', '/openapi.json', '/docs']) {
      expect((await app.request(path)).headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });

  it('answers malformed JSON with 400', async () => {
    const res = await app.request('/vector/search', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query": ',
    });
    expect(res.status).toBe(400);
    expect((await problemOf(res)).detail).toMatch(/malformed json/i);
  });

  it('answers a schema failure with 422 naming each field', async () => {
    const res = await app.request('/vector/search', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'x', top_k: 'many' }),
    });
    expect(res.status).toBe(422);
    const paths = ((await problemOf(res)).errors ?? []).map((e) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['body.graph_name', 'body.model', 'body.top_k']));
  });

  it('answers too large a body with 413', async () => {
    const res = await app.request('/vector/search', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'x'.repeat(deps.config.MAX_BODY_BYTES + 10) }),
    });
    expect(res.status).toBe(413);
    expect((await problemOf(res)).status).toBe(413);
  });

  it('answers the reserved /query with 501', async () => {
    const res = await app.request('/query', { method: 'POST' });
    expect(res.status).toBe(501);
    expect((await problemOf(res)).detail).toMatch(/not implemented/);
  });

  it('answers reads to any origin, but credentials only to trusted ones', async () => {
    const foreign = await app.request('/config', { headers: { origin: 'http://example.test' } });
    expect(foreign.headers.get('access-control-allow-origin')).toBe('*');
    expect(foreign.headers.get('access-control-allow-credentials')).toBeNull();
    const pre = await app.request('/chat/message', {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:8501', 'access-control-request-method': 'POST' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('http://localhost:8501');
    expect(pre.headers.get('access-control-allow-credentials')).toBe('true');
  });
});
