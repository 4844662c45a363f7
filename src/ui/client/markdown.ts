/**
 * Markdown to safe DOM. Answers and node text come from the graph or a language model, so
 * nothing in them may run script: raw HTML in the Markdown is shown as text (not parsed), and
 * the HTML marked produces is sanitized by DOMPurify (which also drops `javascript:` links).
 * The page's Content-Security-Policy (no inline script) is the last line of defence.
 */
import DOMPurify from 'dompurify';
import { Marked } from 'marked';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for use inside HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    // Raw HTML blocks and inline tags become visible text instead of markup.
    html: ({ text }) => escapeHtml(text),
  },
});

const purify = DOMPurify(window);
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer nofollow');
  }
});

const PURIFY_CONFIG = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'option', 'iframe', 'object', 'embed'],
  FORBID_ATTR: ['style', 'class', 'id'],
  ALLOW_DATA_ATTR: false,
};

/** Renders Markdown (GitHub flavour: tables, code, lists) to a sanitized fragment. */
export function renderMarkdown(source: string): DocumentFragment {
  const html = marked.parse(source, { async: false });
  return purify.sanitize(html, { ...PURIFY_CONFIG, RETURN_DOM_FRAGMENT: true });
}
