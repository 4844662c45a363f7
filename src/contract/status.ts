/**
 * Wire shape of `GET /status` (docs/running.md, "Readiness"): what is ready and what is
 * missing, with the command that fixes each missing piece. The web UI's setup panel and the
 * summary `npm start` prints are both built from `checks`, so they cannot disagree.
 */
import { z } from '@hono/zod-openapi';
import { TextPlanSchema } from './text-plan.js';
import { ExamplesStatusSchema } from './examples.js';

/** State of one index of the search index pair. */
export const IndexStateSchema = z.enum(['online', 'populating', 'failed', 'missing']);

/** One of {@link IndexStateSchema}. */
export type IndexState = z.infer<typeof IndexStateSchema>;

/** One check of the setup list; `required: false` ones only limit what chat can do. */
export const StatusCheckSchema = z
  .object({
    id: z
      .enum(['graphdb', 'kvstore', 'graph', 'settings', 'model-files', 'index', 'workers', 'router-model', 'agent-model', 'examples'])
      .describe(
        '`settings` (extension): INDEX_LABELS, INDEX_PROPERTIES, INDEX_FILTER_PROPERTIES checked against the graph, when set; `examples` (extension): the agent examples, when the graph has any or EXAMPLES_FILE is set',
      ),
    ok: z.boolean(),
    required: z.boolean().describe('false: chat still answers without it (by lookup), with less'),
    title: z.string().describe('What is checked, for people'),
    detail: z.string().describe('What was found'),
    fix: z.string().optional().describe('The command or setting that fixes it (only when not ok)'),
  })
  .openapi('StatusCheck');

/** One check of {@link StatusSchema}. */
export type StatusCheck = z.infer<typeof StatusCheckSchema>;

