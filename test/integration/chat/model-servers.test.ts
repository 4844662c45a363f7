/**
 * The chat against model servers that bend the protocol, with the scripted server's quirk
 * profiles (test/helpers/llm-quirks.ts): every fallback of src/llm/protocol.ts learned once and
 * shown in /status, no extra round trip against a server that takes every form, the context
 * budget held (and its error naming the setting), and usage estimated when a stream has none.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { routerReply, toolCallReply } from '../../helpers/llm-server.js';
import { startHarness, type Harness } from '../helpers/chat-harness.js';

let h: Harness;
afterEach(() => h?.close());

const bodies = () => h.llm.chatRequests().map((r) => r.body);
const events = async (jobId: string) => (await h.stream(jobId, {}, 15_000)).frames.filter((f) => f.event);

describe('llama-cpp-python quirks', () => {
  it('learns json_object, unstreamed tool calls and content "" once, uses the router’s own decision, and says so in /status', async () => {
    h = await startHarness({ realAgent: true });
    h.llm.setQuirks('llama-cpp-python');
    h.llm.script(routerReply('agent', 0.9, 'needs the graph'), toolCallReply({ name: 'get_node_labels', arguments: {} }), {
      content: 'There are labels.',
      usage: { prompt_tokens: 300, completion_tokens: 7 },
    });
    const sub = await h.submit('What kinds of things are in the graph?');
    const job = await h.waitJob(sub.job_id, 15_000);
    expect(job.status).toBe('done');
    expect(job.result.route_taken).toBe('agent');
    expect(job.result.answer).toBe('There are labels.');
    const ev = await events(sub.job_id);
    const routing = ev.find((f) => f.event === 'routing_done')!.data;
    expect(routing).toMatchObject({ route: 'agent', reasoning: 'needs the graph' });
    expect(routing.fallback).toBeUndefined();
    expect(ev.map((f) => f.event)).toContain('tool_call');
    expect(
      ev
        .filter((f) => f.event === 'answer_delta')
        .map((f) => f.data.text)
        .join(''),
    ).toBe('There are labels.');

    // Router: json_schema refused (500), json_object taken. Agent: the streamed call came back
    // empty and was asked again unstreamed; the tool-call turn went back with content "".
    const b = bodies();
    expect(b.map((x) => [x.response_format?.type ?? null, Boolean(x.stream), x.tools ? 'tools' : ''])).toEqual([
      ['json_schema', false, ''],
      ['json_object', false, ''],
      [null, true, 'tools'],
      [null, false, 'tools'],
      [null, false, 'tools'],
    ]);
    expect(b.every((x) => x.max_tokens > 0)).toBe(true);
    expect(b[4]!.messages.find((m: any) => m.role === 'assistant').content).toBe('');
    expect(job.result.token_usage.input_tokens).toBeGreaterThan(0);

    // The next question: one router call, no streamed attempt.
    h.llm.reset();
    h.llm.script(routerReply('agent', 0.9), { content: 'Again.' });
    const again = await h.waitJob((await h.submit('And again?')).job_id, 15_000);
    expect(again.status).toBe('done');
    expect(bodies().map((x) => [x.response_format?.type ?? null, Boolean(x.stream)])).toEqual([
      ['json_object', false],
      [null, false],
    ]);

    const status = (await (await h.app.request('/status')).json()) as any;
    const models = Object.fromEntries(status.language_models.map((m: any) => [m.role, m]));
    expect(models.router.forms).toMatchObject({
      structured_output: 'json_object',
      refused: [expect.stringMatching(/^response_format json_schema: HTTP 500/)],
    });
    expect(models.agent.forms).toMatchObject({ stream_with_tools: false });
    expect(models.agent.context_tokens).toBe(8_192);
  });

  it('estimates the usage of a stream that carries none, and says it is estimated', async () => {
    h = await startHarness({ realAgent: true });
    // As llama-cpp-python's streams (which ignore include_usage): no usage at all.
    h.llm.script(routerReply('agent', 0.9), { content: 'A streamed answer with no usage.', usage: null });
    const job = await h.waitJob((await h.submit('Anything?')).job_id, 15_000);
    expect(job.status).toBe('done');
    expect(job.result.token_usage).toMatchObject({ estimated: true });
    expect(job.result.token_usage.input_tokens).toBeGreaterThan(1_000); // system prompt, 8 tool definitions
  });
});

describe('a server that takes every form', () => {
  it('costs no extra round trip: one router call and one call per agent step', async () => {
    h = await startHarness({ realAgent: true });
    h.llm.script(routerReply('agent', 0.9), toolCallReply({ name: 'get_node_labels', arguments: {} }), { content: 'Done.' });
    const job = await h.waitJob((await h.submit('Labels?')).job_id, 15_000);
    expect(job.status).toBe('done');
    expect(bodies().map((x) => [x.response_format?.type ?? null, Boolean(x.stream)])).toEqual([
      ['json_schema', false],
      [null, true],
      [null, true],
    ]);
    expect(job.result.token_usage.estimated).toBeUndefined();
  });
});

describe('the context budget', () => {
  it('fits every call: the overview and older results shortened, the budget in agent_step', async () => {
    const CONTEXT = 3_500;
    const MAX = 256;
    h = await startHarness({ realAgent: true, env: { LLM_AGENT_CONTEXT_TOKENS: String(CONTEXT), LLM_MAX_TOKENS: String(MAX) } });
    const big = 'UNWIND range(1, 60) AS i RETURN i, "row number " + toString(i) + " with some padding text to make it long" AS text';
    h.llm.script(
      routerReply('agent', 0.9),
      toolCallReply({ name: 'graph_query', arguments: { cypher_query: big } }),
      toolCallReply({ name: 'graph_query', arguments: { cypher_query: 'RETURN 1 AS one' } }),
      { content: 'Sixty rows.' },
    );
    const sub = await h.submit('Count the rows');
    const job = await h.waitJob(sub.job_id, 15_000);
    expect(job.status).toBe('done');
    const steps = (await events(sub.job_id)).filter((f) => f.event === 'agent_step').map((f) => f.data.prompt_tokens as number);
    expect(steps).toHaveLength(3);
    for (const t of steps) expect(t).toBeLessThanOrEqual(CONTEXT - MAX);
    const agentCalls = bodies().slice(1);
    for (const b of agentCalls) expect(Math.ceil(JSON.stringify([b.messages, b.tools]).length / 3)).toBeLessThanOrEqual(CONTEXT);
    // In the last call the first query's 60 rows are an older result: cut to a few, saying so.
    const last = agentCalls.at(-1)!.messages.filter((m: any) => m.role === 'tool');
    expect(last[0].content).toMatch(/more rows, cut to fit the context; ask again/);
    expect(last[1].content).toBe('[{"one":1}]');
  });

  it('ends the job with an error naming the setting when the question alone does not fit', async () => {
    h = await startHarness({ realAgent: true, env: { LLM_AGENT_CONTEXT_TOKENS: '3000' } });
    h.llm.script(routerReply('agent', 0.9));
    const job = await h.waitJob((await h.submit(`Explain ${'this very long question '.repeat(300)}`)).job_id, 15_000);
    expect(job.status).toBe('error');
    expect(job.error).toMatch(/context of 3000 tokens \(LLM_AGENT_CONTEXT_TOKENS\); raise LLM_AGENT_CONTEXT_TOKENS/);
    expect(h.llm.chatRequests()).toHaveLength(1);
  });
});
