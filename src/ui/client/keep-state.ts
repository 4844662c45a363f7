/**
 * What a reader did inside a region that is redrawn from scratch (the setup panel redraws on
 * every re-check): which folds were open, where it was scrolled, and what had the keyboard focus.
 * Elements worth keeping carry `data-keep="<key>"`, a key stable across redraws; a `<details>`
 * keeps its open state and, when focused, its summary gets the focus back.
 */

/** A region's state before a redraw. */
export interface KeptState {
  open: Map<string, boolean>;
  focus: string | null;
  scroll: Map<string, { top: number; left: number }>;
}

const kept = (root: HTMLElement) => [root, ...root.querySelectorAll<HTMLElement>('[data-keep]')];
const keyOf = (el: HTMLElement) => el.dataset.keep ?? '';

/** Reads the state of `root` and its `[data-keep]` elements (`root` itself: its scroll only). */
export function keepState(root: HTMLElement): KeptState {
  const state: KeptState = { open: new Map(), focus: null, scroll: new Map() };
  for (const el of kept(root)) {
    if (el instanceof HTMLDetailsElement && el !== root) state.open.set(keyOf(el), el.open);
    if (el.scrollTop || el.scrollLeft) state.scroll.set(keyOf(el), { top: el.scrollTop, left: el.scrollLeft });
  }
  const active = document.activeElement;
  const holder = active && root.contains(active) ? active.closest<HTMLElement>('[data-keep]') : null;
  if (holder && root.contains(holder)) state.focus = keyOf(holder);
  return state;
}

/** Puts `state` back on the redrawn `root`: folds first (they change heights), then scrolling, then focus. */
export function restoreState(root: HTMLElement, state: KeptState): void {
  const els = kept(root);
  for (const el of els) {
    const open = state.open.get(keyOf(el));
    if (el instanceof HTMLDetailsElement && el !== root && open !== undefined) el.open = open;
  }
  for (const el of els) {
    const at = state.scroll.get(keyOf(el));
    if (at) {
      el.scrollTop = at.top;
      el.scrollLeft = at.left;
    }
  }
  const focus = state.focus === null ? undefined : els.find((el) => el !== root && keyOf(el) === state.focus);
  const target = focus instanceof HTMLDetailsElement ? focus.querySelector('summary') : focus;
  target?.focus({ preventScroll: true });
}
