/** Small text helpers shared by the index build, the chat and the web page. */

/** Collapses white space and cuts to `max` characters, the last one an ellipsis when cut. */
export function cutText(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** Plain text as Markdown that shows it as it is: the characters of links, emphasis, code, headings, tables and HTML escaped. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>#|~!]/g, '\\$&');
}
