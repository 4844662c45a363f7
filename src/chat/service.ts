/**
 * The chat worker built from the app's dependencies, as the runtime entries start it
 * (`SERVICE_ROLE` `all` or `worker`). The route handlers are listed in one place:
 * {@link createChatHandlers}.
 */
import { createAgentHandler } from '../agent/handler.js';
import type { AppDeps } from '../deps.js';
import { createNodeFacts } from '../graph/shape/node-facts.js';
import { createJobQueue } from '../store/queue.js';
import { createLookupHandler } from './lookup.js';
import type { ChatHandlers } from './run-job.js';
import { createChatWorker, type ChatWorker } from './worker.js';

/** What {@link createChatHandlers} reads of the app's dependencies. */
export type ChatHandlerDeps = Pick<AppDeps, 'search' | 'graph' | 'skeleton' | 'meaning' | 'examples' | 'config' | 'log'>;

/** What the worker itself reads of the app's dependencies (its queue client is its own). */
export type ChatWorkerDeps = Pick<AppDeps, 'kv' | 'jobs' | 'limiter' | 'events' | 'config' | 'log' | 'llm'>;

/** The worker's route handlers: lookup (vector search as Markdown) and the tool-calling agent. */
export function createChatHandlers(deps: ChatHandlerDeps): ChatHandlers {
  return {
    lookup: createLookupHandler({
      search: deps.search,
      model: deps.config.EMBEDDING_MODEL,
      topK: deps.config.VECTOR_SEARCH_TOP_K,
      neighbors: deps.config.SEARCH_NEIGHBORS,
      // The schema orders a node's values as the first view does; without one at hand, none is waited for.
      facts: createNodeFacts({ graph: deps.graph, schema: (graph) => deps.skeleton.schema(graph, 0) }),
      onFactsError: (err) => deps.log.warn('lookup facts unavailable', { error: err }),
    }),
    agent: createAgentHandler({
      graph: deps.graph,
      search: deps.search,
      skeleton: deps.skeleton,
      meaning: deps.meaning,
      examples: deps.examples,
      config: deps.config,
      log: deps.log,
    }),
  };
}

/** Builds and starts the worker over `deps` with the handlers of {@link createChatHandlers}. */
export async function startChatWorker(
  deps: ChatWorkerDeps & ChatHandlerDeps,
  handlers: ChatHandlers = createChatHandlers(deps),
): Promise<ChatWorker> {
  const { jobs, limiter, events, config, log, llm } = deps;
  const worker = createChatWorker({ queue: createJobQueue(deps.kv), jobs, limiter, events, config, log, llm, handlers });
  await worker.start();
  return worker;
}
