/**
 * Markdown to safe DOM. Answers and node text come from the graph or a language model, so
 * nothing in them may run script: raw HTML in the Markdown is shown as text (not parsed), and
 * the HTML marked produces is sanitized by DOMPurify (which also drops `javascript:` links).
 * The page's Content-Security-Policy (no inline script) is the last line of defence. Fenced code
 * in a known language is highlighted before sanitizing; only the highlighter's classes survive.
 */
import DOMPurify from 'dompurify';
import { Marked } from 'marked';
import { highlightCode, isHighlightClass } from './highlight.js';

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
    // `false` falls back to marked's plain rendering (no or an unknown language).
    code: ({ text, lang }) => {
      const hl = highlightCode(text, lang?.match(/^\S*/)?.[0]);
      return hl ? `<pre><code class="hljs language-${hl.language}">${hl.html}</code></pre>\n` : false;
    },
  },
});

const purify = DOMPurify(window);
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer nofollow');
  }
});
// Classes only as the highlighter writes them, on its own elements: nothing else may style itself.
purify.addHook('uponSanitizeAttribute', (node, data) => {
  if (data.attrName === 'class' && !((node.tagName === 'SPAN' || node.tagName === 'CODE') && isHighlightClass(data.attrValue))) {
    data.keepAttr = false;
  }
});

const PURIFY_CONFIG = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'option', 'iframe', 'object', 'embed'],
  FORBID_ATTR: ['style', 'id'],
  ALLOW_DATA_ATTR: false,
};

/** Renders Markdown (GitHub flavour: tables, code, lists) to a sanitized fragment. */
export function renderMarkdown(source: string): DocumentFragment {
  const html = marked.parse(source, { async: false });
  return purify.sanitize(html, { ...PURIFY_CONFIG, RETURN_DOM_FRAGMENT: true });
}
