/**
 * Chat without a language model: a router model that cannot answer (nothing listening, a
 * server that hangs, 404 for the model, 5xx) leaves the job answered by lookup, saying so; an
 * agent model that cannot answer ends the job with an error naming the provider, the address,
 * the model and the fix.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { routerReply } from '../../helpers/llm-server.js';
import { startHarness, type Harness } from '../helpers/chat-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const routing = async (jobId: string) => {
  const res = await h!.stream(jobId);
  return res.frames.find((f) => f.event === 'routing_done')?.data as { route: string; reasoning: string; fallback?: boolean };
};

describe('router model down: answered by lookup', () => {
  it('when nothing listens at the model address', async () => {
    h = await startHarness({ env: { LOCAL_LLM_BASE_URL: 'http://127.0.0.1:1/v1' } });
    const job = await h.waitJob((await h.submit('Who is Ada?')).job_id);
    expect(job.status).toBe('done');
    expect(job.result.route_taken).toBe('lookup');
    expect(job.result.sources.length).toBeGreaterThan(0);
    const done = await routing(job.job_id);
    expect(done).toMatchObject({ route: 'lookup', fallback: true });
    expect(done.reasoning).toMatch(/router model "qwen2\.5:1\.5b" \(provider local, http:\/\/127\.0\.0\.1:1\/v1\) could not be reached/);
    expect(done.reasoning).toContain('ollama serve');
  });

  it('when the model server hangs past LLM_TIMEOUT_MS', async () => {
    h = await startHarness({ env: { LLM_TIMEOUT_MS: '300' } });
    h.llm.script({ ...routerReply('agent', 0.9), latencyMs: 3_000 });
    const job = await h.waitJob((await h.submit('Who is Ada?')).job_id);
    expect(job).toMatchObject({ status: 'done', result: { route_taken: 'lookup' } });
    // A slow server, not a missing one: the time-out and its setting, not "start the model server".
    const done = await routing(job.job_id);
    expect(done.reasoning).toMatch(
      /router model "qwen2\.5:1\.5b" .* did not answer within 300 ms \(LLM_TIMEOUT_MS\): raise LLM_TIMEOUT_MS/,
    );
    expect(done.reasoning).not.toContain('ollama serve');
  });

  it('when the server does not have the router model (404), or is overloaded (503)', async () => {
    h = await startHarness();
    for (const status of [404, 503]) {
      h.llm.script({ status, content: 'model "qwen2.5:1.5b" not found, try pulling it first' });
      const job = await h.waitJob((await h.submit(`Who is Ada (${status})?`)).job_id);
      expect(job).toMatchObject({ status: 'done', result: { route_taken: 'lookup' } });
      const done = await routing(job.job_id);
      expect(done.reasoning).toMatch(status === 404 ? /ollama pull qwen2\.5:1\.5b/ : /overloaded or failing/);
    }
  });

  it('when the server refuses every request form (HTTP 500), naming each refusal rather than "overloaded"', async () => {
    h = await startHarness();
    h.llm.script(
      { status: 500, content: "Invalid response_format type 'json_schema'" },
      { status: 500, content: 'bad json_object' },
      { status: 500, content: 'broken' },
    );
    const job = await h.waitJob((await h.submit('Who is Ada?')).job_id);
    expect(job).toMatchObject({ status: 'done', result: { route_taken: 'lookup' } });
    const done = await routing(job.job_id);
    expect(done.fallback).toBe(true);
    expect(done.reasoning).not.toMatch(/overloaded/);
    expect(done.reasoning).toMatch(
      /refused the request \(it refused response_format json_schema: HTTP 500: Invalid response_format type 'json_schema'; response_format json_object: HTTP 500: bad json_object; a plain request: HTTP 500: broken\)/,
    );
  });

  it('says both fixes when there is no index to look up either', async () => {
    h = await startHarness({ env: { LOCAL_LLM_BASE_URL: 'http://127.0.0.1:1/v1' }, realSearch: true });
    const job = await h.waitJob((await h.submit('Who is Ada?')).job_id);
    expect(job.status).toBe('error');
    expect(job.error).toMatch(/could not be reached.*; answering by lookup failed too: .*index/);
  });
});

const withAgent = () => startHarness({ realAgent: true });

describe('agent model down: an error that says what to do', () => {
  it('names the model and `ollama pull` when the server does not have it (404)', async () => {
    h = await withAgent();
    h.llm.script(routerReply('agent', 0.95), { status: 404, content: 'model "qwen2.5:7b" not found' });
    const job = await h.waitJob((await h.submit('How are Ada and Alan connected?')).job_id);
    expect(job.status).toBe('error');
    expect(job.error).toMatch(
      /^the agent model "qwen2\.5:7b" \(provider local, http:\/\/127\.0\.0\.1:\d+\/v1\) is not on that server \(HTTP 404\): run `ollama pull qwen2\.5:7b`/,
    );
  });

  it('says the key was refused (401)', async () => {
    h = await withAgent();
    h.llm.script(routerReply('agent', 0.95), { status: 401, content: 'invalid api key' });
    const job = await h.waitJob((await h.submit('How are Ada and Alan connected?')).job_id);
    expect(job.error).toMatch(/refused the API key \(HTTP 401\/403\): set HOSTED_LLM_API_KEY/);
  });
});
