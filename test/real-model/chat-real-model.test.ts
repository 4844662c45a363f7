/**
 * The chat through a real model server and a real model (scripts/test/test-real-model.sh; not part
 * of `npm test`): three mixed questions end `done`, each routed by the router model's own
 * decision (no fallback, parseable), agent questions take real steps with tool calls, usage is
 * counted and no call exceeds the context budget. Answers from a 135M model are poor; what this
 * checks is the wire, the fallbacks and the limits with a model that really decides.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentHandler } from '../../src/agent/handler.js';
import type { RouteHandler } from '../../src/chat/types.js';
import { startHarness, type Harness } from '../integration/helpers/chat-harness.js';

const url = process.env.REAL_LLM_BASE_URL;
const model = process.env.REAL_LLM_MODEL ?? 'smollm2';
const key = process.env.REAL_LLM_API_KEY;
const CONTEXT = 8_192;
const MAX_TOKENS = 256;
const tag = randomUUID().slice(0, 6);
const PERSON = `RealPerson_${tag}`;
const CITY = `RealCity_${tag}`;

const provider: Record<string, string> = key
  ? {
      LLM_PROVIDER: 'hosted',
      ROUTER_PROVIDER: 'hosted',
      HOSTED_LLM_BASE_URL: url!,
      HOSTED_LLM_API_KEY: key,
      HOSTED_LLM_AGENT_MODEL: model,
      HOSTED_LLM_ROUTER_MODEL: model,
    }
  : { LOCAL_LLM_BASE_URL: url!, LOCAL_LLM_AGENT_MODEL: model, LOCAL_LLM_ROUTER_MODEL: model };

let h: Harness;
let agent: RouteHandler;
const db = (cypher: string) => h.deps.graph.driver.executeQuery(cypher, {}, { database: 'neo4j' });

describe.skipIf(!url)(`the chat through ${url} with ${model}`, () => {
  beforeAll(async () => {
    h = await startHarness({
      handlers: { agent: (input) => agent(input) },
      env: {
        ...provider,
        LLM_TIMEOUT_MS: '600000',
        LLM_AGENT_CONTEXT_TOKENS: String(CONTEXT),
        LLM_ROUTER_CONTEXT_TOKENS: String(CONTEXT),
        LLM_MAX_TOKENS: String(MAX_TOKENS),
      },
    });
    // Four steps at most: a small model may never stop calling tools, and each step takes seconds here.
    agent = createAgentHandler({
      graph: h.deps.graph,
      search: h.searcher,
      skeleton: h.deps.skeleton,
      config: h.deps.config,
      maxIterations: 4,
    });
    await db(
      `CREATE (:${PERSON} {name: 'Ada'})-[:LIVES_IN]->(:${CITY} {name: 'London'}), (:${PERSON} {name: 'Charles'})-[:LIVES_IN]->(:${CITY} {name: 'Paris'})`,
    );
    await h.deps.skeleton.refresh('neo4j');
  });
  afterAll(async () => {
    await db(`MATCH (n) WHERE n:${PERSON} OR n:${CITY} DETACH DELETE n`);
    await h?.close();
  });

  const questions = [
    'Who is Ada Lovelace?',
    `Count the ${PERSON} nodes in the graph and list the cities they live in. Use the graph tools.`,
    `Compare the cities where Ada and Charles live, using the relationships in the graph.`,
  ];

  it('answers three mixed questions with the router’s own routes, real agent steps and tool calls, counted usage, within budget', async () => {
    let toolCalls = 0;
    let agentJobs = 0;
    for (const q of questions) {
      const sub = await h.submit(q);
      const { frames } = await h.stream(sub.job_id, {}, 840_000);
      const job = await h.waitJob(sub.job_id, 60_000);
      const ev = frames.filter((f) => f.event);
      const routing = ev.find((f) => f.event === 'routing_done')!.data;
      const steps = ev.filter((f) => f.event === 'agent_step').map((f) => f.data);
      const calls = ev.filter((f) => f.event === 'tool_call').map((f) => f.data.tool as string);
      const args = ev.filter((f) => f.event === 'tool_call').map((f) => JSON.stringify(f.data.args));
      const results = ev.filter((f) => f.event === 'tool_result').map((f) => String(f.data.summary).slice(0, 60));
      console.log(
        `${model} | ${q.slice(0, 50)} | ${job.status} ${job.result?.route_taken ?? job.error} (${routing.confidence}: ${routing.reasoning}) | steps ${steps.length}, tools ${calls.join(',') || '-'} | usage ${JSON.stringify(job.result?.token_usage)} | prompt tokens ${steps.map((s) => s.prompt_tokens).join(',')} | args ${args.join(' ')} | results ${results.join(' / ')}`,
      );
      expect(job.status, job.error).toBe('done');
      expect(routing.fallback, routing.reasoning).toBeUndefined();
      expect(routing.reasoning).not.toMatch(/could not be parsed/);
      expect(job.result.token_usage?.input_tokens).toBeGreaterThan(0);
      for (const s of steps) expect(s.prompt_tokens).toBeLessThanOrEqual(CONTEXT - MAX_TOKENS);
      if (job.result.route_taken === 'agent') {
        agentJobs++;
        expect(steps.length).toBeGreaterThan(0);
        toolCalls += calls.length;
      }
    }
    expect(agentJobs, 'the router sent no question to the agent').toBeGreaterThan(0);
    expect(toolCalls, 'the agent called no tool').toBeGreaterThan(0);
  });
});
