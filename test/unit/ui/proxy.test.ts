/**
 * The UI server's `/api` proxy and page: which paths it forwards, how the `anon_id` cookie
 * becomes `x-anon-id` (and `?anon_id=`), what it relays back, and the page's security headers.
 * The API side is a recording Hono app, so each forwarded request can be inspected exactly.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/lib/log.js';
import { createUiApp } from '../../../src/ui/app.js';
import { isAllowed, readCookie } from '../../../src/ui/proxy.js';

function setup() {
  const seen: Request[] = [];
  const api = new Hono();
  api.use(async (c, next) => {
    seen.push(c.req.raw.clone());
    await next();
  });
  api.get('/chat/bootstrap-anon', (c) => {
    c.header('set-cookie', 'anon_id=new-token-aaaaaaaaaaaaaaaa; Max-Age=259200; Path=/; HttpOnly');
    c.header('access-control-allow-origin', 'http://evil.example');
    return c.redirect('http://elsewhere.example:8501/', 302);
  });
  api.get('/chat/sessions', (c) => c.json({ anon: c.req.query('anon_id') ?? null }));
  api.post('/chat/message', async (c) => c.json({ got: await c.req.json(), anon: c.req.header('x-anon-id') ?? null }, 202));
  api.get(
    '/chat/job/:id/stream',
    () => new Response('id: 1\nevent: routing_started\ndata: {}\n\n', { headers: { 'content-type': 'text/event-stream' } }),
  );
  api.all('*', (c) => c.json({ reached: c.req.path }, 200));
  const assets = async (p: string) => (p === 'ui/app.js' ? new TextEncoder().encode('console.log(1)') : null);
  const ui = createUiApp({ log: createLogger('silent'), assets }, (req) => api.fetch(req), { version: 't1' });
  return { ui, seen };
}

describe('UI proxy', () => {
  it('allows only the API paths the page uses', () => {
    expect(isAllowed('GET', '/chat/job/3f2a-b/stream')).toBe(true);
    expect(isAllowed('PATCH', '/chat/session/abc')).toBe(true);
    expect(isAllowed('POST', '/dev/build_vector_index')).toBe(false);
    expect(isAllowed('POST', '/mcp')).toBe(false);
    expect(isAllowed('GET', '/chat/session/../../docs')).toBe(false);
    expect(isAllowed('GET', '/chat/session/a%2F..')).toBe(false);
    expect(isAllowed('DELETE', '/config')).toBe(false);
    expect(isAllowed('GET', '/graph/node')).toBe(true);
    expect(isAllowed('POST', '/graph/node')).toBe(false);
  });

  it('answers 404 without calling the API for anything else, including absolute URLs', async () => {
    const { ui, seen } = setup();
    for (const path of ['/api/dev/build_vector_index', '/api/http://evil.example/', '/api//evil.example/x', '/api/mcp']) {
      const res = await ui.request(path, { method: 'POST' });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
    }
    expect(seen).toHaveLength(0);
  });

  it('copies the anon_id cookie into x-anon-id and drops other cookies', async () => {
    const { ui, seen } = setup();
    const res = await ui.request('/api/chat/message', {
      method: 'POST',
      headers: {
        cookie: 'other=secret; anon_id=tok-123456789012345678',
        'content-type': 'application/json',
        'x-llm-provider': 'hosted',
        'x-forwarded-host': 'evil',
      },
      body: JSON.stringify({ message: 'hi' }),
    });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ got: { message: 'hi' }, anon: 'tok-123456789012345678' });
    const fwd = seen[0]!;
    expect(fwd.headers.get('cookie')).toBe('anon_id=tok-123456789012345678');
    expect(fwd.headers.get('x-llm-provider')).toBe('hosted');
    expect(fwd.headers.get('x-forwarded-host')).toBeNull();
  });

  it('puts the cookie value into /chat/sessions?anon_id= and never one the page sends', async () => {
    const { ui } = setup();
    const res = await ui.request('/api/chat/sessions?anon_id=someone-else', { headers: { cookie: 'anon_id=mine-1234567890123456' } });
    expect(await res.json()).toEqual({ anon: 'mine-1234567890123456' });
    // Without a cookie the page is told to bootstrap (401), and the API is not asked.
    const anonymous = await ui.request('/api/chat/sessions?anon_id=someone-else');
    expect(anonymous.status).toBe(401);
  });

  it('relays Set-Cookie from bootstrap and redirects to this origin only', async () => {
    const { ui } = setup();
    const res = await ui.request('/api/chat/bootstrap-anon');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/');
    expect(res.headers.getSetCookie()).toEqual(['anon_id=new-token-aaaaaaaaaaaaaaaa; Max-Age=259200; Path=/; HttpOnly']);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('streams SSE through unbuffered', async () => {
    const { ui, seen } = setup();
    const res = await ui.request('/api/chat/job/j1/stream', { headers: { 'last-event-id': '4' } });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(await res.text()).toContain('event: routing_started');
    expect(seen[0]!.headers.get('last-event-id')).toBe('4');
  });
});

describe('UI page', () => {
  it('serves the page with a strict CSP and versioned assets', async () => {
    const { ui } = setup();
    const res = await ui.request('/');
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    const html = await res.text();
    expect(html).toContain('<script type="module" src="/ui/app.js?v=t1"></script>');
    expect(html).not.toMatch(/<script>(?!<)/);
    const js = await ui.request('/ui/app.js?v=t1');
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toContain('immutable');
    expect((await ui.request('/ui/other.js')).status).toBe(404);
    expect((await ui.request('/ui/app.css')).status).toBe(404);
  });

  it('reads one cookie out of a Cookie header', () => {
    expect(readCookie('a=1; anon_id=x%2Fy; b=2', 'anon_id')).toBe('x/y');
    expect(readCookie('anon_idx=1', 'anon_id')).toBeUndefined();
    expect(readCookie(null, 'anon_id')).toBeUndefined();
  });
});
