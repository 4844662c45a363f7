/**
 * The examples file: JSON Lines, one example a line, `{"question": …, "cypher": …, "note": …}`
 * (`note` optional; `graph` optional, the graph the example is for when the file serves
 * several, default the configured one). Blank lines are skipped. A line that is not such an
 * object is reported with its number and why; the other lines are still used.
 */
import { z } from 'zod';
import { jsonLines } from '../lib/json-lines.js';

/** Longest question, Cypher and note, in characters. */
export const EXAMPLE_LIMITS = Object.freeze({ question: 2_000, cypher: 10_000, note: 1_000 });

/** Where an example came from: the file (`EXAMPLES_FILE`) or added at run time (dev API, CLI). */
export type ExampleSource = 'file' | 'added';

/** One example before it is checked against the graph. */
export interface Example {
  question: string;
  cypher: string;
  note?: string;
  source: ExampleSource;
  /** Line of the file, or 1-based position among the added ones. */
  line: number;
}

/** An example left out, and why. */
export interface RejectedExample {
  source: ExampleSource;
  line: number;
  /** The question, when the line had one. */
  question?: string;
  reason: string;
}

/** The fields of one example (the dev API's body uses the same). */
export const ExampleFieldsSchema = z.strictObject({
  question: z.string({ error: 'required, a string' }).trim().min(1, 'must not be empty').max(EXAMPLE_LIMITS.question),
  cypher: z.string({ error: 'required, a string' }).trim().min(1, 'must not be empty').max(EXAMPLE_LIMITS.cypher),
  note: z
    .string()
    .trim()
    .max(EXAMPLE_LIMITS.note)
    .optional()
    .transform((v) => v || undefined),
  graph: z.string().min(1).optional(),
});

/** What one raw value is: an example, or why it is not. */
export function readExample(
  raw: unknown,
  source: ExampleSource,
  line: number,
): { example: Example; graph?: string } | { rejected: RejectedExample } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { rejected: { source, line, reason: 'expected a JSON object with "question" and "cypher"' } };
  }
  const parsed = ExampleFieldsSchema.safeParse(raw);
  const question = typeof (raw as { question?: unknown }).question === 'string' ? (raw as { question: string }).question : undefined;
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const reason =
      issue.code === 'unrecognized_keys'
        ? `unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')} (fields: question, cypher, note, graph)`
        : `field "${String(issue.path[0] ?? 'question')}": ${issue.message}`;
    return { rejected: { source, line, ...(question ? { question } : {}), reason } };
  }
  const { graph, note, ...rest } = parsed.data;
  return { example: { ...rest, ...(note ? { note } : {}), source, line }, ...(graph ? { graph } : {}) };
}

/**
 * The examples of `graph` in a JSON Lines text, and the lines that could not be read (a line
 * for another graph is neither).
 */
export function parseExamples(text: string, graph: string): { examples: Example[]; rejected: RejectedExample[] } {
  const examples: Example[] = [];
  const rejected: RejectedExample[] = [];
  for (const l of jsonLines(text)) {
    if ('error' in l) {
      rejected.push({ source: 'file', line: l.line, reason: `not JSON (${l.error})` });
      continue;
    }
    const read = readExample(l.value, 'file', l.line);
    if ('rejected' in read) rejected.push(read.rejected);
    else if ((read.graph ?? graph) === graph) examples.push(read.example);
  }
  return { examples, rejected };
}

/** One example as a JSON Lines line (what `eval --write-examples` and `examples list --jsonl` write). */
export function exampleLine(e: { question: string; cypher: string; note?: string }): string {
  return JSON.stringify({ question: e.question, cypher: e.cypher, ...(e.note ? { note: e.note } : {}) });
}
