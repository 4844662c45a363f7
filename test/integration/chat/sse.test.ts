/** The job event stream: replay, live events, Last-Event-ID resume, pings, clean cancel. */
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_UNAVAILABLE } from '../../../src/chat/run-job.js';
import { createJobStore } from '../../../src/store/jobs.js';
import { createKeys, slotTag, uuidWithTag } from '../../../src/store/keys.js';
import { routerReply } from '../../helpers/llm-server.js';
import { parseSse, startHarness, type Harness } from '../helpers/chat-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ env: { SSE_PING_MS: '100' } });
});
afterAll(() => h.close());

/** Live-event listeners the app's hub holds (one per open stream). */
const listeners = () => h.deps.events.listeners();

describe('GET /chat/job/{id}/stream', () => {
  it('replays every event to a client that connects after the job ended, then closes', async () => {
    const sub = await h.submit('Ada?');
    await h.waitJob(sub.job_id);
    const res = await h.stream(sub.job_id);
    expect(res.status).toBe(200);
    const events = res.frames.filter((f) => f.event);
    expect(events.map((f) => [f.id, f.event])).toEqual([
      [1, 'routing_started'],
      [2, 'routing_done'],
      [3, 'job_done'],
    ]);
    expect(res.text).toMatch(/^: stream open\n\nid: 1\nevent: routing_started\ndata: \{\}\n\n/);
  });

  it('resumes after Last-Event-ID (header or query)', async () => {
    const sub = await h.submit('Ada?');
    await h.waitJob(sub.job_id);
    const byHeader = await h.stream(sub.job_id, { 'last-event-id': '2' });
    expect(byHeader.frames.filter((f) => f.event).map((f) => f.id)).toEqual([3]);
    const res = await h.app.request(`/chat/job/${sub.job_id}/stream?last_event_id=1`);
    const frames = parseSse(await res.text()).filter((f) => f.event);
    expect(frames.map((f) => f.event)).toEqual(['routing_done', 'job_done']);
  });

  it('closes at once when resumed at or after the final event of a finished job', async () => {
    const sub = await h.submit('Ada, done?');
    await h.waitJob(sub.job_id);
    for (const id of ['3', '7']) {
      const res = await h.stream(sub.job_id, { 'last-event-id': id }, 2_000);
      // Closed right after opening: not even one ping (every 200 ms here) was sent.
      expect(res.frames.map((f) => f.event ?? `:${f.comment}`)).toEqual([':stream open']);
    }
  });

  it('streams live events of a running job with pings in between', async () => {
    h.llm.script({ ...routerReply('lookup', 0.9), latencyMs: 450 });
    const sub = await h.submit('Ada, slowly?');
    const res = await h.stream(sub.job_id);
    const kinds = res.frames.map((f) => f.event ?? `:${f.comment}`);
    expect(kinds[0]).toBe(':stream open');
    expect(kinds.filter((k) => k === ':ping').length).toBeGreaterThanOrEqual(2);
    expect(kinds.filter((k) => !k.startsWith(':'))).toEqual(['routing_started', 'routing_done', 'job_done']);
    expect(res.frames.filter((f) => f.event).map((f) => f.id)).toEqual([1, 2, 3]);
    expect(listeners()).toBe(0);
  });

  it('works for a job queued before any worker took it', async () => {
    const w = h.workers[0]!;
    await w.stop();
    const sub = await h.submit('Ada, later?');
    const pending = h.stream(sub.job_id);
    await new Promise((r) => setTimeout(r, 150));
    expect(((await (await h.app.request(`/chat/job/${sub.job_id}`)).json()) as any).status).toBe('pending');
    await h.startWorker();
    const res = await pending;
    expect(res.frames.filter((f) => f.event).map((f) => f.event)).toEqual(['routing_started', 'routing_done', 'job_done']);
  });

  it('ends open streams at shutdown so servers can close', async () => {
    const w = h.workers.at(-1)!;
    await w.stop();
    const sub = await h.submit('Ada, never answered here?');
    const reading = h.stream(sub.job_id);
    await new Promise((r) => setTimeout(r, 50));
    expect(listeners()).toBe(1);
    h.deps.events.shutdown();
    const res = await reading;
    expect(res.frames.filter((f) => f.event)).toEqual([]);
    expect(listeners()).toBe(0);
    await h.startWorker();
    expect((await h.waitJob(sub.job_id)).status).toBe('done');
  });

  it('ends an agent-routed job with job_error when no agent handler is installed', async () => {
    h.llm.script(routerReply('agent', 0.9, 'needs reasoning'));
    const sub = await h.submit('Why did the engine never get built?');
    const { frames } = await h.stream(sub.job_id);
    const events = frames.filter((f) => f.event);
    expect(events.map((f) => f.event)).toEqual(['routing_started', 'routing_done', 'job_error']);
    expect(events[2]!.data).toEqual({ error: AGENT_UNAVAILABLE });
    expect(AGENT_UNAVAILABLE).toMatch(/agent is not available/);
  });

  it('fills a gap when a live message was lost', async () => {
    const keys = createKeys(h.deps.kv.prefix);
    const jobs = createJobStore(h.deps.kv);
    // A job shares its session's slot tag (keys.ts), as submit makes it.
    const jobId = crypto.randomUUID();
    const job = { job_id: jobId, session_id: uuidWithTag(slotTag(jobId)) };
    await h.deps.kv.redis.hset(keys.job(job.job_id), { job_id: job.job_id, session_id: job.session_id, status: 'running' });
    const reading = h.stream(job.job_id);
    await new Promise((r) => setTimeout(r, 50));
    // Stored but never published: only the gap check can find it.
    await h.deps.kv.redis.rpush(keys.jobEvents(job.job_id), JSON.stringify({ type: 'routing_started', data: {} }));
    await jobs.publish(job, { type: 'routing_done', data: { route: 'lookup', confidence: 1, reasoning: '' } });
    await jobs.publish(job, {
      type: 'job_done',
      data: { session_id: job.session_id, answer: 'x', route_taken: 'lookup', sources: [], token_usage: null },
    });
    const { frames } = await reading;
    expect(frames.filter((f) => f.event).map((f) => [f.id, f.event])).toEqual([
      [1, 'routing_started'],
      [2, 'routing_done'],
      [3, 'job_done'],
    ]);
  });

  it('drops the subscription when the client goes away (real HTTP server)', async () => {
    const server = serve({ fetch: h.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((r) => server.once('listening', r));
    const port = (server.address() as AddressInfo).port;
    try {
      h.llm.script({ ...routerReply('lookup', 0.9), latencyMs: 1_500 });
      const sub = await h.submit('Ada, abandoned?');
      const ac = new AbortController();
      const res = await fetch(`http://127.0.0.1:${port}/chat/job/${sub.job_id}/stream`, { signal: ac.signal });
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const reader = res.body!.getReader();
      await reader.read();
      await new Promise((r) => setTimeout(r, 50));
      expect(listeners()).toBe(1);
      ac.abort();
      await reader.cancel().catch(() => {});
      const until = Date.now() + 2_000;
      while (listeners() !== 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      expect(listeners()).toBe(0);
      await h.waitJob(sub.job_id);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
