/**
 * Copy buttons: one under each answer (its Markdown text) and one on each code block (the code).
 * The Clipboard API needs a secure context (https, or http on localhost); elsewhere, or when the
 * browser refuses, a hidden text field and `execCommand('copy')` do it. The button says
 * "Copied" for a moment and screen readers hear it through the live region.
 */
import { announce, append, h } from './dom.js';

const CONFIRM_MS = 2000;

/** Copies `text` with the old selection-based command (no Clipboard API, or it was refused). */
function copyBySelection(text: string): void {
  const area = h('textarea', { readonly: true, 'aria-hidden': 'true', tabindex: -1, class: 'copy-buffer' });
  area.value = text;
  const focused = document.activeElement as HTMLElement | null;
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  focused?.focus();
  if (!ok) throw new Error('the browser refused to copy');
}

/** Puts `text` on the clipboard. */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // Permission denied or no focus: the selection route may still work.
    }
  }
  copyBySelection(text);
}

/** A button labelled `label` that copies what `text()` returns, then confirms. */
export function copyButton(label: string, text: () => string, cls: string): HTMLButtonElement {
  const btn = h('button', { type: 'button', class: `copy-btn ${cls}` }, label);
  let timer: number | undefined;
  btn.addEventListener('click', () => {
    window.clearTimeout(timer);
    copyText(text()).then(
      () => {
        btn.textContent = 'Copied';
        announce('Copied to the clipboard.');
      },
      () => {
        btn.textContent = 'Copy failed';
        announce('Copying failed: select the text and copy it by hand.');
      },
    );
    timer = window.setTimeout(() => (btn.textContent = label), CONFIRM_MS);
  });
  return btn;
}

/** Wraps each code block of `root` with a button that copies its code. */
export function addCodeCopyButtons(root: ParentNode): void {
  for (const pre of root.querySelectorAll('pre')) {
    const box = h('div', { class: 'code-block' });
    pre.replaceWith(box);
    append(
      box,
      pre,
      copyButton('Copy code', () => pre.textContent ?? '', 'copy-code'),
    );
  }
}
