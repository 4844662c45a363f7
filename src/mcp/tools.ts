/**
 * The two MCP tools: `vector_search` (semantic search over the graph's vector index) and
 * `graph_query` (read-only Cypher). Both call what the HTTP API and the chat agent call
 * (`deps.search`, `runReadQuery` with the agent's limits), so results, limits and messages are
 * the same everywhere. A failure comes back as a tool result with `isError: true` and a message
 * the calling model can act on, never as a protocol error or a dropped connection.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { QueryNoticeSchema } from '../contract/graph.js';
import { SourceNodeSchema } from '../contract/search.js';
import type { AppDeps } from '../deps.js';
import {
  cypherQueryField,
  graphQueryDescription,
  labelsField,
  parametersField,
  searchTextField,
  searchToolDescription,
  topKField,
  parseWhere,
  whereField,
} from '../tools/definitions.js';
import { isDependencyDown, toAppError } from '../errors.js';
import { noticeLine } from '../graph/cypher/query-notices.js';
import { ERROR_CHARS, ReadQueryError, readQueryLimits, runReadQuery } from '../graph/cypher/read-query.js';
import { boundText } from '../lib/text.js';
import { examplesUri } from './context.js';

/** What the tools use from the app's dependencies. */
export type McpToolDeps = Pick<AppDeps, 'config' | 'graph' | 'search' | 'log' | 'skeleton' | 'meaning' | 'examples'>;

const VectorSearchOutput = {
  graph_name: z.string(),
  model: z.string().describe('Embedding model of the index that was searched'),
  results: z.array(SourceNodeSchema).describe('Best match first, one entry per node'),
};

const GraphQueryOutput = {
  columns: z.array(z.string()),
  rows: z
    .array(z.record(z.string(), z.unknown()))
    .describe('One object per row, keyed by column; nodes and relationships as plain objects'),
  totalRows: z.number().int().describe('Rows the query produced (a lower bound when totalIsExact is false)'),
  totalIsExact: z.boolean(),
  truncated: z.boolean().describe('True when fewer rows are returned than the query produced'),
  note: z.string().optional().describe('"showing N of M rows …" when truncated'),
  notices: z
    .array(QueryNoticeSchema)
    .optional()
    .describe(
      'What the database and the schema say about the query: unknown names with the closest existing ones, reversed relationships, …',
    ),
};

/**
 * A successful result: the structured value, and the same value as JSON text for clients that
 * only read text (the MCP specification: a tool returning structured content SHOULD also return
 * it serialized in a text block; clients that see an empty `content` show nothing). The value
 * is sent twice, so what bounds it matters twice: each search hit's `text` is cut by search
 * (`SEARCH_TEXT_MAX_CHARS`), `graph_query` rows by `GRAPH_QUERY_MAX_CHARS`.
 */
function ok<T extends Record<string, unknown>>(value: T): CallToolResult & { structuredContent: T } {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

/** The caller-facing message of a failure; faults are logged and their internals kept out. */
function describeFailure(deps: McpToolDeps, tool: string, err: unknown): string {
  // ReadQueryError and AppError messages are written for the caller.
  if (err instanceof ReadQueryError) return err.message;
  if (isDependencyDown(err)) {
    deps.log.warn('mcp tool failed', { tool, error: err });
    return 'the graph database is unavailable; try again shortly';
  }
  // Anything else that is not an AppError becomes a bare "unexpected error" (details in the log).
  const appErr = toAppError(err);
  if (appErr.status >= 500) deps.log.warn('mcp tool failed', { tool, status: appErr.status, error: err });
  return appErr.message;
}

/** Runs a tool body; any failure becomes an `isError` result with the message a caller can act on. */
async function guarded(deps: McpToolDeps, tool: string, run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  const started = performance.now();
  try {
    const result = await run();
    deps.log.debug('mcp tool', { tool, ms: Math.round(performance.now() - started) });
    return result;
  } catch (err) {
    return { content: [{ type: 'text', text: `Error: ${boundText(describeFailure(deps, tool, err), ERROR_CHARS)}` }], isError: true };
  }
}

/** Registers `vector_search` and `graph_query` on `server`. */
export function registerGraphTools(server: McpServer, deps: McpToolDeps): void {
  const { config } = deps;
  const graphName = z
    .string()
    .min(1)
    .optional()
    .describe(`Graph to use: a Neo4j database name. Default "${config.GRAPHDB_GRAPH}"; leave it out unless told otherwise.`);

  server.registerTool(
    'vector_search',
    {
      title: 'Semantic search over the graph',
      description: searchToolDescription(config.RETRIEVAL_MODE),
      inputSchema: {
        sentence: searchTextField,
        graph_name: graphName,
        top_k: topKField(config.VECTOR_SEARCH_TOP_K).default(config.VECTOR_SEARCH_TOP_K),
        labels: labelsField,
        where: whereField,
      },
      outputSchema: VectorSearchOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ sentence, graph_name, top_k, labels, where }) =>
      guarded(deps, 'vector_search', async () => {
        const graph = graph_name ?? config.GRAPHDB_GRAPH;
        const results = await deps.search.search({
          query: sentence,
          graph,
          model: config.EMBEDDING_MODEL,
          topK: top_k,
          neighbors: config.SEARCH_NEIGHBORS,
          labels,
          where: parseWhere(where),
        });
        return ok({ graph_name: graph, model: config.EMBEDDING_MODEL, results });
      }),
  );

  const limits = readQueryLimits(config);
  // Where the examples are, when the graph has some (as checked when this session began); else the description as it was.
  const examples = deps.examples?.peek(config.GRAPHDB_GRAPH)?.examples.length ?? 0;
  const whereExamples = examples
    ? ` ${examples} example question${examples > 1 ? 's' : ''} with the Cypher that answers ${examples > 1 ? 'them' : 'it'}: resource ${examplesUri(config.GRAPHDB_GRAPH)} (and the prompt answer-from-graph shows the closest).`
    : '';
  server.registerTool(
    'graph_query',
    {
      title: 'Read-only Cypher query',
      description: graphQueryDescription(limits) + whereExamples,
      inputSchema: { cypher_query: cypherQueryField, graph_name: graphName, parameters: parametersField },
      outputSchema: GraphQueryOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ cypher_query, graph_name, parameters }) =>
      guarded(deps, 'graph_query', async () => {
        const graph = graph_name ?? config.GRAPHDB_GRAPH;
        // The contract's "each call creates its own graph database client from the chat-agent
        // configuration": the connection does come from GRAPHDB_URL/GRAPHDB_PORT (deps.graph is
        // built from them at start-up), and each call gets its own session and transaction, but
        // the driver and its connection pool are shared — a driver per call would pay a TCP and
        // Bolt handshake on every query and leave pools behind under load.
        const result = await runReadQuery(deps.graph, graph, cypher_query, parameters ?? {}, limits, {
          schema: deps.skeleton,
          meaning: deps.meaning,
        });
        const line = noticeLine(result.notices ?? [], result.rows.length);
        const value = ok({ ...result });
        // The JSON stays the first block (clients parse it); the notices' sentence follows for readers of text.
        return line ? { ...value, content: [...value.content, { type: 'text', text: line }] } : value;
      }),
  );
}
