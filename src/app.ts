/**
 * `createApp(deps)`: the HTTP application as a fetch handler. It builds the routes and the
 * middleware; it never listens, reads the environment or knows which runtime it runs on.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { requestId } from 'hono/request-id';
import type { AppDeps } from './deps.js';
import { AppError, problemResponse, toAppError } from './errors.js';
import type { AppEnv } from './routes/openapi.js';
import { bodyLimit } from './routes/body-limit.js';
import { chatRoutes } from './routes/chat.js';
import { chatJobRoutes } from './routes/chat-jobs.js';
import { chatSessionRoutes } from './routes/chat-sessions.js';
import { configRoutes } from './routes/config.js';
import { mountDocs } from './routes/docs.js';
import { graphNodeRoutes } from './routes/graph-node.js';
import { guards } from './routes/guards.js';
import { healthRoutes } from './routes/health.js';
import { indexBuildRoutes } from './routes/index-build.js';
import { exampleRoutes } from './routes/examples.js';
import { mcpRoutes } from './routes/mcp.js';
import { queryRoutes } from './routes/query.js';
import { statusRoutes } from './routes/status.js';
import { vectorRoutes } from './routes/vector.js';

/** Builds the API application. */
export function createApp(deps: AppDeps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();
  const { log, config } = deps;

  app.use(requestId());
  app.use(async (c, next) => {
    const started = performance.now();
    await next();
    // Browsers must not guess a type: a JSON or problem body is never run as a script or page.
    try {
      c.res.headers.set('x-content-type-options', 'nosniff');
    } catch {
      // Immutable headers (a passed-through fetch response): left as they are.
    }
    log.info('request', {
      requestId: c.get('requestId'),
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    });
  });
  // A known path with another method: 405 with `Allow` (RFC 9110) instead of Hono's 404.
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) => {
        const allow = methods.sort().join(', ');
        const detail = `${c.req.method} is not allowed on ${c.req.path}; allowed: ${allow}`;
        return problemResponse(new AppError(405, 'method-not-allowed', detail, { headers: { Allow: allow } }), c.req.path);
      },
    }),
  );
  // Host, Origin and bearer checks, CORS and the client address (src/routes/guards.ts).
  app.use(guards(config));
  // MCP speaks JSON-RPC: mounted before the problem+json body limit, it applies MAX_BODY_BYTES
  // itself and answers every failure as a JSON-RPC error.
  app.route('/', mcpRoutes(deps));
  app.use(bodyLimit(config.MAX_BODY_BYTES));

  app.route('/', healthRoutes(deps));
  app.route('/', configRoutes(deps));
  app.route('/', statusRoutes(deps));
  app.route('/', queryRoutes());
  app.route('/', indexBuildRoutes(deps));
  app.route('/', exampleRoutes(deps));
  app.route('/', vectorRoutes(deps));
  app.route('/', graphNodeRoutes(deps));
  app.route('/', chatRoutes(deps));
  app.route('/', chatJobRoutes(deps));
  app.route('/', chatSessionRoutes(deps));
  mountDocs(app, deps);

  app.notFound((c) => {
    return problemResponse(new AppError(404, 'not-found', `no route for ${c.req.method} ${c.req.path}`), c.req.path);
  });
  app.onError((err, c) => {
    const appErr = toAppError(err);
    if (appErr.status === 500 || appErr.status === 503) {
      log[appErr.status === 500 ? 'error' : 'warn']('request failed', {
        requestId: c.get('requestId'),
        path: c.req.path,
        status: appErr.status,
        error: appErr.cause instanceof Error ? appErr.cause : appErr,
      });
    }
    return problemResponse(appErr, c.req.path);
  });
  return app;
}
