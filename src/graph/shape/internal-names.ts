/**
 * The property names the search index writes on its own nodes (src/graph/dialect.ts: chunk
 * nodes' `nodeId`, `chunk`, `batch`, `chunkText`, `nameText`, `embedding`, `sig`; the meta node's `index`, `plan`,
 * `settings`, `builtAt`; carried filter fields `label:<L>` and `prop:<p>`, src/vector-index/index/carry.ts).
 * `db.propertyKeys()` lists them beside the graph's own, so a filter on `chunkText` passed the
 * name check and a misspelt property got `embedding` as a close name. They are the index's, not
 * the graph's: never offered as close names, and a filter naming one is refused, unless one of
 * the graph's own nodes holds a property of that plain name (a `batch` of a production graph).
 * Names starting with `__` are internal whoever holds them, as everywhere else (text discovery).
 */
import type { GraphStore } from '../access/driver.js';
import { withAutoRead } from '../access/auto-read.js';
import { INDEX_LABEL_PREFIX } from '../dialect/names.js';

/** Plain names of the index nodes' properties (chunks, then the meta node). */
export const INDEX_NODE_PROPERTIES: ReadonlySet<string> = new Set([
  'nodeId',
  'chunk',
  'batch',
  'chunkText',
  'nameText',
  'embedding',
  'sig',
  'index',
  'plan',
  'settings',
  'builtAt',
]);

/** Prefixes no graph property of ours has: internal (`__`), and carried label and property fields (carry.ts). */
const RESERVED_PREFIXES = ['__', 'label:', 'prop:'];

/** True for a name only the index uses, by its shape alone (`__x`, `label:Movie`, `prop:year`). */
export function isReservedName(name: string): boolean {
  return RESERVED_PREFIXES.some((p) => name.startsWith(p));
}

/** True for a name the index writes: reserved by shape, or one of {@link INDEX_NODE_PROPERTIES}. */
export function isIndexProperty(name: string): boolean {
  return isReservedName(name) || INDEX_NODE_PROPERTIES.has(name);
}

/**
 * The names among `names` a property key may be offered or filtered on by, given `held` (plain
 * index names that the graph's own nodes hold too, {@link readHeldNames}).
 */
export function graphPropertyNames(names: Iterable<string>, held: ReadonlySet<string> = new Set()): string[] {
  return [...names].filter((n) => !isIndexProperty(n) || (!isReservedName(n) && held.has(n)));
}

const HELD = `
UNWIND $names AS k
WITH k WHERE EXISTS { MATCH (n) WHERE n[k] IS NOT NULL AND NOT any(l IN labels(n) WHERE l STARTS WITH '${INDEX_LABEL_PREFIX}') }
RETURN collect(k) AS held`;

/**
 * Which of the plain index names `names` some node of the graph's own holds. One query; it stops
 * at the first such node, and scans the graph for a name only the index has, so callers ask only
 * for names a request used and keep the answer a while.
 */
export async function readHeldNames(graph: GraphStore, database: string, names: readonly string[]): Promise<Set<string>> {
  const plain = names.filter((n) => INDEX_NODE_PROPERTIES.has(n));
  if (!plain.length) return new Set();
  const [record] = await withAutoRead(graph, database, (read) => read(HELD, { names: plain }));
  return new Set((record?.get('held') ?? []) as string[]);
}
