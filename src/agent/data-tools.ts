/**
 * The agent's two data tools: `vector_search` (semantic search over the graph's index; every
 * result also becomes a source of the answer) and `graph_query` (read-only Cypher). Both call
 * the shared implementations that the HTTP API and MCP use.
 */
import { z } from 'zod';
import type { SourceNode } from '../contract/search.js';
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
import { emptyReason } from '../graph/cypher/query-notices.js';
import { codePointPrefix } from '../lib/text.js';
import { formatReadQueryResult, runReadQuery } from '../graph/cypher/read-query.js';
import { createGraphCollector } from '../graph/access/result-graph.js';
import { defineTool, type AgentTool } from './tools.js';

/**
 * A result's neighbours in Cypher-like notation, which the model can turn into a query as it
 * reads: `-[:IN_SPECIES]-> Species "Homo sapiens" (dbId 12)`, plus how many are left out.
 */
function relatedLines(n: SourceNode): string[] {
  const lines = (n.neighbors ?? []).map((r) => {
    const arrow = r.direction === 'out' ? `-[:${r.type}]->` : `<-[:${r.type}]-`;
    return `${arrow} ${r.labels.join(':') || 'node'} ${JSON.stringify(r.displayName)} (dbId ${r.dbId})`;
  });
  const more = (n.degree ?? 0) - lines.length;
  return more > 0 ? [...lines, `… ${more} more relationships`] : lines;
}

const vectorSearch = defineTool({
  name: 'vector_search',
  description: searchToolDescription('hybrid'),
  schema: z.object({
    query: searchTextField,
    top_k: topKField().optional(),
    labels: labelsField,
    where: whereField,
  }),
  async run({ query, top_k, labels, where }, ctx) {
    const nodes = await ctx.search.search({
      query,
      graph: ctx.database,
      model: ctx.embeddingModel,
      topK: top_k ?? ctx.defaultTopK,
      neighbors: ctx.neighbors,
      labels,
      where: parseWhere(where),
    });
    ctx.addSources(nodes);
    // About 12,000 characters of text in all: 600 per node at the default top_k, less for many.
    // The sources keep the search's own bounded text (SEARCH_TEXT_MAX_CHARS); the model reads less.
    const textCap = Math.max(150, Math.min(600, Math.floor(12_000 / Math.max(1, nodes.length))));
    const rows = nodes.map((n) => ({
      dbId: n.dbId,
      displayName: n.displayName,
      labels: n.labels,
      score: Math.round(n.score * 1000) / 1000,
      text: n.text.length > textCap ? `${codePointPrefix(n.text, textCap)}…` : n.text,
      ...(n.neighbors?.length ? { related: relatedLines(n) } : {}),
    }));
    const names = nodes.map((n) => n.displayName || `#${n.dbId}`).join(', ');
    const none = labels || where ? 'No nodes pass the filter among the matches.' : 'No similar nodes found.';
    return { text: rows.length ? JSON.stringify(rows) : none, summary: `${nodes.length} nodes: ${names}` };
  },
});

const graphQuery = defineTool({
  name: 'graph_query',
  description: graphQueryDescription(),
  schema: z.object({ cypher_query: cypherQueryField, parameters: parametersField }),
  async run({ cypher_query, parameters }, ctx) {
    // The nodes and paths of the rows go to the event for the UI's graph view; the model reads the rows.
    const collector = createGraphCollector();
    const result = await runReadQuery(ctx.graph, ctx.database, cypher_query, parameters ?? {}, ctx.limits, {
      graph: collector,
      schema: ctx.skeleton,
      meaning: ctx.meaning,
    });
    const graph = collector.graph();
    const reason = result.rows.length === 0 ? emptyReason(result.notices ?? []) : undefined;
    const rows = `${result.rows.length} row${result.rows.length === 1 ? '' : 's'}${result.rows.length ? `: ${JSON.stringify(result.rows[0])}` : ''}`;
    const summary = reason ?? (result.truncated ? `${result.note}` : rows);
    return {
      text: formatReadQueryResult(result),
      summary,
      ...(graph ? { graph } : {}),
      ...(result.notices ? { notices: result.notices } : {}),
    };
  },
});

/** `vector_search` and `graph_query`. */
export const DATA_TOOLS: readonly AgentTool[] = [vectorSearch, graphQuery];
