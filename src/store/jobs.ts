/**
 * Job records and their events. Every write that touches a job and its session is one Lua
 * script on their shared hash slot, so a job is stored together with its session, each event
 * reaches the job's event list, the session's `pending_events` and the live channel at once,
 * and the finished record and the session's new messages are written as one step. The queue and
 * the user's session list sit in slots of their own; the order of those steps and why a crash
 * between them loses nothing is in keys.ts.
 */
import type { ChatResponse, JobEvent, JobStatus, Message } from '../contract/chat.js';
import type { LlmProvider } from '../contract/providers.js';
import type { KvClient, KvStore } from './redis.js';
import { createKeys, hasSlotTag, type Keys, HISTORY_MESSAGES, LIFETIMES, nowSeconds, slotTag, uuidWithTag } from './keys.js';
import { defineScript } from './script.js';
import { FINISH_LUA, LIST_SESSION_LUA, PUBLISH_LUA, SUBMIT_LUA, TAKE_LUA } from './jobs-lua.js';

/** Per-job `x-llm-*` overrides, kept with the job for the worker. */
export interface JobLlm {
  provider?: LlmProvider;
  agent_model?: string;
  router_provider?: LlmProvider;
  router_model?: string;
  /** `off`: no examples in this job's agent prompt (`x-agent-examples: off`). */
  examples?: 'off';
}

/** The contract's JobRecord plus the worker's bookkeeping (`attempts`, `llm`). */
export interface JobRecord {
  job_id: string;
  session_id: string;
  user_id: string | null;
  is_new_session: boolean;
  message: string;
  status: JobStatus;
  created_at: number;
  result: ChatResponse | null;
  error: string | null;
  /** Times a worker has taken the job. */
  attempts: number;
  llm: JobLlm;
  /** A regenerate: its answer replaces the session's last pair (see `NewJob.regenerate`). */
  regenerate: boolean;
}

/** What `POST /chat/message` stores. */
export interface NewJob {
  message: string;
  /** A session to continue; null, unknown or expired starts a new one. */
  sessionId: string | null;
  /** Replace the session's last question-and-answer pair when it is this question (regenerate). */
  regenerate?: boolean;
  userId: string | null;
  llm: JobLlm;
}

/** An event with its sequence number (its SSE id). */
export interface SeqEvent {
  seq: number;
  event: JobEvent;
}

/** How a job ended. */
export type JobOutcome = { status: 'done'; result: ChatResponse; user: Message; assistant: Message } | { status: 'error'; error: string };

/** Job storage. */
export interface JobStore {
  /**
   * Loads or creates the session and stores the job (one atomic step), then queues it. Null when
   * the queue holds `maxPending` jobs already (nothing is stored; concurrent submissions may
   * pass the bound by the few that checked at the same instant). When queueing fails the job
   * is ended in error and the store's error is thrown.
   */
  submit(job: NewJob): Promise<{ jobId: string; sessionId: string; isNewSession: boolean } | null>;
  /** The job, or null when unknown or expired. */
  get(jobId: string): Promise<JobRecord | null>;
  /**
   * Marks a queued job `running`, counts the attempt, publishes `first` (the job's first event)
   * and reads the session's last 10 message pairs — one round trip; null when the job is gone
   * or already finished.
   */
  take(jobId: string, first: JobEvent): Promise<{ job: JobRecord; history: Message[] } | null>;
  /** Whether the job exists and has finished (its final event is stored), and its events after `afterSeq` — one round trip. */
  open(jobId: string, afterSeq?: number): Promise<{ exists: boolean; finished: boolean; events: SeqEvent[] }>;
  /** Appends an event (job events, session `pending_events`, live channel); returns its seq. */
  publish(job: Pick<JobRecord, 'job_id' | 'session_id'>, event: JobEvent): Promise<number>;
  /**
   * Lists the session for its user (a done job), writes the finished record with the final
   * `job_done`/`job_error` event and the session's messages (one script), then removes the job
   * from worker `workerId`'s processing list ('' = none: a cancel). Three steps, as keys.ts says.
   * @returns the final event's seq, or 0 when the job had already finished.
   */
  finish(job: JobRecord, outcome: JobOutcome, workerId: string): Promise<number>;
  /** Events with seq greater than `afterSeq`, in order. */
  events(jobId: string, afterSeq?: number): Promise<SeqEvent[]>;
  /** Jobs waiting in the queue, and workers whose lease is alive (the readiness report). */
  stats(): Promise<{ pending: number; workers: number }>;
}

