/** Types of scripts/gen/onnx-writer.mjs. */
export declare function encodeOnnxModel(graph: {
  nodes: { op: string; inputs: string[]; outputs: string[]; attrs?: Record<string, number | number[]> }[];
  initializers: { name: string; type: 'float' | 'int64'; dims: number[]; data: Float32Array | BigInt64Array }[];
  inputs: { name: string; type: 'float' | 'int64'; shape: (number | string)[] }[];
  outputs: { name: string; type: 'float' | 'int64'; shape: (number | string)[] }[];
  name?: string;
}): Uint8Array;
export declare function staticMeanOnnx(table: Float32Array, rows: number, dims: number): Uint8Array;
