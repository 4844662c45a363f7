/**
 * Auto-commit reads: statements run in one READ session without an explicit transaction, so
 * each is a RUN and a PULL sent together, one round trip, where `executeQuery`'s managed
 * transaction adds a BEGIN and a COMMIT, a cost a search can see (docs/benchmarks.md, "Vector
 * search"). For short idempotent reads that need no retry (search); the session is closed
 * after `work`.
 */
import neo4j, { type Record as Neo4jRecord } from 'neo4j-driver';
import type { GraphStore } from './driver.js';

/** Runs one statement and returns its records. */
export type AutoRead = (cypher: string, params?: Record<string, unknown>) => Promise<Neo4jRecord[]>;

/** Calls `work` with a reader over one auto-commit READ session of `database`. */
export async function withAutoRead<T>(graph: GraphStore, database: string, work: (read: AutoRead) => Promise<T>): Promise<T> {
  const session = graph.driver.session({ database, defaultAccessMode: neo4j.session.READ });
  try {
    return await work(async (cypher, params) => (await session.run(cypher, params)).records);
  } finally {
    await session.close();
  }
}