const SUBMIT = defineScript('gcJobSubmit', SUBMIT_LUA);
const TAKE = defineScript('gcJobTake', TAKE_LUA);
const PUBLISH = defineScript('gcJobPublish', PUBLISH_LUA);
const FINISH = defineScript('gcJobFinish', FINISH_LUA);
const LIST_SESSION = defineScript('gcJobListSession', LIST_SESSION_LUA);

/** The job error when the job was stored but could not be queued. */
export const NOT_QUEUED = 'the job could not be queued; send the message again';

/** Builds a {@link JobRecord} from the stored hash. */
export function parseJob(h: Record<string, string>): JobRecord | null {
  if (!h.job_id || !h.status) return null;
  return {
    job_id: h.job_id,
    session_id: h.session_id ?? '',
    user_id: h.user_id || null,
    is_new_session: h.is_new_session === '1',
    message: h.message ?? '',
    status: h.status as JobStatus,
    created_at: Number(h.created_at),
    result: h.result ? (JSON.parse(h.result) as ChatResponse) : null,
    error: h.error || null,
    attempts: Number(h.attempts ?? 0),
    llm: h.llm ? (JSON.parse(h.llm) as JobLlm) : {},
    regenerate: h.regenerate === '1',
  };
}

const toSeqEvents = (items: string[], afterSeq: number): SeqEvent[] =>
  items.map((s, i) => ({ seq: afterSeq + i + 1, event: JSON.parse(s) as JobEvent }));

const toHash = (flat: unknown): Record<string, string> => {
  const arr = flat as string[];
  const h: Record<string, string> = {};
  for (let i = 0; i + 1 < arr.length; i += 2) h[arr[i]!] = arr[i + 1]!;
  return h;
};

/** The store's client and its keys, for the scripts below. */
interface JobDb {
  redis: KvClient;
  keys: Keys;
}

/** The FINISH script: the final event, the record and the session's messages. */
async function finishRecord(
  { redis, keys }: JobDb,
  job: Pick<JobRecord, 'job_id' | 'session_id' | 'regenerate'>,
  outcome: JobOutcome,
): Promise<number> {
  const done = outcome.status === 'done';
  const final: JobEvent = done ? { type: 'job_done', data: { ...outcome.result } } : { type: 'job_error', data: { error: outcome.error } };
  const seq = await FINISH(
    redis,
    [keys.jobEvents(job.job_id), keys.job(job.job_id), ...keys.sessionAll(job.session_id)],
    [
      JSON.stringify(final),
      outcome.status,
      done ? JSON.stringify(outcome.result) : outcome.error,
      done ? JSON.stringify(outcome.user) : '',
      done ? JSON.stringify(outcome.assistant) : '',
      LIFETIMES.jobSeconds,
      LIFETIMES.sessionSeconds,
      keys.jobLive(job.job_id),
      job.job_id,
      job.regenerate ? '1' : '0',
    ],
  );
  return Number(seq);
}

/** The SUBMIT script: loads or creates the session and stores the job (not yet queued). */
async function storeJob({ redis, keys }: JobDb, job: NewJob): Promise<{ jobId: string; sessionId: string; isNew: boolean }> {
  // Job, candidate session and fresh session share the candidate's slot tag (keys.ts); an
  // ID we never issued names no session, so it starts a new one like any unknown ID.
  const candidate = job.sessionId && hasSlotTag(job.sessionId) ? job.sessionId : '';
  const tag = slotTag(candidate || crypto.randomUUID());
  const jobId = uuidWithTag(tag);
  const fresh = uuidWithTag(tag);
  const [sessionId, isNew] = (await SUBMIT(
    redis,
    [...keys.sessionAll(candidate || fresh), keys.session(fresh), keys.job(jobId)],
    [
      candidate,
      fresh,
      job.userId ?? '',
      nowSeconds(),
      jobId,
      job.message,
      JSON.stringify(job.llm),
      LIFETIMES.jobSeconds,
      LIFETIMES.sessionSeconds,
      job.regenerate ? '1' : '0',
    ],
  )) as [string, string];
  return { jobId, sessionId, isNew: isNew === '1' };
}

