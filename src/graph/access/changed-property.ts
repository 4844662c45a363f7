/**
 * A property the graph's writers keep on every node they create or change (`INDEX_CHANGED_PROPERTY`,
 * e.g. `updatedAt = timestamp()`), as the Neo4j Kafka connector's query strategy reads it: the
 * nodes of some labels whose value is at or past a cursor, through each label's range index on
 * the property, and the labels' node counts from the count store (constant time). The index sync
 * follows it where the server has no change-log plugin (src/vector-index/sync/property-source.ts).
 */
import neo4j, { type Driver } from 'neo4j-driver';
import { quoteName } from '../dialect/names.js';

/** The types a cursor can hold: what `timestamp()`, `datetime()`, `localdatetime()` and `date()` write. */
export type ValueKind = 'number' | 'datetime' | 'localdatetime' | 'date';

/** A value of the property, as the sync state keeps it (`text` is what the Cypher function of `kind` reads back). */
export interface PropertyValue {
  kind: ValueKind;
  text: string;
}

/** A value as read, with a number that orders values of its kind (ms for temporals). */
interface ReadValue extends PropertyValue {
  key: number;
}

/**
 * How far before its cursor a pass looks again, in ms: a transaction that set its value early
 * (`timestamp()` is the statement's start) and committed after a later one was read is still
 * found, when it committed within this time. The nodes in that margin are checked again, which
 * costs one comparison each inside the database.
 */
export const OVERLAP_MS = 60_000;

/** The value's kind and text, or null for a value the cursor cannot hold (a string, a list). */
export function propertyValue(v: unknown): ReadValue | null {
  if (typeof v === 'number') return { kind: 'number', text: String(v), key: v };
  if (neo4j.isInt(v)) return { kind: 'number', text: String(v), key: v.toNumber() };
  const temporal = (kind: ValueKind, t: { toStandardDate(): Date }) => ({ kind, text: String(t), key: t.toStandardDate().getTime() });
  if (neo4j.isDateTime(v)) return temporal('datetime', v);
  if (neo4j.isLocalDateTime(v)) return temporal('localdatetime', v);
  if (neo4j.isDate(v)) return temporal('date', v);
  return null;
}

/** The newer of two values read (values of another kind than `a`'s are passed over). */
const newer = (a: ReadValue | null, b: ReadValue | null): ReadValue | null => (!a ? b : b && b.kind === a.kind && b.key > a.key ? b : a);

/** Cypher for "the cursor, less {@link OVERLAP_MS}", read from `$since` (a date looks back a day). */
function sinceExpr(kind: ValueKind): string {
  switch (kind) {
    case 'number':
      return `toFloat($since) - ${OVERLAP_MS}`;
    case 'date':
      return `date($since) - duration({days: 1})`;
    default:
      return `${kind}($since) - duration({milliseconds: ${OVERLAP_MS}})`;
  }
}

/** The labels that have an online range index on `prop` alone. */
export async function rangeIndexedLabels(driver: Driver, database: string, prop: string): Promise<Set<string>> {
  const { records } = await driver.executeQuery(
    `SHOW INDEXES YIELD type, entityType, labelsOrTypes, properties, state
WHERE type = 'RANGE' AND entityType = 'NODE' AND properties = [$prop] AND state = 'ONLINE'
RETURN labelsOrTypes[0] AS label`,
    { prop },
    { database, routing: 'READ' },
  );
  return new Set(records.map((r) => r.get('label') as string));
}

/** Per label, its node count from the count store (one query; a label the graph lacks counts 0). */
export async function labelCounts(driver: Driver, database: string, labels: readonly string[]): Promise<Record<string, number>> {
  if (!labels.length) return {};
  const parts = labels.map((l, i) => `MATCH (n:${quoteName(l)}) RETURN $labels[${i}] AS label, count(n) AS c`);
  const { records } = await driver.executeQuery(
    `CALL () { ${parts.join(' UNION ALL ')} } RETURN label, c`,
    { labels },
    {
      database,
      routing: 'READ',
    },
  );
  return Object.fromEntries(records.map((r) => [r.get('label') as string, Number(r.get('c'))]));
}

/** The newest value of `prop` among nodes of some labels, and where one is of a type a cursor cannot hold. */
export interface Newest {
  value: PropertyValue | null;
  /** `:Label holds STRING values ("2026-…")`, for the first label whose newest value is neither a number nor a temporal. */
  wrong: string | null;
}

/** A `valueType()` as a user reads it: `STRING NOT NULL` → `STRING`. */
const typeName = (t: unknown) => String(t).replace(/ NOT NULL$/, '');

/** The newest value of `prop` among nodes of `labels` (each label's range index, read backwards). */
export async function newestValue(driver: Driver, database: string, prop: string, labels: readonly string[]): Promise<Newest> {
  let newest: ReadValue | null = null;
  let wrong: string | null = null;
  const p = quoteName(prop);
  for (const label of labels) {
    const { records } = await driver.executeQuery(
      `MATCH (n:${quoteName(label)}) WHERE n.${p} IS NOT NULL RETURN n.${p} AS v, valueType(n.${p}) AS type ORDER BY v DESC LIMIT 1`,
      {},
      { database, routing: 'READ' },
    );
    const r = records[0];
    if (!r) continue;
    const v = propertyValue(r.get('v'));
    if (v) newest = newer(newest, v);
    else wrong ??= `:${label} holds ${typeName(r.get('type'))} values (${JSON.stringify(String(r.get('v')).slice(0, 40))})`;
  }
  return { value: newest && { kind: newest.kind, text: newest.text }, wrong };
}

/** Nodes whose value is at or past a cursor (less the overlap). */
export interface ChangedSince {
  ids: string[];
  /** How many of them are past the cursor itself (not only inside the overlap): written since the last pass. */
  fresh: number;
  /** The newest value read (the next cursor); null when no node was found. */
  newest: PropertyValue | null;
  /** More than `max` nodes: the caller runs a full check instead. */
  over: boolean;
}

/**
 * The nodes of `labels` whose `prop` is at or past `since` less {@link OVERLAP_MS}, or that have
 * a value at all when `since` is null, at most `max` (one range seek per label).
 */
export async function changedSince(
  driver: Driver,
  database: string,
  prop: string,
  labels: readonly string[],
  since: PropertyValue | null,
  max: number,
): Promise<ChangedSince> {
  const ids = new Set<string>();
  let fresh = 0;
  let newest: ReadValue | null = null;
  const p = quoteName(prop);
  const where = since ? `n.${p} >= ${sinceExpr(since.kind)}` : `n.${p} IS NOT NULL`;
  const past = since ? `n.${p} > ${since.kind === 'number' ? 'toFloat($since)' : `${since.kind}($since)`}` : 'true';
  for (const label of labels) {
    const { records } = await driver.executeQuery(
      `MATCH (n:${quoteName(label)}) WHERE ${where}
RETURN elementId(n) AS id, n.${p} AS v, ${past} AS fresh LIMIT $limit`,
      { since: since?.text ?? null, limit: neo4j.int(max + 1) },
      { database, routing: 'READ' },
    );
    for (const r of records) {
      const id = r.get('id') as string;
      if (!ids.has(id) && r.get('fresh') === true) fresh++;
      ids.add(id);
      const v = propertyValue(r.get('v'));
      if (v && (!since || v.kind === since.kind)) newest = newer(newest, v);
    }
    if (ids.size > max) return { ids: [], fresh: 0, newest: null, over: true };
  }
  return { ids: [...ids], fresh, newest: newest && { kind: newest.kind, text: newest.text }, over: false };
}
