/**
 * Safe to expose: Host and Origin checks (DNS rebinding), credentialed CORS only for trusted
 * origins, bearer tokens when set, per-address identity minting, and the queue bound.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/deps.js';
import { INIT } from '../helpers/mcp-fixtures.js';

const opened: { deps: { close(): Promise<void> } }[] = [];
const appWith = (env: Record<string, string> = {}) => {
  const t = createTestApp(env);
  opened.push(t);
  return t.app;
};
afterAll(() => Promise.all(opened.map((t) => t.deps.close())));

const mcpInit = (headers: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
  body: INIT,
});
const chat = (headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify({ message: 'hi' }),
});

describe('Host and Origin', () => {
  const app = appWith();

  it('refuses a rebound Host or a foreign Origin on /mcp, with no credentialed CORS answer', async () => {
    const evil = await app.request('http://evil.example.com/mcp', mcpInit({ host: 'evil.example.com', origin: 'http://evil.example.com' }));
    expect(evil.status).toBe(403);
    expect(evil.headers.get('mcp-session-id')).toBeNull();
    expect(evil.headers.get('access-control-allow-credentials')).toBeNull();
    const foreignOrigin = await app.request('/mcp', mcpInit({ origin: 'http://evil.example.com' }));
    expect(foreignOrigin.status).toBe(403);
    expect(((await foreignOrigin.json()) as any).error.message).toMatch(/CORS_ORIGINS/);
    const local = await app.request('/mcp', mcpInit({ host: 'localhost:8000', origin: 'http://localhost:6274' }));
    expect(local.status).toBe(200);
    expect(local.headers.get('mcp-session-id')).toBeTruthy();
  });

  it('refuses state-changing API requests from a foreign Host or Origin; reads stay open', async () => {
    const rebound = await app.request('http://evil.example.com/chat/message', chat({ host: 'evil.example.com' }));
    expect(rebound.status).toBe(403);
    expect(((await rebound.json()) as any).type).toBe('/problems/forbidden-host');
    expect((await app.request('/chat/message', chat({ origin: 'https://evil.example.com' }))).status).toBe(403);
    expect((await app.request('/chat/message', chat({ origin: 'null' }))).status).toBe(403);
    expect((await app.request('/config', { headers: { host: 'evil.example.com', origin: 'https://evil.example.com' } })).status).toBe(200);
    expect((await app.request('/chat/message', chat({ host: '[::1]:8000', origin: 'http://127.0.0.1:8501' }))).status).toBe(202);
  });

  it('ALLOWED_HOSTS and CORS_ORIGINS widen the defaults; listed origins get credentials, others no CORS at all', async () => {
    const wide = appWith({ ALLOWED_HOSTS: 'chat.example.org', CORS_ORIGINS: 'https://app.example.org' });
    const listed = { host: 'chat.example.org', origin: 'https://app.example.org' };
    const res = await wide.request('http://chat.example.org/chat/message', chat(listed));
    expect(res.status).toBe(202);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example.org');
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    const other = await wide.request('/config', { headers: { origin: 'https://other.example.org' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('tokens', () => {
  it('ADMIN_TOKEN guards /dev/*; MCP_TOKEN guards /mcp (401 with WWW-Authenticate)', async () => {
    const app = appWith({ ADMIN_TOKEN: 'admin-secret', MCP_TOKEN: 'mcp-secret' });
    const build = (auth?: string) =>
      app.request('/dev/build_vector_index', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
        body: '{"model": "nope"}',
      });
    const none = await build();
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(JSON.stringify(await none.json())).not.toContain('admin-secret');
    expect((await build('Bearer wrong')).status).toBe(401);
    expect((await build('Bearer admin-secret')).status).toBe(422); // past the guard: the model is unknown
    const mcp = await app.request('/mcp', mcpInit({}));
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await app.request('/mcp', mcpInit({ authorization: 'Bearer mcp-secret' }))).status).toBe(200);
    // Without tokens configured, both stay open (the contract's development behaviour).
    expect((await appWith().request('/mcp', mcpInit({}))).status).toBe(200);
  });
});

describe('abuse limits', () => {
  it('bounds new identities per client address; a known cookie is never limited', async () => {
    const app = appWith({ ANON_MINT_PER_MINUTE: '3', TRUST_PROXY: 'true' });
    const mint = (address: string, cookie?: string) =>
      app.request('/chat/bootstrap-anon', { headers: { 'x-forwarded-for': `203.0.113.9, ${address}`, ...(cookie ? { cookie } : {}) } });
    const first = await mint('198.51.100.1');
    const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
    for (let i = 0; i < 2; i++) expect((await mint('198.51.100.1')).status).toBe(302);
    const refused = await mint('198.51.100.1');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as any).detail).toMatch(/at most 3 new anonymous IDs per minute/);
    expect((await mint('198.51.100.1', cookie)).status).toBe(302); // keeps its identity
    expect((await mint('198.51.100.2')).status).toBe(302); // another address, its own budget
  });

  it('answers 503 with Retry-After when the queue holds QUEUE_MAX_PENDING jobs', async () => {
    const app = appWith({ QUEUE_MAX_PENDING: '2' });
    expect((await app.request('/chat/message', chat())).status).toBe(202);
    expect((await app.request('/chat/message', chat())).status).toBe(202);
    const full = await app.request('/chat/message', chat());
    expect(full.status).toBe(503);
    expect(full.headers.get('retry-after')).toBe('5');
    expect(((await full.json()) as any).type).toBe('/problems/queue-full');
  });

  it('with ANON_LIMITS=address, messages without x-anon-id share a per-address budget', async () => {
    const app = appWith({ ANON_LIMITS: 'address', QUEUE_MAX_PENDING: '1000' });
    for (let i = 0; i < 20; i++) expect((await app.request('/chat/message', chat())).status).toBe(202);
    const refused = await app.request('/chat/message', chat());
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as any).type).toBe('/problems/rate-limit-address');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The contract's default: unlimited without the header.
    const open = appWith();
    for (let i = 0; i < 25; i++) expect((await open.request('/chat/message', chat())).status).toBe(202);
  });

  it('bounds MCP requests per client address', async () => {
    const app = appWith({ MCP_REQUESTS_PER_MINUTE: '2' });
    for (let i = 0; i < 2; i++) expect((await app.request('/mcp', mcpInit({}))).status).toBe(200);
    const refused = await app.request('/mcp', mcpInit({}));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect(((await refused.json()) as any).error.message).toMatch(/at most 2 per minute/);
  });

  it('lists the limits in /config', async () => {
    const body = (await (await appWith().request('/config')).json()) as any;
    expect(body.limits).toMatchObject({ new_identities_per_address_per_minute: 30, queue_max_pending: 10_000 });
  });
});
