/** `POST /vector/search`: the most similar graph nodes to a query, one entry per node. */
import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../deps.js';
import { MODEL_NAMES } from '../embeddings/registry.js';
import { MAX_TOP_K } from '../embeddings/vector-search.js';
import { BODY_PROBLEMS, createRouter, problem } from '../lib/openapi.js';

/** A search hit; the same shape as chat `sources` items. */
export const SourceNodeSchema = z
  .object({
    dbId: z.number().int().openapi({ description: 'Node identifier: its integer `dbId` property, else the database node id' }),
    displayName: z.string().openapi({ description: '`displayName`, else `name`, else `title`, else empty' }),
    text: z.string().openapi({ description: 'The node text (the whole text, not the matching chunk)' }),
    score: z.number().openapi({ description: 'Cosine similarity of the best matching chunk, 0..1' }),
    labels: z.array(z.string()),
  })
  .openapi('SourceNode');

/** Vector search routes; `top_k` defaults to `VECTOR_SEARCH_TOP_K`. */
export function vectorRoutes(deps: AppDeps) {
  const SearchRequestSchema = z
    .object({
      query: z.string().min(1).openapi({ example: 'glycolysis enzymes' }),
      graph_name: z.string().min(1).openapi({ example: 'neo4j' }),
      // Checked against the registry by the searcher (422 naming the valid models); listed here for clients.
      model: z.string().min(1).openapi({
        enum: [...MODEL_NAMES],
        example: 'minishlab/potion-base-32M',
        description: `Model the index was built with; one of: ${MODEL_NAMES.join(', ')}`,
      }),
      top_k: z
        .number()
        .int()
        .min(1)
        .max(MAX_TOP_K)
        .default(deps.config.VECTOR_SEARCH_TOP_K)
        .openapi({ description: `Results wanted, 1..${MAX_TOP_K} (default VECTOR_SEARCH_TOP_K)` }),
    })
    .openapi('VectorSearchRequest');

  const route = createRoute({
    method: 'post',
    path: '/vector/search',
    tags: ['index'],
    summary: 'Vector search: the graph nodes most similar to a query',
    request: { body: { required: true, content: { 'application/json': { schema: SearchRequestSchema } } } },
    responses: {
      200: {
        description: 'Up to top_k nodes, best first, one entry per node',
        content: { 'application/json': { schema: z.array(SourceNodeSchema) } },
      },
      ...BODY_PROBLEMS,
      404: problem('Unknown graph, or no index for that graph and model (the detail says how to build it)'),
      422: problem('Invalid body, top_k outside 1..100, or a model outside the registry'),
      503: problem('Graph database or embedding model server unavailable'),
    },
  });

  return createRouter().openapi(route, async (c) => {
    const { query, graph_name, model, top_k } = c.req.valid('json');
    const hits = await deps.search.search({ query, graph: graph_name, model, topK: top_k });
    return c.json(hits, 200);
  });
}
