/** Anonymous identity (cookie set, kept, rotated) and the per-user rate limits. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeys, RATE_LIMITS } from '../../../src/store/keys.js';
import { createRateLimiter } from '../../../src/store/rate-limit.js';
import { startHarness, type Harness } from '../helpers/chat-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ worker: false, env: { UI_URL: 'http://ui.example:8501/' } });
});
afterAll(() => h.close());

const bootstrap = (cookie?: string, query = '') =>
  h.app.request(`/chat/bootstrap-anon${query}`, { headers: cookie ? { cookie: `anon_id=${cookie}` } : {} });
const cookieOf = (res: Response) => /anon_id=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];

describe('GET /chat/bootstrap-anon', () => {
  it('creates a user, a 3-day mapping and the cookie, then redirects to UI_URL', async () => {
    const res = await bootstrap(undefined, '?next=https://evil.example/');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('http://ui.example:8501/');
    const setCookie = res.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/Max-Age=259200/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Secure/);
    const id = cookieOf(res)!;
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const keys = createKeys(h.deps.kv.prefix);
    const mapping = await h.deps.kv.redis.hgetall(keys.anon(id));
    expect(mapping.user_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await h.deps.kv.redis.ttl(keys.anon(id))).toBeGreaterThan(259_000);
    expect(await h.deps.kv.redis.hget(keys.user(mapping.user_id!), 'user_id')).toBe(mapping.user_id);
    // The user lives as long as its newest anonymous ID (or session): minted users do not pile up.
    expect(await h.deps.kv.redis.ttl(keys.user(mapping.user_id!))).toBeGreaterThan(259_000);
  });

  it('keeps a cookie younger than 2 hours and rotates one 2 hours old', async () => {
    const keys = createKeys(h.deps.kv.prefix);
    const id = cookieOf(await bootstrap())!;
    const userId = await h.deps.kv.redis.hget(keys.anon(id), 'user_id');

    const kept = await bootstrap(id);
    expect(kept.status).toBe(302);
    expect(kept.headers.get('set-cookie')).toBeNull();

    // Simulate age: the mapping was issued 2 hours ago.
    await h.deps.kv.redis.hset(keys.anon(id), 'created_at', String(Date.now() / 1000 - 7_200));
    const rotated = await bootstrap(id);
    const fresh = cookieOf(rotated)!;
    expect(fresh).toBeTruthy();
    expect(fresh).not.toBe(id);
    expect(await h.deps.kv.redis.exists(keys.anon(id))).toBe(0);
    expect(await h.deps.kv.redis.hget(keys.anon(fresh), 'user_id')).toBe(userId);
    expect(rotated.headers.get('location')).toBe('http://ui.example:8501/');
  });

  it('treats an unknown cookie as absent (new user)', async () => {
    const res = await bootstrap('Z'.repeat(43));
    const id = cookieOf(res)!;
    expect(id).not.toBe('Z'.repeat(43));
  });
});

describe('rate limits', () => {
  it('admits exactly 20 of 50 concurrent requests from one user', async () => {
    const anon = cookieOf(await bootstrap())!;
    const results = await Promise.all(Array.from({ length: 50 }, () => h.post({ message: 'hi' }, { 'x-anon-id': anon })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(RATE_LIMITS.requests);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    const limited = results.find((r) => r.status === 429)!;
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(590);
    expect(retryAfter).toBeLessThanOrEqual(600);
    const body = (await limited.json()) as any;
    expect(body.detail).toMatch(/request limit exceeded/);
    expect(limited.headers.get('content-type')).toBe('application/problem+json');
    // Another user is not affected; requests without x-anon-id are not limited.
    expect((await h.post({ message: 'hi' }, { 'x-anon-id': cookieOf(await bootstrap())! })).status).toBe(202);
    expect((await h.post({ message: 'hi' })).status).toBe(202);
  });

  it('refuses once 500,000 tokens were used in the window, and admits just below', async () => {
    const anon = cookieOf(await bootstrap())!;
    const userId = (await h.deps.kv.redis.hget(createKeys(h.deps.kv.prefix).anon(anon), 'user_id'))!;
    const limiter = createRateLimiter(h.deps.kv);
    await limiter.recordTokens(userId, 400_000);
    await limiter.recordTokens(userId, 99_999);
    expect((await h.post({ message: 'hi' }, { 'x-anon-id': anon })).status).toBe(202);
    await limiter.recordTokens(userId, 1);
    const res = await h.post({ message: 'hi' }, { 'x-anon-id': anon });
    expect(res.status).toBe(429);
    expect(((await res.json()) as any).detail).toMatch(/token limit exceeded/);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('slides: entries older than 10 minutes no longer count', async () => {
    let now = 1_000_000_000;
    const limiter = createRateLimiter(h.deps.kv, { now: () => now });
    const user = crypto.randomUUID();
    for (let i = 0; i < 20; i++) {
      expect((await limiter.admit(user)).ok).toBe(true);
      now += 10_000;
    }
    const refused = await limiter.admit(user);
    expect(refused).toEqual({ ok: false, limit: 'requests', retryAfterSeconds: 400 });
    now = 1_000_000_000 + 600_001;
    expect((await limiter.admit(user)).ok).toBe(true);
    const ttl = await h.deps.kv.redis.pttl(createKeys(h.deps.kv.prefix).rateRequests(user));
    expect(ttl).toBeGreaterThan(599_000);
  });

  it('takes its budget from CHAT_RATE_LIMIT_REQUESTS, and says so in the 429 and GET /config', async () => {
    const raised = await startHarness({ worker: false, env: { CHAT_RATE_LIMIT_REQUESTS: '23' } });
    try {
      const anon = /anon_id=([^;]+)/.exec((await raised.app.request('/chat/bootstrap-anon')).headers.get('set-cookie') ?? '')![1]!;
      const results = await Promise.all(Array.from({ length: 26 }, () => raised.post({ message: 'hi' }, { 'x-anon-id': anon })));
      expect(results.filter((r) => r.status === 202)).toHaveLength(23);
      const limited = results.find((r) => r.status === 429)!;
      expect(((await limited.json()) as any).detail).toMatch(/at most 23 messages/);
      const config = (await (await raised.app.request('/config')).json()) as any;
      expect(config.limits.requests_per_user_per_10_minutes).toBe(23);
    } finally {
      await raised.close();
    }
  });

  it('records the tokens a job consumes against its user', async () => {
    const worker = await h.startWorker();
    const anon = cookieOf(await bootstrap())!;
    const userId = (await h.deps.kv.redis.hget(createKeys(h.deps.kv.prefix).anon(anon), 'user_id'))!;
    const sub = await h.submit('Ada?', { headers: { 'x-anon-id': anon } });
    await h.waitJob(sub.job_id);
    const entries = await h.deps.kv.redis.zrange(createKeys(h.deps.kv.prefix).rateTokens(userId), '0', '-1');
    // The scripted router reports 50 + 10 tokens; lookup makes no model call.
    expect(entries.map((e) => Number(e.split(':').at(-1)))).toEqual([60]);
    await worker.stop();
  });
});
