/**
 * `POST /dev/build_vector_index`: builds (or brings up to date) the vector index of a graph for
 * one model. Same code path as `scripts/build-index`; the request waits for the whole build.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../deps.js';
import { buildVectorIndex } from '../vector-index/index-build.js';
import { ModelNameSchema } from '../contract/models.js';
import { BODY_PROBLEMS, createRouter, inRequest, problem } from './openapi.js';

const BuildIndexRequestSchema = z
  .object({
    graph_name: z.string().min(1).openapi({ example: 'neo4j', description: 'Graph (Neo4j database) to index' }),
    model: ModelNameSchema,
  })
  .openapi('BuildIndexRequest');

const BuildIndexResponseSchema = z
  .object({
    index_name: z.string().openapi({ example: 'neo4j_minishlab_potion_base_32M' }),
    total_chunks: z.number().int().openapi({ description: 'Text chunks across all nodes' }),
    batches_total: z.number().int().openapi({ description: 'Number of embedding batches' }),
    batches_computed: z.number().int().openapi({ description: 'Batches embedded in this call' }),
    batches_skipped: z.number().int().openapi({ description: 'Batches loaded from the CSV cache' }),
  })
  .openapi('BuildIndexResponse');

const route = createRoute({
  method: 'post',
  path: '/dev/build_vector_index',
  tags: ['index'],
  summary: 'Build the vector index of a graph for one model',
  description:
    'Embeds the text of every node that has the text property (`TEXT_PROPERTY`, default `text`) into ' +
    'a Neo4j vector index. Idempotent: batches cached under `DATA_DIR` are skipped, so an interrupted ' +
    'build can simply be re-run. `batches_computed + batches_skipped = batches_total`.',
  request: { body: { required: true, content: { 'application/json': { schema: BuildIndexRequestSchema } } } },
  responses: {
    200: { description: 'Index built and online', content: { 'application/json': { schema: BuildIndexResponseSchema } } },
    ...BODY_PROBLEMS,
    404: problem('Unknown graph'),
    409: problem('A build of that index is already running'),
    422: problem('Invalid body, or a model outside the registry (the detail lists the valid names)'),
    503: problem('Graph database, key-value store or embedding model server unavailable'),
  },
});

/** Index build routes; the build's own progress hook is not used over HTTP. */
export function indexBuildRoutes(deps: AppDeps) {
  return createRouter().openapi(route, async (c) => {
    const { graph_name, model } = c.req.valid('json');
    // The build checks the model (422) and the graph (404) before it takes the lock or reads anything.
    const r = await buildVectorIndex(deps, { graph: graph_name, model }).catch((err: unknown) => {
      throw inRequest(err, { model: 'body.model' });
    });
    return c.json(
      {
        index_name: r.index_name,
        total_chunks: r.total_chunks,
        batches_total: r.batches_total,
        batches_computed: r.batches_computed,
        batches_skipped: r.batches_skipped,
      },
      200,
    );
  });
}
