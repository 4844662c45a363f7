/**
 * Schema introspection for the agent's schema tools and the graph skeleton (Neo4j 5 Cypher).
 * Counts come from the count store (`db.stats.retrieve('GRAPH COUNTS')`, no scan); patterns,
 * properties and samples read a bounded sample, so every call stays cheap on a large graph.
 * Vector index data (labels for which `isIndexLabel` is true) never shows up.
 */
import neo4j from 'neo4j-driver';
import type { GraphStore } from '../access/driver.js';
import { isIndexLabel, quoteName } from '../dialect/names.js';
import { toPlainJson, type Json } from '../access/plain-json.js';
import { shownName } from '../../lib/shown-name.js';

/** A node label and how many nodes carry it. */
export interface LabelCount {
  label: string;
  count: number;
}

/** A relationship type and how many relationships have it. */
export interface TypeCount {
  type: string;
  count: number;
}

/** `(:from)-[:type]->(:to)` and how often it occurs (estimated from a sample when `estimated`). */
export interface Pattern {
  /** The start node's labels joined by `:` ('' for none). */
  from: string;
  type: string;
  /** The end node's labels joined by `:`. */
  to: string;
  count: number;
  estimated: boolean;
  /** The start node's labels one by one, when a label of the pattern holds a `:` itself (else `from` split at `:`). */
  fromLabels?: readonly string[];
  /** The end node's labels one by one. */
  toLabels?: readonly string[];
}

/** A property seen on sampled nodes of a label (or relationships of a type). */
export interface PropertyInfo {
  name: string;
  /** Cypher value types seen (`STRING`, `INTEGER`, `LIST<STRING>`, `VECTOR[512]` for long float lists). */
  types: string[];
  /** Share of sampled items that have it, 0..1. */
  fill: number;
  /** One example value, the most common in the sample (strings cut at 80 characters, vectors omitted). */
  example: Json;
  /** What every sampled string holds, placeholders (`NULL`, '') aside, when it is numbers, dates or booleans written as text. */
  kind?: StringKind;
  /** Distinct values in the sample. */
  distinct?: number;
  /** Sampled items that have it. */
  filled?: number;
  /** Up to 4 of the most common short strings (40 characters at most), for category-like properties. */
  values?: string[];
}

/** Numbers, dates or booleans stored as strings (a CSV import's leftovers). */
export type StringKind = 'integer' | 'number' | 'date' | 'boolean';

/** Options shared by the introspection calls. */
export interface SchemaOptions {
  /** Server-side timeout per query in ms (default 10,000). */
  timeoutMs?: number;
}

/** Items read per label or type when a sample is enough. */
export const SAMPLE_SIZE = 200;
/** Relationships read per type for pattern counts; above this, counts are scaled estimates. */
export const PATTERN_SAMPLE = 10_000;

/** Runs a read query and returns its records as objects. */
async function read(
  graph: GraphStore,
  database: string,
  cypher: string,
  params: Record<string, unknown>,
  opts: SchemaOptions,
): Promise<Record<string, unknown>[]> {
  const session = graph.driver.session({ database, defaultAccessMode: neo4j.session.READ });
  try {
    const res = await session.executeRead((tx) => tx.run(cypher, params), { timeout: opts.timeoutMs ?? 10_000 });
    return res.records.map((r) => r.toObject());
  } finally {
    await session.close();
  }
}

/**
 * The labels a relationship type's start and end nodes carry, with counts, from the count store
 * (exact, every type; which start goes with which end is not in it: see {@link typePatterns}).
 */
export interface TypeEnds {
  from: Record<string, number>;
  to: Record<string, number>;
}

/** Total, per-label and per-type counts from the count store, index data removed. */
export async function graphCounts(
  graph: GraphStore,
  database: string,
  opts: SchemaOptions = {},
): Promise<{ labels: LabelCount[]; types: TypeCount[]; ends: Map<string, TypeEnds> }> {
  const [row] = await read(graph, database, "CALL db.stats.retrieve('GRAPH COUNTS') YIELD data RETURN data", {}, opts);
  const data = (row?.data ?? {}) as {
    nodes?: { label?: string; count: number }[];
    relationships?: { relationshipType?: string; startLabel?: string; endLabel?: string; count: number }[];
  };
  const labels = (data.nodes ?? [])
    .filter((n) => n.label !== undefined && n.count > 0 && !isIndexLabel(n.label))
    .map((n) => ({ label: n.label!, count: Number(n.count) }));
  const types = (data.relationships ?? [])
    .filter((r) => r.relationshipType !== undefined && !r.startLabel && !r.endLabel && r.count > 0)
    .map((r) => ({ type: r.relationshipType!, count: Number(r.count) }));
  const ends = new Map<string, TypeEnds>();
  for (const r of data.relationships ?? []) {
    const label = r.startLabel ?? r.endLabel;
    if (r.relationshipType === undefined || !label || isIndexLabel(label) || r.count <= 0) continue;
    const e = ends.get(r.relationshipType) ?? { from: {}, to: {} };
    (r.startLabel ? e.from : e.to)[label] = Number(r.count);
    ends.set(r.relationshipType, e);
  }
  const byCount = <T extends { count: number }>(a: T, b: T) => b.count - a.count;
  return { labels: labels.sort(byCount), types: types.sort(byCount), ends };
}