/** The readiness report. */
export const StatusSchema = z
  .object({
    ready: z.boolean().describe('Every required check passes: a chat message gets an answer'),
    graph: z.object({
      name: z.string(),
      reachable: z.boolean(),
      nodes: z.number().int().nullable().describe('Nodes, without the search index’s own chunk nodes'),
      relationships: z.number().int().nullable(),
      text_nodes: z
        .number()
        .int()
        .nullable()
        .describe('Nodes with text to index: the text property (`TEXT_PROPERTY`), or properties the text plan reads'),
      server: z
        .object({
          version: z.string().describe('e.g. `5.26.30` or `2026.09.0`'),
          edition: z.string().describe('`community` or `enterprise`'),
          cypher25: z.boolean().describe('The server takes `CYPHER 25` queries (2025.06 and later)'),
          vector_filters: z.boolean().describe('Vector indexes take filter properties (`CREATE VECTOR INDEX … WITH [n.p]`, Cypher 25)'),
          default_cypher: z
            .string()
            .nullable()
            .describe('The Cypher version queries without a `CYPHER` prefix run as on this graph (`5`, `25`); null: not readable'),
        })
        .optional()
        .describe('Extension: what the graph database server can do, asked of it at start; absent while it does not answer'),
    }),
    indexes: z
      .array(
        z.object({
          model: z.string(),
          index_name: z.string(),
          vector: IndexStateSchema,
          fulltext: IndexStateSchema,
          population_percent: z.number().describe('Of the vector index'),
          configured: z.boolean().describe('This is `EMBEDDING_MODEL`’s index'),
        }),
      )
      .describe('Per registry model with an index on the configured graph, and always `EMBEDDING_MODEL`'),
    embedding_models: z.array(
      z.object({
        model: z.string(),
        provider: z.enum(['in-process', 'local-server']),
        files: z.enum(['present', 'missing', 'not-needed']).describe('In-process models need their files under `MODELS_DIR`'),
      }),
    ),
    language_models: z.array(
      z.object({
        role: z.enum(['router', 'agent']),
        provider: z.enum(['local', 'hosted']),
        model: z.string(),
        state: z.enum(['ok', 'unreachable', 'unknown-model', 'key-refused', 'unavailable']),
        checked_at: z.number().describe('Unix seconds of the probe (results are cached briefly)'),
        context_tokens: z.number().int().optional().describe('Extension: the context budget every call of this role is fitted to'),
        forms: z
          .object({
            structured_output: z.enum(['json_schema', 'json_object', 'text']).describe('The structured-output form calls use'),
            stream_with_tools: z.boolean().describe('false: calls with tools are made unstreamed (the server sent empty streams)'),
            usage_in_streams: z.boolean().describe('false: streams carried no usage; counts are estimated'),
            refused: z.array(z.string()).describe('What this server refused, oldest first'),
          })
          .optional()
          .describe('Extension: the request forms learned from this server and model by this process'),
      }),
    ),
    queue: z.object({ pending: z.number().int(), workers: z.number().int() }).nullable().describe('null: key-value store down'),
    index_text: z
      .object({
        source: z
          .enum(['build', 'preview'])
          .describe('build: the plan the configured index was built with; preview: what a build would index now'),
        built_at: z.string().nullable().describe('When the configured index was last built (ISO date-time)'),
        plan: TextPlanSchema,
        filters: z
          .object({
            labels: z.array(z.string()).describe('A `labels` filter naming one of these is applied inside the vector index'),
            properties: z
              .array(z.string())
              .describe('Conditions on these (`=`, `in`, `exists`, and `<` … `>=` with a number, joined by `and`) are applied inside it'),
            lists: z
              .array(z.string())
              .describe(
                'Of those, properties some node holds as a list (or a value too long to carry): only their ranges are applied inside it',
              ),
          })
          .nullable()
          .optional()
          .describe(
            'What the configured index’s chunks carry for filtering inside the vector index (Neo4j 2026.x, `INDEX_FILTERS`); ' +
              'null: every filter is applied after the index. A search’s `Search-Filter` header says where its filter went.',
          ),
      })
      .nullable()
      .optional()
      .describe('Extension: what is (or would be) indexed per label; null when the graph could not be read'),
    sync: z
      .object({
        enabled: z.boolean().describe('`INDEX_SYNC_INTERVAL_MS` > 0 (workers run it)'),
        interval_ms: z.number().int(),
        in_step: z
          .boolean()
          .nullable()
          .describe('The graph has not been written to since the indexes were last brought in step; null: unknown'),
        checked_at: z.number().nullable().describe('Unix ms of the last pass'),
        synced_at: z.number().nullable().describe('Unix ms of the last pass that brought every index in step'),
        behind_seconds: z
          .number()
          .nullable()
          .describe('How long a change has been waiting for the sync; null when in step or not yet seen'),
        last: z
          .array(
            z.object({
              index: z.string(),
              model: z.string(),
              outcome: z.enum(['synced', 'busy', 'needs-build', 'failed']),
              nodes_changed: z
                .number()
                .int()
                .optional()
                .describe('Nodes found new or changed (their values differ from what their chunks were made from)'),
              nodes_deleted: z.number().int().optional().describe('Nodes whose chunks were removed (deleted, or no longer text)'),
              chunks_embedded: z.number().int().optional().describe('Chunk texts sent to the embedding model'),
              chunks_written: z.number().int().optional().describe('Chunk nodes created'),
              chunks_kept: z.number().int().optional().describe('Chunk nodes of changed nodes kept: text unchanged, vector reused'),
              chunks_deleted: z.number().int().optional(),
              nodes_skipped: z
                .number()
                .int()
                .optional()
                .describe('Nodes left out because their content failed (the pass completed without them; the next tries them again)'),
              skipped: z
                .array(z.object({ node_id: z.string(), reason: z.string() }))
                .optional()
                .describe('The first few nodes left out, with why'),
              ms: z.number(),
              error: z.string().optional(),
            }),
          )
          .describe('What the last pass that found a change did, per index'),
        busy: z
          .array(z.string())
          .optional()
          .describe('Indexes a build or another instance was working on during the last pass (not an error: the next pass catches up)'),
        error: z.string().nullable().describe('Why the last pass failed; null when it did not (a busy index is not a failure)'),
        source: z
          .object({
            name: z
              .enum(['plugin', 'property', 'scan'])
              .nullable()
              .describe(
                '`plugin`: the server’s change log names what changed; `property`: the writers’ INDEX_CHANGED_PROPERTY does; `scan`: every indexed node is compared; null before the first pass',
              ),
            why: z.string().nullable().describe('Why a better source is not in use (e.g. "plugin not installed"); null when the best is'),
            full_check_at: z.number().nullable().describe('Unix ms of the last full check (the scan)'),
            next_full_check_at: z
              .number()
              .nullable()
              .describe(
                'Unix ms from which the next full check may run: spaced by nine times its duration, or a reconcile under the change log',
              ),
            deleted_check_at: z
              .number()
              .nullable()
              .optional()
              .describe('Under `property`: Unix ms of the last check of the chunk side for deleted nodes'),
            next_deleted_check_at: z
              .number()
              .nullable()
              .optional()
              .describe(
                'Under `property`: Unix ms from which that check may run again when nodes were written (a lower label count runs it at once)',
              ),
          })
          .optional()
          .describe('Extension: where the sync learns what changed'),
      })
      .nullable()
      .optional()
      .describe(
        'Extension: the index sync (nodes created, changed or deleted in the graph reach search without a build); null: store down',
      ),
    examples: ExamplesStatusSchema.optional(),
    checks: z.array(StatusCheckSchema),
  })
  .openapi('Status');

/** The body of `GET /status`. */
export type Status = z.infer<typeof StatusSchema>;
