/**
 * The agent route end to end: the real worker, Redis and Neo4j, the scripted model server
 * and a fixed vector searcher. Covers a multi-step run with its events and summed tokens,
 * the graph a query's path gives its tool_result event, tool errors fed back to the model,
 * the 32-call limit, and the 429 retry policy.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AGENT_TOOLS, createAgentHandler } from '../../../src/agent/handler.js';
import { limitNote, MAX_ITERATIONS, rateLimitedMessage, STUCK_NOTE } from '../../../src/agent/loop.js';
import { STUCK_INSTRUCTION } from '../../../src/agent/prompt.js';
import type { RouteHandler } from '../../../src/chat/types.js';
import { routerReply, toolCallReply, type RecordedRequest } from '../../helpers/llm-server.js';
import { NODES } from '../helpers/chat-fixtures.js';
import { startHarness, type Harness } from '../helpers/chat-harness.js';

const tag = randomUUID().slice(0, 8);
const PERSON = `AgPerson_${tag}`;
const CITY = `AgCity_${tag}`;
const LIVES = `LIVES_IN_${tag}`;
const RETRY_MS = 60;
let h: Harness;
let agent: RouteHandler;

const db = (cypher: string) => h.deps.graph.driver.executeQuery(cypher, {}, { database: 'neo4j' });
const toolMessages = (req: RecordedRequest) =>
  (req.body.messages as any[]).filter((m) => m.role === 'tool').map((m) => m.content as string);

/** Runs one agent-routed job and returns its final record and SSE events. */
async function ask(question: string) {
  const sub = await h.submit(question);
  const { frames } = await h.stream(sub.job_id, {}, 30_000);
  const job = await h.waitJob(sub.job_id, 30_000);
  return { job, events: frames.filter((f) => f.event).map((f) => ({ type: f.event!, data: f.data })) };
}

beforeAll(async () => {
  h = await startHarness({ env: { LLM_RETRY_DELAY_MS: String(RETRY_MS) }, handlers: { agent: (input) => agent(input) } });
  agent = createAgentHandler({ graph: h.deps.graph, search: h.searcher, skeleton: h.deps.skeleton, config: h.deps.config });
  await db(`CREATE (:${PERSON} {name: 'Ada'})-[:${LIVES} {since: 1833}]->(:${CITY} {name: 'London'}),
                   (:${PERSON} {name: 'Charles'})-[:${LIVES}]->(:${CITY} {name: 'Paris'})`);
  // The first test reads the overview in the prompt: the agent waits 3 s for a skeleton not yet
  // computed, which a loaded machine running other suites against the same database can exceed.
  await h.deps.skeleton.refresh('neo4j');
});
afterAll(async () => {
  await db(`MATCH (n) WHERE n:${PERSON} OR n:${CITY} DETACH DELETE n`);
  await h.close();
});
beforeEach(() => {
  h.llm.reset();
  h.llm.setDefault({ content: 'ok' });
  h.searcher.calls.length = 0;
});

