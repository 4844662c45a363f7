/** Small text helpers shared by the index build and the agent. */

/** Collapses white space and cuts to `max` characters, the last one an ellipsis when cut. */
export function cutText(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
