import { describe, expect, it } from 'vitest';
import { createNamesByMeaning, nameWords } from '../../../src/lib/names-by-meaning.js';
import { withMeaning } from '../../../src/graph/cypher/query-notices.js';
import type { SkeletonData } from '../../../src/graph/shape/skeleton.js';

/** A fake model: each word a fixed direction, a text the sum of its words. */
const WORDS: Record<string, number[]> = {
  film: [1, 0.1, 0, 0],
  movie: [0.9, 0.2, 0, 0],
  person: [0, 1, 0, 0],
  acted: [0, 0, 1, 0],
  in: [0, 0, 0, 0.2],
  played: [0, 0.1, 0.9, 0],
  year: [0, 0, 0, 1],
  release: [0.3, 0, 0, 0.6],
};
function fakeModel() {
  const calls: string[][] = [];
  const embed = async (texts: string[]) => {
    calls.push(texts);
    return texts.map((t) => {
      const v = new Float32Array(4);
      for (const w of t.split(' ')) (WORDS[w] ?? [0.01, 0.01, 0.01, 0.01]).forEach((x, i) => (v[i]! += x));
      return v;
    });
  };
  return { embed, calls };
}

describe('nameWords', () => {
  it('reads labels, types and keys as words', () => {
    expect(['ACTED_IN', 'releaseYear', 'GeneProduct', 'HTTPServer', 'dbId', 'wp-quality_text'].map(nameWords)).toEqual([
      'acted in',
      'release year',
      'gene product',
      'http server',
      'db id',
      'wp quality text',
    ]);
  });
});

describe('createNamesByMeaning', () => {
  it('suggests the names closest in meaning, never the name itself, nothing below the threshold', async () => {
    const { embed, calls } = fakeModel();
    const m = createNamesByMeaning(embed, { minSimilarity: 0.8 });
    expect(await m.nearest('Film', ['Person', 'Movie', 'film'])).toEqual(['Movie']);
    expect(await m.nearest('PLAYED_IN', ['ACTED_IN', 'Movie'])).toEqual(['ACTED_IN']);
    expect(await m.nearest('Person', ['Movie', 'ACTED_IN'])).toEqual([]);
    // Each name was embedded once.
    expect(calls.flat().filter((t) => t === 'movie')).toHaveLength(1);
  });

  it('does not hold a query up for a slow model: no suggestion now, one once the vectors are in', async () => {
    const { embed } = fakeModel();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const m = createNamesByMeaning(async (t) => (await gate, embed(t)), { waitMs: 20, minSimilarity: 0.8 });
    const t0 = performance.now();
    expect(await m.nearest('Film', ['Movie', 'Person'])).toEqual([]);
    expect(performance.now() - t0).toBeLessThan(500);
    release();
    await new Promise((r) => setTimeout(r, 10));
    expect(await m.nearest('Film', ['Movie', 'Person'])).toEqual(['Movie']);
  });

  it('gives nothing when the model fails, and asks it again next time', async () => {
    let fail = true;
    const { embed } = fakeModel();
    const m = createNamesByMeaning(
      async (t) => {
        if (fail) throw new Error('model server down');
        return embed(t);
      },
      { minSimilarity: 0.8 },
    );
    expect(await m.nearest('Film', ['Movie'])).toEqual([]);
    fail = false;
    expect(await m.nearest('Film', ['Movie'])).toEqual(['Movie']);
  });
});

describe('withMeaning', () => {
  const schema = {
    labels: [{ label: 'Movie' }, { label: 'Person' }],
    types: ['ACTED_IN'],
    propertyKeys: ['releaseYear', 'title'],
  } as unknown as SkeletonData;
  const m = createNamesByMeaning(fakeModel().embed, { minSimilarity: 0.8 });

  it('fills in names by meaning where spelling found none, and says so', async () => {
    const notices = await withMeaning(
      [
        {
          kind: 'unknown-label',
          name: 'Film',
          suggestions: [],
          message: 'label :Film does not exist in this graph; its labels are :Movie, :Person',
          explainsEmpty: true,
        },
        {
          kind: 'unknown-relationship-type',
          name: 'PLAYED_IN',
          suggestions: [],
          message: 'relationship type :PLAYED_IN does not exist in this graph; its types are :ACTED_IN',
          explainsEmpty: true,
        },
        {
          kind: 'unknown-label',
          name: 'Movies',
          suggestions: ['Movie'],
          message: 'label :Movies does not exist in this graph; did you mean :Movie?',
          explainsEmpty: true,
        },
        { kind: 'cartesian-product', message: 'pairs', explainsEmpty: false },
      ],
      schema,
      m,
    );
    expect(notices[0]).toMatchObject({
      suggestions: ['Movie'],
      message: 'label :Film does not exist in this graph; did you mean :Movie (closest in meaning)? Its labels are :Movie, :Person',
    });
    expect(notices[1]).toMatchObject({
      suggestions: ['ACTED_IN'],
      message:
        'relationship type :PLAYED_IN does not exist in this graph; did you mean :ACTED_IN (closest in meaning)? Its types are :ACTED_IN',
    });
    expect(notices[2]!.message).toBe('label :Movies does not exist in this graph; did you mean :Movie?');
    expect(notices[3]!.message).toBe('pairs');
  });

  it('leaves notices as they are without a model or a schema', async () => {
    const n = [{ kind: 'unknown-label' as const, name: 'Film', suggestions: [], message: 'm', explainsEmpty: true }];
    expect(await withMeaning(n, schema, undefined)).toBe(n);
    expect(await withMeaning(n, null, m)).toBe(n);
  });
});
