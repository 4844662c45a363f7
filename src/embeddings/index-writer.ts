/**
 * The write side of the index build: chunk nodes written one batch per transaction (so a killed
 * build leaves whole batches or nothing), stale chunks removed, and the vector index created and
 * awaited. All Cypher comes from `graph/dialect.ts`.
 */
import neo4j, { type Driver } from 'neo4j-driver';
import { AppError } from '../errors.js';
import { AWAIT_INDEX, VECTOR_INDEX_STATE, batchIndexName, indexStatements, type IndexStatements } from '../graph/dialect.js';
import { sleep } from '../lib/timeout.js';
import type { ChunkRef } from './csv-cache.js';

/** Options of {@link createIndexWriter}. */
export interface IndexWriterOptions {
  driver: Driver;
  database: string;
  indexName: string;
  dimensions: number;
}

/** Writes of one index. */
export interface IndexWriter {
  /** Creates the `batch` lookup index and waits for it. */
  prepare(): Promise<void>;
  /** True when the graph already holds exactly `size` chunk nodes of batch `key`. */
  hasBatch(key: string, size: number): Promise<boolean>;
  /** Replaces batch `key` by the given chunks and vectors, in one transaction. */
  writeBatch(key: string, chunks: readonly ChunkRef[], vectors: readonly Float32Array[]): Promise<void>;
  /** Deletes chunk nodes of batches not in `keys` (nodes removed or changed since the last build). */
  deleteStale(keys: readonly string[]): Promise<void>;
  /**
   * Creates the vector index (re-creating it when it has other dimensions) and polls until it
   * is ONLINE, reporting the population percentage.
   */
  createIndex(onPercent?: (percent: number) => void, timeoutMs?: number): Promise<void>;
}

/**
 * Rows as the driver sends them: vectors as plain number lists (floats on the wire), the chunk
 * number as a Bolt integer (a JS number would be stored as a float).
 */
function toRows(chunks: readonly ChunkRef[], vectors: readonly Float32Array[]) {
  return chunks.map((c, i) => ({ nodeId: c.nodeId, chunk: neo4j.int(c.chunk), vector: Array.from(vectors[i]!) }));
}

/** Builds the writer of one index. */
export function createIndexWriter(opts: IndexWriterOptions): IndexWriter {
  const { driver, database, indexName, dimensions } = opts;
  const q: IndexStatements = indexStatements(indexName);
  const run = (cypher: string, params: Record<string, unknown> = {}) => driver.executeQuery(cypher, params, { database });

  const indexState = async () => {
    const { records } = await run(VECTOR_INDEX_STATE, { name: indexName });
    const r = records[0];
    return r
      ? { state: r.get('state') as string, percent: Number(r.get('populationPercent') ?? 0), dims: Number(r.get('dims')) }
      : null;
  };

  return {
    async prepare() {
      await run(q.createBatchIndex);
      await run(AWAIT_INDEX, { name: batchIndexName(indexName), seconds: neo4j.int(300) });
    },
    async hasBatch(key, size) {
      const { records } = await run(q.countBatch, { key });
      return Number(records[0]?.get('n') ?? 0) === size;
    },
    async writeBatch(key, chunks, vectors) {
      await run(q.writeBatch, { key, rows: toRows(chunks, vectors) });
    },
    async deleteStale(keys) {
      // CALL { } IN TRANSACTIONS needs an auto-commit transaction, hence a plain session.run.
      const session = driver.session({ database });
      try {
        await session.run(q.deleteStale, { keys });
      } finally {
        await session.close();
      }
    },
    async createIndex(onPercent, timeoutMs = 30 * 60_000) {
      const existing = await indexState();
      if (existing && existing.dims !== dimensions) await run(q.dropVectorIndex);
      if (!existing || existing.dims !== dimensions) await run(q.createVectorIndex, { dims: neo4j.int(dimensions) });
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const s = await indexState();
        if (s?.state === 'ONLINE') return onPercent?.(100);
        if (s?.state === 'FAILED') throw new AppError(500, 'index-failed', `vector index "${indexName}" failed to populate`);
        if (Date.now() > deadline) {
          throw new AppError(503, 'index-timeout', `vector index "${indexName}" is still populating; it will come online by itself`);
        }
        onPercent?.(s?.percent ?? 0);
        await sleep(200);
      }
    },
  };
}