/** Every property key of the database, internals (`__…`) left out. */
export async function propertyKeys(graph: GraphStore, database: string, opts: SchemaOptions = {}): Promise<string[]> {
  const rows = await read(graph, database, 'CALL db.propertyKeys() YIELD propertyKey RETURN propertyKey', {}, opts);
  return rows.map((r) => String(r.propertyKey)).filter((k) => !k.startsWith('__'));
}

const cleanType = (t: string) => t.replace(/ NOT NULL/g, '');

/** The kind every non-placeholder string of a sample has, from the counts {@link PROPERTY_STATS} returns. */
function stringKindOf(r: Record<string, unknown>): StringKind | undefined {
  const strings = Number(r.strings ?? 0) - Number(r.blank ?? 0);
  if (strings <= 0) return undefined;
  if (Number(r.integral) === strings && Number(r.flags) < strings) return 'integer';
  if (Number(r.numeric) === strings) return 'number';
  if (Number(r.dated) === strings) return 'date';
  if (Number(r.flags) === strings) return 'boolean';
  return undefined;
}

function toPropertyInfo(rows: Record<string, unknown>[], sampled: number): PropertyInfo[] {
  return rows
    .map((r) => {
      const size = Number(r.size ?? 0);
      const types = (r.types as string[]).map(cleanType).map((t) => (t.startsWith('LIST<FLOAT') && size > 64 ? `VECTOR[${size}]` : t));
      let example = toPlainJson(r.example, { maxStringLength: 80 });
      if (Array.isArray(example) && example.length > 5) example = [...example.slice(0, 5), '…'];
      const kind = stringKindOf(r);
      const values = (r.values as string[] | undefined)?.filter((v) => !PLACEHOLDERS.includes(v));
      return {
        name: String(r.name),
        types,
        fill: sampled ? Number(r.filled) / sampled : 0,
        example,
        ...(kind ? { kind } : {}),
        ...(r.nvalues !== undefined ? { distinct: Number(r.nvalues), filled: Number(r.filled) } : {}),
        ...(values?.length ? { values } : {}),
      };
    })
    .sort((a, b) => b.fill - a.fill || a.name.localeCompare(b.name));
}

/** Strings loaders write for a missing value. */
const PLACEHOLDERS = ['', 'NULL', 'null', 'N/A', 'NA', 'None'];
/** Regular expressions of numbers, integers and dates written as strings (parameters: no escaping in Cypher text). */
const KIND_PATTERNS = {
  integral: '[-+]?\\d+',
  numeric: '[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?',
  dated: '\\d{4}-\\d{2}-\\d{2}([ T].*)?',
  placeholders: PLACEHOLDERS,
  flags: ['true', 'false', 'yes', 'no', 'y', 'n', 't', 'f'],
};

// Grouped by value first, so the example and the values are the most common ones.
const PROPERTY_STATS = `
UNWIND keys(x) AS name
WITH name, x[name] AS v, sampled
WITH name, v, sampled, count(*) AS n ORDER BY n DESC
WITH name, v, sampled, n, v IS :: STRING AS text
RETURN name, sampled, sum(n) AS filled, collect(DISTINCT valueType(v))[..3] AS types,
  head(collect(v)) AS example, max(CASE WHEN v IS :: LIST<ANY> THEN size(v) ELSE 0 END) AS size,
  count(*) AS nvalues, collect(CASE WHEN text AND size(v) <= 40 THEN v END)[..6] AS values,
  sum(CASE WHEN text THEN n ELSE 0 END) AS strings,
  sum(CASE WHEN text AND v IN $kinds.placeholders THEN n ELSE 0 END) AS blank,
  sum(CASE WHEN text AND v =~ $kinds.integral THEN n ELSE 0 END) AS integral,
  sum(CASE WHEN text AND v =~ $kinds.numeric THEN n ELSE 0 END) AS numeric,
  sum(CASE WHEN text AND v =~ $kinds.dated THEN n ELSE 0 END) AS dated,
  sum(CASE WHEN text AND toLower(v) IN $kinds.flags THEN n ELSE 0 END) AS flags`;

