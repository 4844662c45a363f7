/**
 * The conversation pane: opens a session with its history, sends a message (shown at once),
 * follows the job's events until the answer, and falls back to polling the job when the
 * stream cannot be resumed.
 */
import { JOB_CANCELLED, type ChatSessionView, type JobSubmission, type JobView } from '../../contract/chat.js';
import { ApiError, request } from './api.js';
import { announce, byId } from './dom.js';
import { AssistantView, storedAssistant, userMessage } from './messages.js';
import { followJob } from './stream.js';

/** What a send reports back to the page. */
export interface SendHooks {
  headers(): Record<string, string>;
  /** The API assigned (or confirmed) the session of this message. */
  session(id: string, firstMessage: string): void;
  /** Sending failed before a job existed (rate limit, server down…); the text is handed back. */
  rejected(err: unknown, text: string): void;
}

const sleep = (ms: number) => new Promise((r) => window.setTimeout(r, ms));

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

  /** Shows a stored session; resumes its running job when the API names one. */
  show(s: ChatSessionView): void {
    this.clear(s.name);
    for (const m of s.messages) this.list.appendChild(m.role === 'user' ? userMessage(m.content) : storedAssistant(m).el);
    byId('empty-hint').hidden = s.messages.length > 0;
    this.scroll(true);
    if (s.pending_job_id) void this.run(s.pending_job_id, this.addView());
  }

  /** Sends `text` in `sessionId` (null: a new session); resolves when the job has ended. */
  async send(text: string, sessionId: string | null, hooks: SendHooks): Promise<void> {
    byId('empty-hint').hidden = true;
    const userLi = userMessage(text);
    this.list.appendChild(userLi);
    const view = this.addView();
    view.setStatus('Sending…');
    this.scroll(true);
    let sub: JobSubmission;
    try {
      sub = await request<JobSubmission>('POST', '/chat/message', {
        body: sessionId ? { message: text, session_id: sessionId } : { message: text },
        headers: hooks.headers(),
      });
    } catch (err) {
      userLi.remove();
      view.el.remove();
      byId('empty-hint').hidden = this.list.childElementCount > 0;
      hooks.rejected(err, text);
      return;
    }
    hooks.session(sub.session_id, text);
    await this.run(sub.job_id, view, () => void this.send(text, sub.session_id, hooks));
  }

  private addView(): AssistantView {
    const view = new AssistantView();
    this.list.appendChild(view.el);
    return view;
  }

  /** Follows the job into `view` until it ends. */
  private async run(jobId: string, view: AssistantView, retry?: () => void): Promise<void> {
    this.follow?.abort();
    const ctl = new AbortController();
    this.follow = ctl;
    this.setJob(jobId);
    try {
      await this.followToEnd(jobId, view, ctl, retry);
    } finally {
      if (this.follow === ctl) this.setJob(null);
    }
  }

  private async followToEnd(jobId: string, view: AssistantView, ctl: AbortController, retry?: () => void): Promise<void> {
    let ended = false;
    const outcome = await followJob(
      jobId,
      {
        onEvent: (ev) => {
          if (ev.type === 'job_done') {
            const r = ev.data;
            view.finish(String(r.answer ?? ''), r.sources ?? []);
            announce('The answer is ready.');
            this.onAnswer?.();
            ended = true;
          } else if (ev.type === 'job_error') {
            failed(view, String(ev.data.error ?? 'unknown error'), retry);
            ended = true;
          } else {
            const line = view.addEvent(ev);
            if (line && ev.type !== 'routing_started') announce(line);
          }
          this.scroll(false);
        },
        onState: (state, attempt) => {
          if (state === 'reconnecting') view.setStatus(`Connection lost — reconnecting (attempt ${attempt})…`, 'warn');
          else if (state === 'open') view.setStatus(attempt ? 'Reconnected — resuming.' : 'Waiting for the answer…');
        },
      },
      { signal: ctl.signal },
    );
    if (ctl.signal.aborted || ended) return;
    await this.poll(jobId, view, outcome === 'gone', retry);
  }

  /** Reads the job's final state when the stream is gone or could not be resumed. */
  private async poll(jobId: string, view: AssistantView, gone: boolean, retry?: () => void): Promise<void> {
    view.setStatus(gone ? 'Checking the job…' : 'The live stream is unavailable; checking the job instead…', 'warn');
    for (let i = 0; i < 200; i++) {
      try {
        const job = await request<JobView>('GET', `/chat/job/${encodeURIComponent(jobId)}`);
        if (job.status === 'done' && job.result) {
          this.onAnswer?.();
          return view.finish(job.result.answer, job.result.sources ?? [], job.result.route_taken);
        }
        if (job.status === 'error') return failed(view, job.error ?? 'unknown error', retry);
      } catch (err) {
        if (err instanceof ApiError && err.kind === 'not-found')
          return view.fail('This answer is no longer available: the job expired.', retry);
      }
      await sleep(1500);
      if (this.follow?.signal.aborted) return;
    }
    view.fail('Lost the connection to the server before the answer arrived.', retry);
  }

  private scroll(force: boolean): void {
    const el = this.list;
    const near = el.scrollHeight - el.scrollTop - el.clientHeight < 160;
    if (force || near) el.scrollTop = el.scrollHeight;
  }
}
