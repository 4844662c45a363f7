/**
 * Shared OpenAPI pieces: the app's Hono type, the validation hook that turns every schema
 * failure into one 422 problem naming the fields, and the problem schema used in route docs.
 */
import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { ZodError } from 'zod';
import { AppError, type FieldError } from '../errors.js';

/** Per-request variables set by middleware. */
export type AppEnv = { Variables: { requestId: string } };

const TARGET_NAMES: Record<string, string> = { json: 'body', query: 'query', param: 'path', header: 'header', cookie: 'cookie' };

/** Zod issues as `{path, message}` with the request part first (`body.top_k`). */
export function fieldErrors(error: ZodError, target: string): FieldError[] {
  const root = TARGET_NAMES[target] ?? target;
  return error.issues.map((i) => ({
    path: [root, ...i.path.map(String)].join('.'),
    message: i.message,
  }));
}

/** The 422 error for a schema failure. */
export function validationError(errors: FieldError[]): AppError {
  const names = errors.map((e) => e.path).join(', ');
  return new AppError(422, 'validation', `invalid request: ${names}`, { errors });
}

/** A router whose validation failures all become the same 422 problem. */
export function createRouter(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationError(fieldErrors(result.error, result.target));
    },
  });
}

/** RFC 9457 problem body, for the OpenAPI document. */
export const ProblemSchema = z
  .object({
    type: z.string().openapi({ example: '/problems/validation' }),
    title: z.string().openapi({ example: 'Unprocessable Content' }),
    status: z.number().int().openapi({ example: 422 }),
    detail: z.string(),
    instance: z.string().optional(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .openapi('Problem');

/** An OpenAPI response entry for a problem of the given meaning. */
export function problem(description: string) {
  return { description, content: { 'application/problem+json': { schema: ProblemSchema } } };
}
