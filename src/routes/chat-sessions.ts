/** Chat sessions: list a user's sessions, read, rename and delete one. */
import { createRoute, z } from '@hono/zod-openapi';
import { ChatSessionSchema, SessionListSchema, SessionRenameSchema } from '../contract/chat.js';
import type { AppDeps } from '../deps.js';
import { AppError } from '../errors.js';
import { BODY_PROBLEMS, UNAVAILABLE_PROBLEM, createRouter, issuedIdSchema, problem } from './openapi.js';
import { sessionName } from '../store/sessions.js';
import { AnonHeaderSchema, mayUse, resolveUser, unknownAnonId } from './chat-identity.js';

const SessionParamsSchema = z.object({ session_id: issuedIdSchema('session_id') });

const notFound = (id: string) => new AppError(404, 'not-found', `session ${id} does not exist or has expired`);

const listRoute = createRoute({
  method: 'get',
  path: '/chat/sessions',
  tags: ['sessions'],
  summary: "The user's live session IDs, newest first",
  request: { query: z.object({ anon_id: z.string().min(1).openapi({ description: 'The `anon_id` cookie value' }) }) },
  responses: {
    200: { description: 'Session IDs', content: { 'application/json': { schema: SessionListSchema } } },
    401: problem('anon_id is unknown or expired'),
    422: problem('anon_id missing or empty'),
    ...UNAVAILABLE_PROBLEM,
  },
});

const getRoute = createRoute({
  method: 'get',
  path: '/chat/session/{session_id}',
  tags: ['sessions'],
  summary: 'A session with its messages',
  request: { params: SessionParamsSchema, headers: AnonHeaderSchema },
  responses: {
    200: { description: 'The session', content: { 'application/json': { schema: ChatSessionSchema } } },
    401: problem('x-anon-id is unknown or expired'),
    404: problem("Session expired or does not exist, or another user's (with x-anon-id, or without one under ANON_READS=owner)"),
    422: problem('session_id is not a UUID'),
    ...UNAVAILABLE_PROBLEM,
  },
});

const patchRoute = createRoute({
  method: 'patch',
  path: '/chat/session/{session_id}',
  tags: ['sessions'],
  summary: 'Renames a session (1..100 characters after trimming)',
  request: {
    params: SessionParamsSchema,
    headers: AnonHeaderSchema,
    body: { required: true, content: { 'application/json': { schema: SessionRenameSchema } } },
  },
  responses: {
    200: { description: 'Renamed', content: { 'application/json': { schema: z.object({ session_id: z.string(), name: z.string() }) } } },
    ...BODY_PROBLEMS,
    401: problem('x-anon-id is unknown or expired'),
    404: problem("Session does not exist, or another user's (with x-anon-id, or without one under ANON_READS=owner)"),
    422: problem('session_id is not a UUID, or the name is empty or longer than 100 characters'),
    ...UNAVAILABLE_PROBLEM,
  },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/chat/session/{session_id}',
  tags: ['sessions'],
  summary: "Deletes a session (idempotent); with x-anon-id also from the user's list",
  request: { params: SessionParamsSchema, headers: AnonHeaderSchema },
  responses: {
    204: { description: 'Deleted (or already gone)' },
    401: problem('x-anon-id is unknown or expired'),
    404: problem("The session is another user's (with x-anon-id, or without one under ANON_READS=owner); it is left alone"),
    422: problem('session_id is not a UUID'),
    ...UNAVAILABLE_PROBLEM,
  },
});

/** Session routes. */
export function chatSessionRoutes(deps: Pick<AppDeps, 'config' | 'sessions' | 'users' | 'jobs'>) {
  const { sessions, users, jobs } = deps;
  const reads = deps.config.ANON_READS;
  /** The caller; 404 when the session is another user's (ANON_READS says whether no identity counts). */
  const own = async (sessionId: string, anonId: string | undefined) => {
    const caller = await resolveUser(users, anonId);
    if (caller || reads === 'owner') {
      const s = await sessions.load(sessionId);
      if (s && !mayUse(s.user_id, caller, reads)) throw notFound(sessionId);
    }
    return caller;
  };
  return createRouter()
    .openapi(listRoute, async (c) => {
      const user = await users.resolve(c.req.valid('query').anon_id);
      if (!user) throw unknownAnonId();
      return c.json({ sessions: await sessions.listForUser(user.userId) }, 200);
    })
    .openapi(getRoute, async (c) => {
      const { session_id } = c.req.valid('param');
      const caller = await resolveUser(users, c.req.valid('header')['x-anon-id']);
      const s = await sessions.load(session_id);
      if (!s || !mayUse(s.user_id, caller, reads)) throw notFound(session_id);
      // The running job's question is stored with its answer, at the end: until then it is the job's.
      const pending = s.pending_job_id ? await jobs.get(s.pending_job_id) : null;
      return c.json(
        {
          session_id: s.session_id,
          name: sessionName(s),
          created_at: s.created_at ?? 0,
          messages: s.messages.map((m) => ({
            role: m.role,
            content: m.content,
            route: m.route ?? null,
            confidence: m.confidence ?? null,
            events: m.events ?? [],
          })),
          pending_job_id: s.pending_job_id,
          pending_message: pending?.message ?? null,
        },
        200,
      );
    })
    .openapi(patchRoute, async (c) => {
      const { session_id } = c.req.valid('param');
      const { name } = c.req.valid('json');
      await own(session_id, c.req.valid('header')['x-anon-id']);
      if (!(await sessions.rename(session_id, name))) throw notFound(session_id);
      return c.json({ session_id, name }, 200);
    })
    .openapi(deleteRoute, async (c) => {
      const { session_id } = c.req.valid('param');
      const user = await own(session_id, c.req.valid('header')['x-anon-id']);
      await sessions.remove(session_id, user?.userId);
      return c.body(null, 204);
    });
}
