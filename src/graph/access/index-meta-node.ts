/**
 * The meta node a search index's build leaves beside its chunks (src/graph/dialect.ts
 * `WRITE_INDEX_META`), read and written as stored: the plan and settings are JSON text, which
 * src/vector-index/index/record.ts parses and types. Here so that the index's records reach Neo4j
 * through the graph layer like every other query.
 */
import neo4j, { type Driver } from 'neo4j-driver';
import { INDEX_WRITE_METADATA, LIST_INDEX_META, READ_INDEX_META, WRITE_INDEX_META } from '../dialect/index-statements.js';

/** The meta node of one index as stored: plan and settings as JSON text. */
export interface StoredIndexMeta {
  plan: string;
  settings: string;
  /** ISO date-time of the last build. */
  builtAt: string;
}

/** The meta node of `index`, or null when there is none (built before records were kept, or never built). */
export async function readIndexMetaNode(driver: Driver, database: string, index: string): Promise<StoredIndexMeta | null> {
  // A plain session: searches read this through whatever driver they were given.
  const session = driver.session({ database, defaultAccessMode: neo4j.session.READ });
  const r = await session
    .run(READ_INDEX_META, { index })
    .then((res) => res.records[0])
    .finally(() => session.close());
  if (!r) return null;
  return { plan: r.get('plan') as string, settings: r.get('settings') as string, builtAt: r.get('builtAt') as string };
}

/** Writes the meta node of `index` (creating it if needed); `builtAt` becomes now. */
export async function writeIndexMetaNode(driver: Driver, database: string, index: string, plan: string, settings: string): Promise<void> {
  await driver.executeQuery(
    WRITE_INDEX_META,
    { index, plan, settings },
    { database, transactionConfig: { metadata: INDEX_WRITE_METADATA } },
  );
}

/** The meta nodes of a graph's indexes, by index name, with their settings' JSON text. */
export async function listIndexMetaNodes(driver: Driver, database: string): Promise<{ index: string; settings: string }[]> {
  const { records } = await driver.executeQuery(LIST_INDEX_META, {}, { database, routing: 'READ' });
  return records.map((r) => ({ index: r.get('index') as string, settings: r.get('settings') as string }));
}
