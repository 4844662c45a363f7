/**
 * The `agent` route handler: builds the system prompt (with the graph skeleton when
 * available), the conversation (history already trimmed by the worker) and the job's tool
 * context, then runs the tool-calling loop. `sources` are the `vector_search` results of the
 * whole loop, one entry per node.
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { RouteHandler } from '../chat/types.js';
import type { Config } from '../config.js';
import type { SourceNode } from '../contract/search.js';
import type { VectorSearcher } from '../vector-index/search/types.js';
import type { GraphStore } from '../graph/access/driver.js';
import { readQueryLimits } from '../graph/cypher/read-query.js';
import type { SkeletonCache } from '../graph/shape/skeleton-cache.js';
import type { Logger } from '../lib/log.js';
import { DATA_TOOLS } from './data-tools.js';
import { MAX_ITERATIONS, runAgentLoop } from './loop.js';
import { buildSystemPrompt, systemPromptFloor } from './prompt.js';
import { SCHEMA_TOOLS } from './schema-tools.js';
import { searchToolDescription } from '../tools/definitions.js';
import type { AgentTool } from './tools.js';
import type { NamesByMeaning } from '../lib/names-by-meaning.js';
import type { AgentExamples } from '../examples/examples.js';
import { examplesForPrompt } from './examples.js';

/** The eight tools: overview, vector_search, graph_query, then the other schema tools. */
export const AGENT_TOOLS: readonly AgentTool[] = [SCHEMA_TOOLS[0]!, ...DATA_TOOLS, ...SCHEMA_TOOLS.slice(1)];

/** Options of {@link createAgentHandler}. */
export interface AgentHandlerOptions {
  graph: GraphStore;
  search: VectorSearcher;
  skeleton: SkeletonCache;
  /** Suggests names by meaning in graph_query's notices (`deps.meaning`); none without it. */
  meaning?: NamesByMeaning;
  /** The graph's examples; the closest to a question go into its prompt (`AGENT_EXAMPLES`). None without it. */
  examples?: AgentExamples;
  config: Pick<
    Config,
    | 'EMBEDDING_MODEL'
    | 'RETRIEVAL_MODE'
    | 'VECTOR_SEARCH_TOP_K'
    | 'SEARCH_NEIGHBORS'
    | 'LLM_RETRY_DELAY_MS'
    | 'GRAPH_QUERY_TIMEOUT_MS'
    | 'GRAPH_QUERY_MAX_ROWS'
    | 'GRAPH_QUERY_MAX_CHARS'
    | 'GRAPH_QUERY_MAX_CONCURRENT'
    | 'AGENT_EXAMPLES'
  >;
  log?: Logger;
  /** Default 32 (the contract's limit); tests may lower it. */
  maxIterations?: number;
}

/** Builds the agent handler. */
export function createAgentHandler(opts: AgentHandlerOptions): RouteHandler {
  const { config } = opts;
  const maxIterations = opts.maxIterations ?? MAX_ITERATIONS;
  // vector_search says how it searches: RETRIEVAL_MODE is known only here.
  const description = searchToolDescription(config.RETRIEVAL_MODE);
  const tools = AGENT_TOOLS.map((t) => (t.name === 'vector_search' ? { ...t, description } : t));
  return async (input) => {
    const sources = new Map<number, SourceNode>();
    const skeleton = await opts.skeleton.current(input.graph);
    const conversation: ChatCompletionMessageParam[] = [
      ...input.history.map((m) => ({ role: m.role, content: m.content }) as ChatCompletionMessageParam),
      { role: 'user', content: input.question },
    ];
    // The closest examples, in the system prompt before the overview; none: the prompt as it was.
    const k = input.examples === false || !opts.examples ? 0 : config.AGENT_EXAMPLES;
    const base = { graph: input.graph, skeleton, maxIterations };
    const examples = k
      ? await examplesForPrompt({
          examples: opts.examples!,
          graph: input.graph,
          k,
          prompt: base,
          conversation,
          tools,
          llm: input.llm,
          log: opts.log,
        })
      : null;
    const prompt = examples ? { ...base, examples } : base;
    const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: buildSystemPrompt(prompt) }, ...conversation];
    const result = await runAgentLoop({
      llm: input.llm,
      messages,
      tools,
      ctx: {
        graph: opts.graph,
        database: input.graph,
        search: opts.search,
        embeddingModel: config.EMBEDDING_MODEL,
        defaultTopK: config.VECTOR_SEARCH_TOP_K,
        neighbors: config.SEARCH_NEIGHBORS,
        limits: readQueryLimits(config),
        skeleton: opts.skeleton,
        meaning: opts.meaning,
        addSources(nodes) {
          for (const n of nodes) if (!sources.has(n.dbId)) sources.set(n.dbId, n);
        },
      },
      emit: input.emit,
      recordUsage: input.recordUsage,
      signal: input.signal,
      maxIterations,
      retryDelayMs: config.LLM_RETRY_DELAY_MS,
      ...(examples ? { systemFloorChars: systemPromptFloor(prompt) } : {}),
    });
    opts.log?.debug('agent done', { iterations: result.iterations, limitReached: result.limitReached });
    return { answer: result.answer, sources: [...sources.values()], token_usage: result.usage };
  };
}
