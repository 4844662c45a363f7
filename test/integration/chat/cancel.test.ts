/**
 * `POST /chat/job/{job_id}/cancel`: the owner stops a pending or a running job (the running
 * agent's model call is aborted, no further call is made), the job ends in `error` with a
 * `job_error` saying so, repeated calls change nothing, and anyone else gets 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_CANCELLED } from '../../../src/contract/chat.js';
import { routerReply, toolCallReply } from '../../helpers/llm-server.js';
import { startHarness, type Harness } from '../helpers/chat-harness.js';

let h: Harness;
let anon: string;
let other: string;
const mint = async () => /anon_id=([^;]+)/.exec((await h.app.request('/chat/bootstrap-anon')).headers.get('set-cookie')!)![1]!;
const cancel = (jobId: string, id?: string) =>
  h.app.request(`/chat/job/${jobId}/cancel`, { method: 'POST', headers: id ? { 'x-anon-id': id } : {} });
const waitFor = async (check: () => Promise<boolean>, ms = 10_000) => {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

beforeAll(async () => {
  h = await startHarness({ realAgent: true });
  anon = await mint();
  other = await mint();
});
afterAll(() => h.close());

describe('cancel a chat job', () => {
  it('stops a running agent within the model call it is in, and ends the job with job_error', async () => {
    h.llm.script(routerReply('agent', 0.9), toolCallReply({ name: 'get_node_labels', arguments: {} }), {
      content: 'too late',
      latencyMs: 5_000,
    });
    const sub = await h.submit('How are Ada and Alan connected?', { headers: { 'x-anon-id': anon } });
    // Wait until the agent's second model call (after its tool call) is in flight.
    await waitFor(async () => h.llm.chatRequests().length === 3);
    const calls = h.llm.chatRequests().length;
    const started = Date.now();
    const res = await cancel(sub.job_id, anon);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ job_id: sub.job_id, status: 'error', error: JOB_CANCELLED });

    const stream = await h.stream(sub.job_id);
    const last = stream.frames.filter((f) => f.event).at(-1);
    expect(last).toMatchObject({ event: 'job_error', data: { error: JOB_CANCELLED } });
    // The worker lets go at once: its processing list empties long before the 5 s answer.
    await waitFor(async () => (await h.deps.kv.redis.llen(`${h.deps.kv.prefix}worker:${h.workers[0]!.id}:processing`)) === 0, 3_000);
    expect(Date.now() - started).toBeLessThan(3_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(h.llm.chatRequests().length).toBe(calls);
    expect((await h.waitJob(sub.job_id)).error).toBe(JOB_CANCELLED);
  });

  it('is idempotent, and leaves a finished job as it was', async () => {
    h.llm.script({ ...routerReply('lookup', 0.9), latencyMs: 2_000 });
    const sub = await h.submit('Who is Ada?', { headers: { 'x-anon-id': anon } });
    const first = await (await cancel(sub.job_id, anon)).json();
    const second = await (await cancel(sub.job_id, anon)).json();
    expect(second).toEqual(first);
    expect(first.status).toBe('error');
    const done = await h.waitJob((await h.submit('Who is Ada again?', { headers: { 'x-anon-id': anon } })).job_id);
    expect(done.status).toBe('done');
    expect(await (await cancel(done.job_id, anon)).json()).toMatchObject({ status: 'done', result: done.result });
  });

  it('cancels a job still waiting in the queue; no worker runs it afterwards', async () => {
    await h.workers[0]!.stop();
    const sub = await h.submit('Queued question', { headers: { 'x-anon-id': anon } });
    expect((await cancel(sub.job_id, anon)).status).toBe(200);
    const before = h.llm.chatRequests().length;
    await h.startWorker();
    await waitFor(async () => (await h.deps.kv.redis.llen(`${h.deps.kv.prefix}queue`)) === 0);
    await new Promise((r) => setTimeout(r, 200));
    expect(h.llm.chatRequests().length).toBe(before);
    expect(await h.waitJob(sub.job_id)).toMatchObject({ status: 'error', error: JOB_CANCELLED });
  });

  it("404 for another user's job, an owned job without identity, and an unknown one; the job runs on", async () => {
    h.llm.script({ ...routerReply('lookup', 0.9), latencyMs: 300 });
    const sub = await h.submit('Who is Alan?', { headers: { 'x-anon-id': anon } });
    expect((await cancel(sub.job_id, other)).status).toBe(404);
    expect((await cancel(sub.job_id)).status).toBe(404);
    expect((await cancel(crypto.randomUUID(), anon)).status).toBe(404);
    expect((await cancel('not-a-uuid', anon)).status).toBe(422);
    expect((await h.waitJob(sub.job_id)).status).toBe('done');
  });

  it('a job submitted without identity can be cancelled by whoever holds its id', async () => {
    h.llm.script({ ...routerReply('lookup', 0.9), latencyMs: 1_000 });
    const sub = await h.submit('Anonymous question');
    expect(await (await cancel(sub.job_id)).json()).toMatchObject({ status: 'error', error: JOB_CANCELLED });
  });
});
