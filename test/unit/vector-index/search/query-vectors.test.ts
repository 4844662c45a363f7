/** Query vectors for search: coalescing of concurrent identical queries, the LRU, its keys. */
import { describe, expect, it } from 'vitest';
import type { EmbedderPool } from '../../../../src/embeddings/embedders.js';
import type { Embedder } from '../../../../src/embeddings/types.js';
import { MAX_CACHED_QUERY_CHARS, createQueryVectors, mayCall } from '../../../../src/vector-index/search/query-vectors.js';

/** A pool whose models embed a text to [length, model number], counting calls. */
function countingPool(opts: { fail?: boolean } = {}) {
  const calls: string[] = [];
  const embedder = (model: string, n: number): Embedder => ({
    name: model,
    dimensions: 2,
    chunk: (t) => [t],
    async embed(texts) {
      calls.push(`${model}:${texts.join('|')}`);
      if (opts.fail) throw new Error('model server down');
      return texts.map((t) => Float32Array.from(t === '?' ? [0, 0] : [t.length, n]));
    },
  });
  const pool: EmbedderPool = {
    get: async (model) => embedder(model, model === 'b' ? 2 : 1),
    close: async () => {},
  };
  return { pool, calls };
}

/** A pool of one model `a` whose embedding is `embed`. */
const poolOf = (embed: (texts: string[]) => Promise<Float32Array[]>): EmbedderPool => ({
  get: async () => ({ name: 'a', dimensions: 2, chunk: (t: string) => [t], embed }),
  close: async () => {},
});

