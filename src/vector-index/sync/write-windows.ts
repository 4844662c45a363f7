/**
 * The sync's writes cut by size: a window's node writes as transactions whose estimated memory
 * stays well under the server's per-transaction limit, a node too large for one written in parts
 * (./node-sync.ts), and which write errors are the nodes' own (isolated) rather than the database's.
 */
import { Neo4jError } from 'neo4j-driver';
import type { NodeWrite, StoredChunk } from '../../graph/access/chunk-store.js';
import { isValueError } from '../index/skipped-nodes.js';

/**
 * Estimated transaction memory of one write, in bytes ({@link entryBytes}): well under the
 * server's per-transaction limit (`db.memory.transaction.max`, 256 MiB on the dev server), about
 * 1,300 new chunks of 512 dimensions. Bounded by size, not node count: two 5 MB texts are 16,000
 * chunks, ~330 MiB in one transaction.
 */
export const WRITE_BYTES = 32 * 2 ** 20;

/**
 * Estimated transaction memory of writing one chunk node, in bytes: 4 per character of its
 * strings (`chunkText`, `sig`, carried values) and, for a new chunk, 40 per vector dimension
 * (`dims`), as measured on Neo4j 5.26 with the vector sent as a list of floats, then stored
 * (docs/benchmarks.md, "The sync's writes by size").
 */
export function entryBytes(props: Record<string, unknown>, dims = 0): number {
  let chars = 0;
  for (const v of Object.values(props)) {
    if (typeof v === 'string') chars += v.length;
    else if (Array.isArray(v)) for (const x of v) chars += typeof x === 'string' ? x.length : 8;
  }
  return 256 + 4 * chars + 40 * dims;
}

/** Estimated transaction memory of deleting stored chunk `c`: its values are read to update the indexes. */
export const storedBytes = (c: StoredChunk, dims: number) =>
  256 + 4 * ((c.text?.length ?? 0) + (c.sigChars ?? 0)) + (c.text === null ? 0 : 8 * dims);

/** What {@link splitWrites} needs to weigh a write: the vectors' dimensions and each stale chunk's cost. */
export interface WriteCosts {
  dims: number;
  stale: (chunkId: string) => number;
}

/** True for the chunk that records its node's `sig` (chunk 0, or a marker): written last. */
const carriesSig = (props: Record<string, unknown>) => props.sig != null;

/**
 * A window's node writes as transactions of at most `budget` estimated bytes each. A node over
 * the budget is written alone, in parts: its stale chunk nodes deleted, then its new and kept
 * chunks, and last the one that carries its `sig` (chunk 0, or its marker). Until that part
 * commits, the node differs from its chunk 0 or has none, so a pass cut short finds it again, and
 * keeps the chunks its parts wrote (their texts are not embedded again).
 */
export function splitWrites(writes: readonly NodeWrite[], costs: WriteCosts, budget = WRITE_BYTES): NodeWrite[][] {
  const groups: NodeWrite[][] = [];
  let group: NodeWrite[] = [];
  let used = 0;
  for (const w of writes) {
    const entries = [
      ...w.stale.map((id) => ({ bytes: costs.stale(id), last: false, put: (p: NodeWrite) => p.stale.push(id) })),
      ...w.kept.map((k) => ({ bytes: entryBytes(k.props), last: carriesSig(k.props), put: (p: NodeWrite) => p.kept.push(k) })),
      ...w.rows.map((r) => ({ bytes: entryBytes(r.props, costs.dims), last: carriesSig(r.props), put: (p: NodeWrite) => p.rows.push(r) })),
      ...(w.marker ? [{ bytes: entryBytes(w.marker), last: true, put: (p: NodeWrite) => Object.assign(p, { marker: w.marker }) }] : []),
    ];
    const bytes = entries.reduce((n, e) => n + e.bytes, 0);
    if (bytes <= budget) {
      if (used + bytes > budget && group.length) {
        groups.push(group);
        group = [];
        used = 0;
      }
      group.push(w);
      used += bytes;
      continue;
    }
    // Sorting is stable: deletes, then chunks in order, then the sig's carrier.
    entries.sort((a, b) => Number(a.last) - Number(b.last));
    let part: NodeWrite = { nodeId: w.nodeId, stale: [], kept: [], rows: [] };
    let partBytes = 0;
    for (const e of entries) {
      if (partBytes && partBytes + e.bytes > budget) {
        groups.push([part]);
        part = { nodeId: w.nodeId, stale: [], kept: [], rows: [] };
        partBytes = 0;
      }
      e.put(part);
      partBytes += e.bytes;
    }
    groups.push([part]);
  }
  if (group.length) groups.push(group);
  return groups;
}

/** Write errors blamed on the nodes written: a value the database refused, a vector it could not store, a transaction over its memory limit. */
const WRITE_CONTENT_ERRORS = new Set([
  'Neo.ClientError.Procedure.ProcedureCallFailed',
  'Neo.TransientError.General.MemoryPoolOutOfMemoryError',
]);

/** True when a node write failed because of what it wrote ({@link WRITE_CONTENT_ERRORS}), not because the database is down. */
export function isWriteContentError(err: unknown): boolean {
  return isValueError(err) || (err instanceof Neo4jError && WRITE_CONTENT_ERRORS.has(err.code));
}
