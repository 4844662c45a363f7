/**
 * What values a property holds on a label (or relationship type), read from a bounded sample
 * and cached, for the value notices (src/graph/cypher/value-notices.ts): the value types, the most
 * common distinct values (strings cut), and whether the sample saw every item that has the
 * property. One read per label and property per {@link VALUE_SAMPLE_TTL_MS}; a read is bounded
 * by the caller's timeout, and the cache by {@link VALUE_SAMPLE_KEYS} entries per graph store.
 */
import { createHash } from 'node:crypto';
import neo4j from 'neo4j-driver';
import { createTtlCache } from '../../lib/ttl-cache.js';
import { quoteName } from '../dialect/names.js';
import type { GraphStore } from '../access/driver.js';

/** Items read per label and property. */
export const VALUE_SAMPLE_ITEMS = 5_000;
/** Distinct values kept per property, most common first. */
export const VALUE_SAMPLE_DISTINCT = 500;
/** How long a sample is reused, in ms (10 minutes, as the skeleton). */
export const VALUE_SAMPLE_TTL_MS = 600_000;
/** Samples cached per graph store. */
export const VALUE_SAMPLE_KEYS = 500;
/** Characters of a string value kept. */
const MAX_VALUE_CHARS = 200;

/** One distinct value: strings as strings, numbers as numbers, temporal values as their ISO text. */
export interface SampledValue {
  value: string | number | boolean | null;
  /** The Cypher type: `STRING`, `INTEGER`, `FLOAT`, `BOOLEAN`, `DATE`, `LIST<STRING>`, … */
  type: string;
  count: number;
  /** True when the string was longer than {@link MAX_VALUE_CHARS} and `value` is its start: not a value to offer as it is. */
  cut?: boolean;
}

/** A property's values on a label or type. */
export interface ValueSample {
  /** Items read that have the property (at most {@link VALUE_SAMPLE_ITEMS}). */
  items: number;
  /** True when `items` is every item that has it (not a sample). */
  complete: boolean;
  /** Distinct values, most common first (at most {@link VALUE_SAMPLE_DISTINCT}). */
  values: SampledValue[];
  /** Distinct values seen, possibly more than `values` holds. */
  distinct: number;
}

/** Where the property is: a node label (all of the labels) or a relationship type. */
export type ValueOwner = { labels: string[] } | { type: string };

/** Reads and caches samples. */
export interface ValueSampler {
  sample(database: string, owner: ValueOwner, property: string, timeoutMs: number): Promise<ValueSample>;
  /**
   * True when some item's `property` under `wrapper` (e.g. `tolower`) matches one of `values` by
   * `op` (`=`, `STARTS WITH`, …): one read, whatever the number of values, for samples that are not complete.
   */
  exists(
    database: string,
    owner: ValueOwner,
    property: string,
    wrapper: string | undefined,
    op: string,
    values: readonly unknown[],
    timeoutMs: number,
  ): Promise<boolean>;
}

const matchOf = (owner: ValueOwner) =>
  'type' in owner ? `MATCH ()-[x:${quoteName(owner.type)}]->()` : `MATCH (x${owner.labels.map((l) => `:${quoteName(l)}`).join('')})`;

const SAFE_WRAPPERS = new Set(['tolower', 'toupper', 'lower', 'upper', 'trim', 'ltrim', 'rtrim', 'tostring']);
const OPERATORS = new Set(['=', 'STARTS WITH', 'ENDS WITH', 'CONTAINS']);

function plain(v: unknown): string | number | boolean | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v.length > MAX_VALUE_CHARS ? v.slice(0, MAX_VALUE_CHARS) : v;
  if (typeof v === 'number' || typeof v === 'boolean') return v;
  if (neo4j.isInt(v)) return (v as { toNumber(): number }).toNumber();
  if (Array.isArray(v)) return JSON.stringify(v.slice(0, 5).map(plain)).slice(0, MAX_VALUE_CHARS);
  return String(v);
}

