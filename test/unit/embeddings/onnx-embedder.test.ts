/**
 * The transformer path on the generated tiny encoder (tokenizer + onnx/model.onnx through ONNX
 * Runtime + masked mean pooling), and the model2vec-style ONNX graph agreeing with the JS gather.
 */
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { ENCODER_DIMS, buildVocab, randomTable } from '../../../scripts/gen/gen-test-models.mjs';
import { staticMeanOnnx } from '../../../scripts/gen/onnx-writer.mjs';
import { detectModelKind, nodeFileReader } from '../../../src/embeddings/model-files.js';
import { createOnnxEmbedder } from '../../../src/embeddings/onnx-embedder.js';
import type { ModelEntry } from '../../../src/contract/models.js';
import { loadTokenizer } from '../../../src/embeddings/tokenizer.js';
import { TEST_MODELS_DIR } from '../../helpers/models-setup.js';

const DIR = `${TEST_MODELS_DIR}/test/tiny-encoder`;
const ENTRY: ModelEntry = { name: 'test/tiny-encoder', dimensions: ENCODER_DIMS, provider: 'in-process' };
const chunking = { maxTokens: 256, overlapTokens: 32 };

/** What the encoder computes, written out independently: tanh(word + type[0]) averaged over real tokens. */
function expected(ids: number[]): Float32Array {
  const vocab = buildVocab().length;
  const word = randomTable(vocab, ENCODER_DIMS, 3);
  const type = randomTable(2, ENCODER_DIMS, 4);
  const v = new Float32Array(ENCODER_DIMS);
  for (const id of ids) for (let k = 0; k < ENCODER_DIMS; k++) v[k]! += Math.tanh(word[id * ENCODER_DIMS + k]! + type[k]!);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

describe('onnx embedder', () => {
  it('detects the folder as a transformer model', async () => {
    expect(await detectModelKind(DIR, nodeFileReader)).toEqual({ type: 'onnx', onnxPath: `${DIR}/onnx/model.onnx` });
  });

  it('mean-pools over real tokens only, whatever the batch padding', async () => {
    const emb = await createOnnxEmbedder({ entry: ENTRY, dir: DIR, onnxPath: `${DIR}/onnx/model.onnx`, chunking, files: nodeFileReader });
    const tok = await loadTokenizer(DIR, nodeFileReader);
    const texts = ['signal', 'Insulin receptor signaling activates the AKT pathway in liver cells.', 'hello world'];
    const batch = await emb.embed(texts);
    const alone = await emb.embed([texts[0]!]);
    for (const [i, t] of texts.entries()) {
      const want = expected(tok.encodeWithSpecial(t));
      for (let k = 0; k < ENCODER_DIMS; k++) expect(batch[i]![k]).toBeCloseTo(want[k]!, 5);
    }
    expect(Array.from(alone[0]!)).toEqual(Array.from(batch[0]!));
    expect(emb.stats!().texts).toBe(4);
    await emb.dispose();
  });

  it('truncates to the model maximum (64) keeping the closing special token', async () => {
    const emb = await createOnnxEmbedder({ entry: ENTRY, dir: DIR, onnxPath: `${DIR}/onnx/model.onnx`, chunking, files: nodeFileReader });
    const long = Array.from({ length: 200 }, () => 'protein').join(' ');
    const [v] = await emb.embed([long]);
    const tok = await loadTokenizer(DIR, nodeFileReader);
    const ids = tok.encodeWithSpecial(long);
    const want = expected([...ids.slice(0, 63), ids[ids.length - 1]!]);
    for (let k = 0; k < ENCODER_DIMS; k++) expect(v![k]).toBeCloseTo(want[k]!, 5);
    // Chunks respect the encoder's limit minus the two special tokens.
    for (const c of emb.chunk(long)) expect(tok.encode(c).length).toBeLessThanOrEqual(62);
    await emb.dispose();
  });

  it('the model2vec-style ONNX graph gives the JS static vectors', async () => {
    const rows = 50;
    const dims = 16;
    const table = randomTable(rows, dims, 7);
    const session = await ort.InferenceSession.create(staticMeanOnnx(table, rows, dims));
    const ids = [
      [3, 4, 5, 0],
      [9, 0, 0, 0],
    ];
    const mask = [
      [1, 1, 1, 0],
      [1, 0, 0, 0],
    ];
    const t = (m: number[][]) => new ort.Tensor('int64', BigInt64Array.from(m.flat().map(BigInt)), [2, 4]);
    const out = (await session.run({ input_ids: t(ids), attention_mask: t(mask) })).embeddings!;
    expect(out.dims).toEqual([2, dims]);
    const data = out.data as Float32Array;
    ids.forEach((row, b) => {
      const used = row.filter((_, j) => mask[b]![j]);
      const v = new Float32Array(dims);
      for (const id of used) for (let k = 0; k < dims; k++) v[k]! += table[id * dims + k]! / used.length;
      const n = Math.hypot(...v);
      for (let k = 0; k < dims; k++) expect(data[b * dims + k]).toBeCloseTo(v[k]! / n, 5);
    });
    await session.release();
  });
});
