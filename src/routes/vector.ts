/** `POST /vector/search`: the graph nodes that best match a query, one entry per node. */
import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../deps.js';
import { ModelNameSchema } from '../contract/models.js';
import { RETRIEVAL_MODES, SourceNodeSchema } from '../contract/search.js';
import { FilterLabelsSchema, SearchFilterSchema } from '../contract/search-filter.js';
import { MAX_TOP_K } from '../vector-index/search/searcher.js';
import type { FilterPath } from '../vector-index/search/types.js';
import { BODY_PROBLEMS, createRouter, inRequest, problem } from './openapi.js';

/** Most neighbours a request may ask for per result. */
const MAX_NEIGHBORS = 50;

/** Vector search routes; `top_k` defaults to `VECTOR_SEARCH_TOP_K`. */
export function vectorRoutes(deps: Pick<AppDeps, 'config' | 'search'>) {
  const SearchRequestSchema = z
    .object({
      query: z.string().min(1).openapi({ example: 'missions to Jupiter' }),
      graph_name: z.string().min(1).openapi({ example: 'neo4j' }),
      model: ModelNameSchema,
      top_k: z
        .number()
        .int()
        .min(1)
        .max(MAX_TOP_K)
        .default(deps.config.VECTOR_SEARCH_TOP_K)
        .openapi({ description: `Results wanted, 1..${MAX_TOP_K} (default VECTOR_SEARCH_TOP_K)` }),
      mode: z
        .enum(RETRIEVAL_MODES)
        .default('vector')
        .openapi({
          description:
            '`vector` (default): similarity of meaning (embeddings). `fulltext`: keyword match (Lucene BM25 over the same ' +
            'chunks, node names included); a query without a single word is searched as `vector`. `hybrid`: both, fused ' +
            'per node (weighted sum of normalised scores) — finds exact names and rare words as well as paraphrases.',
        }),
      neighbors: z
        .number()
        .int()
        .min(0)
        .max(MAX_NEIGHBORS)
        .default(0)
        .openapi({ description: `Relationships to return per result as \`neighbors\`, 0..${MAX_NEIGHBORS} (default 0: none)` }),
      labels: FilterLabelsSchema.optional(),
      where: SearchFilterSchema.optional(),
    })
    .openapi('VectorSearchRequest');

  const route = createRoute({
    method: 'post',
    path: '/vector/search',
    tags: ['index'],
    summary: 'Search: the graph nodes that best match a query (by meaning, keywords, or both)',
    request: { body: { required: true, content: { 'application/json': { schema: SearchRequestSchema } } } },
    responses: {
      200: {
        description: 'Up to top_k nodes, best first, one entry per node',
        headers: {
          'Search-Filter': {
            description:
              'Extension, filtered searches only: where the filter was applied. `index`: inside the vector index (Neo4j ' +
              '2026.x, on values its chunks carry; see `/status` `index_text.filters`); `post`: to the candidates after the index; ' +
              '`index+post`: part in each.',
            schema: { type: 'string', enum: ['index', 'index+post', 'post'] },
          },
        },
        content: { 'application/json': { schema: z.array(SourceNodeSchema) } },
      },
      ...BODY_PROBLEMS,
      404: problem('Unknown graph, or no index for that graph and model (the detail says how to build it)'),
      422: problem(
        'Invalid body, top_k outside 1..100, mode not one of vector, fulltext, hybrid, a model outside the registry, or a ' +
          'filter naming a label or property the graph lacks (each named in `errors`, with close names)',
      ),
      503: problem('Graph database or embedding model server unavailable'),
    },
  });

  return createRouter().openapi(route, async (c) => {
    const { query, graph_name, model, top_k, mode, neighbors, labels, where } = c.req.valid('json');
    const onFilterPath = (path: FilterPath) => c.header('Search-Filter', path);
    const hits = await deps.search
      .search({ query, graph: graph_name, model, topK: top_k, mode, neighbors, labels, where, onFilterPath })
      .catch((err: unknown) => {
        throw inRequest(err, { model: 'body.model', topK: 'body.top_k', labels: 'body.labels', where: 'body.where' });
      });
    return c.json(hits, 200);
  });
}
