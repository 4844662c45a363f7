/** `GET /health`: component status; 200 when everything answers, 503 when degraded. */
import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../deps.js';
import { createRouter } from './openapi.js';

const Component = z.enum(['ok', 'down']);
const HealthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    graphdb: Component,
    kvstore: Component,
  })
  .openapi('Health');

const route = createRoute({
  method: 'get',
  path: '/health',
  tags: ['health'],
  summary: 'Health of the server and its graph database and key-value store',
  responses: {
    200: { description: 'All components answer', content: { 'application/json': { schema: HealthSchema } } },
    503: { description: 'A component is down', content: { 'application/json': { schema: HealthSchema } } },
  },
});

/** Health routes. Each probe has its own short timeout, so this answers within ~1.5 s. */
export function healthRoutes(deps: Pick<AppDeps, 'graph' | 'kv'>) {
  return createRouter().openapi(route, async (c) => {
    const [graph, kv] = await Promise.all([deps.graph.ping(1_500), deps.kv.ping(1_000)]);
    const body = {
      status: graph && kv ? ('ok' as const) : ('degraded' as const),
      graphdb: graph ? ('ok' as const) : ('down' as const),
      kvstore: kv ? ('ok' as const) : ('down' as const),
    };
    return body.status === 'ok' ? c.json(body, 200) : c.json(body, 503);
  });
}
