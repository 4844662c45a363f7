/**
 * The browser's client of the API, through the UI origin's `/api` proxy (which adds the
 * httponly `anon_id` cookie as `x-anon-id`). Failures become one {@link ApiError} with a kind
 * the page can explain; a 401 (unknown or expired anonymous ID) re-runs the bootstrap once.
 */

/** Why a call failed, as the page explains it. */
export type ApiErrorKind = 'rate-limited' | 'unauthorized' | 'not-found' | 'invalid' | 'unavailable' | 'network' | 'server';

/** A failed API call. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly kind: ApiErrorKind,
    readonly status: number,
    message: string,
    /** When a rate-limited caller may try again. */
    readonly retryAt?: Date,
  ) {
    super(message);
  }
}

/** Options of one call. */
export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

const KINDS: Record<number, ApiErrorKind> = {
  401: 'unauthorized',
  404: 'not-found',
  422: 'invalid',
  429: 'rate-limited',
  502: 'unavailable',
  503: 'unavailable',
  504: 'unavailable',
};

/** `Retry-After` (seconds or an HTTP date) as an absolute time; default 60 s from now. */
export function parseRetryAfter(value: string | null, now = Date.now()): Date {
  if (value && /^\d+$/.test(value.trim())) return new Date(now + Number(value) * 1000);
  const at = value ? Date.parse(value) : NaN;
  return new Date(Number.isNaN(at) ? now + 60_000 : at);
}

/** Turns a non-OK response (problem JSON or not) into an {@link ApiError}. */
export async function toApiError(res: Response): Promise<ApiError> {
  let detail = '';
  try {
    const body = (await res.json()) as { detail?: unknown; title?: unknown };
    detail = String(body.detail ?? body.title ?? '');
  } catch {
    // A non-JSON body (a proxy's HTML page) says nothing useful.
  }
  const kind = KINDS[res.status] ?? (res.status >= 500 ? 'server' : 'invalid');
  const retryAt = res.status === 429 ? parseRetryAfter(res.headers.get('retry-after')) : undefined;
  return new ApiError(kind, res.status, detail || `HTTP ${res.status}`, retryAt);
}

/** Gets (or refreshes) the anonymous identity: the API sets the `anon_id` cookie. */
export async function bootstrap(): Promise<void> {
  let res: Response;
  try {
    // The API answers with a redirect to the page; the cookie is stored either way.
    res = await fetch('/api/chat/bootstrap-anon', { redirect: 'manual', credentials: 'same-origin' });
  } catch {
    throw new ApiError('network', 0, 'the server cannot be reached');
  }
  if (res.type === 'opaqueredirect' || res.ok || (res.status >= 300 && res.status < 400)) return;
  throw await toApiError(res);
}

async function send(method: string, path: string, opts: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  try {
    return await fetch(`/api${path}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      credentials: 'same-origin',
      signal: opts.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError('network', 0, 'the server cannot be reached');
  }
}

/**
 * Calls `/api<path>` and returns the JSON body (undefined for 204).
 * @throws ApiError on any failure.
 */
export async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  let res = await send(method, path, opts);
  if (res.status === 401) {
    await bootstrap();
    res = await send(method, path, opts);
  }
  if (!res.ok) throw await toApiError(res);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}
