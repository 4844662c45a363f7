/**
 * Cypher feedback on the real Neo4j: each notice kind through MCP `graph_query` (in
 * `structuredContent.notices` and a line of text) and through the agent (in the text the model
 * reads, and a repeated failing query answered from memory), a correct query with no notice,
 * and a reversed relationship. The suite's own labels, types and keys carry a tag of this run.
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentHandler } from '../../../../src/agent/handler.js';
import type { QueryNotice } from '../../../../src/contract/graph.js';
import type { RouteHandler } from '../../../../src/chat/types.js';
import { routerReply, toolCallReply } from '../../../helpers/llm-server.js';
import { startHarness, type Harness } from '../../helpers/chat-harness.js';
import { connectClient, startMcpServer, type McpTestServer } from '../../helpers/mcp-fixtures.js';
import { createNamesByMeaning } from '../../../../src/lib/names-by-meaning.js';

const tag = randomUUID().slice(0, 8).replace(/-/g, '');
const MOVIE = `Movie${tag}`;
const PERSON = `Person${tag}`;
const ACTED = `ACTED_IN_${tag}`;
const TITLE = `title${tag}`;
let srv: McpTestServer;
let client: Client;

const db = (cypher: string) => srv.deps.graph.driver.executeQuery(cypher, {}, { database: 'neo4j' });

/** Calls MCP graph_query and returns its structured value and its text blocks. */
async function query(cypher: string) {
  const r = (await client.callTool({ name: 'graph_query', arguments: { cypher_query: cypher } })) as CallToolResult;
  expect(r.isError).toBeFalsy();
  const value = r.structuredContent as { rows: unknown[]; totalRows: number; notices?: QueryNotice[] };
  expect(JSON.parse((r.content[0] as { text: string }).text)).toEqual(value);
  return { value, line: (r.content[1] as { text: string } | undefined)?.text };
}

beforeAll(async () => {
  srv = await startMcpServer();
  await db(`CREATE (k:${PERSON} {name: 'Keanu'})-[:${ACTED} {roles: ['Neo']}]->(m:${MOVIE} {${TITLE}: 'The Matrix', released: 1999}),
                   (c:${PERSON} {name: 'Carrie'})-[:${ACTED}]->(m)`);
  // The schema the notices check against is the skeleton's, computed before these nodes existed.
  await srv.deps.skeleton.refresh('neo4j');
  ({ client } = await connectClient(srv.url));
});
afterAll(async () => {
  await client?.close();
  await db(`MATCH (n) WHERE n:${PERSON} OR n:${MOVIE} DETACH DELETE n`);
  await srv.close();
});

describe('graph_query notices over MCP', () => {
  it('says nothing about a query with no problem', async () => {
    const { value, line } = await query(
      `MATCH (p:${PERSON})-[:${ACTED}]->(m:${MOVIE}) RETURN p.name AS name, m.${TITLE} AS title ORDER BY name`,
    );
    expect(value.rows).toEqual([
      { name: 'Carrie', title: 'The Matrix' },
      { name: 'Keanu', title: 'The Matrix' },
    ]);
    expect(value.notices).toBeUndefined();
    expect(line).toBeUndefined();
  });

  it('names the label a misspelt or lower-case label should be', async () => {
    const { value, line } = await query(`MATCH (m:${MOVIE.toLowerCase()}) RETURN m`);
    expect(value.totalRows).toBe(0);
    expect(value.notices).toEqual([
      expect.objectContaining({ kind: 'unknown-label', code: '01N50', name: MOVIE.toLowerCase(), suggestions: [MOVIE] }),
    ]);
    expect(line).toBe(`0 rows, probably because label :${MOVIE.toLowerCase()} does not exist in this graph; did you mean :${MOVIE}?`);
    const plural = await query(`MATCH (m:${MOVIE}s) RETURN m`);
    expect(plural.value.notices?.[0]?.suggestions?.[0]).toBe(MOVIE);
  });

  it('names the relationship type a shortened one should be', async () => {
    const { value, line } = await query(`MATCH (p:${PERSON})-[:ACTED_${tag}]->(m:${MOVIE}) RETURN count(*) AS n`);
    expect(value.rows).toEqual([{ n: 0 }]);
    expect(value.notices).toEqual([expect.objectContaining({ kind: 'unknown-relationship-type', code: '01N51', suggestions: [ACTED] })]);
    expect(line).toContain(`Note: relationship type :ACTED_${tag} does not exist in this graph; did you mean :${ACTED}?`);
  });

  it('names the property a misspelt property key should be', async () => {
    const { value, line } = await query(`MATCH (m:${MOVIE}) WHERE m.titel${tag} = 'The Matrix' RETURN m`);
    expect(value.notices).toEqual([expect.objectContaining({ kind: 'unknown-property', code: '01N52', name: `titel${tag}` })]);
    expect(value.notices![0]!.suggestions!.some((s) => s.endsWith(TITLE))).toBe(true);
    expect(line).toMatch(
      new RegExp(`^0 rows, probably because property key titel${tag} does not exist in this graph; did you mean (${MOVIE}\\.)?${TITLE}`),
    );
  });

  it('says a relationship was walked against its direction, with the pattern that exists', async () => {
    const { value } = await query(`MATCH (m:${MOVIE})-[:${ACTED}]->(p:${PERSON}) RETURN count(*) AS n`);
    expect(value.rows).toEqual([{ n: 0 }]);
    expect(value.notices).toEqual([
      expect.objectContaining({ kind: 'reversed-direction', suggestions: [`(:${PERSON})-[:${ACTED}]->(:${MOVIE})`] }),
    ]);
    const empty = await query(`MATCH (m:${MOVIE})-[:${ACTED}]->(p:${PERSON}) RETURN p.name`);
    expect(empty.line).toMatch(/^0 rows, probably because .* does not occur in this graph, but .* does: reverse the arrow/);
  });

  it('passes a cartesian product and an unbounded path on as notes', async () => {
    const { value } = await query(`MATCH (a:${PERSON}), (b:${MOVIE}) RETURN count(*) AS n`);
    expect(value.rows).toEqual([{ n: 2 }]);
    expect(value.notices?.map((n) => n.kind)).toEqual(['cartesian-product']);
    const path = await query(`MATCH (a:${PERSON})-[*]-(b:${MOVIE}) RETURN count(*) AS n`);
    expect(path.value.notices?.map((n) => n.kind)).toEqual(['unbounded-path']);
    expect(path.line).toMatch(/^Note: -\[\*\]- has no upper bound/);
  });
});

