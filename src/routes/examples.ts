/**
 * `GET /dev/examples` and `POST /dev/examples`: the agent's examples of a graph (src/examples/),
 * listed with those rejected and why, and added one at a time. An added example is checked as
 * `graph_query` checks a query before it is stored (in the key-value store, for every process);
 * one that fails is refused with 422 and the reason, and nothing is stored. Both need
 * `ADMIN_TOKEN` when it is set, as every `/dev/*` route does.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ExampleSchema, type ExamplesList, ExamplesListSchema } from '../contract/examples.js';
import type { AppDeps } from '../deps.js';
import { AppError } from '../errors.js';
import type { ExampleSet } from '../examples/examples.js';
import { EXAMPLE_LIMITS } from '../examples/format.js';
import { assertGraph } from '../graph/access/driver.js';
import { BODY_PROBLEMS, createRouter, problem } from './openapi.js';

const graphName = z.string().min(1).optional().openapi({ description: 'Graph (Neo4j database); default GRAPHDB_GRAPH', example: 'neo4j' });

const AddExampleSchema = z
  .object({
    question: z.string().trim().min(1).max(EXAMPLE_LIMITS.question).openapi({ example: 'Who directed The Matrix?' }),
    cypher: z
      .string()
      .trim()
      .min(1)
      .max(EXAMPLE_LIMITS.cypher)
      .openapi({ example: "MATCH (p:Person)-[:DIRECTED]->(m:Movie {title: 'The Matrix'}) RETURN p.name" }),
    note: z.string().trim().max(EXAMPLE_LIMITS.note).optional().openapi({ description: 'What the query shows the model, optional' }),
    graph_name: graphName,
  })
  .openapi('AddExampleRequest');

const listRoute = createRoute({
  method: 'get',
  path: '/dev/examples',
  tags: ['examples'],
  summary: "The agent's examples of a graph, and those rejected with the reason",
  description:
    'Extension. Examples from EXAMPLES_FILE and those added through POST /dev/examples, each checked against the graph as ' +
    'graph_query checks a query (a read, only names the graph has); the closest AGENT_EXAMPLES to a question go into the agent prompt.',
  request: { query: z.object({ graph_name: graphName }) },
  responses: {
    200: { description: 'The examples', content: { 'application/json': { schema: ExamplesListSchema } } },
    401: problem('ADMIN_TOKEN is set and the request lacks `Authorization: Bearer <ADMIN_TOKEN>`'),
    404: problem('Unknown graph'),
    422: problem('Invalid query parameter (`graph_name` empty or too long)'),
    503: problem('Graph database or key-value store unavailable'),
  },
});

const addRoute = createRoute({
  method: 'post',
  path: '/dev/examples',
  tags: ['examples'],
  summary: 'Adds an example for the agent: a question and the Cypher that answers it',
  description:
    'Extension. The Cypher is checked as graph_query checks a query, without running it: it must be a read, and use only labels, ' +
    'relationship types and properties the graph has. Stored in the key-value store under KV_PREFIX, so every process uses it.',
  request: { body: { required: true, content: { 'application/json': { schema: AddExampleSchema } } } },
  responses: {
    201: { description: 'Added', content: { 'application/json': { schema: ExampleSchema } } },
    ...BODY_PROBLEMS,
    401: problem('ADMIN_TOKEN is set and the request lacks `Authorization: Bearer <ADMIN_TOKEN>`'),
    404: problem('Unknown graph'),
    422: problem(
      'Invalid body, or the Cypher is not a read or names what the graph lacks (`errors[0].message` says why, with close names)',
    ),
    503: problem('Graph database or key-value store unavailable'),
  },
});

/** The list body of a checked set. */
export function examplesListBody(graph: string, set: ExampleSet): ExamplesList {
  return {
    graph_name: graph,
    file: set.file,
    ...(set.fileError ? { file_error: set.fileError } : {}),
    checked_at: set.checkedAt,
    examples: set.examples.map(({ source, line, question, cypher, note }) => ({
      source,
      line,
      question,
      cypher,
      ...(note ? { note } : {}),
    })),
    rejected: set.rejected,
  };
}

const unavailable = () => new AppError(503, 'unavailable', 'examples are not available in this process');

/** The example routes. */
export function exampleRoutes(deps: Pick<AppDeps, 'config' | 'graph' | 'examples'>) {
  return createRouter()
    .openapi(listRoute, async (c) => {
      const graph = c.req.valid('query').graph_name ?? deps.config.GRAPHDB_GRAPH;
      if (!deps.examples) throw unavailable();
      await assertGraph(deps.graph, graph);
      return c.json(examplesListBody(graph, await deps.examples.load(graph)), 200);
    })
    .openapi(addRoute, async (c) => {
      const { graph_name, ...fields } = c.req.valid('json');
      const graph = graph_name ?? deps.config.GRAPHDB_GRAPH;
      if (!deps.examples) throw unavailable();
      await assertGraph(deps.graph, graph);
      const added = await deps.examples.add(graph, fields);
      if ('rejected' in added) {
        const { reason } = added.rejected;
        throw new AppError(422, 'validation', `example rejected: ${reason}`, { errors: [{ path: 'body.cypher', message: reason }] });
      }
      const { source, line, question, cypher, note } = added.example;
      return c.json({ source, line, question, cypher, ...(note ? { note } : {}) }, 201);
    });
}
