/**
 * Value notices on the real Neo4j (DECISIONS 28): a compared value the graph lacks, or of
 * another type than the property holds, told through MCP `graph_query` and through the agent;
 * correct queries keep their rows and get no notice. The nodes mimic Northwind as loaded from
 * its CSV files (freight and dates as strings) and the movies graph (released INTEGER); their
 * labels carry a tag of this run.
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

const tag = randomUUID().slice(0, 8).replace(/-/g, '');
const CUSTOMER = `Customer${tag}`;
const ORDER = `Order${tag}`;
const MOVIE = `Movie${tag}`;
const PERSON = `Person${tag}`;
let srv: McpTestServer;
let client: Client;

const db = (cypher: string) => srv.deps.graph.driver.executeQuery(cypher, {}, { database: 'neo4j' });

async function query(cypher: string, parameters?: Record<string, unknown>) {
  const r = (await client.callTool({ name: 'graph_query', arguments: { cypher_query: cypher, parameters } })) as CallToolResult;
  expect(r.isError).toBeFalsy();
  const value = r.structuredContent as { rows: unknown[]; totalRows: number; notices?: QueryNotice[] };
  return { value, line: (r.content[1] as { text: string } | undefined)?.text };
}

beforeAll(async () => {
  srv = await startMcpServer();
  await db(`UNWIND [['ALFKI', 'Germany', 'Berlin'], ['AROUT', 'UK', 'London'], ['BONAP', 'France', 'Marseille'], ['RATTC', 'USA', 'Albuquerque']] AS c
            CREATE (:${CUSTOMER} {customerID: c[0], country: c[1], city: c[2]})`);
  await db(`UNWIND [['10248', '32.38', '1996-07-04 00:00:00.000'], ['10249', '11.61', '1996-07-05 00:00:00.000'], ['10250', '65.83', '1996-07-08 00:00:00.000']] AS o
            CREATE (:${ORDER} {orderID: o[0], freight: o[1], orderDate: o[2]})`);
  await db(`CREATE (:${PERSON} {name: 'Keanu Reeves', born: 1964})-[:ACTED_IN]->(:${MOVIE} {title: 'The Matrix', released: 1999}),
                   (:${PERSON} {name: 'Tom Hanks', born: 1956})`);
  await srv.deps.skeleton.refresh('neo4j');
  ({ client } = await connectClient(srv.url));
});
afterAll(async () => {
  await client?.close();
  await db(`MATCH (n) WHERE n:${CUSTOMER} OR n:${ORDER} OR n:${MOVIE} OR n:${PERSON} DETACH DELETE n`);
  await srv.close();
});

describe('value notices over MCP', () => {
  it('names the value a country goes by', async () => {
    const { value, line } = await query(`MATCH (c:${CUSTOMER} {country: 'United Kingdom'}) RETURN c.customerID AS id`);
    expect(value.rows).toEqual([]);
    expect(value.notices).toEqual([
      expect.objectContaining({ kind: 'value-not-found', name: 'c.country', suggestions: ['UK'], explainsEmpty: true }),
    ]);
    expect(line).toBe(`0 rows, probably because no ${CUSTOMER} has country "United Kingdom"; closest: "UK"`);
  });

  it('says a number is compared with strings, and how to convert', async () => {
    const { value, line } = await query(`MATCH (o:${ORDER}) WHERE o.freight > 50 RETURN count(o) AS n`);
    expect(value.rows).toEqual([{ n: 0 }]);
    expect(value.notices).toEqual([expect.objectContaining({ kind: 'value-type-mismatch', suggestions: ['toFloat(o.freight) > 50'] })]);
    expect(line).toMatch(new RegExp(`^only zeros and nulls, probably because ${ORDER}\\.freight holds numbers as STRING`));
    // The conversion it gives answers the question.
    expect((await query(`MATCH (o:${ORDER}) WHERE toFloat(o.freight) > 50 RETURN count(o) AS n`)).value).toEqual(
      expect.objectContaining({ rows: [{ n: 1 }] }),
    );
  });

  it('says dates are held as strings, and an integer is not a string', async () => {
    const dates = await query(`MATCH (o:${ORDER}) WHERE o.orderDate >= date('1996-07-05') RETURN o.orderID AS id`);
    expect(dates.value.notices?.[0]?.suggestions).toEqual(["date(left(o.orderDate, 10)) >= date('1996-07-05')"]);
    const released = await query(`MATCH (m:${MOVIE} {released: '1999'}) RETURN m.title AS title`);
    expect(released.value.notices?.[0]?.message).toBe(
      `${MOVIE}.released holds INTEGER (e.g. 1999), not strings: compare m.released = 1999`,
    );
  });

  it('says what parses the strings a date() call fails on', async () => {
    const r = (await client.callTool({
      name: 'graph_query',
      arguments: { cypher_query: `MATCH (o:${ORDER}) WHERE date(o.orderDate) > date('1996-07-05') RETURN count(o) AS n` },
    })) as CallToolResult;
    expect(r.isError).toBe(true);
    expect((r.content[0] as { text: string }).text).toMatch(
      new RegExp(
        `cannot be parsed to a Date[\\s\\S]*\n${ORDER}\\.orderDate holds strings like "1996-07-0\\d 00:00:00\\.000": use date\\(left\\(o\\.orderDate, 10\\)\\)`,
      ),
    );
  });

  it('reads parameters, and a case slip', async () => {
    const { value } = await query(`MATCH (p:${PERSON}) WHERE p.name = $name RETURN p.born AS born`, { name: 'keanu reeves' });
    expect(value.notices).toEqual([expect.objectContaining({ kind: 'value-not-found', suggestions: ['Keanu Reeves'] })]);
    expect(value.notices![0]!.message).toContain("toLower(p.name) = 'keanu reeves'");
  });

  it('says nothing about correct queries, and leaves their rows alone', async () => {
    const right = [
      [`MATCH (c:${CUSTOMER} {country: 'UK'}) RETURN c.customerID AS id`, [{ id: 'AROUT' }]],
      [`MATCH (o:${ORDER}) WHERE toFloat(o.freight) > 100 RETURN count(o) AS n`, [{ n: 0 }]],
      [`MATCH (p:${PERSON}) WHERE toLower(p.name) = 'keanu reeves' RETURN p.born AS born`, [{ born: 1964 }]],
      [`MATCH (m:${MOVIE}) WHERE m.released > 2000 RETURN m.title AS title`, []],
      [`MATCH (p:${PERSON} {name: 'Tom Hanks'})-[:ACTED_IN]->(m) RETURN m.title AS title`, []],
    ] as const;
    for (const [cypher, rows] of right) {
      const { value, line } = await query(cypher);
      expect(value.rows, cypher).toEqual(rows);
      expect(value.notices, cypher).toBeUndefined();
      expect(line).toBeUndefined();
    }
  });
});

describe('value notices in the agent', () => {
  let h: Harness;
  let agent: RouteHandler;
  beforeAll(async () => {
    h = await startHarness({ handlers: { agent: (input) => agent(input) } });
    agent = createAgentHandler({ graph: h.deps.graph, search: h.searcher, skeleton: h.deps.skeleton, config: h.deps.config });
    await h.deps.skeleton.refresh('neo4j');
  });
  afterAll(() => h.close());

  it('tells the model what the graph holds, and the prompt says how to read it', async () => {
    h.llm.script(
      routerReply('agent', 0.9, 'needs the graph'),
      toolCallReply({
        name: 'graph_query',
        arguments: { cypher_query: `MATCH (c:${CUSTOMER}) WHERE c.country = 'United Kingdom' RETURN c.city AS city` },
      }),
      { content: 'London.' },
    );
    const sub = await h.submit('Which cities in the United Kingdom have customers?');
    const { frames } = await h.stream(sub.job_id, {}, 30_000);
    expect((await h.waitJob(sub.job_id, 30_000)).status).toBe('done');
    const system = h.llm.chatRequests()[1]!.body.messages[0].content as string;
    expect(system).toContain('what the graph holds instead');
    const tool = (h.llm.chatRequests()[2]!.body.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'tool')!;
    expect(tool.content).toBe(
      `No rows. Columns: city\n0 rows, probably because no ${CUSTOMER} has country "United Kingdom"; closest: "UK"`,
    );
    const result = frames.find((f) => f.event === 'tool_result')!;
    expect(result.data.notices).toEqual([expect.objectContaining({ kind: 'value-not-found' })]);
  });
});
