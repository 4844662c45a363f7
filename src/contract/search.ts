/**
 * Wire shapes of search: what `POST /vector/search` returns, what chat `sources` hold and what
 * MCP's `vector_search` reports. One zod schema each; the types are inferred from them.
 */
import { z } from '@hono/zod-openapi';

/** How candidates are found: embeddings, Lucene full-text (BM25), or both fused; in the order the API documents them. */
export const RETRIEVAL_MODES = ['vector', 'fulltext', 'hybrid'] as const;

/** How a node's `displayName` is chosen (src/graph/text/node-name.ts `displayName`), as the API documents it. */
export const NAME_RULE =
  "The node's name: its label's name in the index's text plan, else by rule (`displayName`, `name`, the label's own `…Name`, " +
  'first and last name, `title`, `companyName`, …; never a list, a number or a placeholder such as `NULL`), else its label and ' +
  'own id (`Order 10248`), else `Label #id`';

/** One of {@link RETRIEVAL_MODES}. */
export type RetrievalMode = (typeof RETRIEVAL_MODES)[number];

/** One relationship of a search result, as graph context. */
export const NeighborSchema = z
  .object({
    type: z.string().describe('Relationship type'),
    direction: z.enum(['out', 'in']).describe('`out`: (result)-[type]->(neighbour); `in`: (neighbour)-[type]->(result)'),
    dbId: z.number().int().describe("The neighbour's integer `dbId` property, else its database node id"),
    displayName: z.string().describe(`${NAME_RULE}; cut to 80 characters`),
    labels: z.array(z.string()),
  })
  .openapi('Neighbor');

/** A relationship of a search result. */
export type Neighbor = z.infer<typeof NeighborSchema>;

/** One of a node's own values, as a chat lookup's source shows it beside its text. */
export const NodeFactSchema = z
  .object({
    key: z.string().describe('Property name'),
    value: z
      .union([z.string(), z.number(), z.boolean()])
      .describe('Its value: a number or boolean as stored; a date, a time or a short list as text (a midnight time left out)'),
  })
  .openapi('NodeFact');

/** A node's own value. */
export type NodeFact = z.infer<typeof NodeFactSchema>;

/** A node's relationships of one type and direction, counted. */
export const RelationshipCountSchema = z
  .object({
    type: z.string().describe('Relationship type'),
    direction: z.enum(['out', 'in']).describe('As in `neighbors`'),
    count: z.number().int().describe('How many relationships of this type and direction the node has'),
    labels: z.array(z.string()).describe('Labels of the nodes at the other end, most common first (at most 3; from a sample)'),
  })
  .openapi('RelationshipCount');

/** A count of a node's relationships by type and direction. */
export type RelationshipCount = z.infer<typeof RelationshipCountSchema>;

/** A search hit; the same shape as chat `sources` items and MCP `vector_search` results. */
export const SourceNodeSchema = z
  .object({
    dbId: z
      .number()
      .int()
      .describe('Node identifier: its integer `dbId` property, else the database node id (in Cypher: `WHERE n.dbId = $id OR id(n) = $id`)'),
    displayName: z.string().describe(NAME_RULE),
    text: z
      .string()
      .describe(
        'The node text (the whole text, not the matching chunk), at most `SEARCH_TEXT_MAX_CHARS` characters (Unicode code ' +
          'points; default 4,000). A longer text keeps its start and ends with a marker, e.g. ' +
          "`… [cut: 5,238,880 more characters; the node: /graph/node?id=42]`; `GET /graph/node` shows the node's properties.",
      ),
    score: z
      .number()
      .describe(
        'Relevance, higher is better: in `vector` mode the cosine similarity of the best matching chunk; in `fulltext` ' +
          "mode its BM25 score (unbounded); in `hybrid` mode a weighted sum of both scores, each as far above its list's last as " +
          'the list spreads (a z-score), divided by what a node first in both lists gets, so 0..1',
      ),
    labels: z.array(z.string()),
    neighbors: z
      .array(NeighborSchema)
      .optional()
      .describe('Some relationships of the node (when asked for): a bounded selection of as many types as fit'),
    degree: z.number().int().optional().describe('All relationships of the node (present with `neighbors`)'),
    facts: z
      .array(NodeFactSchema)
      .optional()
      .describe(
        "Chat lookup sources only: a few of the node's own values (numbers, dates, booleans, short strings; never identifiers, " +
          'links, blobs or placeholders such as `NULL`, nor what `displayName` and `text` already show), most useful first, ' +
          'at most 8 in 240 characters',
      ),
    relationshipCounts: z
      .array(RelationshipCountSchema)
      .optional()
      .describe(
        'Chat lookup sources only, when `neighbors` does not list every relationship: the relationships counted by type and ' +
          'direction, most common first (at most 8)',
      ),
  })
  .openapi('SourceNode');

/** A node returned by search (contract fields plus `score`, `labels` and optional graph context). */
export type SourceNode = z.infer<typeof SourceNodeSchema>;
