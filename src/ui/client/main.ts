/**
 * Entry of the chat page's script: gets the anonymous identity, loads the model settings and
 * the session list, and wires the composer (Enter sends, Shift+Enter adds a line), the sidebar
 * (with its search box), the theme selector, the export buttons and the failure notices together.
 */
import { ApiError, bootstrap, request } from './api.js';
import { hideBanner, showBanner, showRateLimit } from './banner.js';
import type { ChatSessionView } from '../../contract/chat.js';
import { ChatPane, type SendOptions } from './chat.js';
import { cutText } from '../../lib/text.js';
import { announce, byId } from './dom.js';
import { exportSession } from './export.js';
import { initSessionSearch } from './session-search.js';
import { initSettings, type LlmConfig, type Settings } from './settings.js';
import { Sidebar } from './sessions.js';
import { answerArrived, refreshSetup } from './setup.js';
import { initThemeToggle } from './theme.js';

const input = byId<HTMLTextAreaElement>('composer-input');
const sendBtn = byId<HTMLButtonElement>('send');
const pane = new ChatPane();
pane.onAnswer = answerArrived;
let settings: Settings = { headers: () => ({}) };
let sessionId: string | null = null;
let busy = false;
let blockedUntil = 0;

/** Send, or Stop while an answer is being written (a button, not a submit: Enter never stops). */
const updateSend = () => {
  // Also for a job resumed from another tab: one answer at a time per chat.
  const stop = pane.currentJob !== null;
  sendBtn.type = stop ? 'button' : 'submit';
  sendBtn.textContent = stop ? 'Stop' : 'Send';
  sendBtn.classList.toggle('stop', stop);
  sendBtn.setAttribute('aria-label', stop ? 'Stop the answer' : 'Send');
  sendBtn.disabled = stop ? false : busy || Date.now() < blockedUntil;
};
pane.onJobChange = updateSend;
pane.onAgain = (turn) => void sendText(turn.text, { again: turn });

/** Explains a failed call in the banner. */
function report(err: unknown, retry?: () => void): void {
  if (!(err instanceof ApiError)) {
    showBanner('error', `Something went wrong: ${err instanceof Error ? err.message : String(err)}`);
    return;
  }
  const action = retry
    ? {
        label: 'Try again',
        run: () => {
          hideBanner();
          retry();
        },
      }
    : undefined;
  switch (err.kind) {
    case 'rate-limited': {
      const at = err.retryAt ?? new Date(Date.now() + 60_000);
      blockedUntil = at.getTime();
      updateSend();
      showRateLimit(at, updateSend);
      return;
    }
    case 'network':
      showBanner('error', 'The chat server cannot be reached. Check that it is running, then try again.', action);
      return;
    case 'unavailable':
      showBanner('error', `The server or one of its services is down: ${err.message}. Try again in a moment.`, action);
      return;
    case 'unauthorized':
      showBanner('error', 'Your anonymous identity could not be renewed. Reload the page to start again.');
      return;
    case 'not-found':
      showBanner('warn', 'That chat no longer exists; it may have expired.');
      return;
    case 'server':
      showBanner('error', `The server failed (HTTP ${err.status}). Try again.`, action);
      return;
    default:
      showBanner('warn', err.message);
      return;
  }
}

function setSession(id: string | null): void {
  sessionId = id;
  sidebar.setActive(id);
  byId('export').hidden = !id;
  history.replaceState(null, '', id ? `#s=${encodeURIComponent(id)}` : location.pathname + location.search);
}

async function openSession(id: string): Promise<void> {
  closeSidebarOnNarrow();
  try {
    const s = await request<ChatSessionView>('GET', `/chat/session/${encodeURIComponent(id)}`);
    hideBanner();
    setSession(s.session_id);
    pane.show(s);
    announce(`Opened chat ${s.name}.`);
    input.focus();
  } catch (err) {
    report(err);
  }
}

function newChat(): void {
  closeSidebarOnNarrow();
  setSession(null);
  pane.clear();
  input.focus();
}

const sidebar = new Sidebar({
  open: (id) => void openSession(id),
  deleted: () => newChat(),
  error: (err) => report(err),
});

async function sendText(text: string, opts: SendOptions = {}): Promise<void> {
  if (busy || pane.currentJob || Date.now() < blockedUntil) return;
  busy = true;
  updateSend();
  if (!opts.again) input.value = '';
  await pane.send(
    text,
    sessionId,
    {
      headers: () => settings.headers(),
      session: (id, first) => {
        if (id !== sessionId) {
          setSession(id);
          sidebar.upsert({ session_id: id, name: cutText(first, 60), created_at: Date.now() / 1000, messages: [{ content: first }] });
          byId('chat-title').textContent = cutText(first, 60);
        }
        hideBanner();
      },
      rejected: (err, text) => {
        if (opts.again) return report(err, () => void sendText(text, opts));
        if (!input.value) input.value = text;
        report(err, () => void sendText(input.value.trim() || text));
      },
    },
    opts,
  );
  busy = false;
  updateSend();
  if (sessionId) void refreshName(sessionId);
}

/** Picks up the server's name for the session (derived from the first message, or set by PATCH). */
async function refreshName(id: string): Promise<void> {
  try {
    const s = await request<ChatSessionView>('GET', `/chat/session/${encodeURIComponent(id)}`);
    sidebar.upsert({ session_id: s.session_id, name: s.name, created_at: s.created_at, messages: s.messages });
    if (id === sessionId) byId('chat-title').textContent = s.name;
  } catch {
    // The list keeps the local title.
  }
}

function closeSidebarOnNarrow(): void {
  document.body.classList.remove('sidebar-open');
  byId('sidebar-toggle').setAttribute('aria-expanded', 'false');
}

function wire(): void {
  sendBtn.addEventListener('click', () => {
    if (sendBtn.type !== 'button') return;
    sendBtn.disabled = true;
    pane.stop().catch((err: unknown) => {
      report(err);
      updateSend();
    });
  });
  byId('composer').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (text) void sendText(text);
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      byId<HTMLFormElement>('composer').requestSubmit();
    }
  });
  byId('new-chat').addEventListener('click', newChat);
  initThemeToggle(byId<HTMLSelectElement>('theme-select'));
  initSessionSearch(byId<HTMLInputElement>('session-search'), (q) => sidebar.search(q));
  for (const format of ['md', 'json'] as const) {
    byId(`export-${format}`).addEventListener('click', () => {
      if (sessionId) exportSession(sessionId, format).catch((err: unknown) => report(err));
    });
  }
  const toggle = byId('sidebar-toggle');
  toggle.addEventListener('click', () => {
    const open = document.body.classList.toggle('sidebar-open');
    toggle.setAttribute('aria-expanded', String(open));
    if (open) byId('new-chat').focus();
  });
}

async function start(): Promise<void> {
  try {
    await bootstrap();
  } catch (err) {
    report(err, () => void start());
    return;
  }
  hideBanner();
  const [config, list] = await Promise.allSettled([request<LlmConfig>('GET', '/config'), sidebar.refresh(), refreshSetup(false)]);
  if (config.status === 'fulfilled') settings = initSettings(config.value);
  if (list.status === 'rejected') report(list.reason, () => void sidebar.refresh().catch((e: unknown) => report(e)));
  const fromHash = /^#s=([A-Za-z0-9_-]+)$/.exec(location.hash)?.[1];
  if (fromHash) await openSession(fromHash);
  document.body.dataset.ready = 'true';
}

wire();
updateSend();
void start();
