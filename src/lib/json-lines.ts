/** Reading JSON Lines: the agent's examples (src/examples/format.ts) and eval's question sets (src/cli/eval/questions.ts). */

/** A non-blank line of a JSON Lines text (1-based `line`): its value, or why it is not JSON. */
export type JsonLine = { line: number; value: unknown } | { line: number; error: string };

/** The non-blank lines of `text`, each parsed; a line that is not JSON gives its parser's message, and the rest are still read. */
export function* jsonLines(text: string): Generator<JsonLine> {
  const lines = text.split(/\r?\n/);
  for (const [i, lineText] of lines.entries()) {
    if (!lineText.trim()) continue;
    let parsed: JsonLine;
    try {
      parsed = { line: i + 1, value: JSON.parse(lineText) };
    } catch (err) {
      parsed = { line: i + 1, error: (err as Error).message };
    }
    yield parsed;
  }
}
