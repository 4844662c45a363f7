/**
 * The embedding model registry: the `model` values the API accepts, six deployment identifiers
 * with their vector dimensions and which provider computes them. A name outside this table is
 * refused.
 */
import { z } from '@hono/zod-openapi';

/** Where a model's vectors are computed. */
export type ModelProvider = 'local-server' | 'in-process';

/** One registry entry. */
export interface ModelEntry {
  readonly name: string;
  readonly dimensions: number;
  readonly provider: ModelProvider;
}

/** The six registered models; `minishlab/potion-base-32M` is the default. */
export const MODEL_REGISTRY: readonly ModelEntry[] = Object.freeze([
  { name: 'all-minilm', dimensions: 384, provider: 'local-server' },
  { name: 'snowflake-arctic-embed:33m', dimensions: 384, provider: 'local-server' },
  { name: 'granite-embedding:30m', dimensions: 384, provider: 'local-server' },
  { name: 'minishlab/potion-base-8M', dimensions: 256, provider: 'in-process' },
  { name: 'minishlab/potion-base-32M', dimensions: 512, provider: 'in-process' },
  { name: 'minishlab/potion-multilingual-128M', dimensions: 256, provider: 'in-process' },
]);

/** Default for `EMBEDDING_MODEL`: the 512-dimension entry. */
export const DEFAULT_MODEL = 'minishlab/potion-base-32M';

/** Registry names, in table order (used in validation messages). */
export const MODEL_NAMES: readonly string[] = MODEL_REGISTRY.map((m) => m.name);

/** Looks a model up by its exact name. */
export function findModel(name: string): ModelEntry | undefined {
  return MODEL_REGISTRY.find((m) => m.name === name);
}

/**
 * Index name rule: `<graph>_<model>` with every character that is not a letter, digit or `_`
 * replaced by `_` (so `neo4j` + `minishlab/potion-base-32M` → `neo4j_minishlab_potion_base_32M`).
 */
export function indexName(graph: string, model: string): string {
  return `${graph}_${model}`.replace(/[^A-Za-z0-9_]/g, '_');
}

/**
 * A request's `model`: any string here, checked against the registry by the search or build
 * (a 422 naming the valid models); the OpenAPI document lists the names for clients.
 */
export const ModelNameSchema = z
  .string()
  .min(1)
  .openapi({
    enum: [...MODEL_NAMES],
    example: DEFAULT_MODEL,
    description: `Embedding model (of the index); one of: ${MODEL_NAMES.join(', ')}`,
  });
