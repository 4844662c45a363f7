/**
 * `POST /dev/build_vector_index`: builds (or brings up to date) the vector index of a graph for
 * one model. Same code path as `scripts/build-index`; the request waits for the whole build.
 * With `Accept: text/event-stream` the answer is a stream of `progress` events (the same figures
 * as the CLI's progress bar) ending with a `result` event carrying the contract's body, or an
 * `error` event carrying a problem. Checks that fail before the build starts (unknown model or
 * graph, a build already running, a database down) still answer with their status code.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../deps.js';
import { toAppError, toProblem } from '../errors.js';
import type { Logger } from '../lib/log.js';
import { createSseStream, sseFrame } from '../lib/sse.js';
import { buildVectorIndex, previewTextPlan, type BuildReport, type BuildProgress } from '../vector-index/build/build.js';
import { textPlanBody } from '../graph/text/text-plan.js';
import { TextChoiceFields, TextPlanSchema } from '../contract/text-plan.js';
import { progressEvery } from '../vector-index/build/progress.js';
import { ModelNameSchema } from '../contract/models.js';
import { skippedNodesBody } from '../vector-index/index/skipped-nodes.js';
import { BODY_PROBLEMS, createRouter, inRequest, problem, SSE_HEADERS } from './openapi.js';

const BuildIndexRequestSchema = z
  .object({
    graph_name: z.string().min(1).openapi({ example: 'neo4j', description: 'Graph (Neo4j database) to index' }),
    model: ModelNameSchema,
    ...TextChoiceFields,
  })
  .openapi('BuildIndexRequest');

const TextPlanRequestSchema = z
  .object({
    graph_name: z.string().min(1).openapi({ example: 'neo4j', description: 'Graph (Neo4j database) to plan' }),
    ...TextChoiceFields,
  })
  .openapi('TextPlanRequest');

const SkippedNodesSchema = z
  .object({
    count: z.number().int().openapi({ description: 'Nodes left out' }),
    nodes: z
      .array(z.object({ node_id: z.string(), reason: z.string() }))
      .openapi({ description: 'The first few, each with the error its content caused' }),
  })
  .openapi('SkippedNodes', {
    description:
      'Extension, present only when some were: nodes left out of the index because their content made reading or chunking them fail; every other node was indexed, and every later build and sync tries them again',
  });

const BuildIndexResponseSchema = z
  .object({
    index_name: z.string().openapi({ example: 'neo4j_minishlab_potion_base_32M' }),
    total_chunks: z.number().int().openapi({ description: 'Text chunks across all nodes' }),
    batches_total: z.number().int().openapi({ description: 'Number of embedding batches' }),
    batches_computed: z.number().int().openapi({ description: 'Batches embedded in this call' }),
    batches_skipped: z.number().int().openapi({ description: 'Batches loaded from the CSV cache or already in the graph' }),
    plan: TextPlanSchema.optional().openapi({ description: 'Extension: what was indexed per label, and what was left out and why' }),
    skipped_nodes: SkippedNodesSchema.optional(),
  })
  .openapi('BuildIndexResponse');

const ProgressEventSchema = z
  .object({
    event: z.enum(['progress', 'result', 'error']),
    data: z.string().openapi({
      description:
        'JSON. `progress`: {phase (embedding, cleanup, indexing, done), percent (of the whole build, never decreasing), ' +
        'nodes_done, nodes_total, chunks_done, batches_done, batches_computed, batches_skipped, nodes_skipped, index_percent, ' +
        'elapsed_seconds, chunks_per_second, eta_seconds}; `result`: the JSON response body; `error`: a problem',
    }),
  })
  .openapi('BuildProgressEvent');

const route = createRoute({
  method: 'post',
  path: '/dev/build_vector_index',
  tags: ['index'],
  summary: 'Build the vector index of a graph for one model',
  description:
    'Embeds the text of every node that has the text property (`TEXT_PROPERTY`, default `text`) into ' +
    'a Neo4j vector index; labels without it are indexed by the properties discovery finds (see `POST /dev/text_plan`), ' +
    'or by `properties` where given. Nodes created, changed or deleted afterwards reach the index by the sync ' +
    '(`INDEX_SYNC_INTERVAL_MS`) without another build. Idempotent: batches cached under `DATA_DIR` are skipped, so an interrupted ' +
    'build can simply be re-run. `batches_computed + batches_skipped = batches_total`. With `Accept: text/event-stream` ' +
    'the answer streams `progress` events (at most four a second, and at every phase change) and ends with a `result` ' +
    'event holding this body, or an `error` event holding a problem; the build goes on if the client leaves.',
  request: { body: { required: true, content: { 'application/json': { schema: BuildIndexRequestSchema } } } },
  responses: {
    200: {
      description: 'Index built and online (or, when asked for, a stream of its progress)',
      content: {
        'application/json': { schema: BuildIndexResponseSchema },
        'text/event-stream': { schema: ProgressEventSchema },
      },
    },
    ...BODY_PROBLEMS,
    401: problem('ADMIN_TOKEN is set and the request lacks `Authorization: Bearer <ADMIN_TOKEN>`'),
    404: problem('Unknown graph'),
    409: problem('A build of that index is already running'),
    422: problem(
      'Invalid body, a model outside the registry (the detail lists the valid names), or `labels`/`properties` naming what the graph lacks ' +
        '(with close names), properties holding neither strings nor lists of strings, or no text; when the choice came from ' +
        '`INDEX_LABELS`/`INDEX_PROPERTIES`, the errors name the setting (`INDEX_PROPERTIES.Mission.0`)',
    ),
    503: problem('Graph database, key-value store or embedding model server unavailable'),
  },
});

const resultBody = (r: BuildReport) => {
  const skipped = skippedNodesBody(r.skipped);
  return {
    index_name: r.index_name,
    total_chunks: r.total_chunks,
    batches_total: r.batches_total,
    batches_computed: r.batches_computed,
    batches_skipped: r.batches_skipped,
    plan: textPlanBody(r.plan),
    ...(skipped ? { skipped_nodes: skipped } : {}),
  };
};

const planRoute = createRoute({
  method: 'post',
  path: '/dev/text_plan',
  tags: ['index'],
  summary: 'What a build would index, per label',
  description:
    'The text plan of a graph without building: per label, its node count, where its text comes from (`text`: its ' +
    '`TEXT_PROPERTY`; `discovered`: name-like and descriptive string properties found by rule; `explicit`: as chosen; ' +
    '`none`: nothing that reads as text), and every property left out with the reason. Takes the same `labels` and ' +
    '`properties` as the build.',
  request: { body: { required: true, content: { 'application/json': { schema: TextPlanRequestSchema } } } },
  responses: {
    200: { description: 'The plan', content: { 'application/json': { schema: TextPlanSchema } } },
    ...BODY_PROBLEMS,
    401: problem('ADMIN_TOKEN is set and the request lacks `Authorization: Bearer <ADMIN_TOKEN>`'),
    404: problem('Unknown graph'),
    422: problem(
      'Invalid body, or `labels`/`properties` naming what the graph lacks (with close names), properties holding neither strings ' +
        'nor lists of strings, or no text; errors about `INDEX_LABELS`/`INDEX_PROPERTIES` name the setting',
    ),
    503: problem('Graph database unavailable'),
  },
});

/** Field paths of the plan's errors in the request body. */
const CHOICE_PATHS = { labels: 'body.labels', properties: 'body.properties', model: 'body.model' };

