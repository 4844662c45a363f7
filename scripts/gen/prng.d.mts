/** Types of scripts/gen/prng.mjs. */
export declare function prng(seed: number): () => number;