describe('createQueryVectors', () => {
  it('sends concurrent identical queries to the model once, and each caller gets the vector', async () => {
    const p = countingPool();
    const qv = createQueryVectors({ embedders: p.pool, size: 0 });
    const all = await Promise.all([qv.get('a', 'glycolysis'), qv.get('a', 'glycolysis'), qv.get('a', 'glycolysis'), qv.get('a', 'tca')]);
    expect(all).toEqual([
      [10, 1],
      [10, 1],
      [10, 1],
      [3, 1],
    ]);
    expect(p.calls).toEqual(['a:glycolysis', 'a:tca']);
    // Size 0: nothing is kept once the call is over.
    await qv.get('a', 'glycolysis');
    expect(p.calls).toHaveLength(3);
  });

  it('keeps recent vectors and drops the least recently used', async () => {
    const p = countingPool();
    const qv = createQueryVectors({ embedders: p.pool, size: 2 });
    await qv.get('a', 'x');
    await qv.get('a', 'yy');
    await qv.get('a', 'x'); // hit: x becomes the most recent
    await qv.get('a', 'zzz'); // evicts yy
    expect(p.calls).toEqual(['a:x', 'a:yy', 'a:zzz']);
    await qv.get('a', 'x');
    await qv.get('a', 'zzz');
    expect(p.calls).toHaveLength(3);
    await qv.get('a', 'yy');
    expect(p.calls).toEqual(['a:x', 'a:yy', 'a:zzz', 'a:yy']);
  });

  it('keys by model: the same text under another model is embedded by that model', async () => {
    const p = countingPool();
    const qv = createQueryVectors({ embedders: p.pool, size: 10 });
    expect(await qv.get('a', 'tca')).toEqual([3, 1]);
    expect(await qv.get('b', 'tca')).toEqual([3, 2]);
    expect(p.calls).toEqual(['a:tca', 'b:tca']);
  });

  it('does not keep failures, and keeps a query without a known token as null', async () => {
    const failing = countingPool({ fail: true });
    const qv = createQueryVectors({ embedders: failing.pool, size: 10 });
    await expect(qv.get('a', 'x')).rejects.toThrow('model server down');
    await expect(qv.get('a', 'x')).rejects.toThrow('model server down');
    expect(failing.calls).toHaveLength(2);

    const p = countingPool();
    const ok = createQueryVectors({ embedders: p.pool, size: 10 });
    expect(await ok.get('a', '?')).toBeNull();
    expect(await ok.get('a', '?')).toBeNull();
    expect(p.calls).toHaveLength(1);
  });

  it('does not keep very long queries', async () => {
    const p = countingPool();
    const qv = createQueryVectors({ embedders: p.pool, size: 10 });
    const long = 'w'.repeat(MAX_CACHED_QUERY_CHARS + 1);
    await qv.get('a', long);
    await qv.get('a', long);
    expect(p.calls).toHaveLength(2);
  });

  /** A pool whose calls end only when the test says so (`end()`, oldest first); `calls` lists each call's texts. */
  const gatedPool = () => {
    const calls: string[][] = [];
    const gates: (() => void)[] = [];
    const pool = poolOf(async (texts) => {
      calls.push(texts);
      await new Promise<void>((r) => gates.push(r));
      return texts.map((t) => Float32Array.from([t.length, 1]));
    });
    const end = async () => {
      gates.shift()!();
      await new Promise((r) => setTimeout(r, 1));
    };
    return { calls, pool, end };
  };
  const tick = () => new Promise((r) => setTimeout(r, 1));

  it('micro-batches distinct concurrent queries: the first goes at once, one beside it, the rest together up to the cap', async () => {
    const { calls, pool, end } = gatedPool();
    const qv = createQueryVectors({ embedders: pool, size: 0, maxBatch: 3 });
    const all = ['a', 'bb', 'ccc', 'dddd', 'eeeee', 'ffffff', 'bb'].map((q) => qv.get('a', q));
    await tick();
    expect(calls).toEqual([['a'], ['bb']]);
    await end();
    // Beside the one-query call still in flight: the waiting ones, up to the cap; then the rest.
    expect(calls).toEqual([['a'], ['bb'], ['ccc', 'dddd', 'eeeee']]);
    await end();
    // One waiting beside a call of three: it waits for that call.
    expect(calls).toHaveLength(3);
    await end();
    expect(calls.at(-1)).toEqual(['ffffff']);
    await end();
    expect(await Promise.all(all)).toEqual([1, 2, 3, 4, 5, 6, 2].map((n) => [n, 1]));
  });

  it('sends a call beside the one in flight once as many queries wait as it carries, never beside two', async () => {
    const { calls, pool, end } = gatedPool();
    const qv = createQueryVectors({ embedders: pool, size: 0 });
    const first = ['q0', 'q1', 'q2', 'q3'].map((q) => qv.get('a', q));
    await tick();
    await end(); // q0 alone, then q1 beside it; q2 and q3 waited for q0's call
    const four = ['q4', 'q5', 'q6'].map((q) => qv.get('a', q));
    await tick();
    // In flight: q1 and the call of q2 and q3; three wait for one of them to end.
    expect(calls.map((c) => c.length)).toEqual([1, 1, 2]);
    await end(); // q1's ends: three waiting, beside a call of two
    expect(calls.at(-1)).toEqual(['q4', 'q5', 'q6']);
    const later = qv.get('a', 'q7');
    await tick();
    await end(); // q2 and q3's ends: one waiting, beside a call of three: it waits
    expect(calls).toHaveLength(4);
    await end();
    expect(calls.at(-1)).toEqual(['q7']);
    await end();
    await Promise.all([...first, ...four, later]);
  });

  it('mayCall: at once when idle, beside one call once as many wait, never beside two', () => {
    expect(mayCall([], 1)).toBe(true);
    expect(mayCall([], 0)).toBe(false);
    expect(mayCall([4], 3)).toBe(false);
    expect(mayCall([4], 4)).toBe(true);
    expect(mayCall([1, 1], 30)).toBe(false);
  });

  it('fails only the batch whose call failed', async () => {
    let n = 0;
    const pool = poolOf(async (texts) => {
      if (n++ === 0) {
        await new Promise((r) => setTimeout(r, 5));
        throw new Error('down');
      }
      return texts.map(() => Float32Array.from([1, 1]));
    });
    const qv = createQueryVectors({ embedders: pool, size: 0 });
    const first = qv.get('a', 'x');
    const second = qv.get('a', 'y');
    await expect(first).rejects.toThrow('down');
    await expect(second).resolves.toEqual([1, 1]);
  });
});
