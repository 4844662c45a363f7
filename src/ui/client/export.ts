/**
 * Export of the open chat as a download: JSON (the session exactly as `GET /chat/session/{id}`
 * returns it) or Markdown (its name, each question and answer, and the names of each answer's
 * sources). The session is read again at export time, so a just-finished answer is included.
 */
import type { ChatSessionView } from '../../contract/chat.js';
import { request } from './api.js';
import { escapeMarkdown, trimChar } from '../../lib/text.js';
import { announce } from './dom.js';

/** The session as a Markdown document (answers are Markdown already; names and questions are escaped). */
export function sessionMarkdown(s: ChatSessionView): string {
  const out = [`# ${escapeMarkdown(s.name)}`, ''];
  let n = 0;
  for (const m of s.messages) {
    if (m.role === 'user') {
      n += 1;
      out.push(`## Question ${n}`, '', ...m.content.split('\n').map((l) => `> ${escapeMarkdown(l)}`.trimEnd()), '');
      continue;
    }
    out.push(`## Answer${n ? ` ${n}` : ''}`, '', m.content.trim(), '');
    const done = m.events.find((e) => e.type === 'job_done');
    const names =
      done?.type === 'job_done'
        ? (done.data.sources ?? []).map((src) => escapeMarkdown(src.displayName || `(unnamed, ID ${src.dbId})`))
        : [];
    if (names.length) out.push('Sources:', '', ...names.map((name) => `- ${name}`), '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** A file name from the chat's name (letters and digits, dashes between). */
export function fileName(name: string, ext: string): string {
  const base = trimChar(name.replace(/[^\p{L}\p{N}]+/gu, '-'), '-', 'both').slice(0, 60);
  return `${base || 'chat'}.${ext}`;
}

/** Lets the browser save `text` as `name`. */
function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // The download has started from the click; the URL is only needed until then.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Downloads the session `id` as `format`. */
export async function exportSession(id: string, format: 'md' | 'json'): Promise<void> {
  const s = await request<ChatSessionView>('GET', `/chat/session/${encodeURIComponent(id)}`);
  if (format === 'json') download(fileName(s.name, 'json'), 'application/json', `${JSON.stringify(s, null, 2)}\n`);
  else download(fileName(s.name, 'md'), 'text/markdown', sessionMarkdown(s));
  announce(`Chat exported as ${format === 'json' ? 'JSON' : 'Markdown'}.`);
}
