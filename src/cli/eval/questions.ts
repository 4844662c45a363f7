/**
 * Question sets for `eval`: CSV (a header row, then one question per record) or JSONL (one JSON
 * object per line). Both go through one validation, so a bad value is reported the same way:
 * the line and the field name.
 */
import { z } from 'zod';
import { ROUTES, type Route } from '../../contract/chat.js';
import { CsvError, parseCsv } from './csv.js';
import { jsonLines } from '../../lib/json-lines.js';

/** One question of a set, validated. */
export interface EvalQuestion {
  /** `id` column, else `q<n>` by position (1-based); reports and `--compare` match on it. */
  id: string;
  /** Line of the file the question starts on. */
  line: number;
  question: string;
  /** dbIds (as text) or display names; one is found when a source or the answer names it. */
  expectedNodes: string[];
  /** Strings the answer should contain (compared case-insensitively). */
  expectedAnswerContains: string[];
  expectedRoute?: Route;
  /** Questions sharing a session id run in file order in one chat session. */
  session?: string;
}

/** A question file that cannot be used; the message names the line and field. */
export class QuestionFileError extends Error {
  override name = 'QuestionFileError';
}

/** The columns (CSV) or keys (JSONL) a question may have. */
export const QUESTION_FIELDS = ['id', 'question', 'expected_nodes', 'expected_answer_contains', 'expected_route', 'session'] as const;

/** In CSV a list is one field separated by `;` or `|`; in JSONL an array (a string is one item). */
const splitList = (v: string) =>
  v
    .split(/[;|]/)
    .map((x) => x.trim())
    .filter(Boolean);

const item = z.union([z.string(), z.number()]).transform((v) => String(v).trim());
const list = z
  .union([z.array(item), item.transform((v) => [v])])
  .optional()
  .transform((v) => (v ?? []).filter(Boolean));
const optionalText = z.preprocess(
  (v) => (v === '' || v === null ? undefined : typeof v === 'number' ? String(v) : v),
  z.string().trim().min(1).optional(),
);

const RowSchema = z.strictObject({
  id: optionalText,
  question: z.string({ error: 'required, a non-empty string' }).trim().min(1, 'must not be empty'),
  expected_nodes: list,
  expected_answer_contains: list,
  expected_route: z.preprocess(
    (v) => (v === '' || v === null ? undefined : typeof v === 'string' ? v.trim().toLowerCase() : v),
    z.enum(ROUTES, { error: `must be ${ROUTES.join(' or ')}` }).optional(),
  ),
  session: optionalText,
});

/** Validates one raw row (CSV fields already split into lists) into a question. */
function toQuestion(raw: unknown, line: number, position: number): EvalQuestion {
  const parsed = RowSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.code === 'unrecognized_keys') {
      throw new QuestionFileError(
        `line ${line}: unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')} (fields: ${QUESTION_FIELDS.join(', ')})`,
      );
    }
    const field = String(issue.path[0] ?? 'question');
    throw new QuestionFileError(`line ${line}: field "${field}": ${issue.message}`);
  }
  const r = parsed.data;
  return {
    id: r.id ?? `q${position}`,
    line,
    question: r.question,
    expectedNodes: r.expected_nodes,
    expectedAnswerContains: r.expected_answer_contains,
    ...(r.expected_route ? { expectedRoute: r.expected_route } : {}),
    ...(r.session ? { session: r.session } : {}),
  };
}

function parseCsvQuestions(text: string): EvalQuestion[] {
  let records: ReturnType<typeof parseCsv>;
  try {
    records = parseCsv(text);
  } catch (err) {
    if (err instanceof CsvError) throw new QuestionFileError(err.message);
    throw err;
  }
  const [header, ...rows] = records;
  if (!header) throw new QuestionFileError('line 1: the file is empty (expected a header row with a "question" column)');
  const names = header.fields.map((f) => f.trim().toLowerCase());
  if (!names.includes('question')) {
    throw new QuestionFileError(`line ${header.line}: the header has no "question" column (columns: ${QUESTION_FIELDS.join(', ')})`);
  }
  const unknown = names.filter((n) => !(QUESTION_FIELDS as readonly string[]).includes(n));
  if (unknown.length) {
    throw new QuestionFileError(
      `line ${header.line}: unknown column ${unknown.map((k) => `"${k}"`).join(', ')} (columns: ${QUESTION_FIELDS.join(', ')})`,
    );
  }
  return rows.map((rec, i) => {
    if (rec.fields.length !== names.length) {
      throw new QuestionFileError(
        `line ${rec.line}: ${rec.fields.length} fields, but the header has ${names.length} (quote a field that holds a comma)`,
      );
    }
    const raw: Record<string, unknown> = {};
    names.forEach((name, j) => {
      const value = rec.fields[j]!;
      raw[name] = name === 'expected_nodes' || name === 'expected_answer_contains' ? splitList(value) : value;
    });
    return toQuestion(raw, rec.line, i + 1);
  });
}

function parseJsonlQuestions(text: string): EvalQuestion[] {
  const out: EvalQuestion[] = [];
  for (const l of jsonLines(text)) {
    if ('error' in l) throw new QuestionFileError(`line ${l.line}: not JSON (${l.error})`);
    const raw = l.value;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new QuestionFileError(`line ${l.line}: expected a JSON object with a "question" field`);
    }
    out.push(toQuestion(raw, l.line, out.length + 1));
  }
  return out;
}

/**
 * Parses a question set. `name` (the file name) picks the format: `.jsonl`/`.ndjson` JSONL,
 * `.csv` CSV, anything else by its first character (`{`: JSONL).
 * @throws QuestionFileError naming the line (and field) of the first problem, or when the set
 *   is empty or two questions share an id.
 */
export function parseQuestions(text: string, name = ''): EvalQuestion[] {
  const jsonl = /\.(jsonl|ndjson)$/i.test(name) || (!/\.csv$/i.test(name) && text.trimStart().startsWith('{'));
  const questions = jsonl ? parseJsonlQuestions(text) : parseCsvQuestions(text);
  if (questions.length === 0) throw new QuestionFileError('the file holds no questions');
  const seen = new Map<string, number>();
  for (const q of questions) {
    const first = seen.get(q.id);
    if (first !== undefined) throw new QuestionFileError(`line ${q.line}: field "id": "${q.id}" is already used on line ${first}`);
    seen.set(q.id, q.line);
  }
  return questions;
}
