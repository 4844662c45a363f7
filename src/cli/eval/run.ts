/**
 * Runs a question set through the chat: each question is a message whose job stream is followed
 * to its end or to the per-question timeout. Questions of one session go in file order in one
 * chat session (follow-ups see their history); sessions and session-less questions run
 * side by side, `concurrency` at a time.
 */
import { RefusedError, ServiceDownError, type ChatClient } from './client.js';
import type { EvalQuestion } from './questions.js';
import { toQuestionResult, type QuestionResult, type RunOutcome, type TimedEvent } from './result.js';

/** Options of {@link runQuestions}. */
export interface RunOptions {
  client: ChatClient;
  /** Sessions (or lone questions) in flight at once (default 4). */
  concurrency?: number;
  /** Seconds a question may take from its acceptance to its last event (default 120). */
  timeoutSeconds?: number;
  /** Called as each question ends (for the progress bar). */
  onResult?: (result: QuestionResult, finished: number, total: number) => void;
  /** Stops the run (Ctrl-C); questions not yet sent are not sent. */
  signal?: AbortSignal;
}

/** Questions grouped into lanes: one per session id, one per question without a session. */
export function toLanes(questions: EvalQuestion[]): EvalQuestion[][] {
  const bySession = new Map<string, EvalQuestion[]>();
  const lanes: EvalQuestion[][] = [];
  for (const q of questions) {
    if (!q.session) {
      lanes.push([q]);
      continue;
    }
    let lane = bySession.get(q.session);
    if (!lane) {
      lane = [];
      bySession.set(q.session, lane);
      lanes.push(lane);
    }
    lane.push(q);
  }
  return lanes;
}

/** Runs one question; only a service that stopped answering altogether is thrown. */
async function runOne(q: EvalQuestion, sessionId: string | null, opts: RunOptions): Promise<RunOutcome> {
  const { client } = opts;
  const events: TimedEvent[] = [];
  let submitted: Awaited<ReturnType<ChatClient['submit']>>;
  try {
    submitted = await client.submit(q.question, sessionId, opts.signal);
  } catch (err) {
    if (err instanceof RefusedError) return { status: 'error', error: `message refused: ${err.message}`, events, waitedMs: 0 };
    throw err;
  }
  // Latency counts from the accepted request, not from the rate-limit waits before it.
  const t0 = performance.now();
  const timeout = AbortSignal.timeout((opts.timeoutSeconds ?? 120) * 1000);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const base = { jobId: submitted.jobId, sessionId: submitted.sessionId, events, waitedMs: submitted.waitedMs };
  try {
    await client.follow(submitted.jobId, (e) => events.push({ ...e, atMs: performance.now() - t0 }), signal);
  } catch (err) {
    if (timeout.aborted) {
      await client.cancel(submitted.jobId);
      return { ...base, status: 'timeout', error: `no answer within ${opts.timeoutSeconds ?? 120} s` };
    }
    if (err instanceof ServiceDownError || opts.signal?.aborted) throw err;
    return { ...base, status: 'error', error: `following the job failed: ${(err as Error).message}` };
  }
  const failed = events.some((e) => e.type === 'job_error');
  return { ...base, status: failed ? 'error' : 'done' };
}

/**
 * Runs every question and returns their records in file order.
 * @throws ServiceDownError when the service stops answering (the run cannot go on).
 */
export async function runQuestions(questions: EvalQuestion[], options: RunOptions): Promise<QuestionResult[]> {
  // One lane failing for good stops the others rather than leaving them running behind the error.
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const opts = { ...options, signal };
  const results = new Map<string, QuestionResult>();
  const lanes = toLanes(questions);
  let next = 0;
  const worker = async () => {
    while (next < lanes.length && !signal.aborted) {
      const lane = lanes[next++]!;
      let sessionId: string | null = null;
      for (const q of lane) {
        if (signal.aborted) return;
        const outcome = await runOne(q, sessionId, opts);
        sessionId = outcome.sessionId ?? sessionId;
        const result = toQuestionResult(q, outcome);
        results.set(q.id, result);
        opts.onResult?.(result, results.size, questions.length);
      }
    }
  };
  const n = Math.max(1, Math.min(opts.concurrency ?? 4, lanes.length));
  await Promise.all(
    Array.from({ length: n }, () =>
      worker().catch((err) => {
        stop.abort(err);
        throw err;
      }),
    ),
  );
  return questions.flatMap((q) => results.get(q.id) ?? []);
}
