/**
 * The message list: user messages as plain text, assistant messages as sanitized Markdown with
 * their route, a foldable list of steps (routing, agent steps, tool calls and results) and the
 * source nodes. Live answers fill the same view event by event.
 */
import type { JobEvent, Message } from '../../contract/chat.js';
import type { ResultGraph } from '../../contract/graph.js';
import type { SourceNode } from '../../contract/search.js';
import { renderAnswer } from './answer.js';
import { cutText } from '../../lib/text.js';
import { append, h } from './dom.js';
import { graphButton } from './graph-view.js';
import { renderMarkdown } from './markdown.js';
import { sourceCard } from './source-card.js';

/** A message as the session endpoint returns it (`events` when the API includes them). */
export type StoredMessage = Pick<Message, 'role' | 'content'> & Partial<Pick<Message, 'route' | 'confidence' | 'events'>>;

const fmtConfidence = (c: unknown) => (typeof c === 'number' ? c.toFixed(2) : '?');

function shortJson(value: unknown, max = 120): string {
  if (value === undefined) return '';
  return cutText(typeof value === 'string' ? value : JSON.stringify(value), max);
}

/** One line describing an event, or null for events that are not steps. */
export function describeEvent(ev: JobEvent): string | null {
  switch (ev.type) {
    case 'routing_started':
      return 'Routing the question…';
    case 'routing_done': {
      const d = ev.data;
      return `Route: ${String(d.route)} (confidence ${fmtConfidence(d.confidence)})${d.reasoning ? ` — ${shortJson(d.reasoning, 160)}` : ''}`;
    }
    case 'agent_step':
      return `Step ${String(ev.data.iteration)}: asking ${String(ev.data.model ?? 'the model')}`;
    case 'tool_call':
      return `Tool call: ${String(ev.data.tool)}(${shortJson(ev.data.args)})`;
    case 'tool_result':
      return `Result of ${String(ev.data.tool)}: ${shortJson(ev.data.summary, 200)}`;
    case 'model_retry': {
      const d = ev.data;
      return `${String(d.model)} is busy (rate limited): asking again in ${Number(d.wait_ms) / 1000} s (retry ${String(d.attempt)} of ${String(d.retries)})`;
    }
    case 'answer_delta':
    case 'job_done':
    case 'job_error':
      return null;
    default: {
      // An event type this client does not know yet (a newer server): show it raw.
      const other = ev as { type: string; data?: unknown };
      return `${other.type}: ${shortJson(other.data ?? {})}`;
    }
  }
}

/** The list of source nodes: cards that open to the node's properties and neighbours (source-card.ts). */
export function renderSources(sources: SourceNode[]): HTMLDetailsElement | null {
  if (!sources.length) return null;
  const list = h('ul', { class: 'sources-list' });
  for (const s of sources) append(list, sourceCard(s));
  return h('details', { class: 'sources', open: true }, h('summary', {}, `Sources (${sources.length})`), list);
}

/** A user message. */
export function userMessage(text: string): HTMLLIElement {
  return h('li', { class: 'msg user' }, h('div', { class: 'who visually-hidden' }, 'You said:'), h('div', { class: 'bubble' }, text));
}

/** A live or stored assistant message, filled in as events arrive. */
export class AssistantView {
  readonly el: HTMLLIElement;
  private readonly meta: HTMLElement;
  private readonly steps: HTMLDetailsElement;
  private readonly stepsSummary: HTMLElement;
  private readonly stepList: HTMLOListElement;
  private readonly status: HTMLElement;
  private readonly body: HTMLElement;
  private count = 0;
  /** The answer as streamed so far (`answer_delta`), drawn at most once a frame. */
  private draft = '';
  private drawQueued = false;
  private done = false;
  /** The graphs of the tool results, for the graph view. */
  private readonly graphs: ResultGraph[] = [];

  constructor() {
    this.meta = h('div', { class: 'meta' });
    this.stepsSummary = h('summary', {}, 'Working…');
    this.stepList = h('ol', { class: 'step-list' });
    this.steps = h('details', { class: 'steps', open: true }, this.stepsSummary, this.stepList);
    this.status = h('div', { class: 'status' });
    this.body = h('div', { class: 'answer markdown' });
    this.el = h(
      'li',
      { class: 'msg assistant', 'aria-busy': 'true' },
      h('div', { class: 'who visually-hidden' }, 'Assistant:'),
      this.meta,
      this.steps,
      this.status,
      this.body,
    );
  }

  /** Shows a transient status line (sending, reconnecting…); empty hides it. */
  setStatus(text: string, kind: 'info' | 'warn' = 'info'): void {
    this.status.textContent = text;
    this.status.className = `status ${kind}`;
  }

