/**
 * The model-facing parts of the two data tools, `vector_search` and `graph_query`: their
 * descriptions and argument fields, shared by the chat agent (src/agent/data-tools.ts) and MCP
 * (src/mcp/tools.ts) so that the text a model reads cannot drift between them. Each side keeps
 * only what its contract fixes: argument names (`query` vs `sentence`), `graph_name` on MCP.
 */
import { z } from 'zod';
import type { RetrievalMode } from '../contract/search.js';
import { FilterLabelsSchema, MAX_FILTER_CONDITIONS, type SearchFilter, SearchFilterSchema } from '../contract/search-filter.js';
import { DomainError } from '../errors.js';
import { pathDeeperThan } from '../lib/json-depth.js';
import type { ReadQueryLimits } from '../graph/cypher/read-query.js';
import { MAX_TOP_K } from '../vector-index/search/searcher.js';

const HOW: Record<RetrievalMode, string> = {
  vector: "by meaning (vector similarity over the graph's text index)",
  fulltext: "by the words and names they contain (full-text ranking over the graph's text index)",
  hybrid: "by meaning and by the words and names they contain (vector and full-text search over the graph's text index, fused)",
};

/** What `vector_search` does under retrieval mode `mode` (`RETRIEVAL_MODE`). */
export function searchToolDescription(mode: RetrievalMode): string {
  return (
    `Finds the graph nodes a sentence is about, ${HOW[mode]}. ` +
    'Returns nodes with dbId, displayName, labels, score (higher is better) and text, best first, each with some of its relationships. ' +
    'Use it to find the nodes a question is about when you do not know their exact names, then explore around them with graph_query.'
  );
}

/** Chunk nodes of the search index share the database with the graph. */
export const INDEX_LABEL_NOTE = 'Labels starting with "__" hold the search index\'s text chunks, not graph data: leave them out.';

/** What `graph_query` does; with `limits`, the caps are spelled out. */
export function graphQueryDescription(limits?: ReadQueryLimits): string {
  const caps = limits
    ? `Results are capped at ${limits.maxRows} rows and ${limits.maxChars} characters (a note says "showing N of M rows" when cut) and a query is stopped after ${limits.timeoutMs / 1000} s, `
    : 'Results are capped (rows and characters; a note says "showing N of M rows" when cut) and slow queries are stopped by a timeout, ';
  return (
    'Runs one read-only Cypher query on the graph (Neo4j) and returns its rows as JSON. Writes, LOAD CSV, dbms.* and admin commands are refused. ' +
    `${caps}so aggregate, ORDER BY and LIMIT. Explore the schema first, e.g. "CALL db.labels()" or "MATCH (n:Label) RETURN keys(n) LIMIT 5". ` +
    `${INDEX_LABEL_NOTE} ` +
    'Pass values as parameters ($name) rather than pasting them into the query. On a database error, read the message, fix the query and try again. ' +
    'An empty or all-zero result may come with notices saying what the graph holds instead (a label, type or property name; a value such as "UK" for \'United Kingdom\'; numbers or dates stored as strings and the conversion to use): fix the query as they say.'
  );
}

/** The text to search for (`query` for the agent, `sentence` on MCP). */
export const searchTextField = z
  .string()
  .regex(/\S/, 'must contain a word, not only spaces')
  .describe('What to look for, in natural language: a phrase, a question or a sentence.');

/** `top_k` of `vector_search`, 1..MAX_TOP_K; the description names the default when given. */
export function topKField(defaultTopK?: number) {
  const suffix = defaultTopK === undefined ? '' : ` (default ${defaultTopK})`;
  return z.number().int().min(1).max(MAX_TOP_K).describe(`How many nodes to return, 1 to ${MAX_TOP_K}${suffix}.`);
}

/** `labels` of `vector_search`: narrows it to nodes with any of these labels. */
export const labelsField = FilterLabelsSchema.optional().describe(
  'Only return nodes with at least one of these labels, e.g. ["Pathway"]. Use the exact label names of the graph ' +
    '(case matters); an unknown label is answered with an error naming close labels. Leave it out to search every label.',
);

/**
 * `where` of `vector_search`: narrows it by node properties. Its JSON Schema is a plain object:
 * the filter's full schema (a union of condition shapes, nested groups) took ~4,000 tokens of
 * every agent prompt, more than half a small model's context; the description teaches the
 * shape and {@link parseWhere} checks it, naming the field that is wrong.
 */
export const whereField = z
  .looseObject({})
  .optional()
  .describe(
    'Only return nodes whose properties pass this filter (JSON, not Cypher). A condition is ' +
      '{"property": <name>, "op": <op>, "value": <value>} with op "=", "<>", "<", "<=", ">", ">=" (numbers, or ISO dates ' +
      'like "2000-01-31" compared as dates), "in" (value: a list) or "exists" (no value). Combine with {"and": [...]} or ' +
      `{"or": [...]} (items: conditions or groups of conditions; ${MAX_FILTER_CONDITIONS} conditions at most). Example: ` +
      '{"and": [{"property": "year", "op": ">=", "value": 2000}, {"property": "species", "op": "=", "value": "Homo sapiens"}]}. ' +
      'Use property names as stored (see the schema tools); an unknown name is answered with an error naming close ones. ' +
      'Results are still ranked by the search; a filter matching nothing returns no nodes.',
  );

/**
 * A tool's `where` checked against the filter language.
 * @throws DomainError 422 naming each bad field (`where.and.1.op: …`).
 */
export function parseWhere(where: Record<string, unknown> | undefined): SearchFilter | undefined {
  if (where === undefined) return undefined;
  const parsed = SearchFilterSchema.safeParse(where);
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((i) => ({ path: ['where', ...i.path].join('.'), message: i.message }));
  return invalid(`invalid filter: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, errors);
}

function invalid(message: string, errors: { path: string; message: string }[]): never {
  throw new DomainError('invalid', 'validation', message, { errors });
}

/** `cypher_query` of `graph_query`. */
export const cypherQueryField = z
  .string()
  .min(1)
  .describe(
    'One Cypher statement, e.g. "MATCH (p:Person)-[:KNOWS]->(f) RETURN p.name, count(f) AS friends ORDER BY friends DESC LIMIT 10".',
  );

/** Levels of lists and maps one `graph_query` parameter value may nest. */
export const MAX_PARAMETER_DEPTH = 32;

/** `parameters` of `graph_query`. */
export const parametersField = z
  .record(z.string(), z.unknown())
  .superRefine((params, ctx) => {
    // Checked without recursion: a value 50,000 levels deep overflowed the stack further on.
    const path = pathDeeperThan(params, MAX_PARAMETER_DEPTH + 1);
    if (path) {
      ctx.addIssue({
        code: 'custom',
        path: path.slice(0, 1),
        message: `a parameter's lists and maps nest ${MAX_PARAMETER_DEPTH} levels deep at most`,
      });
    }
  })
  .optional()
  .describe('Values for $parameters used in the query, e.g. {"name": "Ada"}.');
