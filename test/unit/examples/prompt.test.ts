/**
 * The examples block and its budget: closest first, at most k, whole examples only, and with
 * 1,000 examples and a 4k window the agent's first call still fits (the block is sized before the
 * call; the context budget then cuts the overview after it, never the block).
 */
import { describe, expect, it } from 'vitest';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { examplesForPrompt, examplesRoom } from '../../../src/agent/examples.js';
import { AGENT_TOOLS } from '../../../src/agent/handler.js';
import { buildSystemPrompt, systemPromptFloor } from '../../../src/agent/prompt.js';
import { toOpenAiTools } from '../../../src/agent/tools.js';
import type { AgentExamples } from '../../../src/examples/examples.js';
import type { Example } from '../../../src/examples/format.js';
import { EXAMPLES_HEADER, examplesBlock, formatExample, rankBy, wordOverlap } from '../../../src/examples/prompt.js';
import { fitContext } from '../../../src/llm/context-budget.js';

const example = (i: number, cypherChars = 60): Example => ({
  question: `Which movies did person ${i} act in?`,
  cypher: `MATCH (p:Person {name: 'Person ${i}'})-[:ACTED_IN]->(m:Movie) RETURN m.title /*${'x'.repeat(cypherChars)}*/`,
  source: 'file',
  line: i,
});

/** Examples of a fake graph, ranked as given. */
const fakeExamples = (ranked: Example[]): AgentExamples => ({
  load: async () => ({ examples: ranked, rejected: [], file: null, checkedAt: 0, vectors: null }),
  add: async () => ({ rejected: { source: 'added', line: 1, reason: 'not here' } }),
  closest: async (_g, _q, n) => ranked.slice(0, n),
  peek: () => null,
});

describe('examplesBlock', () => {
  it('keeps the ranking, stops at k and never cuts an example', () => {
    const ranked = [example(1), example(2), example(3), example(4)];
    const block = examplesBlock(ranked, 3, 10_000)!;
    expect(block.examples.map((e) => e.line)).toEqual([1, 2, 3]);
    expect(block.text.startsWith(EXAMPLES_HEADER)).toBe(true);
    expect(block.text.indexOf(formatExample(ranked[0]!))).toBeLessThan(block.text.indexOf(formatExample(ranked[1]!)));
    // Room for the header and one example: one, whole.
    const one = examplesBlock(ranked, 3, Math.ceil(EXAMPLES_HEADER.length / 3) + Math.ceil(formatExample(ranked[0]!).length / 3) + 2)!;
    expect(one.examples).toHaveLength(1);
    expect(one.text.endsWith(formatExample(ranked[0]!))).toBe(true);
    expect(examplesBlock(ranked, 3, 10)).toBeNull();
    // A long example that does not fit leaves its place to a shorter, farther one.
    const long = { ...example(9, 3_000), line: 9 };
    const room = Math.ceil(EXAMPLES_HEADER.length / 3) + 2 * Math.ceil(formatExample(example(1)).length / 3) + 6;
    expect(examplesBlock([long, example(1), example(2)], 3, room)!.examples.map((e) => e.line)).toEqual([1, 2]);
  });

  it('ranks by score, ties in file order, and falls back to shared words', () => {
    expect(rankBy(['a', 'bb', 'c', 'dd'], (s) => s.length)).toEqual(['bb', 'dd', 'a', 'c']);
    expect(wordOverlap('Who directed The Matrix?', 'who directed the matrix')).toBe(1);
    expect(wordOverlap('a b', 'c d')).toBe(0);
  });
});

describe('examples within the context budget', () => {
  const prompt = { graph: 'neo4j', skeleton: `(:Movie)-[:ACTED_IN]-(:Person)\n${'overview line\n'.repeat(280)}` };
  const conversation: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Which movies did Keanu Reeves act in?' }];
  const tools = toOpenAiTools(AGENT_TOOLS);
  const run = (ranked: Example[], k: number, llm: { contextTokens: number; maxTokens: number }) =>
    examplesForPrompt({ examples: fakeExamples(ranked), graph: 'neo4j', k, prompt, conversation, tools: AGENT_TOOLS, llm });

  it('with 1,000 examples and a 4k window: fewer examples, whole, and the call fits without cutting them', async () => {
    const thousand = Array.from({ length: 1_000 }, (_, i) => example(i + 1));
    // 256 tokens kept for the answer: the instructions, tools and question leave a few hundred.
    const llm = { contextTokens: 4_096, maxTokens: 256 };
    const block = await run(thousand, 50, llm);
    expect(block).not.toBeNull();
    const shown = block!.split('\n\n').slice(1);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(50);
    // In order, each one whole.
    shown.forEach((part, i) => expect(part).toBe(formatExample(thousand[i]!)));
    expect(Math.ceil(block!.length / 3)).toBeLessThanOrEqual(examplesRoom({ prompt, conversation, tools: AGENT_TOOLS, llm }));
    const withExamples = { ...prompt, examples: block! };
    const system = buildSystemPrompt(withExamples);
    const floor = systemPromptFloor(withExamples);
    const budget = { contextTokens: 4_096, reserveTokens: 256, setting: 'LLM_AGENT_CONTEXT_TOKENS' };
    const fitted = fitContext([{ role: 'system', content: system }, ...conversation], tools, budget, 1, floor);
    expect(fitted.promptTokens).toBeLessThanOrEqual(4_096 - 256);
    // The overview was cut to make room; the examples went through whole.
    const sent = fitted.messages[0]!.content as string;
    expect(sent.length).toBeLessThan(system.length);
    expect(sent.startsWith(system.slice(0, floor))).toBe(true);
    expect(sent).toContain(block!);
    // With 1,024 kept for the answer the instructions and tools alone fill the window: no examples.
    expect(await run(thousand, 50, { contextTokens: 4_096, maxTokens: 1_024 })).toBeNull();
  });

  it('a larger window takes more, up to k; none when there are none; the prompt without examples is as it was', async () => {
    const many = Array.from({ length: 100 }, (_, i) => example(i + 1));
    const big = await run(many, 5, { contextTokens: 32_000, maxTokens: 1_024 });
    expect(big!.split('\n\n').slice(1)).toHaveLength(5);
    expect(await run([], 5, { contextTokens: 32_000, maxTokens: 1_024 })).toBeNull();
    expect(buildSystemPrompt({ ...prompt, examples: undefined })).toBe(buildSystemPrompt(prompt));
    expect(systemPromptFloor(prompt)).toBe(buildSystemPrompt(prompt).indexOf('\n\nGraph overview'));
  });
});
