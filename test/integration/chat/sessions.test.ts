/** Session endpoints, the user's session list (order, lazy expiry) and job expiry. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeys, LIFETIMES } from '../../../src/store/keys.js';
import { routerReply } from '../../helpers/llm-server.js';
import { startHarness, type Harness } from '../helpers/chat-harness.js';

let h: Harness;
let anon: string;
let keys: ReturnType<typeof createKeys>;
beforeAll(async () => {
  h = await startHarness();
  keys = createKeys(h.deps.kv.prefix);
  const res = await h.app.request('/chat/bootstrap-anon');
  anon = /anon_id=([^;]+)/.exec(res.headers.get('set-cookie')!)![1]!;
});
afterAll(() => h.close());

const list = async (id = anon) => {
  const res = await h.app.request(`/chat/sessions?anon_id=${encodeURIComponent(id)}`);
  return { status: res.status, body: (await res.json()) as any };
};
const ask = async (message: string, session_id?: string) => {
  const sub = await h.submit(message, { session_id, headers: { 'x-anon-id': anon } });
  await h.waitJob(sub.job_id);
  return sub;
};

describe('session list', () => {
  it('lists sessions newest first, once each, after their first job completes', async () => {
    expect((await list()).body).toEqual({ sessions: [] });
    const a = await ask('first topic');
    const b = await ask('second topic');
    await ask('more on the first', a.session_id);
    expect((await list()).body.sessions).toEqual([b.session_id, a.session_id]);
    // The user and its list live as long as the newest session.
    const user = (await h.deps.kv.redis.hget(keys.anon(anon), 'user_id'))!;
    for (const key of [keys.user(user), keys.userSessions(user)]) {
      expect(await h.deps.kv.redis.ttl(key)).toBeGreaterThan(LIFETIMES.sessionSeconds - 5);
    }
  });

  it('drops expired sessions lazily when the list is read', async () => {
    const c = await ask('third topic');
    const before = (await list()).body.sessions as string[];
    expect(before[0]).toBe(c.session_id);
    await h.deps.kv.redis.del(keys.session(c.session_id));
    const { body } = await list();
    expect(body.sessions).not.toContain(c.session_id);
    expect(body.sessions).toHaveLength(before.length - 1);
    const user = await h.deps.kv.redis.hget(keys.anon(anon), 'user_id');
    expect(await h.deps.kv.redis.lrange(keys.userSessions(user!), 0, -1)).toEqual(body.sessions);
  });

  it('answers 401 for an unknown anon_id and 422 without one', async () => {
    expect((await list('Q'.repeat(43))).status).toBe(401);
    expect((await h.app.request('/chat/sessions')).status).toBe(422);
  });
});

describe('one session', () => {
  it('reads, renames (1..100 chars trimmed) and deletes idempotently', async () => {
    const s = await ask('  What   is\nthe Analytical Engine, and who designed it in the nineteenth century?  ');
    const read = (await (await h.app.request(`/chat/session/${s.session_id}`)).json()) as any;
    expect(read.session_id).toBe(s.session_id);
    expect(read.name).toBe('What is the Analytical Engine, and who designed it in the n…');
    expect(read.name.length).toBe(60);
    expect(typeof read.created_at).toBe('number');
    expect(read.messages).toHaveLength(2);
    expect(read.pending_job_id).toBeNull();
    expect(read.messages[0].events).toEqual([]);
    expect(read.messages[1].events.map((e: { type: string }) => e.type)).toEqual(['routing_started', 'routing_done', 'job_done']);
    expect(read.messages[1].events[2].data.sources).toEqual(expect.any(Array));

    const patch = (name: unknown) =>
      h.app.request(`/chat/session/${s.session_id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
    await h.deps.kv.redis.expire(keys.session(s.session_id), 100);
    const renamed = await patch('  Engines  ');
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toEqual({ session_id: s.session_id, name: 'Engines' });
    // Every write renews the 7-day lifetime.
    expect(await h.deps.kv.redis.ttl(keys.session(s.session_id))).toBeGreaterThan(LIFETIMES.sessionSeconds - 5);
    expect(((await (await h.app.request(`/chat/session/${s.session_id}`)).json()) as any).name).toBe('Engines');
    expect((await patch('   ')).status).toBe(422);
    expect((await patch('x'.repeat(101))).status).toBe(422);
    expect((await patch('x'.repeat(100))).status).toBe(200);

    const del = () => h.app.request(`/chat/session/${s.session_id}`, { method: 'DELETE', headers: { 'x-anon-id': anon } });
    expect((await del()).status).toBe(204);
    expect((await del()).status).toBe(204);
    expect((await h.app.request(`/chat/session/${s.session_id}`)).status).toBe(404);
    expect((await list()).body.sessions).not.toContain(s.session_id);
    expect((await patch('again')).status).toBe(404);
  });

  it('names a session without messages "New chat" and 404s unknown ones', async () => {
    h.llm.script(routerReply('agent', 0.95)); // no agent installed here: the job fails
    const sub = await h.submit('will fail');
    expect((await h.waitJob(sub.job_id)).status).toBe('error');
    const read = (await (await h.app.request(`/chat/session/${sub.session_id}`)).json()) as any;
    expect(read).toMatchObject({ name: 'New chat', messages: [] });
    expect((await h.app.request(`/chat/session/${crypto.randomUUID()}`)).status).toBe(404);
  });
});

describe('job lifetime', () => {
  it('keeps a job 10 minutes, renewed when finished, then answers 404', async () => {
    const sub = await h.submit('Ada?');
    await h.waitJob(sub.job_id);
    const ttl = await h.deps.kv.redis.ttl(keys.job(sub.job_id));
    expect(ttl).toBeGreaterThan(LIFETIMES.jobSeconds - 5);
    expect(ttl).toBeLessThanOrEqual(LIFETIMES.jobSeconds);
    await h.deps.kv.redis.pexpire(keys.job(sub.job_id), 1);
    await new Promise((r) => setTimeout(r, 20));
    const res = await h.app.request(`/chat/job/${sub.job_id}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect((await h.app.request(`/chat/job/${sub.job_id}/stream`)).status).toBe(404);
    expect((await h.app.request(`/chat/job/${crypto.randomUUID()}`)).status).toBe(404);
  });
});

describe('ownership', () => {
  it("with x-anon-id, another user's session and job answer 404 and are left alone", async () => {
    const mine = await ask('my private question');
    const other = /anon_id=([^;]+)/.exec((await h.app.request('/chat/bootstrap-anon')).headers.get('set-cookie')!)![1]!;
    const as = (id: string, init: RequestInit = {}) => ({ ...init, headers: { ...(init.headers as object), 'x-anon-id': id } });
    const session = `/chat/session/${mine.session_id}`;
    const rename = { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'stolen' }) };

    expect((await h.app.request(session, as(other))).status).toBe(404);
    expect((await h.app.request(session, as(other, rename))).status).toBe(404);
    expect((await h.app.request(session, as(other, { method: 'DELETE' }))).status).toBe(404);
    expect((await h.app.request(`/chat/job/${mine.job_id}`, as(other))).status).toBe(404);
    expect((await h.app.request(`/chat/job/${mine.job_id}/stream`, as(other))).status).toBe(404);

    // Posting into it starts the poster's own session: the owner's history is not sent anywhere.
    const theirs = await h.submit('and what did I ask before?', { session_id: mine.session_id, headers: { 'x-anon-id': other } });
    expect(theirs.session_id).not.toBe(mine.session_id);
    // Nor can a caller without the header continue a session that has an owner.
    expect((await h.submit('me too', { session_id: mine.session_id })).session_id).not.toBe(mine.session_id);

    // The owner still has everything, unchanged.
    const own = (await (await h.app.request(session, as(anon))).json()) as any;
    expect(own.name).toBe('my private question');
    expect(own.messages.map((m: { content: string }) => m.content)[0]).toBe('my private question');
    expect((await h.app.request(`/chat/job/${mine.job_id}`, as(anon))).status).toBe(200);
    expect((await list()).body.sessions).toContain(mine.session_id);
    // Without the header, the UUID is the capability the contract's clients rely on.
    expect((await h.app.request(session)).status).toBe(200);
  });
});
