/** The chat flow end to end: submission, routing, lookup, agent seam, history, validation. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AGENT_UNAVAILABLE } from '../../../src/chat/run-job.js';
import type { RouteHandler } from '../../../src/chat/types.js';
import { createSessionStore } from '../../../src/store/sessions.js';
import { routerReply } from '../../helpers/llm-server.js';
import { NODES } from '../helpers/chat-fixtures.js';
import { startHarness, type Harness } from '../helpers/chat-harness.js';

let h: Harness;
let agentCalls: Parameters<RouteHandler>[0][] = [];
let agentMode: 'off' | 'on' = 'off';

beforeAll(async () => {
  // The agent handler is switched per test; "off" throws as if no agent were installed.
  h = await startHarness({
    handlers: {
      agent: async (input) => {
        if (agentMode === 'off') throw new Error(AGENT_UNAVAILABLE);
        agentCalls.push(input);
        await input.emit({ type: 'agent_step', data: { iteration: 1, model: input.llm.model } });
        await input.recordUsage({ input_tokens: 100, output_tokens: 20 });
        return { answer: 'an agent answer', sources: [], token_usage: { input_tokens: 100, output_tokens: 20 } };
      },
    },
  });
});
afterAll(() => h.close());
beforeEach(() => {
  h.llm.reset();
  agentCalls = [];
  agentMode = 'off';
});

describe('lookup flow', () => {
  it('answers with Markdown of the search results and streams the events in order', async () => {
    h.llm.script(routerReply('lookup', 0.92, 'asks for one entity'));
    const sub = await h.submit('Who is Ada Lovelace?');
    expect(sub.status).toBe('pending');
    const { frames } = await h.stream(sub.job_id);
    const events = frames.filter((f) => f.event);
    expect(events.map((f) => f.event)).toEqual(['routing_started', 'routing_done', 'job_done']);
    expect(events.map((f) => f.id)).toEqual([1, 2, 3]);
    expect(events[1]!.data).toEqual({ route: 'lookup', confidence: 0.92, reasoning: 'asks for one entity' });
    const result = events[2]!.data;
    expect(result.route_taken).toBe('lookup');
    expect(result.session_id).toBe(sub.session_id);
    expect(result.answer).toContain('### Ada Lovelace');
    expect(result.answer).toContain('**Node ID:** 11');
    expect(result.answer).toContain('**Labels:** Person, Scientist');
    expect(result.answer).toContain('Ada wrote the first program.');
    expect(result.sources).toEqual(NODES);
    expect(result.token_usage).toEqual({ input_tokens: 50, output_tokens: 10 });

    const job = await (await h.app.request(`/chat/job/${sub.job_id}`)).json();
    expect(job).toEqual({ job_id: sub.job_id, status: 'done', result });

    // One router call, structured output, no model call for the answer.
    const calls = h.llm.chatRequests();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body.model).toBe(h.deps.config.LOCAL_LLM_ROUTER_MODEL);
    expect(calls[0]!.body.response_format.type).toBe('json_schema');
    const search = h.searcher.calls.at(-1)!;
    expect(search).toEqual({
      query: 'Who is Ada Lovelace?',
      graph: h.deps.config.GRAPHDB_GRAPH,
      model: h.deps.config.EMBEDDING_MODEL,
      topK: h.deps.config.VECTOR_SEARCH_TOP_K,
      neighbors: h.deps.config.SEARCH_NEIGHBORS,
    });

    const session = await (await h.app.request(`/chat/session/${sub.session_id}`)).json();
    expect(session.name).toBe('Who is Ada Lovelace?');
    expect(session.messages).toMatchObject([
      { role: 'user', content: 'Who is Ada Lovelace?', route: null, confidence: null, events: [] },
      { role: 'assistant', content: result.answer, route: 'lookup', confidence: 0.92 },
    ]);
    const stored = await createSessionStore(h.deps.kv).load(sub.session_id);
    expect(stored!.pending_job_id).toBeNull();
    expect(stored!.pending_events).toEqual([]);
    expect(stored!.messages[1]!.events.map((e) => e.type)).toEqual(['routing_started', 'routing_done', 'job_done']);
    expect(stored!.messages[1]!.events[2]!.data).toEqual(result);
  });

  it("keeps the running job's events in the session's pending_events", async () => {
    h.llm.script({ ...routerReply('lookup', 0.9), latencyMs: 300 });
    const sub = await h.submit('Ada, slowly?');
    const sessions = createSessionStore(h.deps.kv);
    const until = Date.now() + 5_000;
    while ((await sessions.load(sub.session_id))!.pending_events.length === 0 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 10));
    const running = (await sessions.load(sub.session_id))!;
    expect(running.pending_job_id).toBe(sub.job_id);
    expect(running.pending_events).toEqual([{ type: 'routing_started', data: {} }]);
    // Another tab opening the session sees the running job's question (it is stored at the end).
    const view = await (await h.app.request(`/chat/session/${sub.session_id}`)).json();
    expect(view).toMatchObject({ pending_job_id: sub.job_id, pending_message: 'Ada, slowly?', messages: [] });
    await h.waitJob(sub.job_id);
    const after = await (await h.app.request(`/chat/session/${sub.session_id}`)).json();
    expect(after).toMatchObject({ pending_job_id: null, pending_message: null });
    const done = (await sessions.load(sub.session_id))!;
    expect(done.pending_job_id).toBeNull();
    expect(done.pending_events).toEqual([]);
  });

  it('passes the last 10 message pairs as history and keeps the session', async () => {
    const first = await h.submit('question 0');
    await h.waitJob(first.job_id);
    for (let i = 1; i < 12; i++) await h.waitJob((await h.submit(`question ${i}`, { session_id: first.session_id })).job_id);
    h.llm.reset();
    const last = await h.submit('question 12', { session_id: first.session_id });
    expect(last.session_id).toBe(first.session_id);
    await h.waitJob(last.job_id);
    const msgs = h.llm.chatRequests()[0]!.body.messages as Array<{ role: string; content: string }>;
    // system + 20 history messages + the question
    expect(msgs).toHaveLength(22);
    expect(msgs[1]).toEqual({ role: 'user', content: 'question 2' });
    expect(msgs.at(-1)).toEqual({ role: 'user', content: 'question 12' });
  });

  it('regenerates the last answer in place: same question, new job, the old pair replaced and not shown to the model', async () => {
    h.llm.setDefault(routerReply('lookup', 0.95));
    const first = await h.submit('question A');
    await h.waitJob(first.job_id);
    const sid = first.session_id;
    await h.waitJob((await h.submit('question B', { session_id: sid })).job_id);
    h.llm.reset();
    h.llm.setDefault(routerReply('lookup', 0.95));

    const again = await h.submit('question B', { session_id: sid, regenerate: true });
    expect(again.session_id).toBe(sid);
    expect((await h.waitJob(again.job_id)).status).toBe('done');
    const seen = (h.llm.chatRequests()[0]!.body.messages as Array<{ content: string }>).map((m) => m.content);
    expect(seen.slice(1)).toEqual(['question A', expect.any(String), 'question B']);
    const session = async () => (await (await h.app.request(`/chat/session/${sid}`)).json()) as { messages: Array<{ content: string }> };
    expect((await session()).messages.map((m) => m.content).filter((_, i) => i % 2 === 0)).toEqual(['question A', 'question B']);

    // A regenerate of a question that is no longer the last one adds a pair, as a message does.
    await h.waitJob((await h.submit('question A', { session_id: sid, regenerate: true })).job_id);
    expect((await session()).messages.map((m) => m.content).filter((_, i) => i % 2 === 0)).toEqual([
      'question A',
      'question B',
      'question A',
    ]);
  });

  it('starts a new session for an unknown session_id', async () => {
    const unknown = crypto.randomUUID();
    const sub = await h.submit('hello', { session_id: unknown });
    expect(sub.session_id).not.toBe(unknown);
    await h.waitJob(sub.job_id);
  });

  it('falls back to JSON mode, then a plain call, when the provider refuses structured output, and remembers it', async () => {
    h.llm.script({ status: 400 }, { status: 422 }, { content: 'Sure! ```json\n{"route":"lookup","confidence":0.8,"reasoning":"r"}\n```' });
    const sub = await h.submit('What is the Analytical Engine?');
    const job = await h.waitJob(sub.job_id);
    expect(job.result.route_taken).toBe('lookup');
    const forms = h.llm.chatRequests().map((r) => r.body.response_format?.type);
    expect(forms).toEqual(['json_schema', 'json_object', undefined]);
    // The schema travels in the prompt once the server will not take it as a response format.
    expect(h.llm.chatRequests()[2]!.body.messages[0].content).toContain('JSON schema of the answer');
    // The next question starts with the form that worked: one request.
    h.llm.reset();
    h.llm.script(routerReply('lookup', 0.9));
    await h.waitJob((await h.submit('And the Difference Engine?')).job_id);
    expect(h.llm.chatRequests().map((r) => r.body.response_format?.type)).toEqual([undefined]);
    h.deps.llm.resolve('router').forms.structured = 'json_schema';
  });

  it('retries a router 429 and counts usage', async () => {
    h.llm.fail(429, 2);
    h.llm.script(routerReply('lookup', 0.99));
    const job = await h.waitJob((await h.submit('Ada?')).job_id);
    expect(job.status).toBe('done');
    expect(h.llm.chatRequests()).toHaveLength(3);
  });
});

describe('routing to the agent', () => {
  it('sends a lookup below the threshold to the agent, which is not available', async () => {
    h.llm.script(routerReply('lookup', 0.5, 'unsure'));
    const sub = await h.submit('Compare Ada and Babbage');
    const { frames } = await h.stream(sub.job_id);
    const events = frames.filter((f) => f.event);
    expect(events.map((f) => f.event)).toEqual(['routing_started', 'routing_done', 'job_error']);
    expect(events[1]!.data.route).toBe('agent');
    expect(events[1]!.data.confidence).toBe(0.5);
    expect(events[2]!.data.error).toMatch(/agent is not available/);
    const job = await (await h.app.request(`/chat/job/${sub.job_id}`)).json();
    expect(job).toEqual({ job_id: sub.job_id, status: 'error', error: AGENT_UNAVAILABLE });
  });

  it('sends unparseable router output to the agent', async () => {
    agentMode = 'on';
    h.llm.script({ content: 'I think this is a lookup, maybe', usage: { prompt_tokens: 7, completion_tokens: 3 } });
    const sub = await h.submit('Explain the engine');
    const { frames } = await h.stream(sub.job_id);
    const events = frames.filter((f) => f.event);
    expect(events.map((f) => f.event)).toEqual(['routing_started', 'routing_done', 'agent_step', 'job_done']);
    expect(events[1]!.data.route).toBe('agent');
    const result = events.at(-1)!.data;
    expect(result.route_taken).toBe('agent');
    expect(result.answer).toBe('an agent answer');
    // router (7 + 3) + agent (100 + 20)
    expect(result.token_usage).toEqual({ input_tokens: 107, output_tokens: 23 });
    expect(agentCalls[0]!.question).toBe('Explain the engine');
    expect(agentCalls[0]!.llm.model).toBe(h.deps.config.LOCAL_LLM_AGENT_MODEL);
    expect(agentCalls[0]!.graph).toBe(h.deps.config.GRAPHDB_GRAPH);
  });

  it('applies x-llm-* overrides to the router and the agent', async () => {
    agentMode = 'on';
    h.llm.script(routerReply('agent', 0.9));
    const sub = await h.submit('Why?', { headers: { 'x-llm-router-model': 'tiny-router', 'x-llm-agent-model': 'big-agent' } });
    await h.waitJob(sub.job_id);
    expect(h.llm.chatRequests()[0]!.body.model).toBe('tiny-router');
    expect(agentCalls[0]!.llm.model).toBe('big-agent');
  });
});

describe('POST /chat/message validation', () => {
  const problems = async (body: unknown, headers: Record<string, string> = {}) => {
    const res = await h.post(body, headers);
    return { status: res.status, body: (await res.json()) as any };
  };

  it('rejects empty, blank and too long messages and bad session IDs', async () => {
    expect((await problems({ message: '' })).status).toBe(422);
    expect((await problems({ message: '   ' })).body.errors[0].path).toBe('body.message');
    expect((await problems({ message: 'x'.repeat(h.deps.config.CHAT_MAX_MESSAGE_CHARS + 1) })).status).toBe(422);
    expect((await problems({ message: 'x'.repeat(h.deps.config.CHAT_MAX_MESSAGE_CHARS) })).status).toBe(202);
    expect((await problems({ message: 'hi', session_id: 'nope' })).body.errors[0].path).toBe('body.session_id');
    expect((await problems({ message: 'hi', session_id: null })).status).toBe(202);
    expect((await problems({})).status).toBe(422);
  });

  it('accepts only local or hosted providers, and hosted only with a key', async () => {
    const bad = await problems({ message: 'hi' }, { 'x-llm-provider': 'openai' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].path).toBe('header.x-llm-provider');
    expect((await problems({ message: 'hi' }, { 'x-llm-router-provider': 'x' })).status).toBe(422);
    const hosted = await problems({ message: 'hi' }, { 'x-llm-router-provider': 'hosted' });
    expect(hosted.status).toBe(422);
    expect(hosted.body.errors[0]).toMatchObject({ path: 'header.x-llm-router-provider' });
    expect(hosted.body.errors[0].message).toMatch(/hosted provider is not configured.*HOSTED_LLM_API_KEY/);
    expect((await problems({ message: 'hi' }, { 'x-llm-provider': 'local' })).status).toBe(202);
  });

  it('answers 401 for an unknown x-anon-id', async () => {
    const res = await problems({ message: 'hi' }, { 'x-anon-id': 'A'.repeat(43) });
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/unknown or expired/);
  });
});
