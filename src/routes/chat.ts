/**
 * `POST /chat/message` (queue a chat job) and `GET /chat/bootstrap-anon` (anonymous identity
 * cookie). Jobs, their streams and sessions are in `chat-jobs.ts` and `chat-sessions.ts`.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { getCookie, setCookie } from 'hono/cookie';
import { JobSubmissionSchema } from '../contract/chat.js';
import { ProviderSchema } from '../contract/providers.js';
import type { AppDeps } from '../deps.js';
import { AppError, type ErrorCode } from '../errors.js';
import { BODY_PROBLEMS, UNAVAILABLE_PROBLEM, createRouter, issuedIdSchema, problem } from './openapi.js';
import { LIFETIMES } from '../store/keys.js';
import { AnonHeaderSchema, resolveUser } from './chat-identity.js';

const ModelName = z.string().max(200);

/** Without a hosted key the document lists only `local`, so a client (or a fuzzer) reading it never sends what is refused. */
const LocalOnly = z.enum(['local'], {
  error: (issue) =>
    issue.input === 'hosted'
      ? 'the hosted provider is not configured on this server (HOSTED_LLM_API_KEY is empty); use local'
      : 'expected "local" (the hosted provider is not configured on this server)',
});

/** The request headers; the providers named are the ones this server can use. */
const chatHeadersSchema = (hostedAvailable: boolean) => {
  const Provider = hostedAvailable ? ProviderSchema : LocalOnly;
  return AnonHeaderSchema.extend({
    'x-llm-provider': Provider.optional().openapi({ description: 'Agent provider for this request' }),
    'x-llm-agent-model': ModelName.optional().openapi({ description: 'Agent model for this request' }),
    'x-llm-router-provider': Provider.optional().openapi({ description: 'Router provider for this request' }),
    'x-llm-router-model': ModelName.optional().openapi({ description: 'Router model for this request' }),
    'x-agent-examples': z.enum(['on', 'off']).optional().openapi({
      description:
        "Extension: `off` leaves the graph's examples (EXAMPLES_FILE, POST /dev/examples) out of this request's agent prompt, to compare answers with and without them (`eval --examples`); default `on`",
    }),
  });
};

const chatRequestSchema = (maxChars: number) =>
  z
    .object({
      message: z
        .string()
        .max(maxChars, `at most ${maxChars} characters`)
        // A pattern rather than a refine, so the OpenAPI document says it too.
        .regex(/\S/, 'must not be empty'),
      session_id: issuedIdSchema().nullish().openapi({ description: 'Omit or null to start a new session' }),
      regenerate: z.boolean().optional().openapi({
        description:
          "Extension: answer the session's last question again. `message` is that question; when the new answer is done it replaces the last question-and-answer pair in place (if the session still ends with that question; otherwise it is added as usual), and the model does not see the answer it replaces.",
      }),
    })
    .openapi('ChatRequest');

const bootstrapRoute = createRoute({
  method: 'get',
  path: '/chat/bootstrap-anon',
  tags: ['chat'],
  summary: 'Sets (or rotates) the anonymous-ID cookie `anon_id` and redirects to the web chat UI',
  responses: {
    302: { description: 'Redirect to UI_URL; `Set-Cookie: anon_id=…` when a new ID was issued' },
    429: problem('Too many new anonymous IDs from this address (ANON_MINT_PER_MINUTE); see Retry-After'),
    ...UNAVAILABLE_PROBLEM,
  },
});

/** A 429 saying which limit was hit and when to retry, in the text and in `Retry-After`. */
const rateLimited = (code: ErrorCode, what: string, retryAfterSeconds: number) =>
  new AppError(429, code, `${what}; retry after ${retryAfterSeconds} s`, { headers: { 'Retry-After': String(retryAfterSeconds) } });

/** A job's `x-llm-*` overrides and `x-agent-examples`, as the worker reads them. */
const jobLlmOf = (h: z.infer<ReturnType<typeof chatHeadersSchema>>) => ({
  provider: h['x-llm-provider'],
  agent_model: h['x-llm-agent-model'] || undefined,
  router_provider: h['x-llm-router-provider'],
  router_model: h['x-llm-router-model'] || undefined,
  ...(h['x-agent-examples'] === 'off' ? { examples: 'off' as const } : {}),
});

