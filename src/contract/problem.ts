/** The one error body of the HTTP API: RFC 9457 problem details. */
import { z } from '@hono/zod-openapi';

/** A validation failure of one field: `body.top_k`, `query.anon_id`, `header.x-llm-provider`. */
export const FieldErrorSchema = z.object({ path: z.string(), message: z.string() });

/** A validation failure of one field. */
export type FieldError = z.infer<typeof FieldErrorSchema>;

/** RFC 9457 problem body (`application/problem+json`). */
export const ProblemSchema = z
  .object({
    type: z.string().openapi({ example: '/problems/validation' }),
    title: z.string().openapi({ example: 'Unprocessable Content' }),
    status: z.number().int().openapi({ example: 422 }),
    detail: z.string(),
    instance: z.string().optional(),
    errors: z.array(FieldErrorSchema).optional(),
  })
  .catchall(z.unknown())
  .openapi('Problem');

/** RFC 9457 problem body. */
export type Problem = z.infer<typeof ProblemSchema>;
