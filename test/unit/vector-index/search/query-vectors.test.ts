/** Query vectors for search: coalescing of concurrent identical queries, the LRU, its keys. */
import { describe, expect, it } from 'vitest';
import type { EmbedderPool } from '../../../../src/embeddings/embedders.js';
import type { Embedder } from '../../../../src/embeddings/types.js';
import { MAX_CACHED_QUERY_CHARS, createQueryVectors, nextBatchSize } from '../../../../src/vector-index/search/query-vectors.js';

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

  it('micro-batches distinct concurrent queries: the first goes at once, the ones that wait go together, up to the cap', async () => {
    const calls: string[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const pool = poolOf(async (texts) => {
      calls.push(texts);
      if (calls.length === 1) await gate;
      return texts.map((t) => Float32Array.from([t.length, 1]));
    });
    const qv = createQueryVectors({ embedders: pool, size: 0, maxBatch: 3 });
    const first = qv.get('a', 'a');
    await new Promise((r) => setTimeout(r, 5));
    const rest = ['bb', 'ccc', 'dddd', 'eeeee', 'bb'].map((q) => qv.get('a', q));
    release();
    expect(await Promise.all([first, ...rest])).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
      [4, 1],
      [5, 1],
      [2, 1],
    ]);
    expect(calls).toEqual([['a'], ['bb', 'ccc', 'dddd'], ['eeeee']]);
  });

  it('splits the waiting queries so that two groups of about the same size take turns', async () => {
    const calls: string[][] = [];
    const gates: (() => void)[] = [];
    const pool = poolOf(async (texts) => {
      calls.push(texts);
      await new Promise<void>((r) => gates.push(r));
      return texts.map((t) => Float32Array.from([t.length, 1]));
    });
    const qv = createQueryVectors({ embedders: pool, size: 0 });
    const tick = () => new Promise((r) => setTimeout(r, 1));
    const first = qv.get('a', 'q0');
    await tick();
    const seven = Array.from({ length: 7 }, (_, i) => qv.get('a', `q${i + 1}`));
    gates.shift()!();
    await tick();
    // Half of the one that just went and the seven waiting: four now, three with the one back.
    expect(calls.map((c) => c.length)).toEqual([1, 4]);
    await first;
    const back = qv.get('a', 'q8');
    gates.shift()!();
    await tick();
    expect(calls.map((c) => c.length)).toEqual([1, 4, 4]);
    gates.shift()!();
    await Promise.all([...seven, back]);
    expect(calls.flat().sort()).toEqual(['q0', 'q1', 'q2', 'q3', 'q4', 'q5', 'q6', 'q7', 'q8']);
  });

  it('nextBatchSize: half of the last call and the waiting, never more than wait', () => {
    expect(nextBatchSize(1, 1)).toBe(1);
    expect(nextBatchSize(7, 1)).toBe(4);
    expect(nextBatchSize(4, 4)).toBe(4);
    expect(nextBatchSize(1, 7)).toBe(1);
    expect(nextBatchSize(0, 3)).toBe(0);
    expect(nextBatchSize(40, 2)).toBe(21);
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
