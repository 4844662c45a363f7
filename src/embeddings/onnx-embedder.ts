/**
 * Sentence encoders through ONNX Runtime: the tokenizer with special tokens, a padded batch of
 * `input_ids` / `attention_mask` (/ `token_type_ids` when the graph takes them), the encoder,
 * then mean pooling over real tokens and normalisation — the sentence-transformers recipe, so any
 * ONNX sentence-embedding export (`onnx/model.onnx` or `model.onnx`) can be registered. A graph
 * that already outputs pooled vectors (`sentence_embedding`, or any [batch, dims] output such as
 * model2vec's own ONNX export) is used as it is, only normalised.
 */
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { DomainError } from '../errors.js';
import { chunkText, type ChunkingOptions } from './chunking.js';
import { readJson, type ModelFileReader } from './model-files.js';
import type { ModelEntry } from '../contract/models.js';
import { loadTokenizer } from './tokenizer.js';
import type { Embedder, EmbedderStats } from './types.js';
import { normalize } from '../lib/vector.js';

/** Options of {@link createOnnxEmbedder}. */
export interface OnnxEmbedderOptions {
  entry: ModelEntry;
  dir: string;
  /** Path of the ONNX graph (found by `detectModelKind`). */
  onnxPath: string;
  chunking: ChunkingOptions;
  files: ModelFileReader;
  /** Texts per session run (default 32): bounds the padded batch's memory. */
  batchSize?: number;
}

/** Output names that hold per-token states, in order of preference. */
const TOKEN_OUTPUTS = ['last_hidden_state', 'token_embeddings'];

/** Loads tokenizer and graph. @throws DomainError 503 when the graph does not fit the registry entry. */
export async function createOnnxEmbedder(opts: OnnxEmbedderOptions): Promise<Embedder & { dispose(): Promise<void> }> {
  const { entry, dir } = opts;
  // Loaded lazily: the native addon is only needed by processes that run an encoder.
  const ort = await import('onnxruntime-node');
  const tok = await loadTokenizer(dir, opts.files);
  const graph = await opts.files.read(opts.onnxPath);
  if (!graph)
    throw new DomainError('unavailable', 'model-files-missing', `${opts.onnxPath} is missing: run scripts/fetch-models ${entry.name}`);
  const session: InferenceSession = await ort.InferenceSession.create(graph, { graphOptimizationLevel: 'all' });
  const tokJson = (await readJson(opts.files, `${dir}/tokenizer.json`)) ?? {};
  const padId = Number((tokJson.padding as { pad_id?: number } | null)?.pad_id ?? 0);
  const maxLen = await maxSequenceLength(dir, opts.files);
  const chunking = { ...opts.chunking, maxTokens: Math.min(opts.chunking.maxTokens, maxLen - 2) };
  const pooledOut = session.outputNames.includes('sentence_embedding') ? 'sentence_embedding' : undefined;
  const tokenOut = TOKEN_OUTPUTS.find((n) => session.outputNames.includes(n)) ?? session.outputNames[0]!;
  const stats: EmbedderStats = { texts: 0, tokens: 0, tokenizeMs: 0, inferenceMs: 0 };
  const batchSize = opts.batchSize ?? 32;

  const ids = (text: string) => {
    const all = tok.encodeWithSpecial(text);
    // Keep the closing special token when truncating, as the tokenizer's own truncation does.
    return all.length <= maxLen ? all : [...all.slice(0, maxLen - 1), all[all.length - 1]!];
  };

  const runBatch = async (batch: number[][]): Promise<Float32Array[]> => {
    const width = Math.max(1, ...batch.map((b) => b.length));
    const inputIds = new BigInt64Array(batch.length * width).fill(BigInt(padId));
    const mask = new BigInt64Array(batch.length * width);
    batch.forEach((row, i) => {
      row.forEach((id, j) => {
        inputIds[i * width + j] = BigInt(id);
        mask[i * width + j] = 1n;
      });
    });
    const dims = [batch.length, width];
    const feeds: Record<string, Tensor> = {
      input_ids: new ort.Tensor('int64', inputIds, dims),
      attention_mask: new ort.Tensor('int64', mask, dims),
    };
    if (session.inputNames.includes('token_type_ids'))
      feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(batch.length * width), dims);
    const out = await session.run(feeds);
    const t = out[pooledOut ?? tokenOut]!;
    const pooled = t.dims.length === 2;
    const hidden = Number(t.dims[t.dims.length - 1]);
    if (hidden !== entry.dimensions) {
      throw new DomainError(
        'unavailable',
        'model-files-invalid',
        `${opts.onnxPath} outputs ${hidden} dimensions, the registry says ${entry.dimensions}`,
      );
    }
    const data = t.data as Float32Array;
    return batch.map((row, i) => {
      const v = new Float32Array(hidden);
      if (pooled) v.set(data.subarray(i * hidden, (i + 1) * hidden));
      else {
        for (let j = 0; j < row.length; j++) {
          const base = (i * width + j) * hidden;
          for (let k = 0; k < hidden; k++) v[k]! += data[base + k]!;
        }
      }
      return normalize(v);
    });
  };

  return {
    name: entry.name,
    dimensions: entry.dimensions,
    chunk(text) {
      const t0 = performance.now();
      const chunks = chunkText(text, tok.countWord, chunking);
      stats.tokenizeMs += performance.now() - t0;
      return chunks;
    },
    async embed(texts) {
      const t0 = performance.now();
      const encoded = texts.map(ids);
      stats.tokenizeMs += performance.now() - t0;
      // Similar lengths together keep padding (wasted encoder work) small.
      const order = encoded.map((_, i) => i).sort((a, b) => encoded[a]!.length - encoded[b]!.length);
      const out: Float32Array[] = new Array(texts.length);
      const t1 = performance.now();
      for (let i = 0; i < order.length; i += batchSize) {
        const idx = order.slice(i, i + batchSize);
        const vecs = await runBatch(idx.map((k) => encoded[k]!));
        idx.forEach((k, j) => {
          out[k] = vecs[j]!;
        });
      }
      stats.inferenceMs += performance.now() - t1;
      stats.texts += texts.length;
      for (const e of encoded) stats.tokens += e.length;
      return out;
    },
    stats: () => ({ ...stats }),
    dispose: () => session.release(),
  };
}

/** The encoder's position limit: `tokenizer_config.json` `model_max_length`, else the config's, else 512. */
async function maxSequenceLength(dir: string, files: ModelFileReader): Promise<number> {
  const tc = await readJson(files, `${dir}/tokenizer_config.json`);
  const fromTok = Number(tc?.model_max_length);
  if (Number.isFinite(fromTok) && fromTok > 2 && fromTok < 100_000) return fromTok;
  const cfg = await readJson(files, `${dir}/config.json`);
  const fromCfg = Number(cfg?.max_position_embeddings);
  return Number.isFinite(fromCfg) && fromCfg > 2 ? fromCfg : 512;
}
