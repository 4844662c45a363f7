/**
 * "Did you mean" by meaning, for the names no spelling rule finds: `Film` for `Movie`,
 * `Cosmonaut` for `Astronaut`, `EMPLOYED_BY` for `WORKS_FOR`. The names are embedded as words
 * (`ACTED_IN` → "acted in", `releaseYear` → "release year") with the service's embedding model,
 * and the existing names most similar to the wrong one are suggested when similar enough.
 *
 * Optional by design: a query's notices must not wait on a slow or missing model. A lookup
 * waits at most `waitMs`; embedding goes on in the background and later lookups use it. A
 * failing model gives no suggestions and is asked again next time.
 */

import { withTimeout } from './timeout.js';
import { cosine } from './vector.js';

/** Embeds texts, one vector per text (an embedding model's `embed`). */
export type EmbedTexts = (texts: string[]) => Promise<Float32Array[]>;

/** Names closest in meaning. */
export interface NamesByMeaning {
  /** Up to two of `candidates` closest in meaning to `name`; [] when none is close or the model did not answer in time. */
  nearest(name: string, candidates: readonly string[]): Promise<string[]>;
}

/** Options of {@link createNamesByMeaning}. */
export interface NamesByMeaningOptions {
  /** Least cosine similarity of a suggestion (default {@link MIN_SIMILARITY}). */
  minSimilarity?: number;
  /** Longest wait for the model per lookup, in ms (default 1,000). */
  waitMs?: number;
  /** Vectors kept (default 20,000 names); the oldest go first. */
  maxNames?: number;
}

/**
 * Default least similarity. With all-MiniLM-L6-v2 on the 48 distinct names of
 * scripts/data/cypher-mistakes.jsonl that no spelling rule reaches: at 0.45 the right name
 * comes first for 26, another for 12, nothing for 10; at 0.5, 21, 8 and 19 (docs/benchmarks.md,
 * "Cypher feedback"). The notice keeps the graph's list of names beside a guess.
 */
export const MIN_SIMILARITY = 0.45;

/** A second suggestion must be within this much of the first. */
const RUNNER_UP = 0.05;

/** A name as words: `ACTED_IN` → "acted in", `releaseYear` → "release year", `GeneProduct` → "gene product". */
export function nameWords(name: string): string {
  return name
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .toLowerCase();
}

/** Suggestions by meaning over `embed`, with each name's vector kept. */
export function createNamesByMeaning(embed: EmbedTexts, opts: NamesByMeaningOptions = {}): NamesByMeaning {
  const min = opts.minSimilarity ?? MIN_SIMILARITY;
  const waitMs = opts.waitMs ?? 1_000;
  const maxNames = opts.maxNames ?? 20_000;
  const vectors = new Map<string, Float32Array>();
  // Splitting a name into words (three Unicode regexes) cost more than scoring it.
  const wordsOf = new Map<string, string>();
  const words = (name: string) => {
    let w = wordsOf.get(name);
    if (w === undefined) {
      if (wordsOf.size >= maxNames) wordsOf.clear();
      w = nameWords(name);
      wordsOf.set(name, w);
    }
    return w;
  };
  const pending = new Map<string, Promise<void>>();

  /** Embeds the texts not kept yet, in one call; concurrent lookups share it. Never rejects. */
  const ensure = (texts: string[]): Promise<unknown> => {
    const missing = [...new Set(texts)].filter((w) => !vectors.has(w) && !pending.has(w));
    if (missing.length) {
      const call = embed(missing).then(
        (vs) => {
          for (const [i, w] of missing.entries()) vectors.set(w, vs[i]!);
          while (vectors.size > maxNames) vectors.delete(vectors.keys().next().value as string);
        },
        () => undefined, // no suggestions this time; asked again on the next lookup
      );
      const done = call.finally(() => {
        for (const w of missing) pending.delete(w);
      });
      for (const w of missing) pending.set(w, done);
    }
    return Promise.all(texts.map((w) => pending.get(w)));
  };

  return {
    async nearest(name, candidates) {
      const wanted = words(name);
      const named = candidates.map((c) => ({ name: c, words: words(c) })).filter((c) => c.words && c.words !== wanted);
      if (!wanted || !named.length) return [];
      // Out of time: go on with the vectors kept so far; the embedding finishes in the background.
      await withTimeout(ensure([wanted, ...named.map((c) => c.words)]), waitMs).catch(() => {});
      const own = vectors.get(wanted);
      if (!own) return [];
      const scored = named
        .flatMap((c) => {
          const v = vectors.get(c.words);
          return v ? [{ name: c.name, score: cosine(own, v) }] : [];
        })
        .sort((a, b) => b.score - a.score);
      const best = scored[0]?.score ?? 0;
      if (best < min) return [];
      return scored.filter((s, i) => i < 2 && s.score >= Math.max(min, best - RUNNER_UP)).map((s) => s.name);
    },
  };
}
