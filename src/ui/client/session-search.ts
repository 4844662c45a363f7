/**
 * The sidebar's search box: filters the session list as the user types, over each session's name
 * and message text. It searches in the browser, over data the sidebar already has: to show the
 * names it reads every listed session with `GET /chat/session/{id}`, which returns the messages
 * too, so a server query would fetch the same text again and add an endpoint for nothing.
 */

/** What a session is searched by. */
export interface Searchable {
  name: string;
  messages?: ReadonlyArray<{ content: string }>;
}

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase();

/** True when every word of `query` occurs in the session's name or messages (case and accents ignored). */
export function matchesSession(s: Searchable, query: string): boolean {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (!words.length) return true;
  const text = fold([s.name, ...(s.messages ?? []).map((m) => m.content)].join('\n'));
  return words.every((w) => text.includes(w));
}

/** Calls `onQuery` with the box's text on every change (typing, clearing, Escape). */
export function initSessionSearch(input: HTMLInputElement, onQuery: (query: string) => void): void {
  input.addEventListener('input', () => onQuery(input.value));
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && input.value) {
      e.preventDefault();
      input.value = '';
      onQuery('');
    }
  });
}
