/**
 * Runs one taken job: routing (`routing_started`, router call, `routing_done`), the route's
 * handler, then the finished record (`job_done` with the ChatResponse, or `job_error`). A
 * failure is never thrown: it ends the job in `error`. Only an abort at shutdown leaves the job
 * unfinished, for the worker to put back on the queue.
 */
import type { Config } from '../config.js';
import { AppError, DomainError, dependencyName, isDependencyDown } from '../errors.js';
import type { Logger } from '../lib/log.js';
import type { LlmClients } from '../llm/clients.js';
import type { LlmTarget } from '../llm/types.js';
import type { JobOutcome, JobRecord, JobStore } from '../store/jobs.js';
import { sleep } from '../lib/timeout.js';
import type { RateLimiter } from '../store/rate-limit.js';
import { describeLlmFailure, llmFailureOf } from '../llm/failure.js';
import { modelRetry } from '../llm/retry.js';
import { classify, type RouterDecision } from './router.js';
import type { ChatResponse, JobEvent, Message, TokenUsage } from '../contract/chat.js';
import type { SourceNode } from '../contract/search.js';
import { boundText } from '../lib/text.js';
import { addUsage } from '../llm/usage.js';
import { createStoreWait } from './store-wait.js';
import type { RouteHandler } from './types.js';

/** The route handlers the worker dispatches to; `agent` is absent until the agent is wired in. */
export interface ChatHandlers {
  lookup: RouteHandler;
  agent?: RouteHandler;
}

/** What {@link runJob} needs. */
export interface JobRunnerDeps {
  config: Pick<Config, 'JOB_STORE_WAIT_MS' | 'RAG_CONFIDENCE_THRESHOLD' | 'LLM_RETRY_DELAY_MS' | 'GRAPHDB_GRAPH' | 'SEARCH_TEXT_MAX_CHARS'>;
  log: Logger;
  llm: Pick<LlmClients, 'resolve'>;
  jobs: Pick<JobStore, 'publish' | 'finish'>;
  limiter: Pick<RateLimiter, 'recordTokens'>;
  handlers: ChatHandlers;
}

/** The first event of every job, published by the worker as it takes the job. */
export const ROUTING_STARTED: JobEvent = Object.freeze({ type: 'routing_started', data: {} });

/** The job error when no agent handler is installed. */
export const AGENT_UNAVAILABLE = 'the agent is not available on this server, so this question cannot be answered yet';

/** `history` without its last pair when that pair asked `question` (the pair a regenerate replaces). */
export function withoutReplacedPair(history: Message[], question: string): Message[] {
  const [user, assistant] = history.slice(-2);
  return user?.role === 'user' && user.content === question && assistant?.role === 'assistant' ? history.slice(0, -2) : history;
}

/** A message for the job's `error` field: short, no stack, no internals. */
export function describeJobError(err: unknown): string {
  if (err instanceof AppError || err instanceof DomainError) return err.message;
  const e = err as { status?: unknown; message?: unknown; name?: unknown } | null;
  const message = typeof e?.message === 'string' && e.message ? e.message : String(err);
  if (typeof e?.status === 'number') return `the language model answered HTTP ${e.status}: ${message}`;
  const failure = llmFailureOf(err);
  if (failure === 'unreachable') return `the language model could not be reached: ${message}`;
  if (failure === 'timeout') return `the language model did not answer within LLM_TIMEOUT_MS: ${message}`;
  // A driver's own text names internal addresses (ECONNREFUSED 10.0.0.5:7687): the log has it.
  if (isDependencyDown(err)) return `${dependencyName(err)} is unavailable; try again shortly`;
  return message;
}

/**
 * `sources` with every text within `max` characters (`SEARCH_TEXT_MAX_CHARS`). Search already
 * bounds them, and a bounded text is kept as it is (its marker names the node); this holds the
 * bound for any handler.
 */
export function boundSources(sources: SourceNode[], max: number): SourceNode[] {
  return sources.map((s) => {
    const text = boundText(s.text, max);
    return text === s.text ? s : { ...s, text };
  });
}

/** One job as {@link answer} sees it: its deps, the history its models see, and its writers. */
interface JobRun {
  deps: JobRunnerDeps;
  job: JobRecord;
  /** The session's history as the models see it (a regenerate's replaced pair left out). */
  past: Message[];
  signal: AbortSignal;
  log: Logger;
  /** The events kept with the assistant's message (`answer_delta` left out). */
  events: JobEvent[];
  emit(event: JobEvent): Promise<void>;
  recordUsage(usage: TokenUsage): Promise<void>;
}

/**
 * The router's decision. A router model that cannot answer does not stop the chat: the question
 * is answered by lookup, and `fallback` says why (for `routing_done` and a later failure).
 */
async function route(run: JobRun, target: LlmTarget): Promise<{ decision: RouterDecision; fallback?: string }> {
  const { config } = run.deps;
  let fallback: string | undefined;
  const decision = await classify(target, run.job.message, run.past, {
    threshold: config.RAG_CONFIDENCE_THRESHOLD,
    retryDelayMs: config.LLM_RETRY_DELAY_MS,
    signal: run.signal,
    onRetry: (attempt) => run.emit(modelRetry(target.model, attempt, config.LLM_RETRY_DELAY_MS)),
  }).catch((err: unknown): RouterDecision => {
    const failure = run.signal.aborted ? null : llmFailureOf(err);
    if (!failure) throw err;
    fallback = describeLlmFailure(target, 'router', failure, err);
    run.log.warn('router model failed; answering by lookup', { error: err });
    return { route: 'lookup', confidence: 0, reasoning: `answered by lookup because ${fallback}`, token_usage: null };
  });
  return { decision, fallback };
}

