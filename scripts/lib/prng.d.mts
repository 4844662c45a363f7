/** Types of scripts/lib/prng.mjs. */
export declare function prng(seed: number): () => number;
