/** The scripted model server, the llm clients (overrides, keys) and the 429 retry policy. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlmClients } from '../../../src/llm/clients.js';
import { withLlmRetry } from '../../../src/llm/retry.js';
import { testConfig } from '../../helpers/test-config.js';
import { routerReply, startLlmServer, toolCallReply, type LlmServer } from '../../helpers/llm-server.js';

let llm: LlmServer;
beforeAll(async () => {
  llm = await startLlmServer({ defaultReply: { content: 'default' } });
});
afterAll(() => llm.close());

describe('scripted llm server', () => {
  it('answers scripted replies in order, then the default, and records requests', async () => {
    llm.reset();
    const target = createLlmClients(testConfig({ LOCAL_LLM_BASE_URL: llm.url })).resolve('router');
    llm.script(routerReply('lookup', 0.9), toolCallReply({ name: 'vector_search', arguments: { query: 'x' } }));
    const ask = () => target.client.chat.completions.create({ model: target.model, messages: [{ role: 'user', content: 'hi' }] });
    const a = await ask();
    expect(JSON.parse(a.choices[0]!.message.content!)).toMatchObject({ route: 'lookup', confidence: 0.9 });
    expect(a.usage).toMatchObject({ prompt_tokens: 50, completion_tokens: 10 });
    const b = await ask();
    expect(b.choices[0]!.message.tool_calls![0]).toMatchObject({
      type: 'function',
      function: { name: 'vector_search', arguments: '{"query":"x"}' },
    });
    expect((await ask()).choices[0]!.message.content).toBe('default');
    expect(llm.chatRequests()).toHaveLength(3);
    expect(llm.chatRequests()[0]!.body.model).toBe('qwen2.5:1.5b');
  });

  it('streams a reply with usage when asked to', async () => {
    const target = createLlmClients(testConfig({ LOCAL_LLM_BASE_URL: llm.url })).resolve('agent');
    llm.script({ content: 'streamed', usage: { prompt_tokens: 3, completion_tokens: 4 } });
    const stream = await target.client.chat.completions.create({
      model: target.model,
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('streamed');
    expect(usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 4 });
  });

  it('returns deterministic embeddings of the requested dimension', async () => {
    const target = createLlmClients(testConfig({ LOCAL_LLM_BASE_URL: llm.url })).resolve('agent');
    const a = await target.client.embeddings.create({ model: 'm', input: ['alpha', 'beta'], dimensions: 8 });
    const b = await target.client.embeddings.create({ model: 'm', input: 'alpha', dimensions: 8 });
    expect(a.data[0]!.embedding).toHaveLength(8);
    expect(a.data[0]!.embedding).toEqual(b.data[0]!.embedding);
    expect(a.data[0]!.embedding).not.toEqual(a.data[1]!.embedding);
  });

  it('serves garbage bodies and error statuses', async () => {
    const target = createLlmClients(testConfig({ LOCAL_LLM_BASE_URL: llm.url })).resolve('agent');
    llm.script({ raw: 'not json at all' });
    llm.fail(500);
    const ask = () => target.client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    await expect(ask()).rejects.toThrow();
    await expect(ask()).rejects.toMatchObject({ status: 500 });
  });
});

describe('llm clients', () => {
  it('applies overrides and config defaults per role', () => {
    const clients = createLlmClients(testConfig({ HOSTED_LLM_API_KEY: 'k', ROUTER_PROVIDER: 'hosted' }));
    expect(clients.resolve('agent')).toMatchObject({ provider: 'local', model: 'qwen2.5:7b' });
    expect(clients.resolve('router')).toMatchObject({ provider: 'hosted', model: 'gpt-4.1-mini' });
    expect(clients.resolve('agent', { provider: 'hosted', model: 'x' })).toMatchObject({ provider: 'hosted', model: 'x' });
  });

  it('refuses hosted without a key with a 422 naming the field (the route names the header)', () => {
    const clients = createLlmClients(testConfig());
    expect(clients.available('hosted')).toBe(false);
    expect(() => clients.resolve('router', { provider: 'hosted' })).toThrow(/router_provider.*HOSTED_LLM_API_KEY/);
  });
});

describe('withLlmRetry', () => {
  it('retries a 429 up to 3 times, then succeeds', async () => {
    llm.reset();
    const target = createLlmClients(testConfig({ LOCAL_LLM_BASE_URL: llm.url })).resolve('agent');
    llm.fail(429, 3);
    llm.script({ content: 'finally' });
    const retried: number[] = [];
    const res = await withLlmRetry(
      () => target.client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
      { delayMs: 5, onRetry: (n) => void retried.push(n) },
    );
    expect(res.choices[0]!.message.content).toBe('finally');
    expect(retried).toEqual([1, 2, 3]);
    expect(llm.chatRequests()).toHaveLength(4);
  });

  it('gives up after the third retry and does not retry other errors', async () => {
    llm.reset();
    const target = createLlmClients(testConfig({ LOCAL_LLM_BASE_URL: llm.url })).resolve('agent');
    const ask = () => target.client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    llm.fail(429, 4);
    await expect(withLlmRetry(ask, { delayMs: 5 })).rejects.toMatchObject({ status: 429 });
    expect(llm.chatRequests()).toHaveLength(4);
    llm.fail(500, 1);
    await expect(withLlmRetry(ask, { delayMs: 5 })).rejects.toMatchObject({ status: 500 });
    expect(llm.chatRequests()).toHaveLength(5);
  });

  it('waits the configured delay between tries', async () => {
    let calls = 0;
    const started = Date.now();
    await withLlmRetry(
      async () => {
        if (++calls < 3) throw Object.assign(new Error('limited'), { status: 429 });
        return 'ok';
      },
      { delayMs: 100 },
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });
});
