/**
 * Wire shapes of graph views: one node with its properties and neighbours
 * (`GET /graph/node`), and the bounded graph a tool result held (the optional `graph` of a
 * `tool_result` event). Node ids are the same numbers as search results' `dbId`.
 */
import { z } from '@hono/zod-openapi';
import { NAME_RULE, NeighborSchema } from './search.js';

/** Nodes a `tool_result` graph holds at most. */
export const RESULT_GRAPH_NODES = 100;

/** Relationships a `tool_result` graph holds at most. */
export const RESULT_GRAPH_RELATIONSHIPS = 200;

const nodeId = () => z.number().int().describe("The node's `dbId`: its integer `dbId` property, else its database node id");

/** A node of a result graph. */
export const ResultGraphNodeSchema = z
  .object({
    id: nodeId(),
    labels: z.array(z.string()).describe('At most 3 labels'),
    name: z.string().describe(`${NAME_RULE}; cut to 80 characters`),
  })
  .openapi('ResultGraphNode');

/** A relationship of a result graph, between two of its nodes. */
export const ResultGraphRelationshipSchema = z
  .object({
    id: z.number().int().describe('Database relationship id'),
    type: z.string(),
    start: nodeId().describe('`id` of its start node (one of `nodes`)'),
    end: nodeId().describe('`id` of its end node (one of `nodes`)'),
  })
  .openapi('ResultGraphRelationship');

/** The nodes, relationships and paths a tool's result held, as a graph. */
export const ResultGraphSchema = z
  .object({
    nodes: z.array(ResultGraphNodeSchema).max(RESULT_GRAPH_NODES),
    relationships: z
      .array(ResultGraphRelationshipSchema)
      .max(RESULT_GRAPH_RELATIONSHIPS)
      .describe('Only relationships whose two nodes are in `nodes`'),
    truncated: z.boolean().optional().describe('True when the result held more than fit'),
  })
  .openapi('ResultGraph');

/** A bounded graph of a tool result. */
export type ResultGraph = z.infer<typeof ResultGraphSchema>;

/** `GET /graph/node`: one node, its properties and some neighbours. */
export const NodeDetailsSchema = z
  .object({
    dbId: nodeId(),
    displayName: z.string().describe(NAME_RULE),
    labels: z.array(z.string()),
    properties: z
      .record(z.string(), z.unknown())
      .describe('Property values as JSON; long strings and lists are cut, with a marker saying how much'),
    omitted_properties: z.array(z.string()).describe('Names of properties left out: vectors (embeddings) and `__` internals'),
    degree: z.number().int().describe('All relationships of the node'),
    neighbors: z.array(NeighborSchema).describe('Up to 50 relationships, as many types and directions as fit'),
  })
  .openapi('NodeDetails');

/** `GET /graph/node`. */
export type NodeDetails = z.infer<typeof NodeDetailsSchema>;

/** What a notice of a read query is about. */
export const NOTICE_KINDS = [
  'unknown-label',
  'unknown-relationship-type',
  'unknown-property',
  'property-not-on-label',
  'reversed-direction',
  'pattern-not-found',
  'cartesian-product',
  'unbounded-path',
  'value-not-found',
  'value-type-mismatch',
] as const;

/** One thing the caller of `graph_query` should know about its query (src/graph/cypher/query-notices.ts). */
export const QueryNoticeSchema = z
  .object({
    kind: z.enum(NOTICE_KINDS),
    code: z.string().optional().describe("Neo4j's GQL status (`01N50` unknown label, …) when the database raised it"),
    name: z.string().optional().describe('The name or pattern the query used'),
    suggestions: z.array(z.string()).optional().describe('Existing names or patterns to use instead, best first'),
    message: z.string().describe('One sentence: what is wrong and what to change'),
    explainsEmpty: z.boolean().describe('True when this can be why the query returned no rows'),
  })
  .openapi('QueryNotice');

/** A notice of a read query. */
export type QueryNotice = z.infer<typeof QueryNoticeSchema>;
