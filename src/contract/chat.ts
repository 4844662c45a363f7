/**
 * Wire shapes of the chat: jobs, their events, results and sessions, as the seed contract
 * defines them (plus the documented extensions). One zod schema each, types inferred; routes
 * (OpenAPI), the store, the worker, the agent and the UI client all use these.
 */
import { z } from '@hono/zod-openapi';
import { QueryNoticeSchema, ResultGraphSchema } from './graph.js';
import { SourceNodeSchema } from './search.js';

/** Token counts of the language-model calls of one answer. */
export const TokenUsageSchema = z
  .object({
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    estimated: z
      .boolean()
      .optional()
      .describe('Extension: true when some of the counts are estimates (a model server that reports no usage in streams)'),
  })
  .openapi('TokenUsage');

/** Token counts; two usages add field by field. */
export type TokenUsage = z.infer<typeof TokenUsageSchema>;

/** The two ways a message is answered. */
export const ROUTES = ['lookup', 'agent'] as const;

/** `lookup` (search shown as Markdown) or `agent` (tool-calling model). */
export type Route = (typeof ROUTES)[number];

/** The result of a finished job. */
export const ChatResponseSchema = z
  .object({
    session_id: z.string(),
    answer: z.string(),
    route_taken: z.enum(ROUTES),
    sources: z.array(SourceNodeSchema),
    token_usage: TokenUsageSchema.nullable(),
  })
  .openapi('ChatResponse');

/** The result of a finished job. */
export type ChatResponse = z.infer<typeof ChatResponseSchema>;

/** Life cycle of a job. */
export const JOB_STATUSES = ['pending', 'running', 'done', 'error'] as const;

/** One of {@link JOB_STATUSES}. */
export type JobStatus = (typeof JOB_STATUSES)[number];

export { JOB_CANCELLED } from './job-errors.js';

/** `GET /chat/job/{job_id}`. */
export const JobViewSchema = z
  .object({
    job_id: z.string(),
    status: z.enum(JOB_STATUSES),
    result: ChatResponseSchema.optional().describe('Only when `done`'),
    error: z.string().optional().describe('Only when `error`'),
  })
  .openapi('JobView');

/** `GET /chat/job/{job_id}`. */
export type JobView = z.infer<typeof JobViewSchema>;

/** `POST /chat/message` → 202. */
export const JobSubmissionSchema = z
  .object({
    job_id: z.string().openapi({ format: 'uuid' }),
    session_id: z.string().openapi({ format: 'uuid' }),
    status: z.literal('pending'),
  })
  .openapi('JobSubmission');

/** `POST /chat/message` → 202. */
export type JobSubmission = z.infer<typeof JobSubmissionSchema>;

const event = <T extends string, D extends z.ZodType>(type: T, data: D) => z.object({ type: z.literal(type), data });

/** The events of a job, in the order they can occur; the stream ends with `job_done` or `job_error`. */
export const JobEventSchema = z
  .discriminatedUnion('type', [
    event('routing_started', z.object({})),
    event(
      'routing_done',
      z.object({
        route: z.enum(ROUTES),
        confidence: z.number(),
        reasoning: z.string(),
        fallback: z.boolean().optional().describe('Extension: true when the router model failed and the job is answered by lookup'),
      }),
    ),
    event(
      'agent_step',
      z.object({
        iteration: z.number().int(),
        model: z.string(),
        prompt_tokens: z
          .number()
          .int()
          .optional()
          .describe("Extension: the estimated prompt tokens of this step's model call, kept within the model's context budget"),
      }),
    ),
    event('tool_call', z.object({ tool: z.string(), args: z.unknown() })),
    event(
      'tool_result',
      z.object({
        tool: z.string(),
        summary: z.string().describe('At most 200 characters'),
        notices: z
          .array(QueryNoticeSchema)
          .optional()
          .describe('Extension: what the database and the schema said about a graph_query (unknown names, reversed relationships, …)'),
        graph: ResultGraphSchema.optional().describe(
          'Extension: the nodes and relationships the result held (graph_query rows with nodes, relationships or paths), for drawing',
        ),
      }),
    ),
    event(
      'model_retry',
      z
        .object({
          model: z.string(),
          attempt: z.number().int().describe('1 for the first retry'),
          retries: z.number().int().describe('Retries allowed before the job fails'),
          wait_ms: z.number().int(),
          reason: z.string(),
        })
        .describe('Extension: the language model answered HTTP 429 and is asked again after `wait_ms`'),
    ),
    event(
      'answer_delta',
      z
        .object({ text: z.string() })
        .describe(
          'Extension: a piece of the answer as the model writes it. The pieces since the last `agent_step` form the draft; a model that goes on to call tools starts a new draft at the next `agent_step`. `job_done` carries the whole answer.',
        ),
    ),
    event('job_done', ChatResponseSchema),
    event('job_error', z.object({ error: z.string() })),
  ])
  .openapi('JobEvent');

/** One event of a job. */
export type JobEvent = z.infer<typeof JobEventSchema>;

/** The event names. */
export type JobEventType = JobEvent['type'];

/** The `data` of the event named `T`. */
export type JobEventData<T extends JobEventType> = Extract<JobEvent, { type: T }>['data'];

/** Every event name, in the order they can occur. */
export const JOB_EVENT_TYPES = JobEventSchema.options.map((o) => o.shape.type.value) as [JobEventType, ...JobEventType[]];

/** A message of a session's history. */
export const MessageSchema = z
  .object({
    role: z.enum(['user', 'assistant']),
    content: z.string(),
    route: z.enum(ROUTES).nullable(),
    confidence: z.number().nullable(),
    events: z.array(JobEventSchema).describe("The job's events (routing, agent steps, job_done with sources); empty for user messages"),
  })
  .openapi('SessionMessage');

/** A message of a session's history. */
export type Message = z.infer<typeof MessageSchema>;

/** `GET /chat/session/{session_id}`. */
export const ChatSessionSchema = z
  .object({
    session_id: z.string(),
    name: z.string().describe('Name set by PATCH, else a title from the first message, else "New chat"'),
    created_at: z.number().describe('Unix seconds'),
    messages: z.array(MessageSchema),
    pending_job_id: z
      .string()
      .nullable()
      .describe('Job currently answering in this session; a client can follow its stream after a reload'),
    pending_message: z
      .string()
      .nullable()
      .optional()
      .describe('Extension: the question of `pending_job_id` (it joins `messages` when the job ends), so another tab can show it'),
  })
  .openapi('ChatSession');

/** `GET /chat/session/{session_id}`. */
export type ChatSessionView = z.infer<typeof ChatSessionSchema>;

/** `GET /chat/sessions`. */
export const SessionListSchema = z.object({ sessions: z.array(z.string()) }).openapi('SessionList');

/** `PATCH /chat/session/{session_id}` body. */
export const SessionRenameSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(100, 'at most 100 characters')
      // The trim is not expressible in JSON Schema; the pattern says "not only white space".
      .openapi({ pattern: '\\S', description: '1..100 characters after trimming white space' }),
  })
  .openapi('SessionRename');
