/** The local-model-server provider with a scripted fetch: batching, retries, errors. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHUNKING } from '../../../src/embeddings/chunking.js';
import { findModel } from '../../../src/contract/models.js';
import { backoff, createServerEmbedder } from '../../../src/embeddings/server-embedder.js';
import { DomainError } from '../../../src/errors.js';

const entry = findModel('all-minilm')!;
const vec = (seed: number, dims = 384) => Array.from({ length: dims }, (_, i) => ((i * 31 + seed * 17) % 13) - 6);

interface Reply {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

interface Call {
  url: string;
  body: { model: string; input: string[] };
}

/** A fetch that answers from a script of steps; the last step repeats. */
function scripted(steps: (Reply | Error | 'ok')[], dims = 384) {
  const calls: Call[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    const body = JSON.parse(String(init.body)) as Call['body'];
    calls.push({ url, body });
    const step = steps.length > 1 ? steps.shift()! : steps[0]!;
    if (step instanceof Error) throw step;
    if (step !== 'ok') return new Response(step.body, { status: step.status, headers: step.headers });
    // Answer out of order: the provider must place vectors by `index`.
    const data = body.input.map((t, index) => ({ index, embedding: vec(t.length, dims) })).reverse();
    return Response.json({ data, usage: { prompt_tokens: 7 } });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, calls };
}

const sleeps: number[] = [];
const base = { entry, baseUrl: 'http://models.test/v1/', chunking: DEFAULT_CHUNKING, sleep: async (ms: number) => void sleeps.push(ms) };

describe('server embedder', () => {
  it('posts batches of texts to /embeddings and returns unit vectors in input order', async () => {
    const { fetch, calls } = scripted(['ok']);
    const e = createServerEmbedder({ ...base, fetch, batchSize: 2 });
    const texts = ['a', 'bbb', 'cc', 'dddd', 'eeeee'];
    const out = await e.embed(texts);
    expect(calls.map((c) => c.body.input)).toEqual([['a', 'bbb'], ['cc', 'dddd'], ['eeeee']]);
    expect(calls[0]!.url).toBe('http://models.test/v1/embeddings');
    expect(calls[0]!.body.model).toBe('all-minilm');
    out.forEach((v, i) => {
      expect(Math.hypot(...v)).toBeCloseTo(1, 5);
      const raw = vec(texts[i]!.length);
      expect(v[0]! / v[1]!).toBeCloseTo(raw[0]! / raw[1]!, 5);
    });
    expect(e.stats!().tokens).toBe(21);
  });

  it('retries 429 honouring Retry-After, then 503, then succeeds', async () => {
    sleeps.length = 0;
    const { fetch, calls } = scripted([
      { status: 429, body: 'slow down', headers: { 'retry-after': '2' } },
      { status: 503, body: 'busy' },
      'ok',
    ]);
    const e = createServerEmbedder({ ...base, fetch });
    expect(await e.embed(['x'])).toHaveLength(1);
    expect(calls).toHaveLength(3);
    expect(sleeps[0]).toBe(2000);
    expect(sleeps[1]).toBeGreaterThan(0);
  });

  it('gives up after maxAttempts with a 503 carrying the server answer', async () => {
    const { fetch, calls } = scripted([{ status: 500, body: 'overloaded' }]);
    const e = createServerEmbedder({ ...base, fetch, maxAttempts: 3 });
    const err = (await e.embed(['x']).catch((x: unknown) => x)) as DomainError;
    expect(calls).toHaveLength(3);
    expect(err).toBeInstanceOf(DomainError);
    expect(err.kind).toBe('unavailable');
    expect(err.message).toContain('answered 500');
    expect(err.message).toContain('overloaded');
  });

  it('does not retry a 404 (model not pulled) and says so', async () => {
    const { fetch, calls } = scripted([{ status: 404, body: 'model "all-minilm" not found, try pulling it first' }]);
    const err = (await createServerEmbedder({ ...base, fetch })
      .embed(['x'])
      .catch((x: unknown) => x)) as DomainError;
    expect(calls).toHaveLength(1);
    expect(err.kind).toBe('unavailable');
    expect(err.message).toContain('try pulling it first');
  });

  it('says the server is unreachable when nothing listens', async () => {
    const e = createServerEmbedder({ ...base, baseUrl: 'http://127.0.0.1:9/v1', maxAttempts: 2 });
    const err = (await e.embed(['x']).catch((x: unknown) => x)) as DomainError;
    expect(err.kind).toBe('unavailable');
    expect(err.code).toBe('model-server-unreachable');
    expect(err.message).toBe('local model server at http://127.0.0.1:9/v1 is unreachable');
  });

  it('refuses vectors whose width differs from the registry', async () => {
    const { fetch } = scripted(['ok'], 768);
    const err = (await createServerEmbedder({ ...base, fetch })
      .embed(['x'])
      .catch((x: unknown) => x)) as DomainError;
    expect(err.kind).toBe('unavailable');
    expect(err.message).toContain('768-dimension vectors');
  });

  it('chunks with the word-length estimate', () => {
    const e = createServerEmbedder({ ...base, chunking: { maxTokens: 4, overlapTokens: 0 } });
    expect(e.chunk('aaaa bbbb cccc dddd eeee')).toEqual(['aaaa bbbb cccc dddd', 'eeee']);
    expect(e.chunk('')).toEqual([]);
  });

  it('backs off exponentially with a cap, or as Retry-After says', () => {
    expect(backoff(1, '0.5')).toBe(500);
    expect(backoff(1, '120')).toBe(10_000);
    expect(backoff(1, new Date(Date.UTC(2030, 0, 1, 0, 0, 3)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(3000);
    const d3 = backoff(3, null);
    expect(d3).toBeGreaterThanOrEqual(750);
    expect(d3).toBeLessThanOrEqual(1250);
    expect(backoff(30, null)).toBe(10_000);
  });
});