describe('agent route', () => {
  it('explores labels, then patterns, then queries, and answers with events in order and summed tokens', async () => {
    const usage = (p: number, c: number) => ({ usage: { prompt_tokens: p, completion_tokens: c } });
    h.llm.script(
      routerReply('agent', 0.9, 'needs the graph'),
      { ...toolCallReply({ name: 'get_node_labels', arguments: {} }), ...usage(100, 10) },
      { ...toolCallReply({ name: 'get_relationship_patterns', arguments: { type: LIVES } }), ...usage(200, 20) },
      {
        ...toolCallReply(
          {
            name: 'graph_query',
            arguments: {
              cypher_query: `MATCH (p:${PERSON})-[:${LIVES}]->(c:${CITY}) RETURN p.name AS person, c.name AS city ORDER BY person`,
            },
          },
          { name: 'vector_search', arguments: { query: 'Ada Lovelace' } },
        ),
        ...usage(300, 30),
      },
      { ...toolCallReply({ name: 'vector_search', arguments: { query: 'engine', top_k: 2 } }), ...usage(400, 40) },
      { content: 'Ada lives in London and Charles in Paris.', ...usage(500, 50) },
    );
    const { job, events } = await ask('Where do the people live?');

    expect(job.status).toBe('done');
    expect(job.result.route_taken).toBe('agent');
    expect(job.result.answer).toBe('Ada lives in London and Charles in Paris.');
    // Router 50/10 plus the five agent calls.
    expect(job.result.token_usage).toEqual({ input_tokens: 50 + 1500, output_tokens: 10 + 150 });
    // Both searches returned the same two nodes: one source each.
    expect(job.result.sources).toEqual(NODES);
    expect(h.searcher.calls.map((c) => [c.query, c.topK, c.model])).toEqual([
      ['Ada Lovelace', 5, h.deps.config.EMBEDDING_MODEL],
      ['engine', 2, h.deps.config.EMBEDDING_MODEL],
    ]);

    const model = h.deps.config.LOCAL_LLM_AGENT_MODEL;
    const brief = events.map((e) =>
      e.type === 'agent_step'
        ? `step ${e.data.iteration} ${e.data.model}`
        : e.type.startsWith('tool_')
          ? `${e.type} ${e.data.tool}`
          : e.type,
    );
    expect(brief).toEqual([
      'routing_started',
      'routing_done',
      `step 1 ${model}`,
      'tool_call get_node_labels',
      'tool_result get_node_labels',
      `step 2 ${model}`,
      'tool_call get_relationship_patterns',
      'tool_result get_relationship_patterns',
      `step 3 ${model}`,
      'tool_call graph_query',
      'tool_result graph_query',
      'tool_call vector_search',
      'tool_result vector_search',
      `step 4 ${model}`,
      'tool_call vector_search',
      'tool_result vector_search',
      `step 5 ${model}`,
      'answer_delta',
      'job_done',
    ]);
    const results = events.filter((e) => e.type === 'tool_result');
    for (const r of results) expect(r.data.summary.length).toBeLessThanOrEqual(200);
    expect(events.find((e) => e.type === 'tool_call' && e.data.tool === 'vector_search')!.data.args).toEqual({ query: 'Ada Lovelace' });
    expect(results[1]!.data.summary).toContain(`(:${PERSON})-[:${LIVES}]->(:${CITY}) 2`);
    expect(results[2]!.data.summary).toBe('2 rows: {"person":"Ada","city":"London"}');

    // What the model saw: 8 tools, the prompt with notes and skeleton, each tool result in turn.
    const calls = h.llm.chatRequests().slice(1);
    expect(calls).toHaveLength(5);
    expect(calls[0]!.body.tools.map((t: any) => t.function.name)).toEqual(AGENT_TOOLS.map((t) => t.name));
    expect(AGENT_TOOLS).toHaveLength(8);
    const system = calls[0]!.body.messages[0];
    expect(system.role).toBe('system');
    expect(system.content).toContain('Cypher notes for this database (Neo4j 5');
    expect(system.content).toMatch(/Graph overview \(computed at start-up.*\n?Graph "neo4j": \d+ labels/);
    expect(calls[0]!.body.messages.at(-1)).toEqual({ role: 'user', content: 'Where do the people live?' });
    expect(toolMessages(calls[1]!)[0]).toContain(`{"label":"${PERSON}","count":2}`);
    expect(toolMessages(calls[2]!)[1]).toContain(`Properties of :${LIVES}: [{"name":"since","types":["INTEGER"]`);
    expect(toolMessages(calls[3]!)[2]).toBe('[{"person":"Ada","city":"London"},{"person":"Charles","city":"Paris"}]');
    expect(toolMessages(calls[3]!)[3]).toContain('"displayName":"Ada Lovelace"');
  });

  it('gives a tool_result the graph of a returned path (live, replayed and in the session); the model reads the rows as before', async () => {
    const { records } = await db(
      `MATCH (a:${PERSON} {name: 'Ada'})-[r:${LIVES}]->(c:${CITY}) RETURN id(a) AS ada, id(r) AS rel, id(c) AS city`,
    );
    const [ada, rel, city] = ['ada', 'rel', 'city'].map((k) => records[0]!.get(k) as number);
    h.llm.script(
      routerReply('agent', 0.9),
      toolCallReply(
        { name: 'graph_query', arguments: { cypher_query: `MATCH p = (:${PERSON} {name: 'Ada'})-[:${LIVES}]->(:${CITY}) RETURN p` } },
        { name: 'graph_query', arguments: { cypher_query: `MATCH (c:${CITY} {name: 'London'}) RETURN c.name AS city` } },
      ),
      { content: 'Ada lives in London.' },
    );
    const { job, events } = await ask('Where does Ada live?');
    expect(job.status).toBe('done');
    const graph = {
      nodes: [
        { id: ada, labels: [PERSON], name: 'Ada' },
        { id: city, labels: [CITY], name: 'London' },
      ],
      relationships: [{ id: rel, type: LIVES, start: ada, end: city }],
    };
    const results = (evs: Array<{ type: string; data: any }>) => evs.filter((e) => e.type === 'tool_result').map((e) => e.data);
    const [path, scalar] = results(events);
    expect(path).toEqual({ tool: 'graph_query', summary: expect.any(String), graph });
    expect(scalar).not.toHaveProperty('graph');
    const seen = toolMessages(h.llm.chatRequests().at(-1)!);
    expect(seen[0]).toContain('"segments"');
    expect(seen[0]).not.toContain('"relationships"');
    expect(seen[1]).toBe('[{"city":"London"}]');

    const replayed = await h.stream(job.job_id);
    expect(results(replayed.frames.filter((f) => f.event).map((f) => ({ type: f.event!, data: f.data })))[0].graph).toEqual(graph);
    const session = await (await h.app.request(`/chat/session/${job.result.session_id}`)).json();
    expect(results(session.messages.at(-1).events)[0].graph).toEqual(graph);
  });

  it('feeds Cypher errors, refused writes and bad arguments back as "Tool error:" and carries on', async () => {
    h.llm.script(
      routerReply('agent', 0.9),
      toolCallReply(
        { name: 'graph_query', arguments: { cypher_query: `MATCH (p:${PERSON} RETURN p` } },
        { name: 'graph_query', arguments: { cypher_query: `CREATE (:${PERSON} {name: 'Mallory'})` } },
        { name: 'vector_search', arguments: { query: 'x', top_k: 500 } },
        { name: 'get_label_properties', arguments: { label: PERSON.toLowerCase() } },
        { name: 'no_such_tool', arguments: {} },
        { name: 'graph_query', arguments: '{not json' },
      ),
      toolCallReply({ name: 'graph_query', arguments: { cypher_query: `MATCH (p:${PERSON}) RETURN count(p) AS people` } }),
      { content: 'There are 2 people.' },
    );
    const { job, events } = await ask('How many people?');
    expect(job.status).toBe('done');
    expect(job.result.answer).toBe('There are 2 people.');

    const [errors, counted] = [toolMessages(h.llm.chatRequests()[2]!), toolMessages(h.llm.chatRequests()[3]!)];
    expect(errors[0]).toMatch(/^Tool error: Invalid input 'RETURN'/);
    expect(errors[1]).toBe('Tool error: refused: graph_query is read-only and this query writes');
    expect(errors[2]).toBe('Tool error: invalid arguments for vector_search: top_k: Too big: expected number to be <=100');
    expect(errors[3]).toBe(
      `Tool error: no label "${PERSON.toLowerCase()}" in graph "neo4j" (labels are case-sensitive); did you mean ${PERSON}?`,
    );
    expect(errors[4]).toMatch(/^Tool error: unknown tool "no_such_tool"; available tools: get_graph_overview, vector_search, graph_query/);
    expect(errors[5]).toBe('Tool error: the arguments are not valid JSON: {not json');
    expect(counted.at(-1)).toBe('[{"people":2}]');
    expect(events.filter((e) => e.type === 'tool_call').at(-2)!.data.args).toBe('{not json');
    const { records } = await db(`MATCH (p:${PERSON} {name: 'Mallory'}) RETURN count(p) AS n`);
    expect(records[0]!.get('n')).toBe(0);
  });

  it('makes exactly 32 model calls when the model never stops, the last without tools', async () => {
    // A new call every step: the same call again would be stopped as stuck long before.
    h.llm.script(
      routerReply('agent', 0.9),
      ...Array.from({ length: 31 }, (_, i) => toolCallReply({ name: 'graph_query', arguments: { cypher_query: `RETURN ${i} AS n` } })),
    );
    const { job, events } = await ask('Loop forever');

    expect(job.status, job.error).toBe('done');
    const calls = h.llm.chatRequests().slice(1);
    expect(calls).toHaveLength(MAX_ITERATIONS);
    expect(calls.slice(0, 31).every((c) => c.body.tool_choice === 'auto')).toBe(true);
    expect(calls[31]!.body.tool_choice).toBe('none');
    expect(calls[31]!.body.messages.at(-1)).toMatchObject({
      role: 'system',
      content: expect.stringContaining('no more tools can be called'),
    });
    expect(events.filter((e) => e.type === 'agent_step').map((e) => e.data.iteration)).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    expect(events.filter((e) => e.type === 'tool_call')).toHaveLength(31);
    // The 32nd call is the scripted default ("ok"): made without tools, it is the answer.
    expect(job.result.answer).toBe(`ok\n\n${limitNote(32)}`);
    expect(job.result.token_usage).toEqual({ input_tokens: 50 + 32 * 10, output_tokens: 10 + 32 * 5 });
  });

  it('stops a model stuck on one call: after two warnings, the next call is made without tools', async () => {
    h.llm.script(routerReply('agent', 0.9));
    h.llm.setDefault(toolCallReply({ name: 'get_edge_types', arguments: {} }));
    const { job, events } = await ask('Loop on one call');

    expect(job.status, job.error).toBe('done');
    const calls = h.llm.chatRequests().slice(1);
    // Run, repeat answered with the result, repeat told to move on, repeat again: then an answer.
    expect(calls).toHaveLength(5);
    expect(calls.slice(0, 4).every((c) => c.body.tool_choice === 'auto')).toBe(true);
    expect(calls[4]!.body.tool_choice).toBe('none');
    expect(calls[4]!.body.messages.at(-1)).toMatchObject({ role: 'system', content: STUCK_INSTRUCTION });
    expect(events.filter((e) => e.type === 'tool_call')).toHaveLength(4);
    expect(job.result.answer).toBe(`I could not finish answering: the model kept repeating one tool call.\n\n${STUCK_NOTE}`);
  });

  it('answers a repeated call from memory: once with the earlier result, then with an error; never runs it again', async () => {
    const search = (args: Record<string, unknown>) => toolCallReply({ name: 'vector_search', arguments: args });
    h.llm.script(
      routerReply('agent', 0.9),
      search({ query: 'engine', top_k: 2 }),
      search({ top_k: 2, query: 'engine' }), // the same call with its keys in another order
      search({ query: 'engine', top_k: 2 }),
      search({ query: 'engine', top_k: 3 }), // other arguments: runs
      { content: 'Ada built it.' },
    );
    const { job, events } = await ask('Who built the engine?');
    expect(job.status, job.error).toBe('done');
    expect(h.searcher.calls.map((c) => c.topK)).toEqual([2, 3]);

    const [first, second, third, other] = toolMessages(h.llm.chatRequests()[5]!);
    expect(second).toBe(
      `This exact call (vector_search with the same arguments) already ran at step 1; not run again, its result is the same:\n${first}\nUse it, change the arguments, or answer.`,
    );
    expect(third).toMatch(
      /^Tool error: This exact call \(vector_search with the same arguments\) already ran at step 1 and has now been sent again 2 times/,
    );
    expect(other).not.toMatch(/already ran/);
    const summaries = events.filter((e) => e.type === 'tool_result').map((e) => e.data.summary as string);
    expect(summaries[1]).toBe(`same as step 1: ${summaries[0]}`);
    expect(job.result.sources.length).toBeGreaterThan(0);
  });

  it('retries three HTTP 429 answers 2 s (here 60 ms) apart, then succeeds', async () => {
    h.llm.script(routerReply('agent', 0.9));
    h.llm.fail(429, 3);
    h.llm.script({ content: 'Answer after retries.' });
    const { job, events } = await ask('Busy model?');

    expect(job.status).toBe('done');
    expect(job.result.answer).toBe('Answer after retries.');
    const calls = h.llm.chatRequests().slice(1);
    expect(calls).toHaveLength(4);
    for (let i = 1; i < 4; i++) expect(calls[i]!.receivedAt - calls[i - 1]!.receivedAt).toBeGreaterThanOrEqual(RETRY_MS - 5);
    expect(events.filter((e) => e.type === 'agent_step')).toHaveLength(1);
    // The user sees why nothing moves: one event per wait, before the answer.
    const retries = events.filter((e) => e.type === 'model_retry').map((e) => [e.data.attempt, e.data.retries, e.data.wait_ms]);
    expect(retries).toEqual([
      [1, 3, RETRY_MS],
      [2, 3, RETRY_MS],
      [3, 3, RETRY_MS],
    ]);
    expect(events.findIndex((e) => e.type === 'model_retry')).toBeGreaterThan(events.findIndex((e) => e.type === 'agent_step'));
  });

  it('tells the user when the router model is rate limited too', async () => {
    h.llm.fail(429, 1);
    h.llm.script(routerReply('agent', 0.9), { content: 'Fine.' });
    const { job, events } = await ask('Busy router?');
    expect(job.status).toBe('done');
    const types = events.map((e) => e.type);
    expect(types.slice(0, 3)).toEqual(['routing_started', 'model_retry', 'routing_done']);
    expect(events[1]!.data.model).toBe(h.deps.config.LOCAL_LLM_ROUTER_MODEL);
  });

  it('streams the answer as answer_delta events while the model writes it; replay and the session keep it whole', async () => {
    const answer = 'Ada lives in London, and Charles lives in Paris; both moved there young.';
    h.llm.script(
      routerReply('agent', 0.9),
      // Text before a tool call is a draft that the next agent_step discards.
      { content: 'Let me look.', tool_calls: [{ name: 'get_node_labels', arguments: {} }] },
      { content: answer, pieceDelayMs: 40 },
    );
    const { job, events } = await ask('Where do they live, slowly?');
    expect(job.status).toBe('done');
    expect(job.result.answer).toBe(answer);

    // The router is asked without streaming; the agent's calls stream.
    expect(h.llm.chatRequests().map((r) => r.body.stream ?? false)).toEqual([false, true, true]);
    const types = events.map((e) => e.type);
    const lastStep = types.lastIndexOf('agent_step');
    const drafts = events.slice(lastStep).filter((e) => e.type === 'answer_delta');
    // 12 words 40 ms apart, gathered every 80 ms: several pieces, in order, before job_done.
    expect(drafts.length).toBeGreaterThanOrEqual(3);
    expect(drafts.length).toBeLessThan(12);
    expect(drafts.map((e) => e.data.text).join('')).toBe(answer);
    expect(types.at(-1)).toBe('job_done');
    expect(
      events
        .slice(0, lastStep)
        .filter((e) => e.type === 'answer_delta')
        .map((e) => e.data.text)
        .join(''),
    ).toBe('Let me look.');

    // Resuming from the first piece of the answer replays the rest of it.
    const all = await h.stream(job.job_id);
    const ids = all.frames.filter((f) => f.event === 'answer_delta').map((f) => f.id!);
    const resumed = await h.stream(job.job_id, { 'last-event-id': String(ids.at(-drafts.length)) });
    const rest = resumed.frames.filter((f) => f.event);
    expect(rest.map((f) => f.event)).toEqual([...Array(drafts.length - 1).fill('answer_delta'), 'job_done']);
    expect(
      rest
        .filter((f) => f.event === 'answer_delta')
        .map((f) => f.data.text)
        .join(''),
    ).toBe(answer.slice(drafts[0]!.data.text.length));

    // The session's copy of the events has no pieces; its message has the whole answer.
    const session = (await (await h.app.request(`/chat/session/${job.result.session_id}`)).json()) as any;
    const message = session.messages.at(-1);
    expect(message.content).toBe(answer);
    expect(message.events.map((e: any) => e.type)).not.toContain('answer_delta');
  });

  it('fails the job after a fourth HTTP 429', async () => {
    h.llm.script(routerReply('agent', 0.9));
    h.llm.fail(429, 4);
    h.llm.script({ content: 'never reached' });
    const { job, events } = await ask('Very busy model?');

    expect(job.status).toBe('error');
    expect(job.error).toBe(rateLimitedMessage(3, RETRY_MS));
    expect(job.error).toMatch(/HTTP 429 \(rate limited\) after 3 retries/);
    expect(h.llm.chatRequests()).toHaveLength(1 + 4);
    expect(events.at(-1)).toEqual({ type: 'job_error', data: { error: job.error } });
  });

  it('fails the job at once on another model error, naming what the server refused', async () => {
    h.llm.script(routerReply('agent', 0.9));
    h.llm.fail(500, 1);
    const { job } = await ask('Broken model?');
    expect(job.status).toBe('error');
    expect(job.error).toMatch(
      /^the agent model "[^"]+" \(provider local, [^)]+\) refused the request \(HTTP 500: .*\): use a model server/,
    );
    expect(h.llm.chatRequests()).toHaveLength(2);
  });

  it('is overloaded, not refused, on HTTP 503', async () => {
    h.llm.script(routerReply('agent', 0.9));
    h.llm.fail(503, 1);
    const { job } = await ask('Overloaded model?');
    expect(job.status).toBe('error');
    expect(job.error).toMatch(/^the language model answered HTTP 503/);
  });
});
