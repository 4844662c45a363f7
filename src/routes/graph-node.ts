/** `GET /graph/node`: one node by the `dbId` a search result or source carries, with its properties and neighbours. */
import { createRoute, z } from '@hono/zod-openapi';
import { NodeDetailsSchema } from '../contract/graph.js';
import type { AppDeps } from '../deps.js';
import { readNodeDetails } from '../graph/access/node-details.js';
import { createRouter, problem } from './openapi.js';

const QuerySchema = z.object({
  graph_name: z.string().min(1).optional().openapi({ description: 'Graph (Neo4j database) name; default GRAPHDB_GRAPH', example: 'neo4j' }),
  id: z
    .string()
    // At most 15 digits: every such number is a safe JavaScript integer, as `dbId` is.
    .regex(/^-?\d{1,15}$/, 'must be an integer (the dbId of a search result or source)')
    .transform(Number)
    .openapi({ description: "The node's `dbId`, as search results and chat sources report it", example: '42' }),
});

const route = createRoute({
  method: 'get',
  path: '/graph/node',
  tags: ['index'],
  summary: 'One node: labels, properties (vectors left out, long values cut) and up to 50 neighbours; read-only',
  request: { query: QuerySchema },
  responses: {
    200: { description: 'The node', content: { 'application/json': { schema: NodeDetailsSchema } } },
    404: problem('Unknown graph, or no node with that dbId'),
    422: problem('id missing or not an integer, or graph_name empty'),
    503: problem('Graph database unavailable or too slow (GRAPH_QUERY_TIMEOUT_MS)'),
  },
});

/** The node-details route; reads run with `GRAPH_QUERY_TIMEOUT_MS`. */
export function graphNodeRoutes({ graph, config }: AppDeps) {
  return createRouter().openapi(route, async (c) => {
    const { graph_name, id } = c.req.valid('query');
    const details = await readNodeDetails(graph, graph_name ?? graph.defaultGraph, id, { timeoutMs: config.GRAPH_QUERY_TIMEOUT_MS });
    return c.json(details, 200);
  });
}
