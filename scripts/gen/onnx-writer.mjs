/**
 * A tiny ONNX (protobuf) writer, enough for the test models and the embedding benchmark: float
 * and int64 initializers, nodes with int/ints attributes, typed graph inputs and outputs with
 * symbolic dimensions. Pure JS so tests never need Python or the `onnx` package.
 */

const TYPES = { float: 1, int64: 7 };

function varint(n) {
  let v = BigInt(n);
  if (v < 0n) v += 1n << 64n;
  const out = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v) byte |= 0x80;
    out.push(byte);
  } while (v);
  return out;
}

/** A protobuf message builder: fields are appended in order. */
class Msg {
  parts = [];
  int(field, value) {
    this.parts.push(Uint8Array.from([...varint((field << 3) | 0), ...varint(value)]));
    return this;
  }
  bytes(field, data) {
    const body = typeof data === 'string' ? new TextEncoder().encode(data) : data instanceof Msg ? data.finish() : data;
    this.parts.push(Uint8Array.from([...varint((field << 3) | 2), ...varint(body.length)]), body);
    return this;
  }
  finish() {
    const len = this.parts.reduce((n, p) => n + p.length, 0);
    const out = new Uint8Array(len);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

/** An initializer: `{name, type: 'float'|'int64', dims, data: Float32Array|BigInt64Array}`. */
function tensor({ name, type, dims, data }) {
  const m = new Msg();
  for (const d of dims) m.int(1, d);
  m.int(2, TYPES[type]).bytes(8, name);
  return m.bytes(9, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
}

/** A graph input/output: `{name, type, shape: (number|string)[]}` (strings are symbolic dims). */
function valueInfo({ name, type, shape }) {
  const dims = new Msg();
  for (const d of shape) dims.bytes(1, typeof d === 'number' ? new Msg().int(1, d) : new Msg().bytes(2, d));
  const tensorType = new Msg().int(1, TYPES[type]).bytes(2, dims);
  return new Msg().bytes(1, name).bytes(2, new Msg().bytes(1, tensorType));
}

/** A node: `{op, inputs, outputs, attrs: {name: number | number[]}}`. */
function node({ op, inputs, outputs, attrs = {} }, i) {
  const m = new Msg();
  for (const x of inputs) m.bytes(1, x);
  for (const x of outputs) m.bytes(2, x);
  m.bytes(3, `${op}_${i}`).bytes(4, op);
  for (const [name, v] of Object.entries(attrs)) {
    const a = new Msg().bytes(1, name);
    if (Array.isArray(v)) {
      for (const x of v) a.int(8, x);
      a.int(20, 7);
    } else a.int(3, v).int(20, 2);
    m.bytes(5, a);
  }
  return m;
}

/**
 * Serialises a model (IR 8, default opset 13).
 * @param {{nodes: object[], initializers: object[], inputs: object[], outputs: object[], name?: string}} g
 * @returns {Uint8Array}
 */
export function encodeOnnxModel(g) {
  const graph = new Msg();
  g.nodes.forEach((n, i) => graph.bytes(1, node(n, i)));
  graph.bytes(2, g.name ?? 'graph');
  for (const t of g.initializers) graph.bytes(5, tensor(t));
  for (const v of g.inputs) graph.bytes(11, valueInfo(v));
  for (const v of g.outputs) graph.bytes(12, valueInfo(v));
  return new Msg().int(1, 8).bytes(2, 'graph-chat gen-test-models').bytes(7, graph).bytes(8, new Msg().bytes(1, '').int(2, 13)).finish();
}

/**
 * The model2vec ONNX export's computation (input_ids, attention_mask → normalised masked mean of
 * table rows) over `table` [rows × dims]; used by the benchmark to compare ONNX Runtime with the
 * JS gather.
 */
export function staticMeanOnnx(table, rows, dims) {
  const i64 = (name, values) => ({ name, type: 'int64', dims: [values.length], data: BigInt64Array.from(values.map(BigInt)) });
  return encodeOnnxModel({
    name: 'static-mean',
    initializers: [
      { name: 'table', type: 'float', dims: [rows, dims], data: table },
      i64('last_axis', [-1]),
      i64('seq_axis', [1]),
      { name: 'one', type: 'float', dims: [], data: Float32Array.of(1) },
    ],
    inputs: [
      { name: 'input_ids', type: 'int64', shape: ['batch', 'sequence'] },
      { name: 'attention_mask', type: 'int64', shape: ['batch', 'sequence'] },
    ],
    outputs: [{ name: 'embeddings', type: 'float', shape: ['batch', dims] }],
    nodes: [
      { op: 'Gather', inputs: ['table', 'input_ids'], outputs: ['rows'] },
      { op: 'Cast', inputs: ['attention_mask'], outputs: ['maskf'], attrs: { to: 1 } },
      { op: 'Unsqueeze', inputs: ['maskf', 'last_axis'], outputs: ['mask3'] },
      { op: 'Mul', inputs: ['rows', 'mask3'], outputs: ['masked'] },
      { op: 'ReduceSum', inputs: ['masked', 'seq_axis'], outputs: ['sum'], attrs: { keepdims: 0 } },
      { op: 'ReduceSum', inputs: ['mask3', 'seq_axis'], outputs: ['count'], attrs: { keepdims: 0 } },
      { op: 'Max', inputs: ['count', 'one'], outputs: ['countc'] },
      { op: 'Div', inputs: ['sum', 'countc'], outputs: ['mean'] },
      { op: 'LpNormalization', inputs: ['mean'], outputs: ['embeddings'], attrs: { axis: -1, p: 2 } },
    ],
  });
}
