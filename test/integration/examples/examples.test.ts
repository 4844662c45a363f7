/**
 * The agent's examples against the real Neo4j and Redis with the scripted model: a file's
 * examples checked (a write, an unknown label and a malformed line each reported with its line,
 * the rest used), the closest reaching the agent's prompt in order, the budget holding with
 * 1,000 examples and a 4k window, and a graph with no examples leaving the prompt byte-identical.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { createAgentHandler } from '../../../src/agent/handler.js';
import type { RouteInput } from '../../../src/chat/types.js';
import type { JobEvent } from '../../../src/contract/chat.js';
import { createAgentExamples } from '../../../src/examples/examples.js';
import { EXAMPLES_HEADER, formatExample } from '../../../src/examples/prompt.js';
import { createExampleStore } from '../../../src/store/examples.js';
import { routerReply } from '../../helpers/llm-server.js';
import { startHarness, type Harness } from '../helpers/chat-harness.js';
import { testConfig } from '../helpers/deps.js';

const tag = randomUUID().slice(0, 8);
const MOVIE = `ExMovie_${tag}`;
const PERSON = `ExPerson_${tag}`;
const ACTED = `EX_ACTED_${tag}`;
const DIR = `test-output/examples-${tag}`;
const FILE = `${DIR}/examples.jsonl`;
const BIG = `${DIR}/thousand.jsonl`;
const line = (question: string, cypher: string) => JSON.stringify({ question, cypher });
const LINES = [
  line('Which movies did Ada act in?', `MATCH (p:${PERSON} {name: 'Ada'})-[:${ACTED}]->(m:${MOVIE}) RETURN m.title`),
  line('How many movies are there?', `MATCH (m:${MOVIE}) RETURN count(m) AS movies`),
  line('Who acted in Dune?', `MATCH (p:${PERSON})-[:${ACTED}]->(m:${MOVIE} {title: 'Dune'}) RETURN p.name`),
  line('Add a movie', `CREATE (:${MOVIE} {title: 'New'})`),
  line('List the films', `MATCH (f:ExMovei_${tag}) RETURN f.title`),
  '{"question": "broken", "cypher": ',
];

let h: Harness;
const db = (cypher: string) => h.deps.graph.driver.executeQuery(cypher, {}, { database: 'neo4j' });
const examplesOf = (file: string | undefined, prefix = h.deps.kv) =>
  createAgentExamples({
    config: testConfig({ ...(file ? { EXAMPLES_FILE: file } : {}) }),
    graph: h.deps.graph,
    skeleton: h.deps.skeleton,
    embedders: h.deps.embedders,
    store: createExampleStore(prefix),
  });

/** Runs the agent handler once on `question`; the model requests it made and its events. */
async function runAgent(
  examples: ReturnType<typeof examplesOf> | undefined,
  question: string,
  opts: { k?: number; contextTokens?: number; maxTokens?: number } = {},
) {
  const config = testConfig({ AGENT_EXAMPLES: String(opts.k ?? 2) });
  const agent = createAgentHandler({ graph: h.deps.graph, search: h.searcher, skeleton: h.deps.skeleton, examples, config });
  const llm = h.deps.llm.resolve('agent');
  const events: JobEvent[] = [];
  h.llm.reset();
  h.llm.setDefault({ content: 'done' });
  const input: RouteInput = {
    question,
    history: [],
    graph: 'neo4j',
    llm: opts.contextTokens ? { ...llm, contextTokens: opts.contextTokens, maxTokens: opts.maxTokens ?? llm.maxTokens } : llm,
    emit: async (e) => void events.push(e),
    recordUsage: async () => {},
    signal: new AbortController().signal,
  };
  await agent(input);
  const calls = h.llm.requests.filter((r) => r.path.endsWith('/chat/completions'));
  return { messages: calls[0]!.body.messages as ChatCompletionMessageParam[], body: calls[0]!.body, events };
}

beforeAll(async () => {
  h = await startHarness({ worker: false });
  await db(`CREATE (a:${PERSON} {name: 'Ada'})-[:${ACTED}]->(:${MOVIE} {title: 'Dune'}), (a)-[:${ACTED}]->(:${MOVIE} {title: 'Heat'})`);
  await h.deps.skeleton.refresh('neo4j');
  await mkdir(DIR, { recursive: true });
  await writeFile(FILE, `${LINES.join('\n')}\n`);
  const many = Array.from({ length: 1_000 }, (_, i) =>
    line(`Which movies did person ${i} act in?`, `MATCH (p:${PERSON} {name: 'P${i}'})-[:${ACTED}]->(m:${MOVIE}) RETURN m.title LIMIT 10`),
  );
  await writeFile(BIG, `${many.join('\n')}\n`);
});
afterAll(async () => {
  await db(`MATCH (n) WHERE n:${PERSON} OR n:${MOVIE} DETACH DELETE n`);
  await h.close();
});
beforeEach(() => h.llm.reset());

