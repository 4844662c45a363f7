/**
 * The local-model-server provider (the three 384-dimension registry entries): OpenAI-compatible
 * `POST {LOCAL_LLM_BASE_URL}/embeddings` with `{model, input: string[]}`, in batches, retried on
 * 429/5xx and connection errors with exponential back-off that honours `Retry-After`.
 *
 * Plain fetch rather than the `openai` package: the client would ask for base64 vectors (which
 * not every local server implements), hides the raw status behind its own retry loop, and its
 * errors would need translating anyway; the whole protocol here is one POST, and an injectable
 * fetch lets tests script 429-then-200 without a server.
 */
import { DomainError } from '../errors.js';
import { sleep as realSleep } from '../lib/timeout.js';
import { chunkText, estimateTokens, type ChunkingOptions } from './chunking.js';
import type { ModelEntry } from '../contract/models.js';
import type { Embedder, EmbedderStats } from './types.js';
import { normalize } from '../lib/vector.js';
import { trimChar } from '../lib/text.js';

/** Options of {@link createServerEmbedder}. */
export interface ServerEmbedderOptions {
  entry: ModelEntry;
  /** OpenAI-compatible base URL, e.g. `http://localhost:11434/v1`. */
  baseUrl: string;
  chunking: ChunkingOptions;
  /** Texts per request (default 64). */
  batchSize?: number;
  /** Attempts per batch, first included (default 4). */
  maxAttempts?: number;
  /** Per-request timeout in ms (default 60,000: a cold model load on the server can take a while). */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Injectable for tests (default real timers). */
  sleep?: (ms: number) => Promise<void>;
}

/** Longest wait between attempts, whatever `Retry-After` asks for. */
const MAX_DELAY_MS = 10_000;
const BASE_DELAY_MS = 250;

interface EmbeddingsResponse {
  data?: { embedding?: number[]; index?: number }[];
  usage?: { prompt_tokens?: number };
}

/** Builds the provider; nothing is contacted until `embed`. */
export function createServerEmbedder(opts: ServerEmbedderOptions): Embedder {
  const { entry } = opts;
  const url = `${trimChar(opts.baseUrl, '/')}/embeddings`;
  const doFetch = opts.fetch ?? fetch;
  const sleep = opts.sleep ?? realSleep;
  const batchSize = Math.max(1, opts.batchSize ?? 64);
  const maxAttempts = Math.max(1, opts.maxAttempts ?? 4);
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const stats: EmbedderStats = { texts: 0, tokens: 0, tokenizeMs: 0, inferenceMs: 0 };
  const unreachable = (cause: unknown) =>
    new DomainError('unavailable', 'model-server-unreachable', `local model server at ${opts.baseUrl} is unreachable`, { cause });
  const failed = (why: string) => new DomainError('unavailable', 'model-server-error', `local model server at ${opts.baseUrl} ${why}`);

  const post = async (input: string[]): Promise<EmbeddingsResponse> => {
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        res = await doFetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: entry.name, input }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        if (attempt >= maxAttempts) throw unreachable(err);
        await sleep(backoff(attempt, null));
        continue;
      }
      if (res.ok) return (await res.json()) as EmbeddingsResponse;
      const body = (await res.text().catch(() => '')).slice(0, 300);
      if ((res.status === 429 || res.status >= 500) && attempt < maxAttempts) {
        await sleep(backoff(attempt, res.headers.get('retry-after')));
        continue;
      }
      throw failed(`answered ${res.status} for model "${entry.name}"${body ? `: ${body}` : ''}`);
    }
  };

  const embedBatch = async (input: string[]): Promise<Float32Array[]> => {
    const json = await post(input);
    const data = json.data ?? [];
    if (data.length !== input.length) throw failed(`returned ${data.length} embeddings for ${input.length} inputs`);
    const out: Float32Array[] = new Array(input.length);
    data.forEach((d, i) => {
      const v = d.embedding ?? [];
      if (v.length !== entry.dimensions) {
        throw failed(`returned ${v.length}-dimension vectors for "${entry.name}", the registry says ${entry.dimensions}`);
      }
      out[d.index ?? i] = normalize(Float32Array.from(v));
    });
    stats.tokens += json.usage?.prompt_tokens ?? input.reduce((n, t) => n + countEstimate(t), 0);
    return out;
  };

  return {
    name: entry.name,
    dimensions: entry.dimensions,
    chunk: (text) => chunkText(text, estimateTokens, opts.chunking),
    async embed(texts) {
      const t0 = performance.now();
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += batchSize) out.push(...(await embedBatch(texts.slice(i, i + batchSize))));
      stats.inferenceMs += performance.now() - t0;
      stats.texts += texts.length;
      return out;
    },
    stats: () => ({ ...stats }),
  };
}

/**
 * Milliseconds before attempt `attempt + 1`: `Retry-After` (seconds or an HTTP date) when the
 * server sent one, else 250 ms doubling per attempt with ±25% jitter; never above 10 s.
 */
export function backoff(attempt: number, retryAfter: string | null, now = Date.now()): number {
  if (retryAfter) {
    const secs = Number(retryAfter);
    const ms = Number.isFinite(secs) ? secs * 1000 : Date.parse(retryAfter) - now;
    if (Number.isFinite(ms)) return Math.min(MAX_DELAY_MS, Math.max(0, ms));
  }
  const base = BASE_DELAY_MS * 2 ** (attempt - 1);
  return Math.min(MAX_DELAY_MS, base * (0.75 + Math.random() * 0.5));
}

function countEstimate(text: string): number {
  let n = 0;
  for (const m of text.matchAll(/\S+/g)) n += estimateTokens(m[0]);
  return n;
}
