/**
 * The examples a model sees: the k closest to its question, written as one block and sized to
 * the context window. Pure: the caller passes the examples ranked and the tokens they may take.
 *
 * Budget rule (src/llm/context-budget.ts counts the tokens): the block takes at most a quarter
 * of the window left after the answer's reserve, and at most what is left once the prompt's
 * floor (the instructions without the graph overview, which the budget cuts first), the tool
 * definitions, the history and the question are counted. Examples go in whole, closest first,
 * until the next one would not fit: fewer when the window is small, never one cut in the middle.
 * The block sits in the system prompt before the overview, and the budget's cuts of the system
 * prompt stop at its end (src/agent/examples.ts), so a long run cuts the overview, older tool
 * results and history, never an example.
 */
import type { Example } from './format.js';
import { estimateTokens } from '../llm/context-budget.js';

/** Share of the window (after the answer's reserve) the examples may take at most. */
export const EXAMPLES_SHARE = 0.25;

/** Per-example overhead of the block, in estimated tokens (separators). */
const PER_EXAMPLE = 2;

/** The block's first line. */
export const EXAMPLES_HEADER =
  'Examples of questions about this graph and the Cypher that answers them, closest to the question first. Each was checked against the graph; adapt it to the question (names, values, limits) rather than copying it, and check with the tools what it does not cover:';

/** One example as the model reads it. */
export function formatExample(e: Pick<Example, 'question' | 'cypher' | 'note'>): string {
  return [`Question: ${e.question}`, `Cypher: ${e.cypher}`, ...(e.note ? [`Note: ${e.note}`] : [])].join('\n');
}

/**
 * The block for `ranked` (closest first) within `tokens`, taking at most `k`: the text and
 * the examples it holds; null when none fits or none is given.
 */
export function examplesBlock<E extends Pick<Example, 'question' | 'cypher' | 'note'>>(
  ranked: readonly E[],
  k: number,
  tokens: number,
): { text: string; examples: E[] } | null {
  let used = estimateTokens(EXAMPLES_HEADER);
  const chosen: E[] = [];
  const parts: string[] = [];
  for (const e of ranked) {
    if (chosen.length >= k) break;
    const text = formatExample(e);
    const cost = estimateTokens(text) + PER_EXAMPLE;
    // Whole examples only; a long one that does not fit leaves room for a shorter, farther one.
    if (used + cost > tokens) continue;
    used += cost;
    chosen.push(e);
    parts.push(text);
  }
  return chosen.length ? { text: `${EXAMPLES_HEADER}\n\n${parts.join('\n\n')}`, examples: chosen } : null;
}

const words = (s: string) => new Set(s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/** Share of words two questions have in common (Jaccard): the ranking when no embedding model answers. */
export function wordOverlap(a: string, b: string): number {
  const wa = words(a);
  const wb = words(b);
  let common = 0;
  for (const w of wa) if (wb.has(w)) common++;
  const all = wa.size + wb.size - common;
  return all ? common / all : 0;
}

/** `items` ordered by `score`, highest first; ties keep their order (the file's). */
export function rankBy<T>(items: readonly T[], score: (item: T) => number): T[] {
  return items
    .map((item, i) => ({ item, i, s: score(item) }))
    .sort((x, y) => y.s - x.s || x.i - y.i)
    .map((x) => x.item);
}