/** Routes the job and runs the route's handler; its `done` outcome, or a throw that ends it in `error`. */
async function answer(run: JobRun): Promise<JobOutcome> {
  const { deps, job, signal } = run;
  const { config } = deps;
  const routerTarget = deps.llm.resolve('router', { provider: job.llm.router_provider, model: job.llm.router_model });
  const agentTarget = deps.llm.resolve('agent', { provider: job.llm.provider, model: job.llm.agent_model });
  const { decision, fallback } = await route(run, routerTarget);
  await Promise.all([
    decision.token_usage ? run.recordUsage(decision.token_usage) : undefined,
    run.emit({
      type: 'routing_done',
      data: {
        route: decision.route,
        confidence: decision.confidence,
        reasoning: decision.reasoning,
        ...(fallback ? { fallback: true } : {}),
      },
    }),
  ]);

  const handler = deps.handlers[decision.route];
  if (!handler) throw new Error(AGENT_UNAVAILABLE);
  const out = await handler({
    question: job.message,
    history: run.past,
    graph: config.GRAPHDB_GRAPH,
    llm: agentTarget,
    emit: run.emit,
    recordUsage: run.recordUsage,
    signal,
    ...(job.llm.examples === 'off' ? { examples: false } : {}),
  }).catch((err: unknown) => {
    const failure = signal.aborted || decision.route !== 'agent' ? null : llmFailureOf(err);
    // An overloaded server keeps its own message (HTTP status, retries); the others get the fix.
    if (failure && failure !== 'unavailable') throw new Error(describeLlmFailure(agentTarget, 'agent', failure, err), { cause: err });
    // Neither model nor lookup could answer: say both, so the fix for each is in view.
    if (fallback) throw new Error(`${fallback}; answering by lookup failed too: ${describeJobError(err)}`, { cause: err });
    throw err;
  });
  const result: ChatResponse = {
    session_id: job.session_id,
    answer: out.answer,
    route_taken: decision.route,
    // Kept with the job and the session for days: bounded whatever the handler returned.
    sources: boundSources(out.sources, config.SEARCH_TEXT_MAX_CHARS),
    token_usage: addUsage(decision.token_usage, out.token_usage),
  };
  run.log.debug('job answered', { route: decision.route });
  return {
    status: 'done',
    result,
    user: { role: 'user', content: job.message, route: null, confidence: null, events: [] },
    // The final event is kept with the message too, so its sources survive a reload.
    assistant: {
      role: 'assistant',
      content: out.answer,
      route: decision.route,
      confidence: decision.confidence,
      events: [...run.events, { type: 'job_done', data: { ...result } }],
    },
  };
}

/**
 * Runs a taken `job` (with the session's trimmed `history`) to its end; resolves when the
 * finished record is written (or the run was aborted).
 */
export async function runJob(
  deps: JobRunnerDeps,
  job: JobRecord,
  history: Message[],
  workerId: string,
  signal: AbortSignal,
): Promise<void> {
  const { config, jobs, limiter } = deps;
  const log = deps.log.child({ jobId: job.job_id });
  // A store blink pauses the job's writes (and so the job) rather than failing it.
  const storeWait = createStoreWait({ limitMs: config.JOB_STORE_WAIT_MS, signal, log });
  // `routing_started` was published when the job was taken (same round trip).
  const events: JobEvent[] = [ROUTING_STARTED];
  const run: JobRun = {
    deps,
    job,
    // A regenerate's models must not see the answer it replaces (nor its question twice).
    past: job.regenerate ? withoutReplacedPair(history, job.message) : history,
    signal,
    log,
    events,
    async emit(event) {
      // The answer's pieces are in the answer itself: the session's copy of the events skips them.
      if (event.type !== 'answer_delta') events.push(event);
      await storeWait(() => jobs.publish(job, event));
    },
    async recordUsage(usage) {
      const { user_id } = job;
      if (user_id) await storeWait(() => limiter.recordTokens(user_id, usage.input_tokens + usage.output_tokens));
    },
  };
  let outcome: JobOutcome;
  try {
    outcome = await answer(run);
  } catch (err) {
    // Past the shutdown grace period: leave the job on the processing list to be requeued.
    if (signal.aborted) return;
    const error = describeJobError(err);
    log.warn('job failed', { error, cause: err });
    outcome = { status: 'error', error };
  }
  await finishDurably(() => jobs.finish(job, outcome, workerId), signal, log);
}

/** How long a finished job's record is retried while the key-value store is down. */
export const FINISH_RETRY_MS = 120_000;

/**
 * Writes the outcome, retrying while the key-value store is unreachable (a Redis restart or
 * failover): an accepted job must end `done` or `error`, never stay `running`. A job still not
 * written when this gives up stays on the worker's processing list, where the worker's own
 * sweep (src/chat/worker.ts) puts it back on the queue once the store answers.
 */
async function finishDurably(write: () => Promise<unknown>, signal: AbortSignal, log: Logger): Promise<void> {
  const deadline = Date.now() + FINISH_RETRY_MS;
  for (let delay = 200; ; delay = Math.min(delay * 2, 2_000)) {
    try {
      await write();
      return;
    } catch (err) {
      if (signal.aborted || Date.now() + delay > deadline) {
        log.error('could not record the end of a job; it stays on the processing list', { error: err });
        return;
      }
      log.warn('recording the end of a job failed; retrying', { error: err, retryInMs: delay });
      await sleep(delay);
    }
  }
}