describe('names by meaning over MCP', () => {
  // A fake model: "film…" and "movie…" point one way, every other name another.
  const embed = async (texts: string[]) =>
    texts.map((t) => Float32Array.from(/^(film|movie)/.test(t) ? [1, 0.1] : t.startsWith('played') ? [0.1, 1] : [0, 0.05]));
  let meaningSrv: McpTestServer;
  let meaningClient: Client;
  beforeAll(async () => {
    meaningSrv = await startMcpServer({}, undefined, { meaning: createNamesByMeaning(embed) });
    await meaningSrv.deps.skeleton.refresh('neo4j');
    ({ client: meaningClient } = await connectClient(meaningSrv.url));
  });
  afterAll(async () => {
    await meaningClient?.close();
    await meaningSrv?.close();
  });

  it('suggests the label closest in meaning when no spelling rule finds one', async () => {
    const r = (await meaningClient.callTool({
      name: 'graph_query',
      arguments: { cypher_query: `MATCH (f:Film${tag}) RETURN count(f) AS n` },
    })) as CallToolResult;
    const value = r.structuredContent as { notices?: QueryNotice[] };
    expect(value.notices).toEqual([
      expect.objectContaining({
        kind: 'unknown-label',
        suggestions: [MOVIE],
        message: expect.stringMatching(
          new RegExp(
            `^label :Film${tag} does not exist in this graph; did you mean :${MOVIE} \\(closest in meaning\\)\\? Its labels are :`,
          ),
        ),
      }),
    ]);
    // A name spelling finds keeps its suggestion by spelling.
    const plural = (await meaningClient.callTool({
      name: 'graph_query',
      arguments: { cypher_query: `MATCH (f:${MOVIE}s) RETURN count(f) AS n` },
    })) as CallToolResult;
    expect((plural.structuredContent as { notices: QueryNotice[] }).notices[0]!.message).toMatch(/did you mean :Movie\w+\?$/);
  });
});

describe('graph_query notices in the agent', () => {
  let h: Harness;
  let agent: RouteHandler;
  beforeAll(async () => {
    h = await startHarness({ handlers: { agent: (input) => agent(input) } });
    agent = createAgentHandler({ graph: h.deps.graph, search: h.searcher, skeleton: h.deps.skeleton, config: h.deps.config });
    await h.deps.skeleton.refresh('neo4j');
  });
  afterAll(() => h.close());

  it('tells the model why a query was empty, and answers a repeat from memory instead of running it', async () => {
    const wrong = `MATCH (m:${MOVIE})-[:${ACTED}]->(p:${PERSON}) RETURN p.name AS name`;
    const right = `MATCH (p:${PERSON})-[:${ACTED}]->(m:${MOVIE}) RETURN p.name AS name ORDER BY name`;
    h.llm.script(
      routerReply('agent', 0.9, 'needs the graph'),
      toolCallReply({ name: 'graph_query', arguments: { cypher_query: wrong } }),
      toolCallReply({ name: 'graph_query', arguments: { cypher_query: wrong } }),
      toolCallReply({ name: 'graph_query', arguments: { cypher_query: right } }),
      { content: 'Carrie and Keanu.' },
    );
    const sub = await h.submit('Who acted in The Matrix?');
    const { frames } = await h.stream(sub.job_id, {}, 30_000);
    const job = await h.waitJob(sub.job_id, 30_000);
    expect(job.status).toBe('done');

    const system = h.llm.chatRequests()[1]!.body.messages[0].content as string;
    expect(system).toContain('"0 rows, probably because …" explains an empty result');
    const tools = (i: number) =>
      (h.llm.chatRequests()[i]!.body.messages as any[]).filter((m) => m.role === 'tool').map((m) => m.content as string);
    const first = tools(2)[0]!;
    expect(first).toMatch(/^No rows\. Columns: name\n0 rows, probably because .*reverse the arrow/);
    const second = tools(3)[1]!;
    expect(second).toMatch(
      /^This exact call \(graph_query with the same arguments\) already ran at step 1; not run again, its result is the same:\nNo rows\. Columns: name\n0 rows, probably because .*reverse the arrow/,
    );
    expect(tools(4)[2]).toBe('[{"name":"Carrie"},{"name":"Keanu"}]');

    const results = frames.filter((f) => f.event === 'tool_result');
    const summaries = results.map((f) => f.data.summary as string);
    expect(summaries[0]).toMatch(/^0 rows, probably because/);
    expect(results[0]!.data.notices).toEqual([expect.objectContaining({ kind: 'reversed-direction' })]);
    expect(results[2]!.data.notices).toBeUndefined();
    expect(summaries[1]).toMatch(/^same as step 1: 0 rows, probably because/);
  });
});
