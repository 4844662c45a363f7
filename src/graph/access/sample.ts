/**
 * Loads the bundled sample graph (src/graph/access/sample-data.json, written by
 * scripts/gen/gen-sample-graph.mjs) into Neo4j. Runtime-neutral: the caller passes the parsed JSON,
 * because Node, Bun and Deno each import files differently.
 */
import neo4j, { type Driver } from 'neo4j-driver';

/** The shape of sample-data.json; every node carries an integer `dbId`, `displayName` and `text`. */
export interface SampleGraph {
  name: string;
  nodes: { labels: string[]; properties: Record<string, unknown> }[];
  relationships: { type: string; from: number; to: number; properties?: Record<string, unknown> }[];
}

/** `loaded` is false when the database already had nodes; counts are what was written. */
export interface LoadResult {
  loaded: boolean;
  nodes: number;
  relationships: number;
}

/** Rows per write transaction: big enough to be quick, small enough to keep transactions light. */
const BATCH = 200;
/** Labels and types cannot be query parameters, so they are spliced in: only plain names pass. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/**
 * Properties the generator writes as floats even where a value happens to be whole (a 1538 kg
 * lander): without this list, 1538 would be stored as INTEGER and 1538.5 as FLOAT.
 */
const FLOAT_PROPERTIES = [
  'massKg',
  'radiusKm',
  'orbitalPeriodDays',
  'semiMajorAxisKm',
  'latitude',
  'longitude',
  'budgetBillionUsd',
  'powerW',
  'durationDays',
  'evaHours',
];

function quote(name: string): string {
  if (!NAME.test(name)) throw new Error(`sample graph: invalid label or type ${JSON.stringify(name)}`);
  return `\`${name}\``;
}

/** Known float keys plus any key that has a fractional value anywhere in the data. */
function floatKeys(records: Iterable<Record<string, unknown> | undefined>): Set<string> {
  const keys = new Set(FLOAT_PROPERTIES);
  for (const record of records) {
    for (const [key, value] of Object.entries(record ?? {})) {
      const values: unknown[] = Array.isArray(value) ? value : [value];
      if (values.some((v) => typeof v === 'number' && !Number.isInteger(v))) keys.add(key);
    }
  }
  return keys;
}

/** The driver sends every JS number as a FLOAT, so whole numbers of integer keys go as neo4j Integers. */
function typed(props: Record<string, unknown> | undefined, floats: Set<string>): Record<string, unknown> {
  const convert = (key: string, v: unknown): unknown =>
    typeof v === 'number' && Number.isSafeInteger(v) && !floats.has(key) ? neo4j.int(v) : v;
  return Object.fromEntries(
    Object.entries(props ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.map((x: unknown) => convert(k, x)) : convert(k, v)]),
  );
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    groups
      .set(k, groups.get(k) ?? [])
      .get(k)
      ?.push(item);
  }
  return groups;
}

const toNumber = (value: unknown): number => (neo4j.isInt(value) ? value.toNumber() : Number(value));

/** Loads the sample into `database` when it has no nodes (or always when `ifEmpty` is false). */
export async function loadSampleGraph(
  driver: Driver,
  data: SampleGraph,
  opts: { database: string; ifEmpty?: boolean },
): Promise<LoadResult> {
  const session = driver.session({ database: opts.database, defaultAccessMode: neo4j.session.WRITE });
  try {
    if (opts.ifEmpty ?? true) {
      const res = await session.executeRead((tx) => tx.run('MATCH (n) RETURN count(n) > 0 AS nonEmpty'));
      if (res.records[0]?.get('nonEmpty') === true) return { loaded: false, nodes: 0, relationships: 0 };
    }

    // Validate everything before writing anything: a bad name or dangling id must not leave half a graph.
    const primary = new Map<number, string>(); // dbId -> the label nodes are MERGEd on
    for (const node of data.nodes) {
      const dbId = node.properties.dbId;
      const label = node.labels[0];
      if (typeof dbId !== 'number' || !Number.isSafeInteger(dbId)) throw new Error('sample graph: every node needs an integer dbId');
      if (label === undefined) throw new Error(`sample graph: node ${dbId} has no label`);
      node.labels.forEach(quote);
      primary.set(dbId, label);
    }
    const endpoint = (dbId: number): string => {
      const label = primary.get(dbId);
      if (label === undefined) throw new Error(`sample graph: relationship refers to unknown dbId ${dbId}`);
      return label;
    };
    const rels = data.relationships.map((r) => ({ ...r, fromLabel: endpoint(r.from), toLabel: endpoint(r.to) }));
    for (const r of rels) quote(r.type);

    // Uniqueness constraints first: they back the MERGE lookups with an index and make
    // concurrent loads safe. Schema changes cannot share a transaction with writes.
    for (const label of new Set(primary.values())) {
      await session.run(
        `CREATE CONSTRAINT ${quote(`sample_dbId_${label}`)} IF NOT EXISTS FOR (n:${quote(label)}) REQUIRE n.dbId IS UNIQUE`,
      );
    }

    const runBatches = async (query: string, rows: Record<string, unknown>[]): Promise<number> => {
      let written = 0;
      for (let i = 0; i < rows.length; i += BATCH) {
        const res = await session.executeWrite((tx) => tx.run(query, { rows: rows.slice(i, i + BATCH) }));
        written += toNumber(res.records[0]?.get('c') ?? 0);
      }
      return written;
    };

    // MERGE on the primary label's dbId keeps re-runs idempotent; the other labels are SET.
    const nodeFloats = floatKeys(data.nodes.map((n) => n.properties));
    let nodes = 0;
    for (const group of groupBy(data.nodes, (n) => n.labels.join(':')).values()) {
      const [first, ...rest] = group[0]?.labels ?? [];
      if (first === undefined) continue;
      const extra = rest.map((l) => `, n:${quote(l)}`).join('');
      const query = `UNWIND $rows AS row MERGE (n:${quote(first)} {dbId: row.dbId}) SET n += row.props${extra} RETURN count(n) AS c`;
      nodes += await runBatches(
        query,
        group.map((n) => ({ dbId: neo4j.int(n.properties.dbId as number), props: typed(n.properties, nodeFloats) })),
      );
    }

    // One relationship per (type, from, to): MERGE on exactly that, then refresh its properties.
    const relFloats = floatKeys(data.relationships.map((r) => r.properties));
    let relationships = 0;
    for (const group of groupBy(rels, (r) => `${r.type}|${r.fromLabel}|${r.toLabel}`).values()) {
      const head = group[0];
      if (head === undefined) continue;
      const query = `UNWIND $rows AS row
MATCH (a:${quote(head.fromLabel)} {dbId: row.from})
MATCH (b:${quote(head.toLabel)} {dbId: row.to})
MERGE (a)-[r:${quote(head.type)}]->(b)
SET r += row.props
RETURN count(r) AS c`;
      const rows = group.map((r) => ({ from: neo4j.int(r.from), to: neo4j.int(r.to), props: typed(r.properties, relFloats) }));
      relationships += await runBatches(query, rows);
    }
    return { loaded: true, nodes, relationships };
  } finally {
    await session.close();
  }
}
