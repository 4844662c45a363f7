/**
 * Counts and search-index states of one graph, for the readiness report (`GET /status`). Node
 * and relationship totals come from Neo4j's count store (constant time); the search index's
 * chunk nodes are subtracted label by label, also from the count store. Only the count of text
 * nodes scans, and it is bounded by the transaction timeout.
 */
import neo4j, { type Driver } from 'neo4j-driver';
import { COUNT_TEXT_NODES } from '../dialect.js';
import { INDEX_LABEL_PREFIX, quoteName } from '../dialect/names.js';

/** One schema index as `SHOW INDEXES` reports it. */
export interface IndexInfo {
  type: 'VECTOR' | 'FULLTEXT';
  state: string;
  populationPercent: number;
}

/** What {@link graphStats} found; a count is null when its query did not answer in time. */
export interface GraphStats {
  nodes: number | null;
  relationships: number | null;
  textNodes: number | null;
  /** Vector and full-text indexes by name. */
  indexes: Map<string, IndexInfo>;
}

/**
 * Reads the counts and indexes of `database`; text nodes as the text plan's parameters count them
 * (`textParams`, src/vector-index/index/source.ts; a promise of them lets the plan be read meanwhile). Each query runs with `timeoutMs`; one that fails
 * leaves its figure null, so a slow text count does not hide the rest.
 * @throws the driver's error when the database cannot be reached at all.
 */
export async function graphStats(
  driver: Driver,
  database: string,
  textParams: Record<string, unknown> | Promise<Record<string, unknown>>,
  timeoutMs: number,
): Promise<GraphStats> {
  // Reads only: on a cluster they may go to a follower.
  const config = { database, routing: neo4j.routing.READ, transactionConfig: { timeout: timeoutMs } };
  const count = async (query: string, params: Record<string, unknown> = {}): Promise<number | null> => {
    try {
      const { records } = await driver.executeQuery(query, params, config);
      return Number(records[0]?.get(0) ?? 0);
    } catch {
      return null;
    }
  };
  // Labels and indexes first: they fail fast and loudly when the database is down.
  const [labels, shown] = await Promise.all([
    driver.executeQuery(
      'CALL db.labels() YIELD label WHERE label STARTS WITH $prefix RETURN collect(label) AS labels',
      { prefix: INDEX_LABEL_PREFIX },
      config,
    ),
    driver.executeQuery(
      "SHOW INDEXES YIELD name, type, state, populationPercent WHERE type IN ['VECTOR', 'FULLTEXT'] RETURN name, type, state, populationPercent",
      {},
      config,
    ),
  ]);
  const indexLabels = (labels.records[0]?.get('labels') ?? []) as string[];
  const [nodes, relationships, textNodes, ...chunks] = await Promise.all([
    count('MATCH (n) RETURN count(n)'),
    count('MATCH ()-[r]->() RETURN count(r)'),
    // The text plan may still be read while the other counts run.
    Promise.resolve(textParams).then((params) => count(COUNT_TEXT_NODES, params)),
    ...indexLabels.map((l) => count(`MATCH (n:${quoteName(l)}) RETURN count(n)`)),
  ]);
  const chunkNodes = chunks.reduce<number | null>((sum, n) => (sum === null || n === null ? null : sum + n), 0);
  const indexes = new Map<string, IndexInfo>();
  for (const r of shown.records) {
    indexes.set(r.get('name'), { type: r.get('type'), state: r.get('state'), populationPercent: Number(r.get('populationPercent') ?? 0) });
  }
  return {
    nodes: nodes === null || chunkNodes === null ? null : nodes - chunkNodes,
    relationships,
    textNodes,
    indexes,
  };
}
