/**
 * `eval` against the real app over HTTP (random port; real Redis and Neo4j, the real lookup and
 * agent) with the scripted model deciding per question: right and wrong routes, a wrong answer,
 * a graph_query and a refused one, a model that fails (job error) and one too slow (timeout).
 * Search is a fixed searcher over the bundled sample graph's nodes, so the suite does not depend
 * on the sample graph being loaded in the shared Neo4j; the Cypher it runs works on any graph.
 */
import { serve } from '@hono/node-server';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../../../src/app.js';
import { evalCommand } from '../../../../src/cli/eval/command.js';
import { examplesCommand } from '../../../../src/cli/examples.js';
import type { EvalReport } from '../../../../src/cli/eval/report.js';
import { createChatHandlers, startChatWorker } from '../../../../src/chat/service.js';
import type { ChatWorker } from '../../../../src/chat/worker.js';
import type { SourceNode } from '../../../../src/contract/search.js';
import data from '../../../../src/graph/access/sample-data.json' with { type: 'json' };
import type { VectorSearcher } from '../../../../src/vector-index/search/types.js';
import { createTestDeps, type TestDeps } from '../../helpers/deps.js';
import {
  routerReply,
  startLlmServer,
  toolCallReply,
  type LlmServer,
  type RecordedRequest,
  type ScriptedReply,
} from '../../../helpers/llm-server.js';

const DIR = `test-output/eval-${process.pid}`;
const EXAMPLE = 'examples/eval/sample-questions.csv';
/** The questions of the example set this suite runs, by id. */
const SUBSET = ['nasa', 'jupiter', 'apollo11-crew', 'apollo11-when', 'apollo11-pad', 'voyager1', 'cassini'];

/** Sample nodes whose name the query contains: a stand-in for the vector index. */
const sampleSearcher: VectorSearcher = {
  async search(req) {
    const q = req.query.toLowerCase();
    return data.nodes
      .filter((n) => q.includes(n.properties.displayName.toLowerCase()))
      .slice(0, req.topK)
      .map(
        (n): SourceNode => ({
          dbId: n.properties.dbId,
          displayName: n.properties.displayName,
          text: n.properties.text,
          score: 0.9,
          labels: n.labels,
        }),
      );
  },
};

const lastUser = (req: RecordedRequest): string => req.body.messages.filter((m: { role: string }) => m.role === 'user').at(-1).content;
const toolTurns = (req: RecordedRequest) => req.body.messages.filter((m: { role: string }) => m.role === 'tool').length;

/** The agent's script per question: tool calls on its first turn, then the answer. */
const AGENT: Record<string, { tools?: ScriptedReply; answer?: string; reply?: ScriptedReply }> = {
  'Tell me about Jupiter.': { answer: 'Jupiter is the largest planet.' },
  'Who flew on Apollo 11?': {
    tools: toolCallReply(
      {
        name: 'graph_query',
        arguments: { cypher_query: "MATCH (m) WHERE m.displayName = 'Apollo 11' RETURN m.displayName AS name LIMIT 1" },
      },
      { name: 'vector_search', arguments: { query: 'Apollo 11 crew' } },
    ),
    answer: 'Neil Armstrong, Buzz Aldrin and Michael Collins.',
  },
  // The scripted wrong answer: wrong year, the mission not named.
  'And when did that mission launch?': { answer: 'It launched in 1970.' },
  'Which launch site did it leave from, and who runs that site?': {
    tools: toolCallReply({ name: 'graph_query', arguments: { cypher_query: 'MATCH (n) DETACH DELETE n' } }),
    answer: 'Kennedy Space Center LC-39A, run by NASA.',
  },
  'Which bodies did Voyager 1 study, and when did it launch?': { reply: { content: 'too late', latencyMs: 30_000 } },
  'Which agencies operated Cassini–Huygens together?': { reply: { status: 404 } },
};

/** Routes the scripted router gives: the expected ones, except Jupiter (expected lookup). */
function route(question: string): ScriptedReply {
  if (question === 'What is NASA?') return routerReply('lookup', 0.9);
  return routerReply('agent', 0.85);
}

function reply(req: RecordedRequest): ScriptedReply {
  const question = lastUser(req);
  if (!req.body.tools) return route(question);
  const plan = AGENT[question];
  if (!plan) return { content: `no script for ${question}` };
  if (plan.reply) return plan.reply;
  if (plan.tools && toolTurns(req) === 0) return plan.tools;
  return { content: plan.answer ?? '' };
}

