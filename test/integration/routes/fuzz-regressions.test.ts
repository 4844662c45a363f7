/**
 * Regressions found by fuzzing the HTTP API against its own OpenAPI document (schemathesis):
 * 405 for a known path with another method, server-issued IDs that could address other Redis
 * keys, the `system` database taken for a graph, and statuses the document did not list.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/deps.js';

const { app, deps } = createTestApp();
afterAll(() => deps.close());

type ProblemBody = { type: string; title: string; status: number; detail: string; errors?: { path: string }[] };

async function problemOf(res: Response): Promise<ProblemBody> {
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  const body = (await res.json()) as ProblemBody;
  expect(Object.keys(body)).toEqual(expect.arrayContaining(['type', 'title', 'status', 'detail']));
  return body;
}

const postJson = (path: string, body: unknown) =>
  app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('a known path with a method it does not route', () => {
  it('answers 405 with an Allow header listing the routed methods', async () => {
    const res = await app.request('/health', { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(await problemOf(res)).toMatchObject({ status: 405, title: 'Method Not Allowed' });
  });

  it('matches parameterised paths', async () => {
    const res = await app.request(`/chat/session/${crypto.randomUUID()}`, { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('DELETE, GET, HEAD, PATCH');
  });

  it('keeps 404 for unknown paths and for routed methods that find nothing', async () => {
    expect((await app.request('/no/such/route', { method: 'PUT' })).status).toBe(404);
    expect((await app.request(`/chat/job/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await app.request('/health', { method: 'HEAD' })).status).toBe(200);
  });

  it('reads Hono path syntax, custom patterns included', async () => {
    expect((await app.request('/docs/swagger-ui.css', { method: 'DELETE' })).status).toBe(405);
    expect((await app.request('/docs/other.css', { method: 'DELETE' })).status).toBe(404);
    expect((await app.request('/chat/job/abc/stream', { method: 'DELETE' })).headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('server-issued IDs in paths', () => {
  it('rejects a job_id that would name another key (was a 500 WRONGTYPE)', async () => {
    const id = crypto.randomUUID();
    await deps.kv.redis.rpush(`${deps.kv.prefix}job:${id}:events`, JSON.stringify({ type: 'routing_started', data: {} }));
    for (const path of [`/chat/job/${id}:events`, `/chat/job/${id}:events/stream`]) {
      const res = await app.request(path);
      expect(res.status, path).toBe(422);
      expect((await problemOf(res)).errors?.map((e) => e.path)).toEqual(['path.job_id']);
    }
  });

  it('does not delete another key through DELETE /chat/session/{id} (was a 204 that did)', async () => {
    const id = crypto.randomUUID();
    const messages = `${deps.kv.prefix}session:${id}:messages`;
    await deps.kv.redis.rpush(messages, JSON.stringify({ role: 'user', content: 'keep me' }));
    const res = await app.request(`/chat/session/${id}:messages`, { method: 'DELETE' });
    expect(res.status).toBe(422);
    expect((await problemOf(res)).errors?.map((e) => e.path)).toEqual(['path.session_id']);
    expect(await deps.kv.redis.llen(messages)).toBe(1);
  });
});

describe('the system database is not a graph', () => {
  it('answers vector search on graph "system" with 404 (was a 500 from Neo4j)', async () => {
    const res = await postJson('/vector/search', { query: 'x', graph_name: 'system', model: 'minishlab/potion-base-8M' });
    expect(res.status).toBe(404);
    expect((await problemOf(res)).type).toBe('/problems/unknown-graph');
  });

  it('answers an index build on graph "system" with 404', async () => {
    const res = await postJson('/dev/build_vector_index', { graph_name: 'system', model: 'minishlab/potion-base-8M' });
    expect(res.status).toBe(404);
    expect((await problemOf(res)).type).toBe('/problems/unknown-graph');
  });
});

describe('the OpenAPI document lists what the service answers', async () => {
  const doc = (await (await app.request('/openapi.json')).json()) as {
    paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, any>; parameters?: any[] }>>;
    components: { schemas: Record<string, any> };
  };

  it('lists 400, 413, 415 and 422 on every route with a JSON body', () => {
    const withBody = Object.entries(doc.paths)
      .filter(([path]) => path !== '/mcp')
      .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ label: `${method} ${path}`, op })))
      .filter(({ op }) => op.requestBody);
    expect(withBody.length).toBeGreaterThanOrEqual(4);
    for (const { label, op } of withBody) {
      expect(Object.keys(op.responses), label).toEqual(expect.arrayContaining(['400', '413', '415', '422']));
    }
  });

  it('lists 422 where a query or path parameter is validated', () => {
    expect(Object.keys(doc.paths['/chat/sessions']!.get!.responses)).toContain('422');
    for (const [path, method] of [
      ['/chat/job/{job_id}', 'get'],
      ['/chat/session/{session_id}', 'delete'],
    ] as const) {
      const op = doc.paths[path]![method]!;
      expect(Object.keys(op.responses), path).toContain('422');
      expect(op.parameters?.[0].schema.pattern, path).toMatch(/^\^\[0-9a-fA-F\]\{8\}/);
    }
  });

  it('describes the constraints the handlers enforce', () => {
    const { schemas } = doc.components;
    expect(schemas.ChatRequest.properties.message.pattern).toBe('\\S');
    expect(schemas.SessionRename.properties.name.pattern).toBe('\\S');
    expect(schemas.VectorSearchRequest.properties.model.enum).toContain('minishlab/potion-base-32M');
    expect(schemas.BuildIndexRequest.properties.model.enum).toHaveLength(6);
    const stream = doc.paths['/chat/job/{job_id}/stream']!.get!.responses['200'].content['text/event-stream'].schema;
    expect(schemas[stream.$ref.split('/').pop()].required).toEqual(['id', 'event', 'data']);
  });

  it('rejects a whitespace-only message as the pattern says', async () => {
    const res = await postJson('/chat/message', { message: ' \n\t ' });
    expect(res.status).toBe(422);
    expect((await problemOf(res)).errors?.map((e) => e.path)).toEqual(['body.message']);
  });
});

describe('issue 33: what schemathesis found the document did not say', async () => {
  const doc = (await (await app.request('/openapi.json')).json()) as {
    paths: Record<string, Record<string, { requestBody?: any; responses: Record<string, any>; parameters?: any[] }>>;
    components: { schemas: Record<string, any> };
  };
  const header = (path: string, method: string, name: string) => doc.paths[path]![method]!.parameters!.find((p) => p.name === name)!;

  it('an empty Mcp-Session-Id is not a session id, and a POST to /mcp needs a body', async () => {
    expect(header('/mcp', 'get', 'mcp-session-id').schema.minLength).toBe(1);
    expect(header('/mcp', 'delete', 'mcp-session-id').schema.minLength).toBe(1);
    expect(doc.paths['/mcp']!.post!.requestBody.required).toBe(true);
    // JSON-RPC members only, params named (MCP never sends a list): the transport refuses others.
    expect(doc.components.schemas.JsonRpcMessage).toMatchObject({
      additionalProperties: false,
      properties: { params: { type: 'object' } },
    });
  });

  it('lists only the providers the server has a key for, and refuses hosted by that rule', async () => {
    expect(header('/chat/message', 'post', 'x-llm-provider').schema.enum).toEqual(['local']);
    expect(header('/chat/message', 'post', 'x-llm-router-provider').schema.enum).toEqual(['local']);
    const keyed = createTestApp({ HOSTED_LLM_API_KEY: 'sk-test' });
    try {
      const keyedDoc = (await (await keyed.app.request('/openapi.json')).json()) as typeof doc;
      const p = keyedDoc.paths['/chat/message']!.post!.parameters!.find((x) => x.name === 'x-llm-provider');
      expect(p.schema.enum).toEqual(['local', 'hosted']);
    } finally {
      await keyed.deps.close();
    }
  });

  it('documents 401 on /dev/* (ADMIN_TOKEN), and a method /dev/* does not route is a 405 even without the token', async () => {
    for (const path of Object.keys(doc.paths).filter((p) => p.startsWith('/dev/'))) {
      expect(Object.keys(doc.paths[path]!.post!.responses), path).toContain('401');
    }
    const guarded = createTestApp({ ADMIN_TOKEN: 'secret' });
    try {
      const trace = await guarded.app.request('/dev/build_vector_index', { method: 'PUT' });
      expect(trace.status).toBe(405);
      const post = await guarded.app.request('/dev/build_vector_index', {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(post.status).toBe(401);
    } finally {
      await guarded.deps.close();
    }
  });

  it("the search example's label and filter hold on the sample graph", () => {
    expect(doc.components.schemas.FilterLabels.example).toEqual(['Mission']);
    expect(doc.components.schemas.SearchFilter.example).toEqual({ property: 'launchDate', op: '>=', value: '2000-01-01' });
  });
});