/** Progress events at most this often (a phase change is always sent). */
const PROGRESS_EVERY_MS = 250;

/**
 * Runs the build and streams it. Resolves once the build reported its first progress (the lock
 * is held, the model and graph exist), so earlier failures reject and become ordinary errors.
 */
async function streamBuild(start: (onProgress: (p: BuildProgress) => void) => Promise<BuildReport>, pingMs: number, log: Logger) {
  // Opened first, so that the build's first report has somewhere to go; the build goes on if the client leaves.
  const sse = createSseStream({ pingMs });
  let id = 0;
  const event = (type: string, data: unknown) => sse.write(sseFrame({ seq: ++id, event: { type, data } }));
  let started!: () => void;
  const begun = new Promise<void>((resolve) => (started = resolve));
  const onView = progressEvery(PROGRESS_EVERY_MS, (v) => event('progress', v));
  const build = start((p) => {
    started();
    onView(p);
  });
  await Promise.race([begun, build]).catch((err: unknown) => {
    sse.close();
    throw err;
  });
  sse.startPings();
  build.then(
    (r) => {
      event('result', resultBody(r));
      sse.close();
    },
    (err: unknown) => {
      const e = toAppError(err);
      log[e.status >= 500 ? 'error' : 'warn']('index build failed', { error: err });
      event('error', toProblem(e));
      sse.close();
    },
  );
  return new Response(sse.body, { status: 200, headers: SSE_HEADERS });
}

/** Index build routes. */
export function indexBuildRoutes(deps: Pick<AppDeps, 'config' | 'graph' | 'kv' | 'embedders' | 'log'>) {
  return createRouter()
    .openapi(planRoute, async (c) => {
      const body = c.req.valid('json');
      const plan = await previewTextPlan(deps, {
        graph: body.graph_name,
        choice: { labels: body.labels, properties: body.properties },
      }).catch((err: unknown) => {
        throw inRequest(err, CHOICE_PATHS);
      });
      return c.json(textPlanBody(plan), 200);
    })
    .openapi(route, async (c) => {
      const body = c.req.valid('json');
      const { graph_name, model } = body;
      const choice = { labels: body.labels, properties: body.properties };
      // The build checks the model (422) and the graph (404) before it takes the lock or reads anything.
      const start = (onProgress?: (p: BuildProgress) => void) =>
        buildVectorIndex(deps, { graph: graph_name, model, choice, onProgress }).catch((err: unknown) => {
          throw inRequest(err, CHOICE_PATHS);
        });
      if (/\btext\/event-stream\b/i.test(c.req.header('accept') ?? '')) {
        return (await streamBuild(start, deps.config.SSE_PING_MS, deps.log)) as never;
      }
      return c.json(resultBody(await start()), 200);
    });
}