describe('agent examples', () => {
  it('reports a write, an unknown label and a malformed line with their line numbers, and uses the rest', async () => {
    const set = await examplesOf(FILE).load('neo4j');
    expect(set.examples.map((e) => e.line)).toEqual([1, 2, 3]);
    expect(set.rejected.map((r) => r.line)).toEqual([4, 5, 6]);
    const [write, unknown, malformed] = set.rejected;
    expect(write!.reason).toMatch(/read-only.*writes/);
    expect(unknown!.reason).toMatch(new RegExp(`ExMovei_${tag} does not exist in this graph; did you mean :${MOVIE}\\?`));
    expect(malformed!.reason).toMatch(/^not JSON/);
  });

  it('puts the closest examples into the prompt, in order, before the graph overview', async () => {
    const examples = examplesOf(FILE);
    const ranked = await examples.closest('neo4j', 'Which movies did Ada act in?', 3);
    expect(ranked[0]!.question).toBe('Which movies did Ada act in?');
    const { messages } = await runAgent(examples, 'Which movies did Ada act in?', { k: 2 });
    expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
    const system = messages[0]!.content as string;
    const block = `${EXAMPLES_HEADER}\n\n${ranked.slice(0, 2).map(formatExample).join('\n\n')}`;
    expect(system).toContain(`\n\n${block}\n\nGraph overview`);
  });

  it('holds the budget with 1,000 examples and a 4k window: whole examples, the closest first, the call within the window', async () => {
    const examples = examplesOf(BIG);
    const set = await examples.load('neo4j');
    expect(set.examples).toHaveLength(1_000);
    const question = 'Which movies did person 7 act in?';
    // 256 tokens kept for the answer (with the default 1,024 the instructions and tools fill a 4k window: no examples).
    const { messages, events } = await runAgent(examples, question, { k: 50, contextTokens: 4_096, maxTokens: 256 });
    const system = messages[0]!.content as string;
    // The parts after the header up to the overview (or the budget's note where it was cut).
    const after = system.slice(system.indexOf(EXAMPLES_HEADER)).split('\n\n').slice(1);
    const shown = after.slice(
      0,
      after.findIndex((p) => !p.startsWith('Question: ')),
    );
    expect(system).toContain(shown.at(-1)!);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(50);
    expect(shown[0]).toContain(`Question: ${question}`);
    for (const part of shown) expect(part).toMatch(/^Question: .+\nCypher: MATCH .+ LIMIT 10$/);
    const step = events.find((e) => e.type === 'agent_step')!;
    expect(step.data.prompt_tokens as number).toBeLessThanOrEqual(4_096 - 256);
  });

  it('leaves the prompt byte-identical for a graph with no examples', async () => {
    const other = { ...h.deps.kv, prefix: `${h.deps.kv.prefix}none:` };
    const none = await runAgent(examplesOf(undefined, other), 'How many movies are there?');
    const without = await runAgent(undefined, 'How many movies are there?');
    expect(JSON.stringify(none.body)).toBe(JSON.stringify(without.body));
    const off = createAgentHandler({
      graph: h.deps.graph,
      search: h.searcher,
      skeleton: h.deps.skeleton,
      examples: examplesOf(FILE),
      config: testConfig(),
    });
    h.llm.reset();
    h.llm.setDefault({ content: 'done' });
    await off({
      question: 'How many movies are there?',
      history: [],
      graph: 'neo4j',
      llm: h.deps.llm.resolve('agent'),
      emit: async () => {},
      recordUsage: async () => {},
      signal: new AbortController().signal,
      examples: false,
    });
    expect(JSON.stringify(h.llm.requests[0]!.body)).toBe(JSON.stringify(without.body));
  });
});

describe('examples through the chat', () => {
  it('x-agent-examples: off keeps them out of one job', async () => {
    const chat = await startHarness({ env: { EXAMPLES_FILE: FILE }, realAgent: true });
    try {
      chat.llm.script(routerReply('agent', 0.9), { content: 'with' }, routerReply('agent', 0.9), { content: 'without' });
      const a = await chat.submit('Who acted in Dune?');
      await chat.waitJob(a.job_id, 20_000);
      const b = await chat.submit('Who acted in Dune?', { headers: { 'x-agent-examples': 'off' } });
      await chat.waitJob(b.job_id, 20_000);
      const agentCalls = chat.llm.requests.filter((r) => Array.isArray(r.body.tools));
      expect(agentCalls).toHaveLength(2);
      const system = agentCalls.map((r) => String((r.body.messages as ChatCompletionMessageParam[])[0]!.content));
      expect(system.map((s) => s.includes(EXAMPLES_HEADER))).toEqual([true, false]);
    } finally {
      await chat.close();
    }
  });
});