/** A sampler over `graph`; one per graph store (see {@link valueSampler}). */
export function createValueSampler(graph: GraphStore, opts: { ttlMs?: number; maxKeys?: number } = {}): ValueSampler {
  const read = async (database: string, cypher: string, params: Record<string, unknown>, timeoutMs: number) => {
    const session = graph.driver.session({ database, defaultAccessMode: neo4j.session.READ });
    try {
      const tx = session.beginTransaction({ timeout: timeoutMs });
      try {
        const res = await tx.run(cypher, params);
        return res.records;
      } finally {
        await tx.rollback().catch(() => {});
      }
    } finally {
      await session.close();
    }
  };
  const cacheOpts = { ttlMs: opts.ttlMs ?? VALUE_SAMPLE_TTL_MS, maxKeys: opts.maxKeys ?? VALUE_SAMPLE_KEYS };
  const samples = createTtlCache<ValueSample>(cacheOpts);
  // An exact lookup's answer is kept as long as a sample: the same wrong value is often sent again.
  const lookups = createTtlCache<boolean>(cacheOpts);

  /** A sample of `property`'s values, bounded by the timeout of the call that loads it. */
  const loadSample = async (database: string, owner: ValueOwner, property: string, timeoutMs: number): Promise<ValueSample> => {
    const p = quoteName(property);
    const cypher = `${matchOf(owner)} WHERE x.${p} IS NOT NULL WITH x.${p} AS v LIMIT $items
WITH v, count(*) AS c, valueType(v) AS t ORDER BY c DESC
WITH collect({v: v, t: t, c: c}) AS seen, sum(c) AS items
RETURN items, size(seen) AS kinds, seen[..$distinct] AS values`;
    const [row] = await read(
      database,
      cypher,
      { items: neo4j.int(VALUE_SAMPLE_ITEMS), distinct: neo4j.int(VALUE_SAMPLE_DISTINCT) },
      timeoutMs,
    );
    const items = Number(row?.get('items') ?? 0);
    const values = ((row?.get('values') as Array<{ v: unknown; t: string; c: unknown }>) ?? []).map((x) => ({
      value: plain(x.v),
      type: x.t.replace(/ NOT NULL/g, ''),
      count: Number(x.c),
      ...(typeof x.v === 'string' && x.v.length > MAX_VALUE_CHARS ? { cut: true } : {}),
    }));
    return { items, complete: items < VALUE_SAMPLE_ITEMS, values, distinct: Number(row?.get('kinds') ?? 0) };
  };

  return {
    sample(database, owner, property, timeoutMs) {
      const key = JSON.stringify([database, owner, property]);
      return samples.get(key, () => loadSample(database, owner, property, timeoutMs));
    },
    exists(database, owner, property, wrapper, op, values, timeoutMs) {
      if ((wrapper && !SAFE_WRAPPERS.has(wrapper)) || !OPERATORS.has(op)) return Promise.resolve(true); // not checked: assume it does
      // The values may be long (a literal of megabytes): the cache keeps a digest of them, not them.
      const key = createHash('sha256')
        .update(JSON.stringify({ database, owner, property, wrapper: wrapper ?? null, op, values }))
        .digest('base64');
      return lookups.get(key, async () => {
        const subject = wrapper ? `${wrapper}(x.${quoteName(property)})` : `x.${quoteName(property)}`;
        const test = op === '=' ? `${subject} IN $values` : `any(v IN $values WHERE ${subject} ${op} v)`;
        const rows = await read(database, `${matchOf(owner)} WHERE ${test} RETURN 1 LIMIT 1`, { values }, timeoutMs);
        return rows.length > 0;
      });
    },
  };
}

const samplers = new WeakMap<GraphStore, ValueSampler>();

/** The process's sampler of `graph` (its cache is shared by every query on that store). */
export function valueSampler(graph: GraphStore): ValueSampler {
  let s = samplers.get(graph);
  if (!s) {
    s = createValueSampler(graph);
    samplers.set(graph, s);
  }
  return s;
}
