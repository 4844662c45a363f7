/**
 * The graph of an agent's query result travels with its `tool_result` event: a `graph_query`
 * returning a path gives the event its nodes (by `dbId`) and relationship, while the text the
 * model reads stays the rows; the live stream, a replayed stream and the session history all
 * carry it; rows without nodes add nothing.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAgentHandler } from '../../src/agent/handler.js';
import type { RouteHandler } from '../../src/chat/types.js';
import { routerReply, toolCallReply } from '../helpers/llm-server.js';
import { startHarness, type Harness } from './chat-harness.js';

const tag = randomUUID().slice(0, 8);
const PERSON = `GrPerson_${tag}`;
const CITY = `GrCity_${tag}`;
const LIVES = `LIVES_IN_${tag}`;
// Far above any database id, so it cannot be mistaken for another node's.
const ADA_DBID = 8_000_000_000_000 + Math.floor(Math.random() * 1e9);
let h: Harness;
let agent: RouteHandler;
let londonId = 0;
let relId = 0;

const db = (cypher: string, params: Record<string, unknown> = {}) =>
  h.deps.graph.driver.executeQuery(cypher, params, { database: 'neo4j' });
const toolResults = (frames: { event?: string; data?: any }[]) => frames.filter((f) => f.event === 'tool_result').map((f) => f.data);

beforeAll(async () => {
  h = await startHarness({ handlers: { agent: (input) => agent(input) } });
  agent = createAgentHandler({ graph: h.deps.graph, search: h.searcher, skeleton: h.deps.skeleton, config: h.deps.config });
  const { records } = await db(
    `CREATE (:${PERSON} {name: 'Ada', dbId: ${ADA_DBID}})-[r:${LIVES} {since: 1833}]->(c:${CITY} {name: 'London'})
     RETURN id(c) AS city, id(r) AS rel`,
  );
  londonId = records[0]!.get('city') as number;
  relId = records[0]!.get('rel') as number;
});
afterAll(async () => {
  await db(`MATCH (n) WHERE n:${PERSON} OR n:${CITY} DETACH DELETE n`);
  await h.close();
});
beforeEach(() => {
  h.llm.reset();
  h.llm.setDefault({ content: 'ok' });
});

describe('tool_result graph', () => {
  it('carries the nodes and relationships of a returned path, live, replayed and in the session', async () => {
    h.llm.script(
      routerReply('agent', 0.9),
      toolCallReply(
        { name: 'graph_query', arguments: { cypher_query: `MATCH p = (:${PERSON})-[:${LIVES}]->(:${CITY}) RETURN p` } },
        { name: 'graph_query', arguments: { cypher_query: `MATCH (c:${CITY}) RETURN c.name AS city` } },
      ),
      { content: 'Ada lives in London.' },
    );
    const sub = await h.submit('Where does Ada live?');
    const live = await h.stream(sub.job_id, {}, 30_000);
    const job = await h.waitJob(sub.job_id, 30_000);
    expect(job.status).toBe('done');

    const expected = {
      nodes: [
        { id: ADA_DBID, labels: [PERSON], name: 'Ada' },
        { id: londonId, labels: [CITY], name: 'London' },
      ],
      relationships: [{ id: relId, type: LIVES, start: ADA_DBID, end: londonId }],
    };
    const [path, scalar] = toolResults(live.frames);
    expect(path).toMatchObject({ tool: 'graph_query', graph: expected });
    expect(scalar.tool).toBe('graph_query');
    expect(scalar).not.toHaveProperty('graph');

    // The model read the rows as before, with no trace of the extra field.
    const seen = h.llm
      .chatRequests()
      .at(-1)!
      .body.messages.filter((m: any) => m.role === 'tool')
      .map((m: any) => m.content);
    expect(seen[0]).toContain('"segments"');
    expect(seen[0]).not.toContain('"relationships"');
    expect(seen[1]).toBe('[{"city":"London"}]');

    const replayed = await h.stream(sub.job_id);
    expect(toolResults(replayed.frames)[0].graph).toEqual(expected);
    const session = await (await h.app.request(`/chat/session/${sub.session_id}`)).json();
    const events = session.messages.at(-1).events.filter((e: any) => e.type === 'tool_result');
    expect(events[0].data.graph).toEqual(expected);
  });
});
