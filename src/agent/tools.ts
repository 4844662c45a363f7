/**
 * The agent's tool framework: a tool is a name, a description written for the model, a zod
 * schema (its JSON Schema is what the model sees) and a `run` returning text. `runTool` never
 * throws for bad input or a failing tool: the model gets `Tool error: …` and can correct itself.
 */
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import { z } from 'zod';
import type { QueryNotice, ResultGraph } from '../contract/graph.js';
import type { SourceNode } from '../contract/search.js';
import { DomainError, isDependencyDown } from '../errors.js';
import { boundText, cutText } from '../lib/text.js';
import type { VectorSearcher } from '../vector-index/search/types.js';
import type { GraphStore } from '../graph/access/driver.js';
import { ERROR_CHARS, ReadQueryError, type ReadQueryLimits } from '../graph/cypher/read-query.js';
import type { SkeletonCache } from '../graph/shape/skeleton-cache.js';
import type { NamesByMeaning } from '../lib/names-by-meaning.js';

/** What a tool call can reach: one graph, the searcher and the job's source collector. */
export interface ToolContext {
  graph: GraphStore;
  /** The Neo4j database of this job. */
  database: string;
  search: VectorSearcher;
  /** Embedding model of `vector_search` (config `EMBEDDING_MODEL`). */
  embeddingModel: string;
  /** Default `top_k` of `vector_search` (config `VECTOR_SEARCH_TOP_K`). */
  defaultTopK: number;
  /** Relationships shown per `vector_search` result (config `SEARCH_NEIGHBORS`). */
  neighbors: number;
  limits: ReadQueryLimits;
  skeleton: SkeletonCache;
  /** Names by meaning for graph_query's notices (`deps.meaning`). */
  meaning?: NamesByMeaning;
  /** Receives every `vector_search` result (the job's `sources`). */
  addSources(nodes: SourceNode[]): void;
}

/** What a tool returns: the text for the model, an optional short summary and graph for events. */
export interface ToolOutput {
  text: string;
  summary?: string;
  /** The nodes and relationships of the result, for clients to draw (never shown to the model). */
  graph?: ResultGraph;
  /** A graph_query's notices, for the `tool_result` event (the model reads them in `text`). */
  notices?: QueryNotice[];
}

/** A tool as written: its argument type inferred from the schema. */
export interface ToolDefinition<S extends z.ZodType> {
  name: string;
  description: string;
  schema: S;
  run(args: z.output<S>, ctx: ToolContext): Promise<ToolOutput>;
}

/** A tool as the loop holds it: any argument type, validated by `invoke`. */
export interface AgentTool {
  name: string;
  description: string;
  /** The arguments' schema (the model reads it as JSON Schema). */
  schema: z.ZodType;
  /** Validates `args` against the schema and runs the tool; `issues` when they do not fit. */
  invoke(args: unknown, ctx: ToolContext): Promise<ToolOutput | { issues: string[] }>;
}

/** Defines a tool; the parse and the typed `run` meet inside, so no cast erases the type. */
export function defineTool<S extends z.ZodType>(tool: ToolDefinition<S>): AgentTool {
  return {
    name: tool.name,
    description: tool.description,
    schema: tool.schema,
    async invoke(args, ctx) {
      const parsed = tool.schema.safeParse(args);
      if (!parsed.success) return { issues: parsed.error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`) };
      return tool.run(parsed.data, ctx);
    },
  };
}

/** An error whose message the model should see as is (after `Tool error: `). */
export class ToolError extends Error {
  override name = 'ToolError';
}

/** Longest `tool_result` event summary (contract: 200 characters). */
export const SUMMARY_CHARS = 200;

/** {@link cutText} with the `tool_result` summary length as the default. */
export function cut(text: string, max = SUMMARY_CHARS): string {
  return cutText(text, max);
}

/** The tool list in the shape of the chat-completions API. */
export function toOpenAiTools(tools: readonly AgentTool[]): ChatCompletionFunctionTool[] {
  return tools.map((t) => {
    const { $schema: _s, ...parameters } = z.toJSONSchema(t.schema, { io: 'input' }) as Record<string, unknown>;
    return { type: 'function', function: { name: t.name, description: t.description, parameters } };
  });
}

/** The result of one tool call: text for the model, summary (and graph) for the `tool_result` event. */
export interface ToolCallResult {
  text: string;
  summary: string;
  ok: boolean;
  /** A failure about this moment, not the call (database down, busy or slow): the same call may work later. */
  transient?: boolean;
  graph?: ResultGraph;
  notices?: QueryNotice[];
}

/** The arguments of a call as an object for the `tool_call` event (the raw text when not JSON). */
export function parseArgs(raw: string): unknown {
  try {
    return raw.trim() ? JSON.parse(raw) : {};
  } catch {
    return raw;
  }
}

/** Failures that say nothing about the call: the same call may work later. */
function isTransient(err: unknown): boolean {
  if (err instanceof ToolError) return false;
  if (err instanceof DomainError) return err.kind === 'unavailable' || err.kind === 'failed';
  return !(err instanceof ReadQueryError) || !['refused', 'cypher', 'unknown-graph'].includes(err.kind);
}

function errorText(err: unknown): string {
  // Summaries reach the user as job events: a driver's connection text (internal addresses) stays out.
  if (isDependencyDown(err)) return 'Tool error: the graph database is unavailable; try again shortly';
  const message = err instanceof Error ? err.message : String(err);
  // A tool's error may repeat what it was given (a value of megabytes): the model gets a bounded text.
  return `Tool error: ${boundText(message, ERROR_CHARS)}`;
}

/**
 * A call's arguments as its tool reads them (defaults filled in), so that `{}` and
 * `{"refresh": false}` are the same call; as given when they do not fit the tool.
 */
export function toolArgs(tools: readonly AgentTool[], name: string, args: unknown): unknown {
  const parsed = tools.find((t) => t.name === name)?.schema.safeParse(args);
  return parsed?.success ? parsed.data : args;
}

/** A result's graph and notices, for the `tool_result` event: only those present (no empty notice list). */
export function eventExtras(r: Pick<ToolOutput, 'graph' | 'notices'>): Pick<ToolOutput, 'graph' | 'notices'> {
  return { ...(r.graph ? { graph: r.graph } : {}), ...(r.notices?.length ? { notices: r.notices } : {}) };
}

/** Parses the raw JSON arguments, validates them and runs the tool; failures become `Tool error: …`. */
export async function runTool(tools: readonly AgentTool[], name: string, rawArgs: string, ctx: ToolContext): Promise<ToolCallResult> {
  let args: unknown;
  const fail = (err: unknown): ToolCallResult => {
    const text = errorText(err);
    return { text, summary: cut(text), ok: false, ...(isTransient(err) ? { transient: true } : {}) };
  };
  const tool = tools.find((t) => t.name === name);
  if (!tool) return fail(new ToolError(`unknown tool "${name}"; available tools: ${tools.map((t) => t.name).join(', ')}`));
  try {
    args = rawArgs.trim() ? JSON.parse(rawArgs) : {};
  } catch {
    return fail(new ToolError(`the arguments are not valid JSON: ${cut(rawArgs, 120)}`));
  }
  try {
    const out = await tool.invoke(args ?? {}, ctx);
    if ('issues' in out) return fail(new ToolError(`invalid arguments for ${name}: ${out.issues.join('; ')}`));
    return { text: out.text, summary: cut(out.summary ?? out.text), ok: true, ...eventExtras(out) };
  } catch (err) {
    return fail(err);
  }
}
