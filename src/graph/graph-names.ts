/**
 * The label and property-key names of a graph (`db.labels()`, `db.propertyKeys()`), which a
 * filtered search checks its names against, so that a misspelt label is answered as such rather
 * than with an empty list. Index labels (`__…`) are left out.
 */
import neo4j from 'neo4j-driver';
import type { GraphStore } from './driver.js';
import { isIndexLabel } from './dialect.js';

/** Names in use in one graph. */
export interface GraphNames {
  labels: ReadonlySet<string>;
  /** Every property key the database knows (of nodes and relationships, also ones no longer in use). */
  propertyKeys: ReadonlySet<string>;
}

const NAMES = `
CALL db.labels() YIELD label WITH collect(label) AS labels
CALL db.propertyKeys() YIELD propertyKey
RETURN labels, collect(propertyKey) AS keys`;

/** Reads the names of graph `database` in one round trip. */
export async function readGraphNames(graph: GraphStore, database: string): Promise<GraphNames> {
  const session = graph.driver.session({ database, defaultAccessMode: neo4j.session.READ });
  try {
    const { records } = await session.run(NAMES);
    const labels = (records[0]?.get('labels') ?? []) as string[];
    const keys = (records[0]?.get('keys') ?? []) as string[];
    return { labels: new Set(labels.filter((l) => !isIndexLabel(l))), propertyKeys: new Set(keys) };
  } finally {
    await session.close();
  }
}
