/**
 * Converts neo4j-driver values (Node, Relationship, Path, temporal and spatial types, Integer,
 * byte arrays, vectors) into plain JSON a model or an MCP client can read. Embedding vectors
 * (long numeric lists) are replaced by a short marker: they cost thousands of tokens and mean
 * nothing to a reader.
 */
import neo4j from 'neo4j-driver';

/** Options of {@link toPlainJson}. */
export interface PlainJsonOptions {
  /** A numeric list longer than this is treated as a vector and omitted (default 64). */
  maxVectorLength?: number;
  /** Strings longer than this are cut, with a note of how much was cut (default 2,000). */
  maxStringLength?: number;
  /** Lists longer than this keep their first items and a last one saying how many were cut (default unbounded). */
  maxListLength?: number;
  /** Called for each string cut, so a caller can report its result as truncated. */
  onCut?: () => void;
}

const DEFAULTS: Required<PlainJsonOptions> = {
  maxVectorLength: 64,
  maxStringLength: 2_000,
  maxListLength: Number.POSITIVE_INFINITY,
  onCut: () => {},
};

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isNumber = (v: unknown) => typeof v === 'number' || neo4j.isInt(v);

/**
 * The length of `value` when it is a vector (a Neo4j vector, a typed array of numbers, or a
 * numeric list longer than `maxVectorLength`), else null.
 */
export function vectorLength(value: unknown, maxVectorLength = DEFAULTS.maxVectorLength): number | null {
  if (neo4j.isVector(value)) return value.asTypedArray().length;
  if (ArrayBuffer.isView(value) && !(value instanceof Uint8Array || value instanceof Int8Array)) {
    return (value as unknown as { length?: number }).length ?? value.byteLength;
  }
  if (Array.isArray(value) && value.length > maxVectorLength && value.every(isNumber)) return value.length;
  return null;
}

function vectorMarker(length: number): string {
  return `<vector of ${length} numbers omitted>`;
}

/** Own properties only: `out[k] = v` with a property named `__proto__` would set the prototype and lose it. */
function props(properties: Record<string, unknown>, o: Required<PlainJsonOptions>): Record<string, Json> {
  return Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, convert(v, o)]));
}

function convert(value: unknown, o: Required<PlainJsonOptions>): Json {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string') {
    if (value.length <= o.maxStringLength) return value;
    o.onCut();
    return `${value.slice(0, o.maxStringLength)}… [${value.length - o.maxStringLength} more characters]`;
  }
  if (neo4j.isInt(value)) return value.inSafeRange() ? value.toNumber() : value.toString();
  if (neo4j.isNode(value)) {
    // `_id` is the integer id (`id(n)`), the same number vector_search returns as dbId.
    return { _id: Number(value.identity), _labels: value.labels, ...props(value.properties, o) };
  }
  if (neo4j.isRelationship(value)) {
    return { _type: value.type, _start: Number(value.start), _end: Number(value.end), ...props(value.properties, o) };
  }
  if (neo4j.isPath(value)) {
    return {
      start: convert(value.start, o),
      segments: value.segments.map((s) => ({ rel: convert(s.relationship, o), end: convert(s.end, o) })),
    };
  }
  const vector = vectorLength(value, o.maxVectorLength);
  if (vector !== null) return vectorMarker(vector);
  if (
    neo4j.isDate(value) ||
    neo4j.isDateTime(value) ||
    neo4j.isLocalDateTime(value) ||
    neo4j.isLocalTime(value) ||
    neo4j.isTime(value) ||
    neo4j.isDuration(value)
  ) {
    return value.toString();
  }
  if (neo4j.isPoint(value)) {
    const p: Record<string, Json> = { srid: Number(value.srid), x: value.x, y: value.y };
    if (value.z !== undefined) p.z = value.z;
    return p;
  }
  if (ArrayBuffer.isView(value)) return `<${value.byteLength} bytes>`;
  if (Array.isArray(value)) {
    if (value.length <= o.maxListLength) return value.map((v) => convert(v, o));
    o.onCut();
    return [...value.slice(0, o.maxListLength).map((v) => convert(v, o)), `… [${value.length - o.maxListLength} more items]`];
  }
  if (typeof value === 'object') return props(value as Record<string, unknown>, o);
  return String(value);
}

/** Converts one driver value (a record field) into plain JSON. */
export function toPlainJson(value: unknown, options: PlainJsonOptions = {}): Json {
  return convert(value, { ...DEFAULTS, ...options });
}
