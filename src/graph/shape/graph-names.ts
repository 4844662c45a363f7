/**
 * The label and property-key names of a graph (`db.labels()`, `db.propertyKeys()`), which a
 * filtered search checks its names against, so that a misspelt label is answered as such rather
 * than with an empty list. Index labels (`__…`) are left out.
 */
import { withAutoRead } from '../access/auto-read.js';
import type { GraphStore } from '../access/driver.js';
import { isIndexLabel } from '../dialect/names.js';

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
  const [record] = await withAutoRead(graph, database, (read) => read(NAMES));
  const labels = (record?.get('labels') ?? []) as string[];
  const keys = (record?.get('keys') ?? []) as string[];
  return { labels: new Set(labels.filter((l) => !isIndexLabel(l))), propertyKeys: new Set(keys) };
}
