/**
 * Which index a graph and model name, and what every job on it needs: the build, the sync and
 * the search all start here, so none of them reaches into another for it.
 */
import type { Config } from '../../config.js';
import { findModel, indexName as deriveIndexName } from '../../contract/models.js';
import type { EmbedderPool } from '../../embeddings/embedders.js';
import { unknownModel } from '../../embeddings/embedders.js';
import { assertGraph, type GraphStore } from '../../graph/access/driver.js';
import type { Logger } from '../../lib/log.js';
import type { KvStore } from '../../store/redis.js';

/** The settings a build and a sync read. */
export type IndexConfig = Pick<
  Config,
  | 'GRAPHDB_GRAPH'
  | 'EMBEDDING_MODEL'
  | 'VECTOR_INDEX_NAME'
  | 'TEXT_PROPERTY'
  | 'DATA_DIR'
  | 'CHUNK_TOKENS'
  | 'CHUNK_OVERLAP_TOKENS'
  | 'INDEX_BATCH_SIZE'
  | 'INDEX_DISCOVER'
  | 'INDEX_LABELS'
  | 'INDEX_PROPERTIES'
  | 'INDEX_FILTERS'
  | 'INDEX_FILTER_PROPERTIES'
  | 'INDEX_LOCK_TTL_MS'
  | 'INDEX_ONLINE_TIMEOUT_MS'
  | 'INDEX_SYNC_INTERVAL_MS'
  | 'INDEX_SYNC_MODELS'
  | 'INDEX_SYNC_FOLLOW_MS'
  | 'INDEX_CHANGE_SOURCE'
  | 'INDEX_CHANGED_PROPERTY'
  | 'INDEX_RECONCILE_MS'
  | 'FULLTEXT_ANALYZER'
  | 'VECTOR_INDEX_HNSW_M'
  | 'VECTOR_INDEX_EF_CONSTRUCTION'
>;

/** What the build and the sync need from the app's dependencies. */
export interface IndexBuildDeps {
  readonly config: IndexConfig;
  readonly graph: GraphStore;
  readonly kv: KvStore;
  readonly embedders: EmbedderPool;
  readonly log: Logger;
}

/**
 * The index name for a graph and model: `VECTOR_INDEX_NAME` for the configured pair
 * (`GRAPHDB_GRAPH` + `EMBEDDING_MODEL`; it defaults to the derived name), else the derived name
 * `<graph>_<model>` with non-alphanumerics replaced by `_`.
 */
export function resolveIndexName(
  config: Pick<Config, 'GRAPHDB_GRAPH' | 'EMBEDDING_MODEL' | 'VECTOR_INDEX_NAME'>,
  graph: string,
  model: string,
): string {
  return graph === config.GRAPHDB_GRAPH && model === config.EMBEDDING_MODEL ? config.VECTOR_INDEX_NAME : deriveIndexName(graph, model);
}

/** Checks what can be checked before any work: model in the registry (422), graph exists (404). */
export async function validateBuildTarget(deps: Pick<IndexBuildDeps, 'graph'>, graph: string, model: string): Promise<void> {
  if (!findModel(model)) throw unknownModel(model);
  await assertGraph(deps.graph, graph);
}
