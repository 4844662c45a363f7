/**
 * The chat worker built from the app's dependencies, as the runtime entries start it
 * (`SERVICE_ROLE` `all` or `worker`). The route handlers are listed in one place:
 * {@link createChatHandlers}.
 */
import type { AppDeps } from '../deps.js';
import { createLookupHandler } from './lookup.js';
import type { ChatHandlers } from './run-job.js';
import { createChatWorker, type ChatWorker } from './worker.js';

/**
 * The worker's route handlers. `agent` is absent until the agent handler is wired in here;
 * without it an agent-routed job ends in `error` saying the agent is not available.
 */
export function createChatHandlers(deps: AppDeps): ChatHandlers {
  return {
    lookup: createLookupHandler({ search: deps.search, model: deps.config.EMBEDDING_MODEL, topK: deps.config.VECTOR_SEARCH_TOP_K }),
  };
}

/** Builds and starts the worker over `deps` with the handlers of {@link createChatHandlers}. */
export async function startChatWorker(deps: AppDeps, handlers: ChatHandlers = createChatHandlers(deps)): Promise<ChatWorker> {
  const worker = createChatWorker({ kv: deps.kv, config: deps.config, log: deps.log, llm: deps.llm, handlers });
  await worker.start();
  return worker;
}
