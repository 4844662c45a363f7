/** One write of the index's own nodes, outside the driver's managed transactions. */
import type { Driver } from 'neo4j-driver';
import { INDEX_WRITE_METADATA } from '../dialect/index-statements.js';

/**
 * Runs `cypher` in one auto-commit transaction, not retried: the driver's managed transactions
 * retry a transient error for 30 s, and a write over the server's memory limit fails the same
 * way each time. Also what `CALL { } IN TRANSACTIONS` needs. Tagged as an index write
 * (INDEX_WRITE_METADATA). Returns the nodes it deleted.
 */
export async function autoCommit(
  { driver, database }: { driver: Driver; database: string },
  cypher: string,
  params: Record<string, unknown>,
): Promise<number> {
  const session = driver.session({ database });
  try {
    const summary = await session.run(cypher, params, { metadata: INDEX_WRITE_METADATA }).summary();
    return summary.counters.updates().nodesDeleted;
  } finally {
    await session.close();
  }
}
