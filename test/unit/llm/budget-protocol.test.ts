/** The context budget's shortening order and its error, what counts as a refusal, and the config defaults of both. */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { APIConnectionError, APIConnectionTimeoutError } from 'openai';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { createLlmClients } from '../../../src/llm/clients.js';
import { ContextBudgetError, estimatePrompt, fitContext, shortenToolResult } from '../../../src/llm/context-budget.js';
import { llmFailureOf } from '../../../src/llm/failure.js';
import { createProtocolMemory, isRefusal, LlmRefusedError } from '../../../src/llm/protocol.js';

const rows = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ i, text: `row ${i} `.repeat(5) })));
const budget = (contextTokens: number) => ({ contextTokens, reserveTokens: 100, setting: 'LLM_AGENT_CONTEXT_TOKENS' });

function conversation(): ChatCompletionMessageParam[] {
  return [
    { role: 'system', content: `Instructions.\n${'Do this and that.\n'.repeat(120)}Graph overview:\n${'- :Label (1)\n'.repeat(400)}` },
    { role: 'user', content: 'an old question' },
    { role: 'assistant', content: 'an old answer '.repeat(50) },
    { role: 'user', content: 'the question' },
    { role: 'assistant', content: '', tool_calls: [{ id: 'a', type: 'function', function: { name: 'graph_query', arguments: '{}' } }] },
    { role: 'tool', tool_call_id: 'a', content: rows(60) },
    { role: 'assistant', content: '', tool_calls: [{ id: 'b', type: 'function', function: { name: 'graph_query', arguments: '{}' } }] },
    { role: 'tool', tool_call_id: 'b', content: rows(3) },
  ];
}