/** Property statistics of the elements `x` a MATCH clause binds, from a sample of them. */
async function sampledProperties(
  graph: GraphStore,
  database: string,
  match: string,
  opts: SchemaOptions & { sample?: number },
): Promise<{ sampled: number; properties: PropertyInfo[] }> {
  const sample = opts.sample ?? SAMPLE_SIZE;
  const q = `${match} WITH x LIMIT $sample WITH collect(x) AS xs, count(x) AS sampled
UNWIND xs AS x ${PROPERTY_STATS}`;
  const rows = await read(graph, database, q, { sample: neo4j.int(sample), kinds: KIND_PATTERNS }, opts);
  const sampled = Number(rows[0]?.sampled ?? 0);
  return { sampled, properties: toPropertyInfo(rows, sampled) };
}

/** Properties of a label from a sample of its nodes (`SAMPLE_SIZE`), most common first. */
export function labelProperties(
  graph: GraphStore,
  database: string,
  label: string,
  opts: SchemaOptions & { sample?: number } = {},
): Promise<{ sampled: number; properties: PropertyInfo[] }> {
  return sampledProperties(graph, database, `MATCH (x:${quoteName(label)})`, opts);
}

/** Properties of a relationship type from a sample of its relationships. */
export function relationshipProperties(
  graph: GraphStore,
  database: string,
  type: string,
  opts: SchemaOptions & { sample?: number } = {},
): Promise<{ sampled: number; properties: PropertyInfo[] }> {
  return sampledProperties(graph, database, `MATCH ()-[x:${quoteName(type)}]->()`, opts);
}

/**
 * Label-to-label patterns of one relationship type from up to `PATTERN_SAMPLE` of its
 * relationships; counts are scaled to `total` (estimated) when the sample is smaller.
 */
export async function typePatterns(
  graph: GraphStore,
  database: string,
  type: TypeCount,
  opts: SchemaOptions & { sample?: number } = {},
): Promise<Pattern[]> {
  const sample = opts.sample ?? PATTERN_SAMPLE;
  const q = `MATCH (a)-[r:${quoteName(type.type)}]->(b) WITH a, b LIMIT $sample
RETURN labels(a) AS from, labels(b) AS to, count(*) AS c`;
  const rows = await read(graph, database, q, { sample: neo4j.int(sample) }, opts);
  const seen = rows.reduce((n, r) => n + Number(r.c), 0);
  const estimated = seen < type.count;
  const scale = estimated && seen > 0 ? type.count / seen : 1;
  const pick = (labels: unknown) => (labels as string[]).filter((l) => !isIndexLabel(l));
  const merged = new Map<string, Pattern>();
  for (const r of rows) {
    const fromLabels = pick(r.from);
    const toLabels = pick(r.to);
    const [from, to] = [fromLabels.join(':'), toLabels.join(':')];
    const key = JSON.stringify([fromLabels, toLabels]);
    // Split at `:`, the joined form gives the labels back unless one of them holds a `:` itself.
    const exact = [...fromLabels, ...toLabels].some((l) => l.includes(':')) ? { fromLabels, toLabels } : {};
    const p = merged.get(key) ?? { from, type: type.type, to, count: 0, estimated, ...exact };
    p.count += Number(r.c);
    merged.set(key, p);
  }
  return [...merged.values()].map((p) => ({ ...p, count: Math.round(p.count * scale) })).sort((a, b) => b.count - a.count);
}

/** Up to `limit` nodes of a label as plain JSON (vectors omitted, long strings cut). */
export async function sampleNodes(
  graph: GraphStore,
  database: string,
  label: string,
  limit: number,
  opts: SchemaOptions = {},
): Promise<Json[]> {
  const rows = await read(graph, database, `MATCH (n:${quoteName(label)}) RETURN n LIMIT $limit`, { limit: neo4j.int(limit) }, opts);
  return rows.map((r) => toPlainJson(r.n, { maxStringLength: 500 }));
}

/**
 * Formats a pattern as Cypher: `(:Person)-[:ACTED_IN]->(:Movie)`, each name as
 * {@link shownName} writes it (`` (:`Ignore all\u202E`) ``), `relProps` inside the relationship
 * (` {since: INTEGER}`). Labels are `fromLabels` and `toLabels`, else `from` and `to` split at
 * `:`; `type` may be alternatives joined by `|`, as a query writes them (`[:DIRECTED|ACTED_IN]`).
 */
export function formatPattern(p: Pick<Pattern, 'from' | 'type' | 'to' | 'fromLabels' | 'toLabels'>, relProps = ''): string {
  const node = (labels: readonly string[]) => (labels.length ? `(${labels.map((l) => `:${shownName(l)}`).join('')})` : '()');
  const split = (joined: string) => (joined ? joined.split(':') : []);
  const types = p.type.split('|').map((t) => shownName(t));
  return `${node(p.fromLabels ?? split(p.from))}-[:${types.join('|')}${relProps}]->${node(p.toLabels ?? split(p.to))}`;
}
