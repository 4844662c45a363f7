/**
 * Where examples are added and seen: `POST`/`GET /dev/examples` (checked before storing, in the
 * key-value store for every process, behind ADMIN_TOKEN like every /dev/* route), `/status`, and
 * MCP (the resource, the prompt, graph_query's description).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/deps.js';
import { connectClient, startMcpServer, type McpTestServer } from '../helpers/mcp-fixtures.js';

const tag = randomUUID().slice(0, 8);
const CITY = `ExCity_${tag}`;
const { app, deps } = createTestApp();
const guarded = createTestApp({ ADMIN_TOKEN: 'secret-token' });
let mcp: McpTestServer;

const post = (body: unknown, target = app, headers: Record<string, string> = {}) =>
  target.request('/dev/examples', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const db = (cypher: string) => deps.graph.driver.executeQuery(cypher, {}, { database: 'neo4j' });

beforeAll(async () => {
  await db(`CREATE (:${CITY} {name: 'Oslo', population: 700000})`);
  await deps.skeleton.refresh('neo4j');
});
afterAll(async () => {
  await db(`MATCH (n:${CITY}) DETACH DELETE n`);
  await Promise.all([deps.close(), guarded.deps.close(), mcp?.close()]);
});

describe('/dev/examples', () => {
  it('adds a checked example, refuses a write and an unknown name with the reason, and lists them', async () => {
    const good = await post({
      question: 'How many people live in Oslo?',
      cypher: `MATCH (c:${CITY} {name: 'Oslo'}) RETURN c.population`,
      note: 'a property',
    });
    expect(good.status).toBe(201);
    expect(await good.json()).toMatchObject({ source: 'added', line: 1, note: 'a property' });

    const write = await post({ question: 'Add a city', cypher: `CREATE (:${CITY} {name: 'Bergen'})` });
    expect(write.status).toBe(422);
    expect(((await write.json()) as any).errors[0]).toMatchObject({ path: 'body.cypher', message: expect.stringMatching(/read-only/) });

    const misspelt = await post({ question: 'Cities?', cypher: `MATCH (c:${CITY}) RETURN c.populaton` });
    expect(misspelt.status).toBe(422);
    expect(((await misspelt.json()) as any).detail).toMatch(/did you mean .*population/);

    const list = await app.request('/dev/examples');
    expect(list.status).toBe(200);
    const body = (await list.json()) as any;
    expect(body.examples.map((e: any) => e.question)).toEqual(['How many people live in Oslo?']);
    expect(body.rejected).toEqual([]);
    expect((await app.request('/dev/examples?graph_name=nope')).status).toBe(404);
  });

  it('needs ADMIN_TOKEN, for listing too, when it is set', async () => {
    expect((await guarded.app.request('/dev/examples')).status).toBe(401);
    expect((await post({ question: 'q', cypher: 'RETURN 1' }, guarded.app)).status).toBe(401);
    const ok = await guarded.app.request('/dev/examples', { headers: { authorization: 'Bearer secret-token' } });
    expect(ok.status).toBe(200);
  });

  it('shows in /status: how many, how many rejected and why', async () => {
    await deps.examples!.load('neo4j');
    const status = (await (await app.request('/status')).json()) as any;
    expect(status.examples).toMatchObject({ count: 1, rejected: 0, per_prompt: 3, file: null });
    expect(status.checks.find((c: any) => c.id === 'examples')).toMatchObject({ ok: true, required: false });
  });
});

describe('examples over MCP', () => {
  it('as a resource, in the prompt and named in graph_query', async () => {
    mcp = await startMcpServer({ KV_PREFIX: deps.kv.prefix });
    await mcp.deps.examples!.load('neo4j');
    const { client } = await connectClient(mcp.url);
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'graph_query')!.description).toContain('resource graph://neo4j/examples');
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['graph://neo4j/schema', 'graph://neo4j/examples']);
    const read = await client.readResource({ uri: 'graph://neo4j/examples' });
    expect((read.contents[0] as any).text).toContain('Question: How many people live in Oslo?');
    const prompt = await client.getPrompt({ name: 'answer-from-graph', arguments: { question: 'Population of Oslo?' } });
    expect((prompt.messages[0]!.content as any).text).toContain(`Cypher: MATCH (c:${CITY} {name: 'Oslo'}) RETURN c.population`);
    await client.close();
  });
});
