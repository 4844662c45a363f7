/**
 * An answer's body: its Markdown rendered (sanitized, code highlighted), a copy button on each
 * code block and one for the whole answer's Markdown text.
 */
import { addCodeCopyButtons, copyButton } from './copy.js';
import { append, h } from './dom.js';
import { renderMarkdown } from './markdown.js';

/** The answer `markdown` as DOM, with its copy buttons. */
export function renderAnswer(markdown: string): DocumentFragment {
  const frag = renderMarkdown(markdown);
  // Code and tables scroll sideways when wider than the screen: a Tab stop lets keyboard users scroll them.
  for (const el of frag.querySelectorAll('pre, table')) el.setAttribute('tabindex', '0');
  addCodeCopyButtons(frag);
  append(
    frag,
    h(
      'div',
      { class: 'answer-tools' },
      copyButton('Copy answer', () => markdown, 'copy-answer'),
    ),
  );
  return frag;
}