/** Chat submission and identity routes. */
export function chatRoutes(deps: Pick<AppDeps, 'config' | 'llm' | 'users' | 'jobs' | 'limiter'>) {
  const { config, llm, users, jobs, limiter } = deps;
  const maxRequests = config.CHAT_RATE_LIMIT_REQUESTS;
  const maxTokens = config.CHAT_RATE_LIMIT_TOKENS;

  const messageRoute = createRoute({
    method: 'post',
    path: '/chat/message',
    tags: ['chat'],
    summary: 'Queues a chat job; follow it on /chat/job/{job_id} or its /stream',
    request: {
      headers: chatHeadersSchema(llm.available('hosted')),
      body: { required: true, content: { 'application/json': { schema: chatRequestSchema(config.CHAT_MAX_MESSAGE_CHARS) } } },
    },
    responses: {
      202: { description: 'Job accepted', content: { 'application/json': { schema: JobSubmissionSchema } } },
      ...BODY_PROBLEMS,
      401: problem('x-anon-id is unknown or expired'),
      422: problem('Invalid body or header (a provider this server has no key for is not listed)'),
      429: problem(`More than ${maxRequests} requests or ${maxTokens} tokens in 10 minutes; see Retry-After`),
      ...UNAVAILABLE_PROBLEM,
      503: problem('A dependency is unavailable, or the queue holds QUEUE_MAX_PENDING jobs; see Retry-After'),
    },
  });

  return createRouter()
    .openapi(bootstrapRoute, async (c) => {
      const cookie = getCookie(c, 'anon_id');
      // Minting is free for a script: bounded per client address at a rate no person meets.
      if (!(cookie && (await users.resolve(cookie)))) {
        const hit = await limiter.hitAddress('mint', c.get('client'), config.ANON_MINT_PER_MINUTE, 60_000);
        if (!hit.ok) {
          throw rateLimited(
            'rate-limit-identities',
            `identity limit exceeded: at most ${config.ANON_MINT_PER_MINUTE} new anonymous IDs per minute from one address`,
            hit.retryAfterSeconds,
          );
        }
      }
      const result = await users.bootstrap(cookie);
      if (result.outcome !== 'kept') {
        setCookie(c, 'anon_id', result.anonId, {
          maxAge: LIFETIMES.anonSeconds,
          httpOnly: true,
          // Off by default (the contract's development setting); COOKIE_SECURE=true behind HTTPS.
          secure: config.COOKIE_SECURE,
          path: '/',
          sameSite: 'Lax',
        });
      }
      // Always the configured UI address, never one taken from the request (no open redirect).
      return c.redirect(config.UI_URL, 302);
    })
    .openapi(messageRoute, async (c) => {
      const h = c.req.valid('header');
      const body = c.req.valid('json');
      // `hosted` without a key never gets here: the header schema lists only what this server has.

      const user = await resolveUser(users, h['x-anon-id']);
      if (!user && config.ANON_LIMITS === 'address') {
        // No identity: the caller's address gets the per-user request budget (ANON_LIMITS).
        const hit = await limiter.hitAddress('chat', c.get('client'), maxRequests, LIFETIMES.rateWindowSeconds * 1000);
        if (!hit.ok) {
          throw rateLimited(
            'rate-limit-address',
            `request limit exceeded: at most ${maxRequests} messages per 10 minutes from one address without x-anon-id`,
            hit.retryAfterSeconds,
          );
        }
      }
      if (user) {
        const admission = await limiter.admit(user.userId);
        if (!admission.ok) {
          const what =
            admission.limit === 'requests'
              ? `request limit exceeded: at most ${maxRequests} messages per 10 minutes`
              : `token limit exceeded: at most ${maxTokens} tokens per 10 minutes`;
          throw rateLimited(`rate-limit-${admission.limit}`, what, admission.retryAfterSeconds);
        }
      }
      const submitted = await jobs.submit({
        message: body.message,
        sessionId: body.session_id ?? null,
        regenerate: Boolean(body.regenerate && body.session_id),
        userId: user?.userId ?? null,
        llm: jobLlmOf(h),
      });
      if (!submitted) {
        throw new AppError(503, 'queue-full', `the chat queue is full (${config.QUEUE_MAX_PENDING} pending jobs); retry shortly`, {
          headers: { 'Retry-After': '5' },
        });
      }
      return c.json({ job_id: submitted.jobId, session_id: submitted.sessionId, status: 'pending' as const }, 202);
    });
}
