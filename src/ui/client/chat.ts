/**
 * The conversation pane: opens a session with its history, sends a message (shown at once),
 * follows the job's events until the answer, and reads the job itself when the stream is
 * silent or failing (a proxy that blocks or buffers it), whichever ends first.
 */
import type { ChatSessionView, JobSubmission, JobView } from '../../contract/chat.js';
import { JOB_CANCELLED } from '../../contract/job-errors.js';
import { ApiError, request } from './api.js';
import { announce, byId } from './dom.js';
import { AssistantView, storedAssistant, userMessage } from './messages.js';
import { followJob, wait } from './stream.js';

/** What a send reports back to the page. */
export interface SendHooks {
  headers(): Record<string, string>;
  /** The API assigned (or confirmed) the session of this message. */
  session(id: string, firstMessage: string): void;
  /** Sending failed before a job existed (rate limit, server down…); the text is handed back. */
  rejected(err: unknown, text: string): void;
}

/** A question and its answer on the page; sending it again replaces the answer in place. */
export interface Turn {
  text: string;
  userLi: HTMLLIElement;
  view: AssistantView;
  /** True for a done answer (the server replaces the stored pair); false after a failure. */
  regenerate: boolean;
}

/** Options of {@link ChatPane.send}. */
export interface SendOptions {
  /** Ask again in place of this turn's answer. */
  again?: Turn;
}

/** After this long without an event the job is also read directly (a stream held by a proxy). */
const SILENCE_MS = 3_000;
const POLL_MS = 1_500;

/** Shows a job's error, or that the user stopped it. */
function failed(view: AssistantView, error: string, retry?: () => void): void {
  const stopped = error === JOB_CANCELLED;
  view.fail(stopped ? 'You stopped this answer.' : `The answer failed: ${error}`, retry);
  announce(stopped ? 'The answer was stopped.' : 'The answer failed.');
}

/** The message list and the job that is being followed. */
export class ChatPane {
  private readonly list = byId<HTMLOListElement>('messages');
  private follow: AbortController | null = null;
  /** Called when an answer arrives (the setup panel steps aside after the first one). */
  onAnswer?: () => void;
  /** The job being followed, while it runs (the page's Stop button cancels it). */
  currentJob: string | null = null;
  /** Called when {@link currentJob} changes. */
  onJobChange?: () => void;
  /** Called by "Regenerate" and "Try again": the page sends the turn again (it owns the busy state). */
  onAgain?: (turn: Turn) => void;

  /** Asks the API to stop the running job; its stream then ends with the cancellation. */
  async stop(): Promise<void> {
    if (this.currentJob) await request('POST', `/chat/job/${encodeURIComponent(this.currentJob)}/cancel`);
  }

  private setJob(id: string | null): void {
    this.currentJob = id;
    this.onJobChange?.();
  }

  /** Clears the pane for a new chat. */
  clear(title = 'New chat'): void {
    this.follow?.abort();
    this.list.replaceChildren();
    byId('chat-title').textContent = title;
    byId('empty-hint').hidden = false;
  }

  /** Shows a stored session; resumes its running job (with its question) when the API names one. */
  show(s: ChatSessionView): void {
    this.clear(s.name);
    // The last question and, when the session ends with one, its answer (which can be regenerated).
    let question: Pick<Turn, 'text' | 'userLi'> | null = null;
    let answer: AssistantView | null = null;
    for (const m of s.messages) {
      if (m.role === 'user') {
        question = { text: m.content, userLi: this.list.appendChild(userMessage(m.content)) };
        answer = null;
      } else {
        answer = storedAssistant(m);
        this.list.appendChild(answer.el);
      }
    }
    byId('empty-hint').hidden = s.messages.length + (s.pending_job_id ? 1 : 0) > 0;
    if (s.pending_job_id) {
      if (s.pending_message) this.list.appendChild(userMessage(s.pending_message));
      void this.run(s.pending_job_id, this.addView());
    } else if (question && answer) {
      const turn: Turn = { ...question, view: answer, regenerate: true };
      answer.offerRegenerate(() => this.onAgain?.(turn));
    }
    this.scroll(true);
  }

  /** Sends `text` in `sessionId` (null: a new session); resolves when the job has ended. */
  async send(text: string, sessionId: string | null, hooks: SendHooks, opts: SendOptions = {}): Promise<void> {
    byId('empty-hint').hidden = true;
    // Only the newest answer can be regenerated.
    for (const el of this.list.querySelectorAll('.answer-tools .regenerate')) el.remove();
    const again = opts.again;
    const userLi = again?.userLi ?? this.list.appendChild(userMessage(text));
    const view = new AssistantView();
    if (again) again.view.el.replaceWith(view.el);
    else this.list.appendChild(view.el);
    view.setStatus('Sending…');
    this.scroll(true);
    let sub: JobSubmission;
    try {
      const body = {
        message: text,
        ...(sessionId ? { session_id: sessionId } : {}),
        ...(again?.regenerate && sessionId ? { regenerate: true } : {}),
      };
      sub = await request<JobSubmission>('POST', '/chat/message', { body, headers: hooks.headers() });
    } catch (err) {
      if (again) view.el.replaceWith(again.view.el);
      else {
        userLi.remove();
        view.el.remove();
      }
      byId('empty-hint').hidden = this.list.childElementCount > 0;
      hooks.rejected(err, text);
      return;
    }
    hooks.session(sub.session_id, text);
    const turn = (regenerate: boolean): Turn => ({ text, userLi, view, regenerate });
    const ok = await this.run(sub.job_id, view, () => this.onAgain?.(turn(false)));
    if (ok) view.offerRegenerate(() => this.onAgain?.(turn(true)));
  }

