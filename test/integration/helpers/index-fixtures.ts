/**
 * Shared set-up of the index build and vector search tests. Every suite gets its own tag, and
 * with it its own text property (`text_<tag>`), node label, index name and data directory, so
 * its builds see only its own nodes and never touch other suites' indexes in the shared Neo4j.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import neo4j, { type Driver } from 'neo4j-driver';
import { dropSearchIndex } from '../../../src/graph/access/index-writer.js';
import { chunkLabel, quoteName } from '../../../src/graph/dialect/names.js';
import type { EmbedderPool } from '../../../src/embeddings/embedders.js';
import type { Embedder } from '../../../src/embeddings/types.js';

/** Names of one suite's test data. */
export interface IndexFixture {
  tag: string;
  label: string;
  prop: string;
  /** Index name for `EMBEDDING_MODEL` (set through `VECTOR_INDEX_NAME`). */
  index: string;
  dataDir: string;
  /** Env for `createTestApp` / `createTestDeps`. */
  env: Record<string, string>;
}

/** A fresh fixture; `model` becomes `EMBEDDING_MODEL` and is indexed under `index`. */
export function createIndexFixture(model = 'minishlab/potion-base-32M', extra: Record<string, string> = {}): IndexFixture {
  const tag = randomUUID().replace(/-/g, '').slice(0, 10);
  const f = {
    tag,
    label: `IdxTest_${tag}`,
    prop: `text_${tag}`,
    index: `test_${tag}`,
    dataDir: `test-output/index-${tag}`,
  };
  return {
    ...f,
    env: {
      TEXT_PROPERTY: f.prop,
      VECTOR_INDEX_NAME: f.index,
      EMBEDDING_MODEL: model,
      DATA_DIR: f.dataDir,
      ...extra,
    },
  };
}

/** Creates one node per text under the fixture's label; returns their elementIds in order. */
export async function createTextNodes(driver: Driver, f: IndexFixture, texts: string[], start = 0): Promise<string[]> {
  const { records } = await driver.executeQuery(
    `UNWIND range(0, size($texts) - 1) AS i
     CREATE (n:${quoteName(f.label)} {dbId: $start + i, name: 'node ' + toString($start + i)})
     SET n[$prop] = $texts[i]
     RETURN elementId(n) AS id ORDER BY i`,
    { texts, prop: f.prop, start: neo4j.int(start) },
    { database: 'neo4j' },
  );
  return records.map((r) => r.get('id') as string);
}

/** The chunk nodes of an index as sorted `nodeId|chunk|batch|vector` strings (content equality). */
export async function indexContent(driver: Driver, index: string): Promise<string[]> {
  const { records } = await driver.executeQuery(
    `MATCH (c:${quoteName(chunkLabel(index))}) RETURN c.nodeId AS n, c.chunk AS k, c.batch AS b, c.embedding AS e`,
    {},
    { database: 'neo4j' },
  );
  return records.map((r) => `${r.get('n')}|${r.get('k')}|${r.get('b')}|${((r.get('e') as number[] | null) ?? []).join(',')}`).sort();
}

/** Deletes the fixture's nodes, the chunk nodes and schema indexes of `indexes`, and its data dir. */
export async function dropIndexFixture(driver: Driver, f: IndexFixture, indexes: string[] = [f.index]): Promise<void> {
  const run = (q: string) => driver.executeQuery(q, {}, { database: 'neo4j' });
  await run(`MATCH (n:${quoteName(f.label)}) DETACH DELETE n`);
  for (const index of indexes) await dropSearchIndex(driver, 'neo4j', index);
  await rm(f.dataDir, { recursive: true, force: true });
}

/** A driver over `driver` whose sessions record the parameters of every query they run (`runs`). */
export function countingDriver(driver: Driver) {
  const runs: Record<string, unknown>[] = [];
  const counting = {
    session: (o: Parameters<typeof driver.session>[0]) => {
      const s = driver.session(o);
      const run = s.run.bind(s);
      s.run = ((query: string, params: Record<string, unknown>) => {
        runs.push(params);
        return run(query, params);
      }) as typeof s.run;
      return s;
    },
  } as unknown as Driver;
  return { counting, runs };
}

/** Names and settings of a sync suite: its own label, index and key prefix, discovery restricted to its label. */
export function createSyncFixture(name: string, extra: Record<string, string> = {}) {
  const tag = Math.random().toString(36).slice(2, 8);
  const label = `${name}_${tag}`;
  const index = `test_${name.toLowerCase()}_${tag}`;
  const env = {
    INDEX_DISCOVER: 'true',
    INDEX_LABELS: label,
    VECTOR_INDEX_NAME: index,
    EMBEDDING_MODEL: 'minishlab/potion-base-32M',
    KV_PREFIX: `test:${name.toLowerCase()}${tag}:`,
    ...extra,
  };
  return { tag, label, index, env };
}

/**
 * An embedder pool that counts calls and records every text sent to the model; with `failFrom`,
 * calls from that one on fail (a model server gone), with `delayMs` each call waits first.
 * `active` and `maxActive` track calls in flight.
 */
export function spyEmbedders(pool: EmbedderPool, opts: { failFrom?: number; delayMs?: number } = {}) {
  const stats = { calls: 0, active: 0, maxActive: 0, texts: [] as string[] };
  const wrapped: EmbedderPool = {
    ...pool,
    async get(model) {
      const real = await pool.get(model);
      return {
        ...real,
        chunk: (t: string) => real.chunk(t),
        async embed(texts: string[]) {
          stats.calls++;
          stats.active++;
          stats.maxActive = Math.max(stats.maxActive, stats.active);
          try {
            if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
            if (stats.calls >= (opts.failFrom ?? Number.POSITIVE_INFINITY)) throw new Error('embedding model server unreachable');
            stats.texts.push(...texts);
            return await real.embed(texts);
          } finally {
            stats.active--;
          }
        },
      } as Embedder;
    },
  };
  return { pool: wrapped, stats };
}
