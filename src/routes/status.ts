/** `GET /status`: the readiness report (docs/running.md, "Readiness"); `/health` keeps the contract's meaning. */
import { createRoute } from '@hono/zod-openapi';
import { StatusSchema } from '../contract/status.js';
import { createStatusReporter, type StatusDeps } from '../status/report.js';
import { createRouter } from './openapi.js';

const route = createRoute({
  method: 'get',
  path: '/status',
  tags: ['health'],
  summary: 'Readiness in detail: graph counts, indexes per model, model files, language models, queue, workers',
  description:
    'Always 200 (the report says what is down). `checks` lists what a first chat answer needs, each with the command ' +
    'that fixes it when missing; `ready` is true when every required check passes. Reports are reused for 3 s and ' +
    'language-model probes (`GET <base URL>/models`, 2 s timeout) for 15 s.',
  responses: { 200: { description: 'Readiness report', content: { 'application/json': { schema: StatusSchema } } } },
});

/** Status routes; the reporter (and its caches) lives as long as the app. */
export function statusRoutes(deps: StatusDeps) {
  const reporter = createStatusReporter(deps);
  return createRouter().openapi(route, async (c) => c.json(await reporter.report(), 200));
}
