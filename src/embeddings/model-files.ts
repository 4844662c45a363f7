/**
 * Model files on disk: where a registry model lives (`MODELS_DIR/<registry name>/`, the hub's
 * own layout) and which kind of model a folder holds, decided from its files alone.
 */
import { trimChar } from '../lib/text.js';

/** Read access to model files; `read` resolves null for a missing file. */
export interface ModelFileReader {
  read(path: string): Promise<Uint8Array | null>;
  exists(path: string): Promise<boolean>;
}

/**
 * The default reader. `node:fs/promises` is imported lazily and only here: Node, Bun and Deno
 * all implement it, and onnxruntime-node (a Node-API addon) needs the same compatibility layer,
 * so in-process embedding cannot be more portable than this anyway.
 */
export const nodeFileReader: ModelFileReader = {
  async read(path) {
    const fs = await import('node:fs/promises');
    try {
      const buf = await fs.readFile(path);
      return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    } catch (err) {
      if ((err as { code?: string }).code === 'ENOENT') return null;
      throw err;
    }
  },
  async exists(path) {
    const fs = await import('node:fs/promises');
    return fs.stat(path).then(
      (s) => s.isFile(),
      () => false,
    );
  },
};

/** `<modelsDir>/<registry name>`, e.g. `./models/minishlab/potion-base-32M`. */
export function modelDir(modelsDir: string, name: string): string {
  return `${trimChar(modelsDir, '/')}/${name}`;
}

/** What a model folder holds. */
export type ModelKind =
  /** A model2vec table: `model.safetensors` (`embeddings`) + `tokenizer.json`, mean pooled in JS. */
  | { type: 'static' }
  /** A sentence encoder: `tokenizer.json` + an ONNX graph, mean pooled over the attention mask. */
  | { type: 'onnx'; onnxPath: string }
  | { type: 'missing'; reason: string };

/** ONNX locations used by hub repos, in order of preference. */
const ONNX_PATHS = ['onnx/model.onnx', 'model.onnx'];

/**
 * Decides the kind from the files: a config with `model_type: "model2vec"` (every potion repo)
 * or a safetensors table without any ONNX graph is static; otherwise an ONNX graph makes it a
 * transformer. Potion repos also ship `onnx/model.onnx`, which is why the config is checked
 * first: the static path is exact and faster (see static-embedder.ts).
 */
export async function detectModelKind(dir: string, files: ModelFileReader): Promise<ModelKind> {
  if (!(await files.exists(`${dir}/tokenizer.json`))) return { type: 'missing', reason: 'no tokenizer.json' };
  const config = await readJson(files, `${dir}/config.json`);
  const hasTable = await files.exists(`${dir}/model.safetensors`);
  if (config?.model_type === 'model2vec') {
    return hasTable ? { type: 'static' } : { type: 'missing', reason: 'no model.safetensors' };
  }
  for (const rel of ONNX_PATHS) {
    if (await files.exists(`${dir}/${rel}`)) return { type: 'onnx', onnxPath: `${dir}/${rel}` };
  }
  if (hasTable) return { type: 'static' };
  return { type: 'missing', reason: 'neither model.safetensors nor onnx/model.onnx' };
}

/** Parses a JSON file, or null when it is absent. */
export async function readJson(files: ModelFileReader, path: string): Promise<Record<string, unknown> | null> {
  const bytes = await files.read(path);
  if (!bytes) return null;
  return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
}
