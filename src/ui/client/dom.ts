/**
 * Tiny DOM helpers for the chat page. Text always goes in as text nodes, never as HTML: the
 * only HTML the page inserts is sanitized Markdown (see `markdown.ts`).
 */

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined>;

/** Creates an element with attributes (`true` = present, `false`/null = absent) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, ...children);
  return el;
}

/** Appends children, strings as text nodes. */
export function append(el: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/** The element with `id`; the page's markup is fixed, so a missing one is a build bug. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing from the page`);
  return el as T;
}

/** Says `text` through the page's polite live region (screen readers). */
export function announce(text: string): void {
  const live = byId('live');
  // Clearing first makes a repeated message be read again.
  live.textContent = '';
  window.setTimeout(() => (live.textContent = text), 50);
}
