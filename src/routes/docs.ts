/**
 * `/openapi.json` (OpenAPI 3.1 of every route) and `/docs` (Swagger UI). The UI's files are
 * copied from swagger-ui-dist into `dist/public/docs/` at build time and served from there, so
 * the page needs nothing from the internet.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps } from '../deps.js';
import type { AppEnv } from './openapi.js';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Graph chat API — docs</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"><noscript>Enable JavaScript to browse the API, or read <a href="/openapi.json">/openapi.json</a>.</noscript></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true });`;

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** Mounts the document and the docs page on `app` (which must already hold every route). */
export function mountDocs(app: OpenAPIHono<AppEnv>, deps: Pick<AppDeps, 'assets'>): void {
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Graph retrieval and chat service',
      version: '0.1.0',
      description:
        'Vector search over a Neo4j graph and an asynchronous chat with a router, a lookup path and a graph agent. ' +
        'Errors are RFC 9457 problem documents.',
    },
  });
  app.get('/docs', (c) => c.html(PAGE));
  app.get('/docs/init.js', (c) => c.body(INIT, 200, { 'content-type': TYPES['.js']! }));
  app.get('/docs/:file{swagger-ui(-bundle\\.js|\\.css)}', async (c) => {
    const file = c.req.param('file');
    const bytes = await deps.assets(`docs/${file}`);
    if (!bytes) return c.notFound();
    const ext = file.slice(file.lastIndexOf('.'));
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      'content-type': TYPES[ext]!,
      'cache-control': 'public, max-age=86400',
    });
  });
}
