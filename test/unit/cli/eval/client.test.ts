/** `eval`'s HTTP client with a fake fetch: 429 and 503 are waited out as Retry-After says; other refusals fail the question. */
import { describe, expect, it } from 'vitest';
import { createChatClient, RefusedError, ServiceDownError } from '../../../../src/cli/eval/client.js';

/** A fetch answering from a list, recording the requests. */
function fakeFetch(answers: Response[]) {
  const calls: { url: string; init?: RequestInit }[] = [];
  const f = (async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    const next = answers.shift();
    if (!next) throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
    return next;
  }) as typeof fetch;
  return { f, calls };
}

const problem = (status: number, detail: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ status, detail }), { status, headers: { 'content-type': 'application/problem+json', ...headers } });
const accepted = () => new Response(JSON.stringify({ job_id: 'j1', session_id: 's1', status: 'pending' }), { status: 202 });
const bootstrap = () => new Response(null, { status: 302, headers: { 'set-cookie': 'anon_id=abc_123; Max-Age=259200; Path=/; HttpOnly' } });

describe('eval chat client', () => {
  it('sends its own identity and waits out a 429 and a 503 before the message is accepted', async () => {
    const { f, calls } = fakeFetch([
      bootstrap(),
      problem(429, 'request limit exceeded', { 'retry-after': '1' }),
      problem(503, 'the chat queue is full', { 'retry-after': '1' }),
      accepted(),
    ]);
    const waits: string[] = [];
    const client = createChatClient({ url: 'http://svc/', fetch: f, onWait: (s, why) => waits.push(`${s} ${why}`) });
    expect(await client.bootstrap()).toBe('abc_123');
    const started = Date.now();
    const sub = await client.submit('Hi?', 's0');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    expect(sub).toMatchObject({ jobId: 'j1', sessionId: 's1' });
    expect(sub.waitedMs).toBeGreaterThanOrEqual(1_900);
    expect(waits).toEqual(['1 HTTP 429: request limit exceeded', '1 HTTP 503: the chat queue is full']);
    expect(calls.map((c) => c.url)).toEqual(['http://svc/chat/bootstrap-anon', ...Array(3).fill('http://svc/chat/message')]);
    expect(calls[3]!.init!.headers).toMatchObject({ 'x-anon-id': 'abc_123' });
    expect(JSON.parse(String(calls[3]!.init!.body))).toEqual({ message: 'Hi?', session_id: 's0' });
  });

  it('fails the question on another refusal, and the run when nothing answers', async () => {
    const { f } = fakeFetch([bootstrap(), problem(422, 'body.message: at most 8000 characters')]);
    const client = createChatClient({ url: 'http://svc', fetch: f });
    await client.bootstrap();
    await expect(client.submit('x', null)).rejects.toThrow(new RefusedError('HTTP 422: body.message: at most 8000 characters'));
    await expect(client.submit('x', null)).rejects.toThrow(ServiceDownError);
    await expect(client.submit('x', null)).rejects.toThrow('the service at http://svc does not answer (ECONNREFUSED)');
  });

  it('says when the address is not the chat API', async () => {
    const { f } = fakeFetch([new Response('<html>', { status: 200 })]);
    await expect(createChatClient({ url: 'http://svc', fetch: f }).bootstrap()).rejects.toThrow(
      /answered HTTP 200 without an anon_id cookie/,
    );
  });
});