describe('fitContext', () => {
  it('leaves a call that fits alone', () => {
    const m = conversation();
    const out = fitContext(m, [], budget(100_000), 3);
    expect(out.messages).toEqual(m);
    expect(out.promptTokens).toBe(estimatePrompt(m));
  });

  it('cuts the overview first, then older results, then history, keeping the question and the last results', () => {
    const m = conversation();
    const full = estimatePrompt(m);
    const out = fitContext(m, [], budget(full - 600), 3);
    expect(out.promptTokens).toBeLessThanOrEqual(full - 700);
    expect(out.messages[0]!.content).toContain('the rest of the overview is left out');
    expect(out.messages[1]).toEqual(m[1]); // history kept while the overview was enough

    const tight = fitContext(m, [], budget(1_800), 3);
    expect(tight.promptTokens).toBeLessThanOrEqual(1_700);
    expect(tight.messages.find((x) => x.role === 'tool')!.content).toMatch(/more rows, cut to fit the context/);
    expect(tight.messages.some((x) => x.content === 'the question')).toBe(true);
    expect(tight.messages.at(-1)).toEqual(m.at(-1));
    expect(m[5]!.content).toBe(rows(60)); // the input is not changed
  });

  it('leaves out whole older turns of a long run, keeping the question and the latest turn', () => {
    const turns: ChatCompletionMessageParam[] = Array.from(
      { length: 40 },
      (_, i) =>
        [
          {
            role: 'assistant',
            content: '',
            tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'get_edge_types', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: `c${i}`, content: rows(3) },
        ] as ChatCompletionMessageParam[],
    ).flat();
    const m: ChatCompletionMessageParam[] = [{ role: 'system', content: 'short' }, { role: 'user', content: 'the question' }, ...turns];
    const out = fitContext(m, [], budget(1_500), 1);
    expect(out.promptTokens).toBeLessThanOrEqual(1_400);
    expect(out.messages[1]).toEqual(m[1]);
    expect(out.messages.at(-1)).toEqual(m.at(-1));
    const notes = out.messages.filter((x) => x.role === 'system' && String(x.content).includes('earlier messages of this answer left out'));
    expect(notes).toHaveLength(1);
    // Every tool result still follows the call it answers.
    out.messages.forEach((x, i) => {
      if (x.role === 'tool')
        expect(out.messages.slice(0, i).findLast((y) => y.role === 'assistant' || y.role === 'system')?.role).toBe('assistant');
    });
  });

  it('names the setting when the question alone cannot fit', () => {
    const m: ChatCompletionMessageParam[] = [
      { role: 'system', content: 'short' },
      { role: 'user', content: 'q'.repeat(9_000) },
    ];
    expect(() => fitContext(m, [], budget(2_000), 1)).toThrow(ContextBudgetError);
    expect(() => fitContext(m, [], budget(2_000), 1)).toThrow(/raise LLM_AGENT_CONTEXT_TOKENS/);
  });

  it('cuts a result to its first rows, saying how many were left out', () => {
    expect(shortenToolResult(rows(10), 2)).toMatch(/^\[\{"i":0.*\{"i":1.*\]\n\(… 8 more rows/);
    expect(shortenToolResult('plain '.repeat(200), 1)).toMatch(/cut to fit the context/);
  });
});

describe('refusals', () => {
  it.each([
    [400, true],
    [422, true],
    [500, true],
    [401, false],
    [404, false],
    [429, false],
    [503, false],
  ])('HTTP %i is a refusal: %s', (status, refusal) => {
    expect(isRefusal({ status })).toBe(refusal);
  });

  it('are their own failure kind, not "unavailable"', () => {
    expect(llmFailureOf({ status: 500 })).toBe('refused');
    expect(llmFailureOf({ status: 503 })).toBe('unavailable');
    expect(llmFailureOf(new LlmRefusedError('all forms', 500))).toBe('refused');
    expect(llmFailureOf(new ContextBudgetError('too long'))).toBe('context');
  });

  it('tell a server that answered too slowly from one that did not answer at all', () => {
    expect(llmFailureOf(new APIConnectionTimeoutError())).toBe('timeout');
    expect(llmFailureOf(Object.assign(new Error('late'), { name: 'TimeoutError' }))).toBe('timeout');
    expect(llmFailureOf(new APIConnectionError({ message: 'ECONNREFUSED' }))).toBe('unreachable');
  });

  it('are remembered per base URL and model', () => {
    const memory = createProtocolMemory();
    memory.forms('http://a/v1', 'm').structured = 'json_object';
    expect(memory.forms('http://a/v1', 'm').structured).toBe('json_object');
    expect(memory.forms('http://a/v1', 'other').structured).toBe('json_schema');
    expect(memory.forms('http://b/v1', 'm').structured).toBe('json_schema');
  });
});

describe('config', () => {
  it('sizes the context by the provider a call goes to unless set, per role or for both', () => {
    const context = (env: Record<string, string>, role: 'agent' | 'router', provider?: 'local' | 'hosted') =>
      createLlmClients(loadConfig(env)).resolve(role, { provider }).contextTokens;
    expect(loadConfig({}).LLM_MAX_TOKENS).toBe(1_024);
    expect([context({}, 'agent'), context({}, 'router')]).toEqual([8_192, 8_192]);
    const hosted = { LLM_PROVIDER: 'hosted', HOSTED_LLM_API_KEY: 'k', ROUTER_PROVIDER: 'local' };
    expect([context(hosted, 'agent'), context(hosted, 'router')]).toEqual([128_000, 8_192]);
    // A job's provider override brings that provider's window, not the configured one's.
    expect([context(hosted, 'agent', 'local'), context(hosted, 'router', 'hosted')]).toEqual([8_192, 128_000]);
    const set = { LLM_CONTEXT_TOKENS: '4096', LLM_ROUTER_CONTEXT_TOKENS: '2048', HOSTED_LLM_API_KEY: 'k' };
    expect([context(set, 'agent', 'hosted'), context(set, 'router', 'hosted')]).toEqual([4_096, 2_048]);
  });

  it('sends embeddings to EMBEDDING_BASE_URL, else to the local model server', () => {
    expect(loadConfig({ LOCAL_LLM_BASE_URL: 'http://chat:1/v1' }).EMBEDDING_BASE_URL).toBe('http://chat:1/v1');
    expect(loadConfig({ EMBEDDING_BASE_URL: 'http://emb:2/v1' }).EMBEDDING_BASE_URL).toBe('http://emb:2/v1');
  });
});
