/**
 * The write side of the index build: the vector and full-text indexes created first, chunk
 * nodes written one batch per transaction (so a killed build leaves whole batches or nothing),
 * stale chunks removed, and the indexes awaited. All Cypher comes from `../dialect.ts` and
 * `../dialect/index-statements.ts`; src/vector-index/build/build.ts drives it.
 * Neo4j updates both indexes as each batch commits, so they always cover the same chunks.
 *
 * Why the index exists before the writes: Neo4j then inserts each batch's vectors into the HNSW
 * graph as the batch commits, on a database thread, while this process embeds the next batch.
 * Populating a new index over existing chunk nodes afterwards takes about twice as long in
 * total, and nothing else overlaps with it (docs/benchmarks.md, "Index build": what limits it).
 */
import { autoCommit } from './auto-commit.js';
import neo4j, { type Driver, type EagerResult, type Record as Neo4jRecord } from 'neo4j-driver';
import { DomainError } from '../../errors.js';
import { FULLTEXT_FIELDS, NAME_VECTOR, batchIndexName, fulltextIndexName, namesIndexName } from '../dialect/names.js';
import {
  AWAIT_INDEX,
  DELETE_INDEX_META,
  FULLTEXT_INDEX_STATE,
  VECTOR_INDEX_STATE,
  INDEX_WRITE_METADATA,
  indexStatements,
  type IndexStatements,
} from '../dialect/index-statements.js';
import { sleep } from '../../lib/timeout.js';

/** A chunk as the writer stores it (src/vector-index/build/csv-cache.ts `ChunkRef` is one). */
export interface ChunkRef {
  /** Source node's elementId. */
  nodeId: string;
  /** Chunk number within the source node's text. */
  chunk: number;
  /** What is embedded and full-text indexed. */
  text: string;
  /** Filter values the chunk node carries. */
  carry?: Record<string, unknown>;
  /** On a node's chunk 0: what its chunks were made from (../dialect/node-cypher.ts `nodeSig`). */
  sig?: string[];
  /** The header alone: stored in `nameText`, not `chunkText`. */
  nameOnly?: boolean;
}
/** Options of {@link createIndexWriter}. */
export interface IndexWriterOptions {
  driver: Driver;
  database: string;
  indexName: string;
  dimensions: number;
  /** HNSW graph degree (`VECTOR_INDEX_HNSW_M`, Neo4j's default 16). */
  hnswM: number;
  /** HNSW candidate list size while inserting (`VECTOR_INDEX_EF_CONSTRUCTION`, Neo4j's default 100). */
  efConstruction: number;
  /** Lucene analyzer of the full-text index (`FULLTEXT_ANALYZER`). */
  analyzer: string;
  /** Chunk properties the vector index declares as filter properties (src/vector-index/index/carry.ts `carryFields`); default none. */
  filterFields?: readonly string[];
}

/** Writes of one index. */
export interface IndexWriter {
  /**
   * Creates the `batch` lookup index, the vector indexes of texts and of names (re-creating one when it has other
   * dimensions, HNSW settings or filter properties) and the full-text index (re-creating it when it has another
   * analyzer, or at the end of the writes when it has other fields), and waits for them to be online (immediate for new, empty indexes).
   */
  prepare(timeoutMs?: number): Promise<void>;
  /** True when the graph already holds exactly `size` chunk nodes of batch `key`. */
  hasBatch(key: string, size: number): Promise<boolean>;
  /** Replaces batch `key` by the given chunks and vectors, in one transaction. */
  writeBatch(key: string, chunks: readonly ChunkRef[], vectors: readonly Float32Array[]): Promise<void>;
  /**
   * Deletes chunk nodes of batches not in `keys` (nodes removed or changed since the last build);
   * returns how many. `total` is the number of chunks those batches hold: when the index holds
   * exactly that many (the count store: no scan), none can be stale and nothing is scanned.
   */
  deleteStale(keys: readonly string[], total?: number): Promise<number>;
  /** Polls until the vector indexes (texts' and names') and the full-text index are ONLINE, reporting population (the lowest). */
  awaitOnline(onPercent?: (percent: number) => void, timeoutMs?: number): Promise<void>;
}

/** Removes index `indexName` entirely: its chunk nodes, its meta node and its five schema indexes. */
export async function dropSearchIndex(driver: Driver, database: string, indexName: string): Promise<void> {
  const q = indexStatements(indexName);
  await autoCommit({ driver, database }, q.deleteAll, {});
  await driver.executeQuery(DELETE_INDEX_META, { index: indexName }, { database, transactionConfig: { metadata: INDEX_WRITE_METADATA } });
  for (const ddl of [q.dropVectorIndex, q.dropNamesIndex, q.dropFulltextIndex, q.dropBatchIndex, q.dropNodeIndex])
    await driver.executeQuery(ddl, {}, { database });
}

