/**
 * The UI's API proxy: `/api/<path>` on the UI origin forwards to the API app in the same
 * process. The browser's script cannot read the httponly `anon_id` cookie, so this server side
 * copies it into `x-anon-id` (and into `?anon_id=` for `/chat/sessions`) and relays the API's
 * `Set-Cookie`. Only the API's own chat, config, health, status and node-details paths are forwarded, and only to the
 * in-process API, so this never becomes an open proxy.
 */
import { AppError, problemResponse } from '../errors.js';
import { clientAddressOf, setClientAddress } from '../lib/client-address.js';

/** The API as a fetch handler (the API app's `fetch`). */
export type ApiFetch = (req: Request) => Response | Promise<Response>;

/** Name of the anonymous-identity cookie (contract). */
export const ANON_COOKIE = 'anon_id';

const SEG = '[A-Za-z0-9_-]{1,128}';
/** Method and path pairs the proxy forwards; anything else is a 404 on the UI origin. */
const ALLOWED: ReadonlyArray<readonly [string, RegExp]> = [
  ['GET', /^\/chat\/bootstrap-anon$/],
  ['POST', /^\/chat\/message$/],
  ['GET', new RegExp(`^/chat/job/${SEG}(/stream)?$`)],
  ['POST', new RegExp(`^/chat/job/${SEG}/cancel$`)],
  ['GET', /^\/chat\/sessions$/],
  ['GET', new RegExp(`^/chat/session/${SEG}$`)],
  ['PATCH', new RegExp(`^/chat/session/${SEG}$`)],
  ['DELETE', new RegExp(`^/chat/session/${SEG}$`)],
  ['GET', /^\/config$/],
  ['GET', /^\/health$/],
  ['GET', /^\/status$/],
  // Read-only node details behind the chat's source cards.
  ['GET', /^\/graph\/node$/],
];

/** Request headers the browser may pass through (the rest, e.g. foreign cookies, stay here). */
const FORWARD_REQUEST = [
  'accept',
  // For the API's Origin check: a page on another site must not drive the API through the UI.
  'origin',
  'content-type',
  'last-event-id',
  'x-llm-provider',
  'x-llm-agent-model',
  'x-llm-router-provider',
  'x-llm-router-model',
];

/** Response headers not relayed: CORS is meaningless same-origin, `location` is rewritten. */
const DROP_RESPONSE = new Set([
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-expose-headers',
  'vary',
  'location',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

/** True when `method path` is one of the API paths the UI may use. */
export function isAllowed(method: string, path: string): boolean {
  return ALLOWED.some(([m, re]) => m === method && re.test(path));
}

/** Reads one cookie from a `Cookie` header. */
export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    }
  }
  return undefined;
}

/** Builds the in-process API request for `/api<path>` (path already stripped of `/api`). */
export function toApiRequest(req: Request, path: string): Request {
  const incoming = new URL(req.url);
  // Concatenated, not resolved: a path like `//host/x` must not change the target host.
  // The browser's own origin, so the API's Host check sees the host the browser used.
  const target = new URL(`${incoming.origin}${path}${incoming.search}`);
  const anon = readCookie(req.headers.get('cookie'), ANON_COOKIE);
  const headers = new Headers();
  for (const name of FORWARD_REQUEST) {
    const v = req.headers.get(name);
    if (v !== null) headers.set(name, v);
  }
  if (anon) {
    headers.set('x-anon-id', anon);
    // bootstrap-anon reads the cookie itself; only ours is passed on.
    headers.set('cookie', `${ANON_COOKIE}=${encodeURIComponent(anon)}`);
  }
  if (path === '/chat/sessions') {
    // The contract takes the cookie value as a query parameter; the browser cannot know it.
    target.searchParams.delete('anon_id');
    if (anon) target.searchParams.set('anon_id', anon);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const forwarded = new Request(target, {
    method: req.method,
    headers,
    body: hasBody ? req.body : undefined,
    signal: req.signal,
    // Node's fetch needs this for a streamed request body.
    ...(hasBody ? { duplex: 'half' } : {}),
  } as RequestInit);
  setClientAddress(forwarded, clientAddressOf(req));
  return forwarded;
}

/** Copies the API response for the browser: same status and body, filtered headers. */
export function fromApiResponse(res: Response, path: string): Response {
  const headers = new Headers();
  res.headers.forEach((value, name) => {
    if (!DROP_RESPONSE.has(name) && name !== 'set-cookie') headers.set(name, value);
  });
  for (const cookie of res.headers.getSetCookie()) headers.append('set-cookie', cookie);
  if (path === '/chat/bootstrap-anon' && res.headers.has('location')) {
    // Back to this UI's own page, whatever host name the browser used (the API's UI_URL may name
    // another host, whose cookie jar would not hold the cookie just set).
    headers.set('location', '/');
  }
  if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
    headers.set('cache-control', 'no-cache, no-transform');
    headers.set('x-accel-buffering', 'no');
  }
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

/**
 * Handles `/api/*` on the UI origin: forwards allowed calls to `api` and returns its response.
 * @param path the part after `/api` (e.g. `/chat/message`).
 */
export async function proxyToApi(api: ApiFetch, req: Request, path: string): Promise<Response> {
  if (!isAllowed(req.method, path)) {
    return problemResponse(new AppError(404, 'not-found', `no API route ${req.method} ${path} on the UI origin`), `/api${path}`);
  }
  if (path === '/chat/sessions' && !readCookie(req.headers.get('cookie'), ANON_COOKIE)) {
    // Without the cookie the API would answer 422 (missing anon_id); 401 tells the page to bootstrap.
    return problemResponse(new AppError(401, 'unknown-anon-id', 'no anon_id cookie; visit /chat/bootstrap-anon first'), `/api${path}`);
  }
  return fromApiResponse(await api(toApiRequest(req, path)), path);
}
