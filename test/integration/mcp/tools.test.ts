/**
 * The MCP tools over real HTTP with the SDK's own client: the tool list and schemas,
 * `vector_search` against an index built over the suite's own nodes (generated tiny model),
 * `graph_query` read-only, and every failure as an `isError` result: bad top_k, unknown graph,
 * refused write, Cypher error, no index, graph database down.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateProse } from '../../../scripts/bench/bench-prose.js';
import { buildVectorIndex } from '../../../src/vector-index/build/build.js';
import { createIndexFixture, createTextNodes, dropIndexFixture } from '../helpers/index-fixtures.js';
import { connectClient, rawPost, startMcpServer, textOf, type McpTestServer } from '../helpers/mcp-fixtures.js';

const MODEL = 'minishlab/potion-base-32M';
const f = createIndexFixture(MODEL, { CHUNK_TOKENS: '48', CHUNK_OVERLAP_TOKENS: '8', VECTOR_SEARCH_TOP_K: '3' });
const texts = Array.from({ length: 12 }, (_, i) => generateProse(4000 + i, 150, 900));
let srv: McpTestServer;
let client: Client;

const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
const count = async (where = '') => {
  const { records } = await srv.deps.graph.driver.executeQuery(
    `MATCH (n:${f.label}) ${where} RETURN count(n) AS c`,
    {},
    { database: 'neo4j' },
  );
  return records[0]!.get('c') as number;
};

beforeAll(async () => {
  srv = await startMcpServer(f.env);
  await createTextNodes(srv.deps.graph.driver, f, texts);
  await buildVectorIndex(srv.deps, { graph: 'neo4j', model: MODEL });
  ({ client } = await connectClient(srv.url));
});
afterAll(async () => {
  await client?.close();
  await dropIndexFixture(srv.deps.graph.driver, f);
  await srv.close();
});

describe('MCP tool list', () => {
  it('initializes with the server name and instructions', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'graph-chat' });
    expect(client.getInstructions()).toContain('vector_search');
    expect(client.getServerCapabilities()?.tools).toBeDefined();
  });

  it('lists vector_search and graph_query with input and output schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['graph_query', 'vector_search']);
    const vs = tools.find((t) => t.name === 'vector_search')!;
    // labels and where: the optional filter (issue #28); sentence stays the only required argument.
    expect(Object.keys(vs.inputSchema.properties!)).toEqual(['sentence', 'graph_name', 'top_k', 'labels', 'where']);
    expect(vs.inputSchema.required).toEqual(['sentence']);
    expect(vs.inputSchema.properties!.top_k).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 3 });
    expect(vs.outputSchema?.required).toEqual(['graph_name', 'model', 'results']);
    expect(vs.annotations).toMatchObject({ readOnlyHint: true });
    expect(vs.description).toMatch(/by meaning and by the words and names/); // RETRIEVAL_MODE hybrid
    const gq = tools.find((t) => t.name === 'graph_query')!;
    expect(Object.keys(gq.inputSchema.properties!)).toEqual(['cypher_query', 'graph_name', 'parameters']);
    expect(gq.inputSchema.required).toEqual(['cypher_query']);
    expect(gq.outputSchema?.required).toEqual(['columns', 'rows', 'totalRows', 'totalIsExact', 'truncated']);
    expect(gq.description).toMatch(/read-only/);
    expect(gq.description).toContain('Labels starting with "__" hold the search index');
  });
});

describe('vector_search over MCP', () => {
  it('finds the node whose text is the sentence, as structuredContent and the same JSON text', async () => {
    const res = await call('vector_search', { sentence: texts[5], graph_name: 'neo4j' });
    expect(res.isError).toBeFalsy();
    const out = res.structuredContent as { graph_name: string; model: string; results: Array<Record<string, unknown>> };
    expect(out.graph_name).toBe('neo4j');
    expect(out.model).toBe(MODEL);
    expect(out.results).toHaveLength(3); // VECTOR_SEARCH_TOP_K
    expect(out.results[0]).toEqual({
      dbId: 5,
      displayName: 'node 5',
      text: texts[5],
      score: expect.any(Number),
      labels: [f.label],
      neighbors: [],
      degree: 0,
    });
    expect(JSON.parse(textOf(res))).toEqual(out);
  });

  it('returns the same nodes as POST /vector/search, graph_name defaulting to GRAPHDB_GRAPH', async () => {
    const sentence = 'insulin signalling in the liver';
    const res = await call('vector_search', { sentence, top_k: 7 });
    const http = await fetch(`${srv.base}/vector/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: sentence, graph_name: 'neo4j', model: MODEL, top_k: 7, mode: 'hybrid', neighbors: 8 }), // RETRIEVAL_MODE, SEARCH_NEIGHBORS
    });
    expect((res.structuredContent as { results: unknown[] }).results).toEqual(await http.json());
  });

  it.each([0, 101, 2.5, '5'])('answers top_k %s with a tool error naming top_k', async (top_k) => {
    const res = await call('vector_search', { sentence: 'glucose', top_k });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/Input validation error.*top_k/);
  });

  it('answers an unknown graph with a tool error', async () => {
    const res = await call('vector_search', { sentence: 'glucose', graph_name: `nograph${f.tag}` });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toBe(`Error: graph "nograph${f.tag}" does not exist`);
  });
});

describe('graph_query over MCP', () => {
  it('runs a read query with parameters', async () => {
    const res = await call('graph_query', {
      cypher_query: `MATCH (n:${f.label}) WHERE n.dbId < $below RETURN n.dbId AS id, n.name AS name ORDER BY id`,
      parameters: { below: 3 },
    });
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent).toEqual({
      columns: ['id', 'name'],
      rows: [
        { id: 0, name: 'node 0' },
        { id: 1, name: 'node 1' },
        { id: 2, name: 'node 2' },
      ],
      totalRows: 3,
      totalIsExact: true,
      truncated: false,
    });
    expect(JSON.parse(textOf(res))).toEqual(res.structuredContent);
  });

  it('refuses a parameter nested past 32 levels with a tool error naming it and the limit (was a stack overflow)', async () => {
    // Built as text: the SDK's client would overflow its own stack encoding 50,000 levels.
    const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);
    const callRaw = async (p: string) => {
      const args = `{"cypher_query":"RETURN size($p) AS n","parameters":{"p":${p}}}`;
      const res = await rawPost(
        srv.url,
        `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"graph_query","arguments":${args}}}`,
      );
      expect(res.status).toBe(200);
      return ((await res.json()) as { result: { isError?: boolean; content: { text: string }[] } }).result;
    };
    for (const depth of [50_000, 33]) {
      const result = await callRaw(nested(depth));
      expect(result.isError).toBe(true);
      expect(result.content[0]!.text).toMatch(/a parameter's lists and maps nest 32 levels deep at most at parameters\.p/);
    }
    expect((await callRaw(nested(32))).isError).toBeFalsy();
  });

  it('caps rows like the agent does and says so', async () => {
    const res = await call('graph_query', { cypher_query: 'UNWIND range(1, 250) AS x RETURN x', graph_name: 'neo4j' });
    const out = res.structuredContent as { rows: unknown[]; totalRows: number; truncated: boolean; note: string };
    expect(out.rows).toHaveLength(100);
    expect(out).toMatchObject({ totalRows: 250, truncated: true });
    expect(out.note).toContain('showing 100 of 250 rows');
  });

  it.each([
    ['SET', `MATCH (n:${f.label}) SET n.hacked = true RETURN n`],
    ['CREATE', `CREATE (:${f.label} {hacked: true})`],
    ['DETACH DELETE', `MATCH (n:${f.label}) DETACH DELETE n`],
  ])('refuses a write (%s) and leaves the graph unchanged', async (_, cypher_query) => {
    const res = await call('graph_query', { cypher_query });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/^Error: refused: graph_query is read-only/);
    expect(await count()).toBe(texts.length);
    expect(await count('WHERE n.hacked IS NOT NULL')).toBe(0);
  });

  it('returns a Cypher syntax error as a tool error with the database message', async () => {
    const res = await call('graph_query', { cypher_query: 'MATCH (n RETURN n' });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/Invalid input 'RETURN'.*line 1, column 10/s);
  });

  it('answers an unknown graph with a tool error', async () => {
    const res = await call('graph_query', { cypher_query: 'RETURN 1', graph_name: `nograph${f.tag}` });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toBe(`Error: graph "nograph${f.tag}" does not exist on this server`);
  });

  it('keeps the session usable after errors', async () => {
    const res = await call('graph_query', { cypher_query: 'RETURN 41 + 1 AS answer' });
    expect(res.structuredContent).toMatchObject({ rows: [{ answer: 42 }] });
  });
});

describe('MCP tools when things are missing', () => {
  it('answers vector_search without an index with a tool error saying how to build it', async () => {
    const other = await startMcpServer({ ...f.env, VECTOR_INDEX_NAME: `${f.index}_missing` });
    const { client: c } = await connectClient(other.url);
    try {
      const res = await c.callTool({ name: 'vector_search', arguments: { sentence: 'glucose' } });
      expect(res.isError).toBe(true);
      expect(textOf(res)).toContain('POST /dev/build_vector_index');
    } finally {
      await c.close();
      await other.close();
    }
  });

  it('answers both tools with a tool error when the graph database is down', async () => {
    const down = await startMcpServer({ ...f.env, GRAPHDB_PORT: '1299' });
    const { client: c } = await connectClient(down.url);
    try {
      const vs = await c.callTool({ name: 'vector_search', arguments: { sentence: 'glucose' } });
      expect(vs.isError).toBe(true);
      expect(textOf(vs)).toBe('Error: the graph database is unavailable; try again shortly');
      const gq = await c.callTool({ name: 'graph_query', arguments: { cypher_query: 'RETURN 1' } });
      expect(gq.isError).toBe(true);
      expect(textOf(gq)).toMatch(/unavailable/);
    } finally {
      await c.close();
      await down.close();
    }
  });
});

describe('what agents need besides the tools', () => {
  it('offers the graph schema as a resource, without index internals', async () => {
    const { resources } = await client.listResources();
    expect(resources).toEqual([expect.objectContaining({ uri: 'graph://neo4j/schema', mimeType: 'text/markdown' })]);
    const read = await client.readResource({ uri: 'graph://neo4j/schema' });
    const text = (read.contents[0] as { text: string }).text;
    expect(text).toContain(f.label);
    expect(text).not.toContain('__Chunk');
    const unknown = await client.readResource({ uri: 'graph://nope/schema' });
    expect((unknown.contents[0] as { text: string }).text).toMatch(/There is no graph "nope"/);
  });

  it('offers a prompt that tells an agent how to use the two tools together', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['answer-from-graph']);
    const got = await client.getPrompt({ name: 'answer-from-graph', arguments: { question: 'Who knows Ada?' } });
    const text = (got.messages[0]!.content as { text: string }).text;
    expect(text).toMatch(/graph:\/\/neo4j\/schema[\s\S]*vector_search[\s\S]*graph_query[\s\S]*Question: Who knows Ada\?/);
  });

  it('refuses a sentence of only spaces', async () => {
    const res = await call('vector_search', { sentence: '   ' });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/not only spaces at sentence/);
  });
});
