/**
 * `GET /chat/job/{job_id}` (poll a job), `GET /chat/job/{job_id}/stream` (its SSE events) and
 * `POST /chat/job/{job_id}/cancel` (its owner stops it).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { JOB_CANCELLED, JOB_EVENT_TYPES, JobViewSchema, type JobView } from '../contract/chat.js';
import { openJobEventStream, parseLastEventId } from '../chat/sse.js';
import type { AppDeps } from '../deps.js';
import { AppError } from '../errors.js';
import type { JobRecord } from '../store/jobs.js';
import { AnonHeaderSchema, mayUse, resolveUser } from './chat-identity.js';
import { SSE_HEADERS, UNAVAILABLE_PROBLEM, createRouter, issuedIdSchema, problem } from './openapi.js';

const JobParamsSchema = z.object({ job_id: issuedIdSchema('job_id') });

/** One SSE event as OpenAPI 3.1 describes a `text/event-stream` item; `data` is JSON text. */
const JobStreamEventSchema = z
  .object({
    id: z.string().openapi({ description: 'Sequence number of the event in the job, from 1' }),
    event: z.enum(JOB_EVENT_TYPES),
    data: z.string().openapi({ description: 'The event data as JSON; `job_done` carries the ChatResponse' }),
  })
  .openapi('JobStreamEvent');

const jobRoute = createRoute({
  method: 'get',
  path: '/chat/job/{job_id}',
  tags: ['chat'],
  summary: 'Status of a chat job, with its result when done',
  request: { params: JobParamsSchema, headers: AnonHeaderSchema },
  responses: {
    200: { description: 'The job', content: { 'application/json': { schema: JobViewSchema } } },
    401: problem('x-anon-id is unknown or expired'),
    404: problem(
      "Unknown job, or expired (jobs live 10 minutes), or another user's (with x-anon-id, or without one under ANON_READS=owner)",
    ),
    422: problem('job_id is not a UUID'),
    ...UNAVAILABLE_PROBLEM,
  },
});

const streamRoute = createRoute({
  method: 'get',
  path: '/chat/job/{job_id}/stream',
  tags: ['chat'],
  summary: 'Server-Sent Events of a chat job: earlier events, then live ones, ending with job_done or job_error',
  description:
    'Each event is `id: <seq>`, `event: <type>`, `data: <JSON>`; a `: ping` comment every 15 s. ' +
    'Send `Last-Event-ID` (or `?last_event_id=`) to resume after an event.',
  request: {
    params: JobParamsSchema,
    query: z.object({ last_event_id: z.string().optional() }),
    headers: AnonHeaderSchema.extend({ 'last-event-id': z.string().optional() }),
  },
  responses: {
    200: { description: 'Event stream', content: { 'text/event-stream': { schema: JobStreamEventSchema } } },
    401: problem('x-anon-id is unknown or expired'),
    404: problem("Unknown job, or expired, or another user's (with x-anon-id, or without one under ANON_READS=owner)"),
    422: problem('job_id is not a UUID'),
    ...UNAVAILABLE_PROBLEM,
  },
});

const cancelRoute = createRoute({
  method: 'post',
  path: '/chat/job/{job_id}/cancel',
  tags: ['chat'],
  summary: 'Stop a pending or running chat job (its owner only)',
  description:
    `The job ends at once in status \`error\` with the error "${JOB_CANCELLED}", and its stream ends with that ` +
    '`job_error`; a running job stops its model call. Idempotent: a job that has already ended is returned as it is. ' +
    'A job submitted with `x-anon-id` can be cancelled only with the same identity; one submitted without it, by ' +
    'anyone holding its id (as it can be read).',
  request: { params: JobParamsSchema, headers: AnonHeaderSchema },
  responses: {
    200: { description: 'The job, ended', content: { 'application/json': { schema: JobViewSchema } } },
    401: problem('x-anon-id is unknown or expired'),
    404: problem("Unknown job, or expired, or another user's"),
    422: problem('job_id is not a UUID'),
    ...UNAVAILABLE_PROBLEM,
  },
});

/** The poll view of a job record. */
const viewOf = (job: Pick<JobRecord, 'job_id' | 'status' | 'result' | 'error'>): JobView => ({
  job_id: job.job_id,
  status: job.status,
  ...(job.status === 'done' && job.result ? { result: job.result } : {}),
  ...(job.status === 'error' ? { error: job.error ?? 'the job failed' } : {}),
});

const notFound = (id: string) => new AppError(404, 'not-found', `job ${id} does not exist or has expired (jobs live 10 minutes)`);

/** Job routes. */
export function chatJobRoutes(deps: Pick<AppDeps, 'config' | 'jobs' | 'users' | 'events'>) {
  const { jobs, users, events: hub } = deps;
  return createRouter()
    .openapi(jobRoute, async (c) => {
      const { job_id } = c.req.valid('param');
      const caller = await resolveUser(users, c.req.valid('header')['x-anon-id']);
      const job = await jobs.get(job_id);
      if (!job || !mayUse(job.user_id, caller, deps.config.ANON_READS)) throw notFound(job_id);
      return c.json(viewOf(job), 200);
    })
    .openapi(cancelRoute, async (c) => {
      const { job_id } = c.req.valid('param');
      const caller = await resolveUser(users, c.req.valid('header')['x-anon-id']);
      const job = await jobs.get(job_id);
      // Stopping is stricter than reading: an owned job needs its owner's identity.
      if (!job || (job.user_id && job.user_id !== caller?.userId)) throw notFound(job_id);
      if (job.status === 'done' || job.status === 'error') return c.json(viewOf(job), 200);
      // The same atomic end a worker writes; the worker running it sees the final event and aborts.
      // (The processing list named is nobody's: the worker drops the id from its own.)
      const cancelled = { ...job, status: 'error' as const, error: JOB_CANCELLED };
      if (await jobs.finish(job, { status: 'error', error: JOB_CANCELLED }, '')) return c.json(viewOf(cancelled), 200);
      // A worker ended it first (0): answer with that end.
      return c.json(viewOf((await jobs.get(job_id)) ?? cancelled), 200);
    })
    .openapi(streamRoute, async (c) => {
      const { job_id } = c.req.valid('param');
      const headers = c.req.valid('header');
      const caller = await resolveUser(users, headers['x-anon-id']);
      // The owner check costs a read only when an answer depends on it.
      if (caller || deps.config.ANON_READS === 'owner') {
        const job = await jobs.get(job_id);
        if (job && !mayUse(job.user_id, caller, deps.config.ANON_READS)) throw notFound(job_id);
      }
      const afterSeq = parseLastEventId(headers['last-event-id'] ?? c.req.valid('query').last_event_id);
      const stream = await openJobEventStream({
        jobs,
        hub,
        jobId: job_id,
        afterSeq,
        pingMs: deps.config.SSE_PING_MS,
        signal: c.req.raw.signal,
      });
      if (!stream) throw notFound(job_id);
      return new Response(stream, { status: 200, headers: SSE_HEADERS }) as never;
    });
}