/**
 * A float32 vector as a plain number list (the driver sends numbers as Bolt floats; the values
 * are the float32 values exactly). A counted loop, because `Array.from` on a typed array goes
 * through the iterator protocol and takes about ten times as long, main-thread time the embedding
 * can use instead (docs/benchmarks.md, "Index build").
 *
 * A vector holding NaN or an infinity (a model server's answer to some odd text) becomes all
 * zeros, what an embedder gives a text with no known token: Neo4j refuses such a vector
 * (`setNodeVectorProperty` fails), which failed the batch's write and with it the whole build.
 * The chunk is still written and found by full-text search; the vector index passes it over.
 */
export function toList(v: Float32Array): number[] {
  const out = new Array<number>(v.length);
  let sum = 0;
  for (let i = 0; i < v.length; i++) {
    out[i] = v[i]!;
    sum += out[i]!;
  }
  // NaN or ±Infinity anywhere makes the sum non-finite; float32 values summed cannot overflow a double.
  return Number.isFinite(sum) ? out : out.fill(0);
}

/**
 * Rows as the driver sends them: vectors as plain number lists (floats on the wire), the chunk
 * number as a Bolt integer (a JS number would be stored as a float).
 */
function toRows(chunks: readonly ChunkRef[], vectors: readonly Float32Array[]) {
  return chunks.map((c, i) => {
    // A name-only chunk's text goes to `nameText`, a text's to `chunkText` (the other null: not set).
    const [text, name] = c.nameOnly ? [null, c.text] : [c.text, null];
    const row = { nodeId: c.nodeId, chunk: neo4j.int(c.chunk), text, name, sig: c.sig ?? null, vector: toList(vectors[i]!) };
    return c.carry ? { ...row, carry: c.carry } : row;
  });
}

/** What the writer's steps share: its options, its index's statements and a runner of one auto-commit query. */
interface WriterContext {
  opts: IndexWriterOptions;
  q: IndexStatements;
  run: (cypher: string, params?: Record<string, unknown>) => Promise<EagerResult>;
}

/** State of one schema index: online or not, how far populated, whether it has the settings and fields asked for. */
interface IndexState {
  state: string;
  percent: number;
  same: boolean;
  fields: boolean;
}

/** The state of schema index `name` by `query` (a `SHOW … INDEXES`), `same` and `fields` judged on its row; null when absent. */
async function stateOf(
  { run }: WriterContext,
  query: string,
  name: string,
  same: (r: Neo4jRecord) => boolean,
  fieldsOk = (_: Neo4jRecord) => true,
): Promise<IndexState | null> {
  const r = (await run(query, { name })).records[0];
  return r
    ? { state: r.get('state') as string, percent: Number(r.get('populationPercent') ?? 0), same: same(r), fields: fieldsOk(r) }
    : null;
}

/**
 * A vector index's state (the texts' by default); `same` when it has the dimensions, HNSW settings
 * and filter properties asked for. An index with other settings is re-created (its chunks are
 * rewritten anyway when the model changed).
 */
function vectorIndexState(ctx: WriterContext, name = ctx.opts.indexName): Promise<IndexState | null> {
  const { dimensions, hnswM, efConstruction } = ctx.opts;
  // SHOW VECTOR INDEXES lists the vector property, then the filter properties.
  const wanted = JSON.stringify([...(ctx.opts.filterFields ?? [])].sort());
  const sameFields = (declared: unknown) =>
    JSON.stringify(((declared as string[] | null) ?? []).filter((p) => p !== 'embedding' && p !== NAME_VECTOR).sort()) === wanted;
  return stateOf(
    ctx,
    VECTOR_INDEX_STATE,
    name,
    (r) =>
      Number(r.get('dims')) === dimensions &&
      Number(r.get('m')) === hnswM &&
      Number(r.get('ef')) === efConstruction &&
      sameFields(r.get('properties')),
  );
}

/**
 * The full-text index's state; `same` when it has the analyzer and the fields ({@link FULLTEXT_FIELDS})
 * asked for, `fields` when it has the fields. One on other fields (`chunkText` alone, an older
 * layout) is re-created over both.
 */
function fulltextIndexState(ctx: WriterContext): Promise<IndexState | null> {
  const sameFields = (r: Neo4jRecord) => JSON.stringify(r.get('properties')) === JSON.stringify(FULLTEXT_FIELDS);
  return stateOf(
    ctx,
    FULLTEXT_INDEX_STATE,
    fulltextIndexName(ctx.opts.indexName),
    (r) => r.get('analyzer') === ctx.opts.analyzer && sameFields(r),
    sameFields,
  );
}

/**
 * The texts' vector index, then the names': each created when missing and re-created when it has
 * other settings. An index without the names' one gets it here; the build then rewrites its
 * batches holding names.
 */