  private addView(): AssistantView {
    const view = new AssistantView();
    this.list.appendChild(view.el);
    return view;
  }

  /** Follows the job into `view` until it ends; true when it ended with an answer. */
  private async run(jobId: string, view: AssistantView, retry?: () => void): Promise<boolean> {
    this.follow?.abort();
    const ctl = new AbortController();
    this.follow = ctl;
    this.setJob(jobId);
    try {
      return await this.followToEnd(jobId, view, ctl, retry);
    } finally {
      if (this.follow === ctl) this.setJob(null);
    }
  }

  private async followToEnd(jobId: string, view: AssistantView, ctl: AbortController, retry?: () => void): Promise<boolean> {
    let answered: boolean | null = null;
    const end = (ok: boolean) => {
      answered = ok;
      if (ok) {
        announce('The answer is ready.');
        this.onAnswer?.();
      }
      // The other path (stream or reads) stops here.
      ctl.abort();
    };
    // A stream that is silent or failing does not make the user wait: while it is (no event or
    // ping for 3 s, a second drop in a row, or given up), the job is read directly as well, and
    // whichever sees the end first shows it. A lively stream costs no reads.
    const link = { heardAt: Date.now(), down: false };
    const heard = () => {
      link.heardAt = Date.now();
      link.down = false;
    };
    const polling = this.pollJob(jobId, view, ctl.signal, () => link.down || Date.now() - link.heardAt >= SILENCE_MS, retry, end);
    const outcome = await followJob(
      jobId,
      {
        onEvent: (ev) => {
          if (answered !== null) return;
          heard();
          if (ev.type === 'job_done') {
            const r = ev.data;
            view.finish(String(r.answer ?? ''), r.sources ?? [], r.route_taken);
            end(true);
          } else if (ev.type === 'job_error') {
            failed(view, String(ev.data.error ?? 'unknown error'), retry);
            end(false);
          } else {
            const line = view.addEvent(ev);
            if (line && ev.type !== 'routing_started') announce(line);
          }
          this.scroll(false);
        },
        onComment: heard,
        onState: (state, attempt) => {
          if (answered !== null) return;
          if (state === 'reconnecting') {
            // One drop is resumed from the last event; a second in a row reads the job as well.
            if (attempt > 1) link.down = true;
            view.setStatus(`Connection lost — reconnecting (attempt ${attempt})…`, 'warn');
          } else if (state === 'open') view.setStatus(attempt ? 'Reconnected — resuming.' : 'Waiting for the answer…');
        },
      },
      { signal: ctl.signal },
    );
    if (!ctl.signal.aborted) {
      link.down = true;
      view.setStatus(outcome === 'gone' ? 'Checking the job…' : 'The live stream is unavailable; checking the job instead…', 'warn');
    }
    await polling;
    return answered === true;
  }

  /**
   * Reads the job every 1.5 s while `needed()` says the stream cannot be relied on, until the job
   * ends (or `signal` aborts). A job that never ends expires (404); 200 failed reads in a row
   * (the server is gone) give up. The answer's steps come from the session's stored copy, since
   * its events were not seen.
   */
  private async pollJob(
    jobId: string,
    view: AssistantView,
    signal: AbortSignal,
    needed: () => boolean,
    retry: (() => void) | undefined,
    end: (ok: boolean) => void,
  ) {
    for (let failures = 0; failures < 200; ) {
      await wait(POLL_MS, signal);
      if (signal.aborted) return;
      if (!needed()) continue;
      try {
        const job = await request<JobView>('GET', `/chat/job/${encodeURIComponent(jobId)}`, { signal });
        failures = 0;
        if (signal.aborted) return;
        if (job.status === 'done' && job.result) {
          await this.finishFromStore(view, job.result);
          return end(true);
        }
        if (job.status === 'error') {
          failed(view, job.error ?? 'unknown error', retry);
          return end(false);
        }
      } catch (err) {
        if (signal.aborted) return;
        if (err instanceof ApiError && err.kind === 'not-found') {
          view.fail('This answer is no longer available: the job expired.', retry);
          return end(false);
        }
        failures += 1;
      }
    }
    view.fail('Lost the connection to the server before the answer arrived.', retry);
    end(false);
  }

  /** Shows a done job's answer with its steps and route from the session's stored message. */
  private async finishFromStore(view: AssistantView, result: NonNullable<JobView['result']>): Promise<void> {
    const s = await request<ChatSessionView>('GET', `/chat/session/${encodeURIComponent(result.session_id)}`).catch(() => null);
    const stored = s?.messages.at(-1);
    if (stored?.role === 'assistant' && stored.content === result.answer) view.replay(stored);
    else view.finish(result.answer, result.sources ?? [], result.route_taken);
    this.scroll(false);
  }

  private scroll(force: boolean): void {
    const el = this.list;
    const near = el.scrollHeight - el.scrollTop - el.clientHeight < 160;
    if (force || near) el.scrollTop = el.scrollHeight;
  }
}