/** The job store over `kv`. */
export function createJobStore(kv: Pick<KvStore, 'redis' | 'prefix'>, opts: { maxPending?: number } = {}): JobStore {
  const keys = createKeys(kv.prefix);
  const redis = kv.redis;
  const db: JobDb = { redis, keys };

  return {
    async submit(job) {
      if (opts.maxPending && (await redis.llen(keys.queue())) >= opts.maxPending) return null;
      const { jobId, sessionId, isNew } = await storeJob(db, job);
      try {
        await redis.lpush(keys.queue(), jobId);
      } catch (err) {
        // Not queued, so never run: end it now rather than leave the session waiting on it.
        await finishRecord(db, { job_id: jobId, session_id: sessionId, regenerate: false }, { status: 'error', error: NOT_QUEUED }).catch(
          () => 0,
        );
        throw err;
      }
      return { jobId, sessionId, isNewSession: isNew };
    },
    async get(jobId) {
      return parseJob(await redis.hgetall(keys.job(jobId)));
    },
    async take(jobId, first) {
      const reply = (await TAKE(
        redis,
        [keys.job(jobId), keys.jobEvents(jobId)],
        [
          // Each session key split around the session ID, which only the script reads.
          ...keys.sessionAll(jobId).flatMap((k) => [k.slice(0, k.lastIndexOf(jobId)), k.slice(k.lastIndexOf(jobId) + jobId.length)]),
          HISTORY_MESSAGES,
          JSON.stringify(first),
          LIFETIMES.jobSeconds,
          LIFETIMES.sessionSeconds,
          keys.jobLive(jobId),
          jobId,
        ],
      )) as [string[], string[]] | null;
      const job = reply ? parseJob(toHash(reply[0])) : null;
      return job ? { job, history: reply![1].map((s) => JSON.parse(s) as Message) } : null;
    },
    async open(jobId, afterSeq = 0) {
      const res = await redis.pipeline().hget(keys.job(jobId), 'status').lrange(keys.jobEvents(jobId), afterSeq, -1).exec();
      const [[e1, status], [e2, items]] = res as [[Error | null, string | null], [Error | null, string[]]];
      if (e1 || e2) throw e1 ?? e2;
      return { exists: status !== null, finished: status === 'done' || status === 'error', events: toSeqEvents(items, afterSeq) };
    },
    async publish(job, event) {
      const seq = await PUBLISH(
        redis,
        [keys.jobEvents(job.job_id), keys.job(job.job_id), ...keys.sessionAll(job.session_id)],
        [JSON.stringify(event), LIFETIMES.jobSeconds, LIFETIMES.sessionSeconds, keys.jobLive(job.job_id), job.job_id],
      );
      return Number(seq);
    },
    async finish(job, outcome, workerId) {
      if (job.user_id) {
        await LIST_SESSION(
          redis,
          [keys.userSessions(job.user_id), keys.user(job.user_id)],
          [job.session_id, outcome.status === 'done' ? '1' : '0', LIFETIMES.sessionSeconds],
        );
      }
      const seq = await finishRecord(db, job, outcome);
      if (workerId) await redis.lrem(keys.processing(workerId), 1, job.job_id);
      return seq;
    },
    async events(jobId, afterSeq = 0) {
      return toSeqEvents(await redis.lrange(keys.jobEvents(jobId), afterSeq, -1), afterSeq);
    },
    async stats() {
      const [pending, ids] = await Promise.all([redis.llen(keys.queue()), redis.smembers(keys.workers())]);
      // The leases share the queue's slot, so one pipeline serves a cluster too.
      const alive = await redis.pipeline(ids.map((id) => ['exists', keys.alive(id)])).exec();
      return { pending, workers: (alive ?? []).filter(([, n]) => n === 1).length };
    },
  };
}
