/** Types of scripts/gen/gen-test-models.mjs (used by tests and the vitest global setup). */
export declare function generateTestModels(root: string): void;
export declare function writeStaticModel(dir: string, dims: number, seed: number): void;
export declare function writeTinyEncoder(dir: string): void;
export declare function buildVocab(): string[];
export declare function randomTable(rows: number, dims: number, seed: number): Float32Array;
export declare function safetensors(
  tensors: Record<string, { dtype: string; shape: number[]; data: Float32Array | Int32Array | Uint16Array }>,
): Uint8Array;
export declare const ENCODER_DIMS: number;
