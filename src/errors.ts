/**
 * One error model. Lower layers (graph, embeddings, vector index, stores, language models)
 * throw a {@link DomainError}: a kind, a short code and a message, no HTTP. The edges (routes,
 * MCP, the chat worker, the CLI) turn any thrown value into an {@link AppError}, which carries
 * the status, and {@link toProblem} renders that as RFC 9457 `application/problem+json`.
 * Server faults never expose a stack or an internal message.
 */
import { HTTPException } from 'hono/http-exception';
import type { FieldError, Problem } from './contract/problem.js';

/**
 * Every error code the service sends: the problem body's `type` is `/problems/<code>`, so these
 * are wire values clients may compare against. Named in one union so that a code thrown or
 * compared with a typo is a type error.
 */
export type ErrorCode =
  // Request and protocol (routes, the HTTP framework).
  | 'validation'
  | 'bad-request'
  | 'not-found'
  | 'method-not-allowed'
  | 'body-too-large'
  | 'unsupported-media-type'
  | 'not-implemented'
  | 'http-error'
  | 'internal'
  // Access (routes/guards.ts, routes/chat-identity.ts) and admission (routes/chat.ts).
  | 'unauthorized'
  | 'forbidden-host'
  | 'forbidden-origin'
  | 'unknown-anon-id'
  | 'rate-limit-identities'
  | 'rate-limit-address'
  | 'rate-limit-requests'
  | 'rate-limit-tokens'
  | 'queue-full'
  // Dependencies down or too slow.
  | 'unavailable'
  | 'store-outage'
  | 'model-server-unreachable'
  | 'model-server-error'
  | 'model-files-missing'
  | 'model-files-invalid'
  // The graph and its text.
  | 'unknown-graph'
  | 'unknown-node'
  | 'unknown-filter-name'
  | 'text-choice'
  // Models and vector indexes.
  | 'unknown-model'
  | 'no-index'
  | 'index-failed'
  | 'index-timeout'
  | 'build-running'
  | 'build-lock-lost'
  | 'sync-needs-build';

/** What kind of failure a {@link DomainError} is; the edge maps each to one HTTP status. */
export type ErrorKind = 'invalid' | 'not-found' | 'conflict' | 'unavailable' | 'failed';

const STATUS_OF_KIND: Record<ErrorKind, number> = {
  invalid: 422,
  'not-found': 404,
  conflict: 409,
  unavailable: 503,
  failed: 500,
};

/**
 * A failure the caller can act on, in domain terms. `errors` name domain fields (`model`,
 * `topK`); routes rename them to request paths (routes/openapi.ts `inRequest`).
 */
export class DomainError extends Error {
  override name = 'DomainError';
  readonly errors?: FieldError[];

  constructor(
    readonly kind: ErrorKind,
    readonly code: ErrorCode,
    message: string,
    options: { cause?: unknown; errors?: FieldError[] } = {},
  ) {
    super(message, { cause: options.cause });
    this.errors = options.errors;
  }
}

/** Options of an {@link AppError}. */
export interface AppErrorOptions {
  cause?: unknown;
  errors?: FieldError[];
  /** Extra response headers, e.g. `Retry-After`. */
  headers?: Record<string, string>;
}

/** The HTTP error: what route handlers throw, rendered by one handler in `app.ts`. */
export class AppError extends Error {
  override name = 'AppError';
  readonly errors?: FieldError[];
  readonly headers?: Record<string, string>;

  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.errors = options.errors;
    this.headers = options.headers;
  }
}

/** A dependency (graph database, key-value store, model server) is down or too slow: 503. */
export function unavailable(what: string, cause?: unknown): AppError {
  return new AppError(503, 'unavailable', `${what} is unavailable; try again shortly`, { cause });
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

const CODES: Record<number, ErrorCode> = {
  400: 'bad-request',
  404: 'not-found',
  405: 'method-not-allowed',
  413: 'body-too-large',
  415: 'unsupported-media-type',
  500: 'internal',
};

/** Error names of the drivers that mean "the server is not there" rather than "bad input". */
// ClusterAllFailedError: a Redis Cluster none of whose nodes answers.
const DEPENDENCY_DOWN = new Set(['ServiceUnavailable', 'SessionExpired', 'MaxRetriesPerRequestError', 'ClusterAllFailedError']);

/** True when `err` says a dependency could not be reached (connection refused, timed out, …). */
export function isDependencyDown(err: unknown): boolean {
  const e = err as { code?: unknown; name?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (typeof e.code === 'string' && DEPENDENCY_DOWN.has(e.code)) return true;
  if (typeof e.name === 'string' && DEPENDENCY_DOWN.has(e.name)) return true;
  if (typeof e.code === 'string' && /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND)$/.test(e.code)) return true;
  // The last three: a Redis Cluster that lost a slot's node or has not learnt its slots yet.
  return (
    typeof e.message === 'string' &&
    /Connection is closed|Stream isn't writeable|ECONNREFUSED|CLUSTERDOWN|Cluster isn't ready|TRYAGAIN/.test(e.message)
  );
}

/** Which dependency a {@link isDependencyDown} error came from, as users may read it. */
export function dependencyName(err: unknown): string {
  const e = err as { name?: unknown; code?: unknown; constructor?: { name?: string } } | null;
  const name = `${String(e?.name)} ${e?.constructor?.name ?? ''}`;
  if (/Neo4j/.test(name) || e?.code === 'ServiceUnavailable' || e?.code === 'SessionExpired') return 'the graph database';
  if (/MaxRetriesPerRequest|Redis|Cluster/.test(name)) return 'the key-value store';
  return 'a backing service';
}

/** Turns anything thrown into an {@link AppError}; unknown faults become a bare 500. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof DomainError) return new AppError(STATUS_OF_KIND[err.kind], err.code, err.message, { cause: err, errors: err.errors });
  if (err instanceof HTTPException) {
    const status = err.status;
    const message = status === 413 ? 'request body is too large' : err.message || TITLES[status] || 'error';
    return new AppError(status, CODES[status] ?? 'http-error', message, { cause: err });
  }
  if (isDependencyDown(err)) return unavailable('a backing service', err);
  return new AppError(500, 'internal', 'an unexpected error occurred', { cause: err });
}

/** Renders an {@link AppError} as an RFC 9457 body (no stack, no cause). */
export function toProblem(err: AppError, instance?: string): Problem {
  const problem: Problem = {
    type: `/problems/${err.code}`,
    title: TITLES[err.status] ?? 'Error',
    status: err.status,
    detail: err.message,
  };
  if (err.errors) problem.errors = err.errors;
  if (instance) problem.instance = instance;
  return problem;
}

/** A `Response` carrying the problem body, with the error's extra headers. */
export function problemResponse(err: AppError, instance?: string): Response {
  return new Response(JSON.stringify(toProblem(err, instance)), {
    status: err.status,
    headers: { 'content-type': 'application/problem+json', ...err.headers },
  });
}
