/**
 * The embedding model pool: one loaded {@link Embedder} per registry name, built on first use and
 * shared by every caller (index build, vector search, the agent). In-process models are read from
 * `MODELS_DIR/<registry name>/`; the local-model-server entries call `EMBEDDING_BASE_URL` (default `LOCAL_LLM_BASE_URL`).
 */
import type { Config } from '../config.js';
import { DomainError } from '../errors.js';
import { DEFAULT_CHUNKING, type ChunkingOptions } from './chunking.js';
import { detectModelKind, modelDir, nodeFileReader, type ModelFileReader } from './model-files.js';
import { createOnnxEmbedder } from './onnx-embedder.js';
import { MODEL_NAMES, findModel, type ModelEntry } from '../contract/models.js';
import { createServerEmbedder } from './server-embedder.js';
import { createStaticEmbedder } from './static-embedder.js';
import type { Embedder } from './types.js';

/** Options of {@link createEmbedders}. */
export interface EmbeddersOptions {
  /** Directory holding `<registry name>/` model folders (`MODELS_DIR`, default `./models`). */
  modelsDir: string;
  /** OpenAI-compatible base URL of the embedding model server (`EMBEDDING_BASE_URL`, default `LOCAL_LLM_BASE_URL`), e.g. `http://localhost:11434/v1`. */
  localBaseUrl: string;
  /** Chunk size and overlap in tokens (`CHUNK_TOKENS` 256, `CHUNK_OVERLAP_TOKENS` 32). */
  chunking?: Partial<ChunkingOptions>;
  /** Texts per `/embeddings` request to the local model server (`EMBEDDING_SERVER_BATCH_SIZE`, 64). */
  serverBatchSize?: number;
  /** Attempts per request to the local model server on 429/5xx/network errors (default 4). */
  serverMaxAttempts?: number;
  /** Injectable fetch for the model server (tests). */
  fetch?: typeof fetch;
  /** Injectable model file access (default: node:fs, which Node, Bun and Deno all provide). */
  files?: ModelFileReader;
}

/** The loaded models. */
export interface EmbedderPool {
  /**
   * The embedder for a registry name, loaded once and cached (concurrent callers share one load;
   * a failed load is not cached, so fetching the files and retrying works without a restart).
   * @throws DomainError 422 `unknown-model` naming the valid models, for a name outside the registry.
   * @throws DomainError 503 `model-files-missing` when an in-process model's files are not under
   * `modelsDir` (a deployment fault, not a bad request: the message says to run
   * `scripts/fetch-models <name>`).
   */
  get(model: string): Promise<Embedder>;
  /** Releases ONNX sessions and cached tables. Later `get` calls load again. */
  close(): Promise<void>;
}

/** A registry name outside the table: 422 listing the valid names (field `model`; routes say where it was). */
export function unknownModel(model: string): DomainError {
  return new DomainError('invalid', 'unknown-model', `unknown model "${model}"; valid models: ${MODEL_NAMES.join(', ')}`, {
    errors: [{ path: 'model', message: `must be one of: ${MODEL_NAMES.join(', ')}` }],
  });
}

/** Builds the pool; nothing is loaded until `get`. */
export function createEmbedders(opts: EmbeddersOptions): EmbedderPool {
  const chunking: ChunkingOptions = { ...DEFAULT_CHUNKING, ...opts.chunking };
  const files = opts.files ?? nodeFileReader;
  const loaded = new Map<string, Promise<Embedder & { dispose?(): Promise<void> }>>();

  const load = async (entry: ModelEntry) => {
    if (entry.provider === 'local-server') {
      return createServerEmbedder({
        entry,
        baseUrl: opts.localBaseUrl,
        chunking,
        batchSize: opts.serverBatchSize,
        maxAttempts: opts.serverMaxAttempts,
        fetch: opts.fetch,
      });
    }
    const dir = modelDir(opts.modelsDir, entry.name);
    const kind = await detectModelKind(dir, files);
    if (kind.type === 'missing') {
      throw new DomainError(
        'unavailable',
        'model-files-missing',
        `model files for "${entry.name}" are missing under ${dir} (${kind.reason}): run scripts/fetch-models ${entry.name}`,
      );
    }
    return kind.type === 'static'
      ? createStaticEmbedder({ entry, dir, chunking, files })
      : createOnnxEmbedder({ entry, dir, chunking, files, onnxPath: kind.onnxPath });
  };

  return {
    get(model) {
      const entry = findModel(model);
      if (!entry) return Promise.reject(unknownModel(model));
      let p = loaded.get(model);
      if (!p) {
        p = load(entry);
        loaded.set(model, p);
        p.catch(() => loaded.delete(model));
      }
      return p;
    },
    async close() {
      const all = [...loaded.values()];
      loaded.clear();
      await Promise.allSettled(all.map(async (p) => (await p).dispose?.()));
    },
  };
}

/** The pool as the service configures it (`MODELS_DIR`, `EMBEDDING_BASE_URL`, `CHUNK_*`, `EMBEDDING_SERVER_BATCH_SIZE`). */
export function createEmbeddersFromConfig(
  config: Pick<Config, 'MODELS_DIR' | 'EMBEDDING_BASE_URL' | 'CHUNK_TOKENS' | 'CHUNK_OVERLAP_TOKENS' | 'EMBEDDING_SERVER_BATCH_SIZE'>,
  extra: Pick<EmbeddersOptions, 'fetch' | 'files'> = {},
): EmbedderPool {
  return createEmbedders({
    modelsDir: config.MODELS_DIR,
    localBaseUrl: config.EMBEDDING_BASE_URL,
    chunking: { maxTokens: config.CHUNK_TOKENS, overlapTokens: config.CHUNK_OVERLAP_TOKENS },
    serverBatchSize: config.EMBEDDING_SERVER_BATCH_SIZE,
    ...extra,
  });
}
