/**
 * `createUiApp(deps, api)`: the web chat UI served on `UI_PORT`. It serves one page, the
 * script and stylesheet built into `dist/public/ui/`, and `/api/*`, a proxy to the API app in
 * the same process (see `proxy.ts` for how the anonymous ID crosses from cookie to header).
 */
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import type { AppDeps } from '../deps.js';
import { AppError, problemResponse, toAppError } from '../errors.js';
import { chatPage, SECURITY_HEADERS } from './page.js';
import { proxyToApi, type ApiFetch } from './proxy.js';

/** Built client files and their types (anything else under /ui/ is a 404). */
const FILES: Record<string, string> = {
  'app.js': 'text/javascript; charset=utf-8',
  'theme.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

/** Chunks the script imports on demand (scripts/build-ui.ts); the hash in the name changes with the content. */
const CHUNK = /^chunk-[A-Z0-9]{8}\.js$/;

/** What the UI app needs: static files, a logger, and the API to forward to. */
export type UiAppDeps = Pick<AppDeps, 'assets' | 'log'>;

/** Options of {@link createUiApp}. */
export interface UiAppOptions {
  /** Cache-busting token for the page's script and stylesheet URLs (default: start time). */
  version?: string;
}

/** Builds the UI application; `api` is the API app's fetch handler. */
export function createUiApp(deps: UiAppDeps, api: ApiFetch, opts: UiAppOptions = {}): Hono {
  const app = new Hono();
  const page = chatPage(opts.version ?? Date.now().toString(36));

  app.use(async (c, next) => {
    await next();
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(k, v);
  });

  app.get('/', compress(), (c) => c.html(page, 200, { 'cache-control': 'no-cache' }));
  app.get('/favicon.ico', (c) => c.body(null, 204));
  app.get('/ui/:file', compress(), async (c) => {
    const file = c.req.param('file');
    const type = FILES[file] ?? (CHUNK.test(file) ? FILES['app.js'] : undefined);
    const bytes = type ? await deps.assets(`ui/${file}`) : null;
    if (!type || !bytes) return c.notFound();
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      'content-type': type,
      // The page links them with a version query, and chunk names carry their hash, so they can be cached for long.
      'cache-control': c.req.query('v') || CHUNK.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
  });
  app.all('/api/*', async (c) => {
    const path = new URL(c.req.url).pathname.slice('/api'.length);
    return proxyToApi(api, c.req.raw, path);
  });

  app.notFound((c) => problemResponse(new AppError(404, 'not-found', `no page at ${c.req.path}`), c.req.path));
  app.onError((err, c) => {
    const appErr = toAppError(err);
    if (appErr.status >= 500) deps.log.error('ui request failed', { path: c.req.path, error: err });
    return problemResponse(appErr, c.req.path);
  });
  return app;
}
