/**
 * The sidebar: the user's sessions newest first, each a button that opens it plus rename and
 * delete actions. Names come from `GET /chat/session/{id}`; sessions that expired between
 * listing and reading are left out.
 */
import { request } from './api.js';
import { openDialog } from './dialog.js';
import { announce, append, byId, h } from './dom.js';
import { matchesSession } from './session-search.js';

/** A session as the sidebar shows it. */
export interface SessionSummary {
  session_id: string;
  name: string;
  created_at: number | null;
  /** The messages, as the session endpoint returns them (searched by the sidebar's search box). */
  messages?: ReadonlyArray<{ content: string }>;
}

/** What the sidebar asks of the page. */
export interface SidebarHandlers {
  open(id: string): void;
  /** Called after the open session was deleted. */
  deleted(id: string): void;
  error(err: unknown): void;
}

/** Loads up to `limit` sessions' names, a few requests at a time. */
async function loadSummaries(ids: string[], limit = 100): Promise<SessionSummary[]> {
  const out: (SessionSummary | null)[] = new Array(Math.min(ids.length, limit)).fill(null);
  let next = 0;
  const worker = async () => {
    while (next < out.length) {
      const i = next++;
      try {
        out[i] = await request<SessionSummary>('GET', `/chat/session/${encodeURIComponent(ids[i]!)}`);
      } catch {
        out[i] = null;
      }
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  return out.filter((s): s is SessionSummary => s !== null);
}

/** The sidebar's state and rendering. */
export class Sidebar {
  private sessions: SessionSummary[] = [];
  private active: string | null = null;
  private query = '';

  constructor(private readonly handlers: SidebarHandlers) {}

  /** Reloads the list from the API. */
  async refresh(): Promise<void> {
    const { sessions } = await request<{ sessions: string[] }>('GET', '/chat/sessions');
    const loaded = await loadSummaries(sessions);
    // Keep a just-created session that the API lists only once its first job has finished.
    const local = this.sessions.filter((s) => !loaded.some((l) => l.session_id === s.session_id) && s.session_id === this.active);
    this.sessions = [...local, ...loaded].sort((a, b) => (b.created_at ?? 0) - (a.created_at ?? 0));
    this.render();
  }

  /** Marks `id` as the open session (null: a new, unsaved chat). */
  setActive(id: string | null): void {
    this.active = id;
    this.render();
  }

  /** Shows only the sessions whose name or messages contain every word of `query`. */
  search(query: string): void {
    this.query = query;
    this.render();
  }

  /** Adds or updates a session at the top of the list (fields left out keep their value). */
  upsert(s: SessionSummary): void {
    const i = this.sessions.findIndex((x) => x.session_id === s.session_id);
    if (i >= 0) this.sessions[i] = { ...this.sessions[i], ...s };
    else this.sessions.unshift(s);
    this.render();
  }

  /** The name shown for `id`, if listed. */
  nameOf(id: string): string | undefined {
    return this.sessions.find((s) => s.session_id === id)?.name;
  }

  private render(): void {
    const shown = this.sessions.filter((s) => matchesSession(s, this.query));
    byId('session-list').replaceChildren(...shown.map((s) => this.item(s)));
    byId('session-empty').hidden = this.sessions.length > 0;
    const none = byId('session-nomatch');
    none.hidden = shown.length > 0 || this.sessions.length === 0;
    none.textContent = none.hidden ? '' : `No chats match “${this.query.trim()}”.`;
  }

  private item(s: SessionSummary): HTMLLIElement {
    const current = s.session_id === this.active;
    const openBtn = h('button', { type: 'button', class: 'session-open', 'aria-current': current ? 'true' : false, title: s.name }, s.name);
    openBtn.addEventListener('click', () => this.handlers.open(s.session_id));
    const rename = h('button', { type: 'button', class: 'session-rename', 'aria-label': `Rename chat “${s.name}”` }, 'Rename');
    rename.addEventListener('click', () => void this.rename(s));
    const del = h('button', { type: 'button', class: 'session-delete', 'aria-label': `Delete chat “${s.name}”` }, 'Delete');
    del.addEventListener('click', () => void this.remove(s));
    const li = h('li', { class: current ? 'session current' : 'session', 'data-session-id': s.session_id });
    append(li, openBtn, h('span', { class: 'session-actions' }, rename, del));
    return li;
  }

  private async rename(s: SessionSummary): Promise<void> {
    const name = await openDialog({
      title: 'Rename chat',
      input: s.name,
      okLabel: 'Save',
      validate: (v) => (v.trim().length < 1 ? 'Enter a name.' : v.trim().length > 100 ? 'At most 100 characters.' : null),
    });
    if (name === null) return;
    try {
      const res = await request<{ session_id: string; name: string }>('PATCH', `/chat/session/${encodeURIComponent(s.session_id)}`, {
        body: { name },
      });
      this.upsert({ ...s, name: res.name });
      if (s.session_id === this.active) byId('chat-title').textContent = res.name;
      announce(`Chat renamed to ${res.name}.`);
    } catch (err) {
      this.handlers.error(err);
    }
  }

  private async remove(s: SessionSummary): Promise<void> {
    const ok = await openDialog({
      title: 'Delete chat',
      text: `Delete “${s.name}” and its messages? This cannot be undone.`,
      okLabel: 'Delete',
    });
    if (ok === null) return;
    try {
      await request('DELETE', `/chat/session/${encodeURIComponent(s.session_id)}`);
      this.sessions = this.sessions.filter((x) => x.session_id !== s.session_id);
      this.render();
      announce(`Chat “${s.name}” deleted.`);
      if (s.session_id === this.active) this.handlers.deleted(s.session_id);
      else byId('new-chat').focus();
    } catch (err) {
      this.handlers.error(err);
    }
  }
}