async function createVectorIndexes(ctx: WriterContext): Promise<void> {
  const { q, run, opts } = ctx;
  const fields = opts.filterFields ?? [];
  const settings = { dims: neo4j.int(opts.dimensions), m: neo4j.int(opts.hnswM), ef: neo4j.int(opts.efConstruction) };
  for (const [name, drop, create] of [
    [opts.indexName, q.dropVectorIndex, fields.length ? q.createFilteredVectorIndex(fields) : q.createVectorIndex],
    [namesIndexName(opts.indexName), q.dropNamesIndex, fields.length ? q.createFilteredNamesIndex(fields) : q.createNamesIndex],
  ] as const) {
    const existing = await vectorIndexState(ctx, name);
    if (existing && !existing.same) await run(drop);
    if (!existing?.same) await run(create, settings);
  }
}

/**
 * Polls until both vector indexes and the full-text index are ONLINE, reporting the lowest
 * population; throws when one FAILED or `timeoutMs` passed.
 */
async function awaitIndexesOnline(
  ctx: WriterContext,
  onPercent: ((percent: number) => void) | undefined,
  timeoutMs: number,
): Promise<void> {
  const { indexName } = ctx.opts;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const states = await Promise.all([vectorIndexState(ctx), vectorIndexState(ctx, namesIndexName(indexName)), fulltextIndexState(ctx)]);
    if (states.every((s) => s?.state === 'ONLINE')) return onPercent?.(100);
    if (states.some((s) => s?.state === 'FAILED')) {
      throw new DomainError('failed', 'index-failed', `vector index "${indexName}" failed to populate`);
    }
    if (Date.now() > deadline) {
      throw new DomainError(
        'unavailable',
        'index-timeout',
        `vector index "${indexName}" is still populating; it will come online by itself`,
      );
    }
    onPercent?.(Math.min(...states.map((s) => (s?.state === 'ONLINE' ? 100 : (s?.percent ?? 0)))));
    await sleep(200);
  }
}

/** Builds the writer of one index. */
export function createIndexWriter(opts: IndexWriterOptions): IndexWriter {
  const { driver, database, indexName, analyzer } = opts;
  const q: IndexStatements = indexStatements(indexName);
  const run = (cypher: string, params: Record<string, unknown> = {}) =>
    driver.executeQuery(cypher, params, { database, transactionConfig: { metadata: INDEX_WRITE_METADATA } });
  const ctx: WriterContext = { opts, q, run };
  /**
   * Set by `prepare` when the full-text index has other fields: this build rewrites the batches
   * holding names (csv-cache.ts `storedBatchKey`), and an index populated over the old chunks
   * would go on counting them in its BM25 statistics once deleted (Lucene keeps a deleted
   * document's statistics until its segment merges). It is dropped, and created by
   * `awaitOnline` at the end of the build, over the chunks as written.
   */
  let fulltextAfterWrites = false;

  return {
    async prepare(timeoutMs) {
      await run(q.createBatchIndex);
      await run(AWAIT_INDEX, { name: batchIndexName(indexName), seconds: neo4j.int(300) });
      // The sync's per-node reads; populated in the background over an earlier build's chunks.
      await run(q.createNodeIndex);
      await createVectorIndexes(ctx);
      const fulltext = await fulltextIndexState(ctx);
      const later = Boolean(fulltext && !fulltext.fields);
      if (fulltext && !fulltext.same && !later) await run(q.dropFulltextIndex);
      // Over the chunk nodes of an earlier build, a new full-text index populates in the
      // background; awaitOnline below and at the end of the build waits for it.
      if (!fulltext?.same && !later) await run(q.createFulltextIndex, { analyzer });
      await this.awaitOnline(undefined, timeoutMs);
      if (later) await run(q.dropFulltextIndex);
      fulltextAfterWrites = later;
    },
    async hasBatch(key, size) {
      const { records } = await run(q.countBatch, { key });
      return Number(records[0]?.get('n') ?? 0) === size;
    },
    async writeBatch(key, chunks, vectors) {
      await run(chunks.some((c) => c.carry) ? q.writeCarriedBatch : q.writeBatch, { key, rows: toRows(chunks, vectors), namesIndex: true });
    },
    async deleteStale(keys, total) {
      if (total !== undefined && Number((await run(q.countChunks)).records[0]?.get('n')) === total) return 0;
      return autoCommit({ driver, database }, q.deleteStale, { keys });
    },
    async awaitOnline(onPercent, timeoutMs = 30 * 60_000) {
      if (fulltextAfterWrites) await run(q.createFulltextIndex, { analyzer });
      fulltextAfterWrites = false;
      await awaitIndexesOnline(ctx, onPercent, timeoutMs);
    },
  };
}
