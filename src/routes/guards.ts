/**
 * Who may reach what, decided before any route runs:
 * - `Host` on `/mcp` and on every state-changing request must be a loopback name, UI_URL's
 *   host or one of ALLOWED_HOSTS: a page on another site that rebinds its DNS name to this
 *   server cannot drive it (the MCP transport specification requires this check).
 * - `Origin`, when a browser sends one there, must be a loopback origin, UI_URL's origin or one
 *   of CORS_ORIGINS; only those get credentialed CORS answers. Reads stay open to every origin
 *   without credentials, as the contract allows, unless CORS_ORIGINS lists the origins.
 * - `MCP_TOKEN` and `ADMIN_TOKEN`, when set, are required as bearer tokens on `/mcp` and `/dev/*`.
 * - The client's address: the runtime's peer address, or with TRUST_PROXY the last
 *   `X-Forwarded-For` entry (what the nearest proxy saw).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { Config } from '../config.js';
import { AppError, type ErrorCode, problemResponse } from '../errors.js';
import { clientAddressOf } from '../lib/client-address.js';
import { safeEqual } from '../lib/safe-equal.js';
import { jsonRpcError } from '../mcp/http.js';
import type { AppEnv } from './openapi.js';
import { trimChar } from '../lib/text.js';

type GuardConfig = Pick<Config, 'UI_URL' | 'ALLOWED_HOSTS' | 'CORS_ORIGINS' | 'ADMIN_TOKEN' | 'MCP_TOKEN' | 'TRUST_PROXY'>;

const LOOPBACK = /^(localhost|[\w-]+\.localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i;

/** The host name of a `Host` value (`[::1]:8000` → `[::1]`, `a.example:80` → `a.example`). */
function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  return h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.split(':')[0]!;
}

/** The origin rules of one configuration. */
export function createOriginPolicy(config: GuardConfig) {
  const ui = new URL(config.UI_URL);
  const hosts = new Set([hostName(ui.host), ...config.ALLOWED_HOSTS.map(hostName)]);
  const listed = new Set(config.CORS_ORIGINS.filter((o) => o !== '*').map((o) => trimChar(o, '/').toLowerCase()));
  const anyOrigin = config.CORS_ORIGINS.includes('*');
  /** Loopback, UI_URL's or listed: may send credentials. */
  const trusted = (origin: string) => {
    try {
      const u = new URL(origin);
      return LOOPBACK.test(u.hostname) || u.origin === ui.origin || listed.has(u.origin.toLowerCase());
    } catch {
      return false; // `null` (sandboxed frames, file:) and garbage
    }
  };
  return {
    hostAllowed: (host: string) => config.ALLOWED_HOSTS.includes('*') || LOOPBACK.test(hostName(host)) || hosts.has(hostName(host)),
    /** May send state-changing requests. */
    originAllowed: (origin: string) => anyOrigin || trusted(origin),
    trusted,
    /** Reads without credentials are open to any origin unless CORS_ORIGINS is a list. */
    readsOpen: config.CORS_ORIGINS.length === 0 || anyOrigin,
  };
}

/** The client address of a request (see the file comment). */
export function clientOf(c: Context, trustProxy: boolean): string {
  const forwarded = trustProxy ? c.req.header('x-forwarded-for') : undefined;
  const last = forwarded?.split(',').pop()?.trim();
  return last || clientAddressOf(c.req.raw);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const EXPOSE = ['Retry-After', 'X-Request-Id', 'Mcp-Session-Id'];

/** Host, origin and token checks, and the client address (`c.get('client')`). */
export function guards(config: GuardConfig): MiddlewareHandler<AppEnv> {
  const policy = createOriginPolicy(config);
  const preflight = {
    credentialed: cors({ origin: (o) => o, credentials: true, exposeHeaders: EXPOSE }),
    open: cors({ origin: policy.readsOpen ? '*' : () => null, exposeHeaders: EXPOSE }),
  };
  return async (c, next) => {
    c.set('client', clientOf(c, config.TRUST_PROXY));
    const path = c.req.path;
    const mcp = path === '/mcp' || path === '/mcp/';
    const deny = (status: 401 | 403, code: ErrorCode, message: string, headers: Record<string, string> = {}) =>
      mcp ? jsonRpcError(status, -32000, message, headers) : problemResponse(new AppError(status, code, message, { headers }), path);
    const origin = c.req.header('origin');
    if (mcp || !SAFE_METHODS.has(c.req.method)) {
      const host = c.req.header('host') ?? new URL(c.req.url).host;
      if (!policy.hostAllowed(host)) {
        return deny(403, 'forbidden-host', `Host "${host.slice(0, 100)}" is not served here; add it to ALLOWED_HOSTS`);
      }
      if (origin && !policy.originAllowed(origin)) {
        return deny(403, 'forbidden-origin', `Origin "${origin.slice(0, 100)}" may not call this; add it to CORS_ORIGINS`);
      }
    }
    // /dev/* routes are POSTs, and GET /dev/examples (it lists the examples' Cypher); another
    // method goes on to its 405, which guards nothing.
    const admin = path.startsWith('/dev/') && (c.req.method === 'POST' || (c.req.method === 'GET' && path.startsWith('/dev/examples')));
    const token = mcp ? config.MCP_TOKEN : admin ? config.ADMIN_TOKEN : '';
    if (token && c.req.method !== 'OPTIONS') {
      const sent = /^Bearer\s+(\S.*)$/i.exec(c.req.header('authorization') ?? '')?.[1]?.trim() ?? '';
      if (!safeEqual(sent, token)) {
        const what = mcp ? 'MCP_TOKEN' : 'ADMIN_TOKEN';
        return deny(401, 'unauthorized', `send "Authorization: Bearer <${what}>"`, { 'WWW-Authenticate': 'Bearer realm="graph-chat"' });
      }
    }
    const trusted = !!origin && policy.trusted(origin);
    if (c.req.method === 'OPTIONS') return trusted ? preflight.credentialed(c, next) : preflight.open(c, next);
    await next();
    const allowOrigin = trusted ? origin : policy.readsOpen ? '*' : null;
    try {
      corsHeaders(c.res.headers, allowOrigin, trusted);
    } catch {
      // Immutable headers (a passed-through fetch response): a copy takes them.
      c.res = new Response(c.res.body, c.res);
      corsHeaders(c.res.headers, allowOrigin, trusted);
    }
  };
}

/**
 * The CORS headers of an answer (not a preflight), as Hono's `cors` sets them, but on the
 * response the route made, after it: `cors` creates the response before the route runs, and
 * the route's response is then copied into it with its body as a web stream, so every answer
 * lost @hono/node-server's direct write of a string body (docs/benchmarks.md, "Speed, where the
 * time over the floor goes").
 */
function corsHeaders(headers: Headers, allowOrigin: string | null, credentials: boolean): void {
  if (allowOrigin) headers.set('Access-Control-Allow-Origin', allowOrigin);
  if (credentials) headers.set('Access-Control-Allow-Credentials', 'true');
  headers.set('Access-Control-Expose-Headers', EXPOSE.join(','));
  if (allowOrigin !== '*') headers.append('Vary', 'Origin');
}
