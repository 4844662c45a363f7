/**
 * The page-level notice under the chat title: rate limits (with a countdown to when sending
 * works again), the server or a dependency being down, identity problems. Read out once by
 * screen readers through the live region, not on every countdown tick.
 */
import { announce, append, byId, h } from './dom.js';

let timer: number | undefined;

/** Hides the banner and stops any countdown. */
export function hideBanner(): void {
  window.clearInterval(timer);
  timer = undefined;
  const el = byId('banner');
  el.hidden = true;
  el.replaceChildren();
  el.className = 'banner';
}

/** Shows `text` with an optional action button. */
export function showBanner(kind: 'error' | 'warn' | 'info', text: string, action?: { label: string; run: () => void }): void {
  hideBanner();
  const el = byId('banner');
  el.className = `banner ${kind}`;
  el.dataset.kind = kind;
  append(el, h('span', { class: 'banner-text' }, text));
  if (action) {
    const btn = h('button', { type: 'button' }, action.label);
    btn.addEventListener('click', () => action.run());
    append(el, ' ', btn);
  }
  el.hidden = false;
  announce(text);
}

const clock = (d: Date) => d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/**
 * Shows the rate-limit notice and counts down to `retryAt`; `onReady` runs when it is over.
 */
export function showRateLimit(retryAt: Date, onReady: () => void): void {
  hideBanner();
  const el = byId('banner');
  el.className = 'banner warn';
  el.dataset.kind = 'rate-limited';
  const left = h('span', { class: 'countdown' });
  const text = `You have sent too many messages. You can send again at ${clock(retryAt)}`;
  append(el, h('span', { class: 'banner-text' }, `${text} `), left);
  el.hidden = false;
  announce(`${text}.`);
  const tick = () => {
    const s = Math.ceil((retryAt.getTime() - Date.now()) / 1000);
    if (s <= 0) {
      hideBanner();
      announce('You can send messages again.');
      onReady();
      return;
    }
    left.textContent = `(in ${s} s).`;
  };
  tick();
  if (!el.hidden) timer = window.setInterval(tick, 1000);
}
