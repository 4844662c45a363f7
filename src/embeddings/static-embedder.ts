/**
 * Static (model2vec "potion") models computed in JS, reproducing `StaticModel.encode` of
 * model2vec 0.10: cut the text to `max_length × median token length` characters, tokenise
 * without special tokens, keep the first `max_length` ids, drop the unknown token, take the mean
 * of the table rows (through `mapping` and times `weights` when the file has them), normalise.
 *
 * Why not ONNX Runtime here: the potion ONNX export is the same gather + mean, so the session
 * adds tensor marshalling (ids to BigInt64, a padded batch, the output copied back) around work
 * that a plain loop over the Float32Array does in well under the tokeniser's time, so the JS
 * path is faster at equal results (`npm run bench:embed` compares them). Sentence encoders run
 * through ONNX Runtime (onnx-embedder.ts).
 */
import { DomainError } from '../errors.js';
import { chunkText, type ChunkingOptions } from './chunking.js';
import { readJson, type ModelFileReader } from './model-files.js';
import type { ModelEntry } from '../contract/models.js';
import { readTensor } from './safetensors.js';
import { loadTokenizer, type TextTokenizer } from './tokenizer.js';
import type { Embedder, EmbedderStats } from './types.js';

/** Options of {@link createStaticEmbedder}. */
export interface StaticEmbedderOptions {
  entry: ModelEntry;
  /** Folder with `tokenizer.json`, `model.safetensors`, `config.json`. */
  dir: string;
  chunking: ChunkingOptions;
  files: ModelFileReader;
}

/** model2vec's default when the config names no `max_length`. */
const DEFAULT_MAX_LENGTH = 512;

/** A loaded static model; `dispose` drops the table. */
export type StaticEmbedder = Embedder & { dispose(): Promise<void> };

/** Loads a static model folder. @throws DomainError 503 when the files do not fit the registry entry. */
export async function createStaticEmbedder(opts: StaticEmbedderOptions): Promise<StaticEmbedder> {
  const { entry, dir } = opts;
  const invalid = (why: string) =>
    new DomainError(
      'unavailable',
      'model-files-invalid',
      `model files for "${entry.name}" under ${dir} are unusable: ${why}; run scripts/fetch-models ${entry.name}`,
    );

  const tok = await loadTokenizer(dir, opts.files);
  const config = (await readJson(opts.files, `${dir}/config.json`)) ?? {};
  const bytes = await opts.files.read(`${dir}/model.safetensors`);
  if (!bytes) throw invalid('model.safetensors is missing');
  const table = readTensor(bytes, 'embeddings');
  if (table?.shape.length !== 2 || !(table.data instanceof Float32Array)) throw invalid('no 2-D "embeddings" tensor');
  const [rows, dims] = table.shape as [number, number];
  if (dims !== entry.dimensions) throw invalid(`table has ${dims} dimensions, the registry says ${entry.dimensions}`);
  const weights = readTensor(bytes, 'weights')?.data;
  const mapping = readTensor(bytes, 'mapping')?.data;
  if (!mapping && rows !== tok.tokens.length) throw invalid(`table has ${rows} rows for ${tok.tokens.length} tokens`);

  let data: Float32Array | null = table.data;
  const maxLength = config.max_length === null ? Infinity : Number(config.max_length ?? DEFAULT_MAX_LENGTH);
  const charLimit = maxLength * medianLength(tok.tokens);
  const stats: EmbedderStats = { texts: 0, tokens: 0, tokenizeMs: 0, inferenceMs: 0 };
  const acc = new Float64Array(dims);

  const idsOf = (text: string): number[] => {
    const ids = tok.encode(truncateCodePoints(text, charLimit));
    if (ids.length > maxLength) ids.length = maxLength;
    return tok.unkId === undefined ? ids : ids.filter((id) => id !== tok.unkId);
  };

  const meanOf = (ids: number[], table: Float32Array): Float32Array => {
    acc.fill(0);
    for (const id of ids) {
      const base = (mapping ? mapping[id]! : id) * dims;
      const w = weights ? weights[id]! : 1;
      if (w === 1) for (let j = 0; j < dims; j++) acc[j]! += table[base + j]!;
      else for (let j = 0; j < dims; j++) acc[j]! += table[base + j]! * w;
    }
    const out = new Float32Array(dims);
    if (!ids.length) return out;
    let norm = 0;
    for (let j = 0; j < dims; j++) {
      // Rounded to float32 before normalising, as numpy's float32 mean is.
      out[j] = acc[j]! / ids.length;
      norm += out[j]! * out[j]!;
    }
    const scale = 1 / (Math.sqrt(norm) + 1e-32);
    for (let j = 0; j < dims; j++) out[j]! *= scale;
    return out;
  };

  return {
    name: entry.name,
    dimensions: dims,
    chunk(text) {
      const t0 = performance.now();
      const chunks = chunkText(text, tok.countWord, opts.chunking);
      stats.tokenizeMs += performance.now() - t0;
      return chunks;
    },
    async embed(texts) {
      if (!data) throw new Error(`model "${entry.name}" was closed`);
      const t0 = performance.now();
      const all = texts.map(idsOf);
      const t1 = performance.now();
      const out = all.map((ids) => meanOf(ids, data!));
      stats.inferenceMs += performance.now() - t1;
      stats.tokenizeMs += t1 - t0;
      stats.texts += texts.length;
      for (const ids of all) stats.tokens += ids.length;
      return out;
    },
    stats: () => ({ ...stats }),
    async dispose() {
      data = null;
    },
  };
}

/** model2vec's `int(np.median([len(token) for token in tokens]))` (lengths in code points). */
export function medianLength(tokens: TextTokenizer['tokens']): number {
  const lens = tokens
    .filter((t) => t !== undefined)
    .map((t) => Array.from(t).length)
    .sort((a, b) => a - b);
  if (!lens.length) return 1;
  const mid = lens.length >> 1;
  return Math.trunc(lens.length % 2 ? lens[mid]! : (lens[mid - 1]! + lens[mid]!) / 2);
}

/** Python's `text[:limit]`: the first `limit` code points. */
export function truncateCodePoints(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let points = 0;
  for (let i = 0; i < text.length; i++) {
    if (points === limit) return text.slice(0, i);
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) i++;
    points++;
  }
  return text;
}
