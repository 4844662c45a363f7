/**
 * The request forms a model server accepts, learned once per base URL and model. Servers bend
 * the OpenAI protocol: llama-cpp-python's answers `response_format: json_schema` with HTTP
 * 500, sends an empty stream for a streamed call with tools, and carries no usage in streams
 * (../shared/tools/llm-server/README.md). A call that is refused is tried in the next form
 * down; once a lower form worked, later calls to that server and model start there, so a
 * quirk costs one extra round trip per process, and a server that accepts every form none.
 */
import { APIConnectionError } from 'openai';

/** Structured-output forms, best first: a JSON schema, JSON mode with the schema in the prompt, plain text. */
export const STRUCTURED_FORMS = ['json_schema', 'json_object', 'text'] as const;

/** One of {@link STRUCTURED_FORMS}. */
export type StructuredForm = (typeof STRUCTURED_FORMS)[number];

/** What one server and model were found to accept; shared by every call to them, changed as they learn. */
export interface ServerForms {
  /** The best structured-output form not refused. */
  structured: StructuredForm;
  /** False once a streamed call with tools ended with neither text nor tool calls: such calls are made unstreamed. */
  streamTools: boolean;
  /** False once a stream carried no usage: streamed calls' usage is then estimated. */
  streamUsage: boolean;
  /** What was refused and how, oldest first (at most 10), for `/status` and error messages. */
  refusals: string[];
}

/** Fresh forms: everything assumed to work until a server says otherwise. */
export const defaultForms = (): ServerForms => ({ structured: 'json_schema', streamTools: true, streamUsage: true, refusals: [] });

/** Learned forms per base URL and model, in memory. */
export interface ProtocolMemory {
  /** The forms of `baseURL` and `model` (the same object on every call, so what one call learns the next one uses). */
  forms(baseURL: string, model: string): ServerForms;
}

/** Builds an empty memory (bounded: arbitrary model names from requests cannot grow it forever). */
export function createProtocolMemory(max = 256): ProtocolMemory {
  const known = new Map<string, ServerForms>();
  return {
    forms(baseURL, model) {
      const key = `${baseURL}\n${model}`;
      let f = known.get(key);
      if (!f) {
        if (known.size >= max) known.clear();
        f = defaultForms();
        known.set(key, f);
      }
      return f;
    },
  };
}

/** Records a refusal on `forms` (kept short and bounded). */
export function noteRefusal(forms: ServerForms, what: string, err: unknown): void {
  forms.refusals.push(`${what}: ${refusalText(err)}`);
  if (forms.refusals.length > 10) forms.refusals.shift();
}

/** The HTTP status of an `openai` error, or of the 429 a retry wrapper gave up on (its `cause`). */
export function statusOf(err: unknown): number | undefined {
  const e = err as { status?: unknown; cause?: { status?: unknown } } | null;
  const s = e?.status ?? e?.cause?.status;
  return typeof s === 'number' ? s : undefined;
}

/**
 * True when the server refused the request itself rather than being unable to answer: a 4xx
 * other than auth, not-found, timeout, conflict and rate limit, or a 5xx other than a gateway
 * or overload answer (llama-cpp-python reports a request form it does not know as HTTP 500).
 * Connection errors and timeouts are never refusals.
 */
export function isRefusal(err: unknown): boolean {
  if (err instanceof APIConnectionError) return false;
  const status = statusOf(err);
  if (status === undefined) return false;
  if (status >= 400 && status < 500) return ![401, 403, 404, 408, 409, 429].includes(status);
  return status >= 500 && ![502, 503, 504].includes(status);
}

/** `HTTP 500: <the server's message on one line>`, cut to 200 characters. */
export function refusalText(err: unknown): string {
  const status = statusOf(err);
  const raw = err instanceof Error ? err.message : String(err);
  // The openai package prefixes its messages with the status already.
  // Up to the first blank line: some servers append a traceback after it.
  const message = raw
    .replace(/^\d{3}\s*/, '')
    .split(/\n\s*\n/)[0]!
    .replace(/\s+/g, ' ')
    .trim();
  const text = `${status ? `HTTP ${status}` : 'error'}${message ? `: ${message}` : ''}`;
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/** Thrown when a server refused every form of a request; `llmFailureOf` calls it `refused`. */
export class LlmRefusedError extends Error {
  override name = 'LlmRefusedError';
  constructor(
    message: string,
    /** The HTTP status of the last refusal. */
    readonly status: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
