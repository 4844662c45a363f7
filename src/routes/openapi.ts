/**
 * Shared OpenAPI pieces: the app's Hono type, the validation hook that turns every schema
 * failure into one 422 problem naming the fields, and the problem schema used in route docs.
 */
import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { ZodError } from 'zod';
import { ProblemSchema, type FieldError } from '../contract/problem.js';
import { AppError, DomainError } from '../errors.js';

/**
 * Says where in the request the fields of a lower layer's validation error were: `paths` maps a
 * domain field (`topK`) to its request path (`body.top_k`), and the first segment of a nested
 * one (`where` of `where.and.1.property`). Other errors pass through.
 */
export function inRequest(err: unknown, paths: Record<string, string>): unknown {
  if (!(err instanceof DomainError) || !err.errors?.length) return err;
  const rename = (path: string) => {
    if (paths[path]) return paths[path];
    const [head = '', ...rest] = path.split('.');
    return paths[head] && rest.length ? [paths[head], ...rest].join('.') : path;
  };
  const errors = err.errors.map((e) => ({ ...e, path: rename(e.path) }));
  return new DomainError(err.kind, err.code, err.message, { cause: err.cause, errors });
}

/** Per-request variables set by middleware. */
export type AppEnv = { Variables: { requestId: string; client: string } };

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

/** An OpenAPI response entry for a problem of the given meaning. */
export function problem(description: string) {
  return { description, content: { 'application/problem+json': { schema: ProblemSchema } } };
}

/** The problems every route with a JSON body can answer before its handler runs. */
export const BODY_PROBLEMS = {
  400: problem('Malformed JSON body'),
  413: problem('Body larger than MAX_BODY_BYTES'),
  415: problem('Body sent with a content type other than application/json'),
};

/** Headers of every Server-Sent Events answer. */
export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  // Proxies (nginx) must not buffer the stream.
  'x-accel-buffering': 'no',
} as const;

/** The 503 of routes that need the key-value store or the graph database. */
export const UNAVAILABLE_PROBLEM = { 503: problem('Key-value store or graph database unavailable') };

/** The shape `z.guid()` checks, spelled out because many validators ignore `format: uuid`. */
const GUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/**
 * An ID the server issued (`job_id`, `session_id`): 8-4-4-4-12 hex, else 422. It becomes part
 * of a Redis key, so free text could reach another key (`job:{id}:events`). With `pathName`
 * it is documented as that path parameter.
 */
export const issuedIdSchema = (pathName?: string) =>
  z.guid().openapi({ pattern: GUID_PATTERN, ...(pathName ? { param: { name: pathName, in: 'path' as const } } : {}) });
