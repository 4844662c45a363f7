/**
 * The setup panel: built from `GET /status`, it lists what is missing for a first answer
 * (database, text, model files, index, workers) and what only limits it (language models), each
 * with the command that fixes it. It shows while a required piece is missing, and for the
 * optional ones until this browser has received a first answer; it re-checks on its own while
 * something required is missing (a build in progress comes online without a reload). Under the
 * checks, folded, what is (or would be) indexed per label, as a table (plan-table.ts), and how
 * many examples the agent has (rejected ones are a check of their own, with their reasons).
 */
import type { Status, StatusCheck } from '../../contract/status.js';
import { request } from './api.js';
import { announce, append, byId, h } from './dom.js';
import { keepState, restoreState } from './keep-state.js';
import { countOf, planTable } from './plan-table.js';

const ANSWERED_KEY = 'graph-chat:answered';
const RECHECK_MS = 15_000;

let timer: number | undefined;

/** Text with `code` spans between backticks, as the server writes commands. */
function withCode(text: string): Array<Node | string> {
  return text.split('`').map((part, i) => (i % 2 ? h('code', {}, part) : part));
}

function item(c: StatusCheck): HTMLLIElement {
  return h(
    'li',
    { class: c.required ? 'setup-item required' : 'setup-item', 'data-check': c.id },
    h('strong', {}, c.title, c.required ? '' : ' (optional)'),
    ': ',
    c.detail,
    c.fix ? h('div', { class: 'setup-fix' }, 'Fix: ', ...withCode(c.fix)) : null,
  );
}

/** What is (or would be) indexed per label, as a table, folded: open by default when the graph has no text to index. */
function planDetails(s: Status): HTMLElement | null {
  const t = s.index_text;
  if (!t?.plan.labels.length) return null;
  const summary = t.source === 'build' ? 'What the search index holds, per label' : 'What a build would index, per label';
  const open = s.checks.some((c) => c.id === 'graph' && !c.ok);
  return h(
    'details',
    { class: 'setup-plan', id: 'setup-plan', 'data-keep': 'plan', ...(open ? { open: '' } : {}) },
    h('summary', {}, summary),
    // Outside the table, which scrolls sideways on a phone: the sentence stays whole.
    h(
      'p',
      { class: 'plan-note' },
      'The properties that name each node and make its text, and those left out: open a count for the reasons.',
    ),
    planTable(t.plan, `${countOf(t.plan.labels.length, 'label')} in the text plan`),
  );
}

const answered = () => {
  try {
    return localStorage.getItem(ANSWERED_KEY) === '1';
  } catch {
    return false;
  }
};

/** Draws the panel from a report; hides it when nothing needs doing. */
export function renderSetup(s: Status): void {
  const el = byId('setup');
  window.clearTimeout(timer);
  const missing = s.checks.filter((c) => !c.ok);
  const show = !s.ready || (missing.length > 0 && !answered());
  el.hidden = !show;
  if (!show) {
    el.replaceChildren();
    return;
  }
  const title = s.ready ? 'Chat works; it can do more' : 'Almost ready: a few things are missing';
  const recheck = h('button', { type: 'button', id: 'setup-recheck', 'data-keep': 'recheck' }, 'Check again');
  recheck.addEventListener('click', () => void refreshSetup(true));
  const hide = h('button', { type: 'button', id: 'setup-hide', 'data-keep': 'hide' }, 'Hide');
  hide.addEventListener('click', () => {
    window.clearTimeout(timer);
    el.hidden = true;
    byId('composer-input').focus();
  });
  // A redraw (every re-check) keeps what the reader opened, scrolled to and focused.
  const kept = keepState(el);
  el.replaceChildren();
  append(
    el,
    h('h3', { id: 'setup-title' }, title),
    h('ul', { class: 'setup-list' }, ...missing.map(item)),
    planDetails(s),
    s.examples?.count
      ? h(
          'p',
          { class: 'setup-examples' },
          `Agent examples: ${s.examples.count} in use, the closest ${s.examples.per_prompt} in each agent prompt.`,
        )
      : null,
    h('div', { class: 'setup-actions' }, recheck, ' ', hide),
  );
  restoreState(el, kept);
  if (!s.ready) timer = window.setTimeout(() => void refreshSetup(false), RECHECK_MS);
}

/** Fetches the report and redraws; a failure leaves the panel as it was (the banner reports outages). */
export async function refreshSetup(announceResult: boolean): Promise<void> {
  try {
    const s = await request<Status>('GET', '/status');
    renderSetup(s);
    if (announceResult) announce(s.ready ? 'Everything needed for an answer is ready.' : 'Some things are still missing.');
  } catch {
    // The status endpoint is advisory; chat itself says what failed.
  }
}

/** Records a first answer in this browser and redraws (the optional items step aside). */
export function answerArrived(): void {
  if (answered()) return;
  try {
    localStorage.setItem(ANSWERED_KEY, '1');
  } catch {
    // Without storage the panel simply stays until hidden.
  }
  void refreshSetup(false);
}