  /** Adds one event: steps go into the list, `routing_done` also sets the route badge. */
  addEvent(ev: JobEvent): string | null {
    if (ev.type === 'routing_done') this.setRoute(ev.data.route, ev.data.confidence);
    if (ev.type === 'answer_delta') {
      this.addDraft(String(ev.data.text ?? ''));
      return null;
    }
    // A new model call starts a new draft: text written before tool calls was not the answer.
    if (ev.type === 'agent_step') this.addDraft(null);
    if (ev.type === 'tool_result' && ev.data.graph) this.graphs.push(ev.data.graph);
    const line = describeEvent(ev);
    if (!line) return null;
    // A retry explains the wait where the user looks; the next step replaces it.
    this.setStatus(ev.type === 'model_retry' ? `${line}…` : '', ev.type === 'model_retry' ? 'warn' : 'info');
    this.count += 1;
    append(this.stepList, h('li', { class: `step step-${ev.type.replace(/[^a-z_]/g, '')}` }, line));
    return line;
  }

  /** Adds streamed answer text (null: drop the draft). */
  private addDraft(text: string | null): void {
    this.draft = text === null ? '' : this.draft + text;
    if (this.drawQueued) return;
    this.drawQueued = true;
    requestAnimationFrame(() => {
      this.drawQueued = false;
      if (this.done) return;
      this.body.replaceChildren(...(this.draft ? [renderMarkdown(this.draft)] : []));
      this.body.classList.toggle('drafting', Boolean(this.draft));
    });
  }

  private setRoute(route: unknown, confidence: unknown): void {
    this.meta.replaceChildren(h('span', { class: 'route-badge' }, `${String(route)} · ${fmtConfidence(confidence)}`));
  }

  /** Shows the answer; steps fold away (still openable). */
  finish(answer: string, sources: SourceNode[], route?: unknown, confidence?: unknown): void {
    // The badge from `routing_done` has the confidence; a job's result has only the route.
    if (route && (confidence != null || !this.meta.childElementCount)) this.setRoute(route, confidence);
    this.done = true;
    this.setStatus('');
    this.body.classList.remove('drafting');
    this.body.replaceChildren(renderAnswer(answer));
    const src = renderSources(sources);
    if (src) {
      // A lookup answer already shows each node's text: its source list stays folded, names only.
      if (route === 'lookup') {
        src.open = false;
        src.classList.add('names-only');
      }
      this.el.appendChild(src);
    }
    if (sources.length || this.graphs.length) this.el.appendChild(graphButton(sources, this.graphs));
    this.foldSteps();
    this.el.removeAttribute('aria-busy');
  }

  /** Shows a failed job (or an unsendable message) with an optional retry action. */
  fail(message: string, retry?: () => void): void {
    this.done = true;
    this.setStatus('');
    this.body.classList.remove('drafting');
    const box = h('div', { class: 'error', role: 'alert' }, message);
    if (retry) {
      const btn = h('button', { type: 'button', class: 'retry' }, 'Try again');
      btn.addEventListener('click', () => {
        box.remove();
        retry();
      });
      append(box, ' ', btn);
    }
    this.body.replaceChildren(box);
    this.foldSteps();
    this.el.removeAttribute('aria-busy');
  }

  /** Offers "Regenerate" under a finished answer (the last one of the chat). */
  offerRegenerate(run: () => void): void {
    const btn = h(
      'button',
      { type: 'button', class: 'regenerate', title: 'Answer the same question again, replacing this answer' },
      'Regenerate',
    );
    btn.addEventListener('click', () => run());
    // Beside "Copy answer" (answer.ts), or on its own under an answer without one.
    const tools = this.body.querySelector('.answer-tools') ?? this.body.appendChild(h('div', { class: 'answer-tools' }));
    append(tools, ' ', btn);
  }

  /** Fills the view from a stored message: its steps, route and sources. */
  replay(m: StoredMessage): void {
    let sources: SourceNode[] = [];
    for (const ev of m.events ?? []) {
      if (ev.type === 'job_done') sources = ev.data.sources ?? [];
      else this.addEvent(ev);
    }
    this.finish(m.content, sources, m.route, m.confidence);
  }

  private foldSteps(): void {
    this.steps.open = false;
    this.steps.hidden = this.count === 0;
    this.stepsSummary.textContent = `Steps (${this.count})`;
  }
}

/** Renders a stored assistant message with its steps folded. */
export function storedAssistant(m: StoredMessage): AssistantView {
  const view = new AssistantView();
  view.replay(m);
  return view;
}
