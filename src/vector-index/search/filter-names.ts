/**
 * The name check of filtered searches: labels and property names the graph lacks are refused
 * (422 naming them, with close names). Cached names serve every filter that names what they
 * hold; before refusing, they are read again, so a label created meanwhile is found (a refusal
 * costs one round trip more, a search none).
 */
import type { GraphStore } from '../../graph/access/driver.js';
import { type GraphNames, readGraphNames } from '../../graph/shape/graph-names.js';
import { readHeldNames } from '../../graph/shape/internal-names.js';
import { createTtlCache } from '../../lib/ttl-cache.js';
import { indexNamesIn, type SearchFilterFields, unknownFilterNames, unknownNamesError } from './filter.js';

/**
 * A check of a filter's names against `graph`'s, names cached for `ttlMs`.
 * @throws DomainError 422 naming every label or property the graph lacks.
 */
export function createFilterNameCheck(store: GraphStore, ttlMs: number): (graph: string, filter: SearchFilterFields) => Promise<void> {
  const names = createTtlCache<GraphNames>({ ttlMs });
  const namesOf = (graph: string, maxAgeMs?: number) => names.get(graph, () => readGraphNames(store, graph), maxAgeMs);
  // Whether the graph's own nodes hold a plain name the index also writes (`batch`): asked only for names a filter uses.
  const heldName = createTtlCache<boolean>({ ttlMs });
  const holds = (graph: string, name: string) =>
    heldName.get(JSON.stringify([graph, name]), async () => (await readHeldNames(store, graph, [name])).has(name));
  return async (graph, filter) => {
    const internal = indexNamesIn(filter);
    const held = new Set<string>();
    for (const name of internal) if (await holds(graph, name)) held.add(name);
    const missing = (n: GraphNames) => unknownFilterNames(filter, n, held);
    if (!missing(await namesOf(graph)).length) return;
    const errors = missing(await namesOf(graph, 0));
    if (errors.length) throw unknownNamesError(graph, errors);
  };
}
