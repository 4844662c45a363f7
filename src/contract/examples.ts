/**
 * Wire shapes of the agent's examples (extension, DECISIONS 30): `GET`/`POST /dev/examples`,
 * the `examples` part of `GET /status` and the MCP resource `graph://<graph>/examples`.
 */
import { z } from '@hono/zod-openapi';

/** Where an example came from. */
export const ExampleSourceSchema = z
  .enum(['file', 'added'])
  .openapi({ description: '`file`: EXAMPLES_FILE; `added`: POST /dev/examples or `node dist/cli.js examples add`' });

/** One example that passed the checks. */
export const ExampleSchema = z
  .object({
    source: ExampleSourceSchema,
    line: z.number().int().openapi({ description: 'Line of the file, or 1-based position among the added ones' }),
    question: z.string(),
    cypher: z.string(),
    note: z.string().optional(),
  })
  .openapi('AgentExample');

/** One example left out, and why. */
export const RejectedExampleSchema = z
  .object({
    source: ExampleSourceSchema,
    line: z.number().int(),
    question: z.string().optional().openapi({ description: 'The question, when the line had one' }),
    reason: z.string().openapi({
      description:
        'Why: not JSON, a missing field, not a read query, or a name the graph lacks (with close names, as graph_query notices give)',
    }),
  })
  .openapi('RejectedExample');

/** The examples of a graph: those used, and those rejected. */
export const ExamplesListSchema = z
  .object({
    graph_name: z.string(),
    file: z.string().nullable().openapi({ description: 'EXAMPLES_FILE, or null when unset' }),
    file_error: z.string().optional().openapi({ description: 'Why the file could not be read' }),
    checked_at: z.number().openapi({ description: 'Unix ms of the check against the graph' }),
    examples: z.array(ExampleSchema),
    rejected: z.array(RejectedExampleSchema),
  })
  .openapi('AgentExamples');

/** One of {@link ExamplesListSchema}. */
export type ExamplesList = z.infer<typeof ExamplesListSchema>;

/** What `GET /status` says of the examples. */
export const ExamplesStatusSchema = z
  .object({
    file: z.string().nullable(),
    file_error: z.string().optional(),
    count: z.number().int().openapi({ description: 'Examples in use (file and added)' }),
    rejected: z.number().int(),
    reasons: z.array(RejectedExampleSchema).openapi({ description: 'The first 20 rejected, each with its line and reason' }),
    per_prompt: z.number().int().openapi({ description: 'AGENT_EXAMPLES: at most this many, the closest, in a prompt' }),
  })
  .nullable()
  .openapi('ExamplesStatus', {
    description:
      'Extension: the agent examples of the graph (EXAMPLES_FILE and those added through POST /dev/examples); null while not yet checked or unreadable',
  });