let llm: LlmServer;
let deps: TestDeps;
let worker: ChatWorker;
let server: ReturnType<typeof serve>;
let url: string;
let stderr: string[];

beforeAll(async () => {
  llm = await startLlmServer({ defaultReply: reply });
  deps = createTestDeps({ LOCAL_LLM_BASE_URL: llm.url, LLM_RETRY_DELAY_MS: '10', SSE_PING_MS: '200' });
  // The agent's first turns wait for the graph skeleton of the shared (possibly large) database;
  // computed here, it does not eat into the questions' timeout.
  await deps.skeleton.refresh(deps.config.GRAPHDB_GRAPH).catch(() => null);
  worker = await startChatWorker(deps, createChatHandlers({ ...deps, search: sampleSearcher }));
  server = serve({ fetch: createApp(deps).fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((r) => server.once('listening', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await mkdir(DIR, { recursive: true });
  // The example file's header and the subset's rows, as they stand in the example.
  const lines = (await readFile(EXAMPLE, 'utf8')).trim().split('\n');
  await writeFile(`${DIR}/subset.csv`, [lines[0], ...lines.filter((l) => SUBSET.includes(l.split(',')[0]!))].join('\n'));
});

afterAll(async () => {
  server?.close();
  await worker?.stop();
  await deps?.close();
  await llm?.close();
  await rm(DIR, { recursive: true, force: true });
});

/** Runs `eval` with `args`; its exit code and what it wrote to stderr. */
async function run(...args: string[]) {
  stderr = [];
  const err = vi.spyOn(console, 'error').mockImplementation((...a) => void stderr.push(a.join(' ')));
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    return await evalCommand(args, {});
  } finally {
    err.mockRestore();
    log.mockRestore();
    write.mockRestore();
  }
}

describe('eval against a running service', () => {
  let report: EvalReport;

  beforeAll(async () => {
    const code = await run(
      `${DIR}/subset.csv`,
      ...['--url', url, '--concurrency', '3', '--timeout', '6', '--out', `${DIR}/run`, '--write-examples', `${DIR}/found.jsonl`],
    );
    expect(code).toBe(0);
    report = JSON.parse(await readFile(`${DIR}/run.json`, 'utf8')) as EvalReport;
  }, 30_000);

  it('counts what the script did: statuses, routes, nodes, strings, every check', () => {
    expect(report.summary).toMatchObject({
      questions: 7,
      done: 5,
      error: 1,
      timeout: 1,
      all_checks_passed: 3,
      // Jupiter was routed to the agent, expected lookup; the slow question's route still counts.
      route: { passed: 6, total: 7 },
      nodes: { passed: 9, total: 17 },
      answer_contains: { passed: 6, total: 9 },
      tool_errors: 1,
    });
    const byId = new Map(report.questions.map((q) => [q.id, q]));
    expect(byId.get('jupiter')).toMatchObject({ route: 'agent', expected_route: 'lookup', route_ok: false });
    expect(byId.get('apollo11-when')).toMatchObject({
      status: 'done',
      expected_nodes: [{ node: 'Apollo 11', hit: null }],
      expected_answer_contains: [{ text: '1969', found: false }],
    });
    expect(byId.get('voyager1')).toMatchObject({ status: 'timeout', error: 'no answer within 6 s' });
    expect(byId.get('cassini')).toMatchObject({ status: 'error' });
    expect(byId.get('cassini')!.error).toMatch(/404/);
  });

  it('records tools, Cypher, sources, tokens and latency, and runs a session in one chat', () => {
    const [crew, when, pad] = ['apollo11-crew', 'apollo11-when', 'apollo11-pad'].map((id) => report.questions.find((q) => q.id === id)!);
    expect(crew!.cypher).toEqual(["MATCH (m) WHERE m.displayName = 'Apollo 11' RETURN m.displayName AS name LIMIT 1"]);
    expect(crew!.tool_calls.map((c) => c.tool)).toEqual(['graph_query', 'vector_search']);
    expect(crew!.sources.map((s) => s.displayName)).toContain('Apollo 11');
    expect(crew!.expected_nodes.map((n) => n.hit)).toEqual(['source', 'answer', 'answer', 'answer']);
    expect(crew!.agent_steps).toBe(2);
    expect(pad!.tool_errors).toHaveLength(1);
    expect(pad!.tool_errors[0]!.summary).toMatch(/^Tool error/);
    expect(crew!.tokens!.input).toBeGreaterThan(0);
    expect(crew!.latency_ms.first_event).not.toBeNull();
    expect(crew!.latency_ms.done!).toBeGreaterThanOrEqual(crew!.latency_ms.first_answer!);
    // One session, in file order: the follow-up's model call saw the first question.
    expect(new Set([crew!.session_id, when!.session_id, pad!.session_id]).size).toBe(1);
    const followUp = llm.chatRequests().find((r) => lastUser(r) === 'And when did that mission launch?')!;
    expect(JSON.stringify(followUp.body.messages)).toContain('Who flew on Apollo 11?');
  });

  it('writes the right answers with their Cypher as examples to review; the check rejects the write', async () => {
    const lines = (await readFile(`${DIR}/found.jsonl`, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.question, l.cypher])).toEqual([
      ['Who flew on Apollo 11?', "MATCH (m) WHERE m.displayName = 'Apollo 11' RETURN m.displayName AS name LIMIT 1"],
      ['Which launch site did it leave from, and who runs that site?', 'MATCH (n) DETACH DELETE n'],
    ]);
    expect(stderr.join('\n')).toMatch(/wrote 2 examples to .*found\.jsonl \(1 right answer ran no Cypher\)/);
    const out: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((s) => void out.push(String(s)));
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(
        await examplesCommand(['check', `${DIR}/found.jsonl`], {
          GRAPHDB_PORT: process.env.TEST_GRAPHDB_PORT ?? '1234',
          LOG_LEVEL: 'silent',
        }),
      ).toBe(1);
    } finally {
      log.mockRestore();
      err.mockRestore();
    }
    expect(out).toEqual([expect.stringMatching(/^line 2: "Which launch site.*read-only and this query writes/)]);
  });

  it('writes the Markdown report, and --compare tells the runs apart', async () => {
    const md = await readFile(`${DIR}/run.md`, 'utf8');
    expect(md).toContain('| Done / error / timeout | 5 / 1 / 1 |');
    expect(md).toContain('### apollo11-pad ✓');
    expect(md).toContain('```cypher\nMATCH (n) DETACH DELETE n\n```');
    // A second run in which the Jupiter question is routed right.
    const better = structuredClone(report);
    const jupiter = better.questions.find((q) => q.id === 'jupiter')!;
    Object.assign(jupiter, { route: 'lookup', route_ok: true });
    better.summary.route.passed = 7;
    better.summary.route.rate = 1;
    await writeFile(`${DIR}/better.json`, JSON.stringify(better));
    const out: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((s) => void out.push(String(s)));
    try {
      expect(await evalCommand(['--compare', `${DIR}/run.json`, `${DIR}/better.json`], {})).toBe(0);
    } finally {
      log.mockRestore();
    }
    expect(out.join('\n')).toContain('Better (1):\n  jupiter Tell me about Jupiter.\n    + route agent → lookup (expected lookup)');
    expect(out.join('\n')).toContain('+ better  route accuracy 6/7 (86%) → 7/7 (100%) (+14 pts)');
  });
});

describe('eval errors', () => {
  it('a bad file: exit 2, the line and the field', async () => {
    await writeFile(`${DIR}/bad.csv`, 'question,expected_route\n"Fine, quoted\nover two lines",agent\nNext,sometimes\n');
    expect(await run(`${DIR}/bad.csv`, '--url', url)).toBe(2);
    expect(stderr.join('\n')).toContain(`eval: ${DIR}/bad.csv: line 4: field "expected_route": must be lookup or agent`);
  });

  it('a service that is down: one clear message, exit 1', async () => {
    // A port that was just free: nothing listens there.
    const idle = createServer().listen(0, '127.0.0.1');
    await once(idle, 'listening');
    const port = (idle.address() as AddressInfo).port;
    await new Promise((r) => idle.close(r));
    expect(await run(`${DIR}/subset.csv`, '--url', `http://127.0.0.1:${port}`)).toBe(1);
    expect(stderr).toEqual([
      `eval: the service at http://127.0.0.1:${port} does not answer (ECONNREFUSED); start it with \`npm start\` or point --url at it`,
    ]);
  });
});
