/** `POST /query`: reserved for a future single-call search-and-answer endpoint; 501 today. */
import { createRoute } from '@hono/zod-openapi';
import { AppError } from '../errors.js';
import { createRouter, problem } from './openapi.js';

const route = createRoute({
  method: 'post',
  path: '/query',
  tags: ['reserved'],
  summary: 'Reserved: single-call vector search plus answer (not implemented)',
  description: 'Reserved for a future endpoint. Always answers 501 Not Implemented.',
  responses: { 501: problem('Not implemented') },
});

/** The `/query` stub. */
export function queryRoutes() {
  return createRouter().openapi(route, () => {
    throw new AppError(501, 'not-implemented', 'not implemented: POST /query is reserved for a future release');
  });
}
