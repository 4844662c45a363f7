/**
 * One index brought in step with the graph node by node: the cost follows the change, not the
 * graph. Under the index's lock (one process at a time, never beside a build):
 *
 * 1. The database lists the text nodes whose chunks are missing or were made from other values
 *    (src/graph/access/chunk-store.ts: each node compared with what its chunk 0 records, inside the
 *    database; an unchanged node sends nothing and is not tokenised).
 * 2. Those nodes are read {@link WINDOW} at a time by id and cut into chunk texts as the build
 *    cuts them (../index/source.ts). A chunk text the node already has keeps its chunk node and
 *    vector (content-addressed: only texts it did not have go to the model), so an edit to one
 *    paragraph of a long text embeds that paragraph's chunks, and a changed filter value or a
 *    renumbered chunk is set in place. The window's writes go in transactions bounded by their
 *    estimated size, not by node count (`splitWrites` in ./write-windows.ts); a node too large
 *    for one is written in parts, chunk 0 last, and a node whose write fails is left out, as below.
 * 3. The chunks of nodes that were deleted, or no longer have text under the plan, are deleted.
 *
 * A node with nothing to index keeps a marker (a chunk node with its `sig` and no text or
 * vector, in neither index), so it is not read again until it changes. A node whose content
 * fails (its read, its chunking, or its write) is left out and reported (../index/skipped-nodes.ts) and
 * tried again by the next pass. A failure (database or model server down, the lock lost) ends
 * the pass: the nodes written are in step, the others are found again by the next pass; nothing
 * unchanged is touched.
 *
 * Chunk nodes written here have batch key `sync`: a later build finds their batches incomplete
 * and writes them again (from its vector cache where it has them), as it would after any edit.
 */
import { type ChangedNode, type ChunkStore, createChunkStore, type NodeWrite, type StoredChunk } from '../../graph/access/chunk-store.js';
import type { Embedder } from '../../embeddings/types.js';
import { readTextPlan, type TextPlan } from '../../graph/text/text-plan.js';
import { DomainError } from '../../errors.js';
import { acquireBuildLock, type BuildLock } from '../../store/build-lock.js';
import neo4j from 'neo4j-driver';
import { carryFields, MAX_CARRIED_CHARS } from '../index/carry.js';
import { type IndexBuildDeps, validateBuildTarget } from '../index/target.js';
import { chunkingChange, type IndexMeta, readIndexMeta, writeIndexMeta } from '../index/record.js';
import { toList } from '../../graph/access/index-writer.js';
import { type CarryState, type ChunkText, type NodeRef, nodeChunkTexts, readParams, readRowsById, rowReader } from '../index/source.js';
import { createSkippedNodes, SKIPPED_SHOWN, type SkippedNodes, type SkippedNodesLog } from '../index/skipped-nodes.js';
import { isWriteContentError, splitWrites, storedBytes, WRITE_BYTES } from './write-windows.js';

/** What one index's sync did. */
export interface NodeSyncReport {
  /** Nodes found new or changed (their chunks were checked, and replaced where they differed). */
  nodesChanged: number;
  /** Nodes whose chunks were deleted (the node is gone or has no text under the plan). */
  nodesDeleted: number;
  /** Chunk texts sent to the embedding model. */
  chunksEmbedded: number;
  /** Chunk nodes created (with a vector). */
  chunksWritten: number;
  /** Chunk nodes of changed nodes kept, their text unchanged. */
  chunksKept: number;
  chunksDeleted: number;
  skipped: SkippedNodes;
  plan: TextPlan;
}

/** Changed nodes read and chunked together; their writes go in transactions of at most {@link WRITE_BYTES}. */
const WINDOW = 256;
/** Source ids whose chunks one delete transaction removes. */
const DELETE_SLICE = 1_000;

/** Options of {@link syncIndexNodes}. */
export interface NodeSyncOptions {
  graph: string;
  model: string;
  indexName: string;
  /** Estimated transaction memory of one write, in bytes; default {@link WRITE_BYTES}. */
  writeBytes?: number;
  /** Check these nodes only (a change log named them); absent: every indexed node and every text node (the full check). */
  nodeIds?: readonly string[];
  /** With `nodeIds`: also every indexed node that is gone or no longer text (the chunk side only: no values compared). */
  goneCheck?: boolean;
}

/** One pass under way: what its steps share. */
interface NodePass {
  deps: IndexBuildDeps;
  opts: NodeSyncOptions;
  lock: BuildLock;
  recorded: IndexMeta;
  plan: TextPlan;
  carry: CarryState | undefined;
  store: ChunkStore;
  /** The index's full-text index covers `nameText` ({@link planNode}). */
  namesApart: boolean;
  embedder: Embedder;
  params: Record<string, unknown>;
  read: ReturnType<typeof rowReader>;
  /** The chunk properties the index's carried values are in. */
  fields: ReadonlySet<string>;
  skipped: SkippedNodesLog;
  report: NodeSyncReport;
  /** Nodes a write failed on: left out, and the rest of their parts with them. */
  failed: Set<string>;
}

/** The 409 for an index the sync cannot follow: no record of its build, or a chunking changed since. */
function needsBuild(detail: string): DomainError {
  return new DomainError('conflict', 'sync-needs-build', detail);
}

/** Reads the index's record and plans the pass under its lock. */
async function startPass(deps: IndexBuildDeps, opts: NodeSyncOptions, lock: BuildLock): Promise<NodePass> {
  const { config } = deps;
  const { graph, model, indexName: index } = opts;
  const driver = deps.graph.driver;
  const recorded = await readIndexMeta(driver, graph, index);
  if (!recorded) throw needsBuild(`vector index "${index}" has no record of its build; build it once to keep it in step`);
  const { settings } = recorded;
  const change = chunkingChange(settings, {
    model,
    chunkTokens: config.CHUNK_TOKENS,
    chunkOverlap: config.CHUNK_OVERLAP_TOKENS,
    batchSize: settings.batchSize,
  });
  if (change) throw needsBuild(`the chunking of vector index "${index}" changed (${change}); build it again`);
  // The recorded plan, with labels new since then discovered.
  const plan = await readTextPlan(driver, graph, {
    textProperty: recorded.plan.textProperty,
    choice: settings.choice,
    discover: settings.discover,
    previous: recorded.plan,
  });
  const carry: CarryState | undefined = settings.carry ? { plan: settings.carry, lists: new Set(settings.carry.lists) } : undefined;
  const store = createChunkStore(driver, graph, index);
  const { namesApart } = await store.prepare();
  const skipped = createSkippedNodes((node) => {
    if (skipped.state.count <= SKIPPED_SHOWN) deps.log.warn('node left out of the index: its content failed', { index, ...node });
  });
  const report: NodeSyncReport = {
    ...{ nodesChanged: 0, nodesDeleted: 0, chunksEmbedded: 0, chunksWritten: 0, chunksKept: 0, chunksDeleted: 0 },
    skipped: skipped.state,
    plan,
  };
  return {
    ...{ deps, opts, lock, recorded, plan, carry, store, namesApart, skipped, report },
    embedder: await deps.embedders.get(model),
    params: readParams(plan, carry),
    read: rowReader(plan, settings.format, carry),
    fields: new Set(carryFields(settings.carry)),
    failed: new Set(),
  };
}

/** Reads the nodes of `refs`, cuts their texts, and plans each one's write ({@link planNode}); a node that fails is left out. */
async function planWindow(pass: NodePass, refs: NodeRef[]): Promise<{ writes: NodeWrite[]; staleBytes: Map<string, number> }> {
  const { deps, opts, embedder, skipped } = pass;
  const wanted = new Map<string, { sig: string[]; texts: ChunkText[]; carry?: Record<string, unknown> }>();
  for await (const record of readRowsById(deps.graph.driver, opts.graph, pass.params, refs, skipped)) {
    const nodeId = record.get('nodeId') as string;
    try {
      const node = pass.read(record);
      const texts = node ? nodeChunkTexts(node, (t) => embedder.chunk(t)) : [];
      wanted.set(nodeId, { sig: record.get('sig') as string[], texts, carry: node?.carry });
    } catch (err) {
      skipped.add(nodeId, err);
    }
  }
  const writes: NodeWrite[] = [];
  const staleBytes = new Map<string, number>();
  if (!wanted.size) return { writes, staleBytes };
  const stored = await pass.store.chunksOf([...wanted.keys()]);
  for (const [nodeId, want] of wanted) {
    const old = stored.get(nodeId) ?? [];
    for (const c of old) staleBytes.set(c.id, storedBytes(c, embedder.dimensions));
    const w = planNode(nodeId, want, old, pass.fields, pass.namesApart);
    pass.report.chunksKept += w.kept.length;
    writes.push(w);
  }
  return { writes, staleBytes };
}

/** Syncs one window of changed nodes: read, plan, then embed and write transaction by transaction. */
async function syncWindow(pass: NodePass, refs: NodeRef[]): Promise<void> {
  if (!refs.length) return;
  pass.lock.assertHeld();
  pass.report.nodesChanged += refs.length;
  const { writes, staleBytes } = await planWindow(pass, refs);
  const costs = { dims: pass.embedder.dimensions, stale: (id: string) => staleBytes.get(id) ?? 0 };
  const groups = splitWrites(writes, costs, pass.opts.writeBytes);
  // The next transaction's chunks are embedded while this one is written (a large node is many).
  let embedded = embedGroup(pass, groups[0] ?? []);
  for (const [i, group] of groups.entries()) {
    await embedded;
    embedded = embedGroup(pass, groups[i + 1] ?? []);
    // Awaited in the next round; when this write ends the pass first, its failure is moot.
    embedded.catch(() => undefined);
    await writeGroup(pass, group);
  }
}

/** Embeds the new chunks of `group` (one transaction's writes) that have no vector yet. */
async function embedGroup(pass: NodePass, group: readonly NodeWrite[]): Promise<void> {
  const rows = group.filter((w) => !pass.failed.has(w.nodeId)).flatMap((w) => w.rows.filter((r) => !r.vector.length));
  if (!rows.length) return;
  const vectors = await pass.embedder.embed(rows.map((r) => (r.props.chunkText ?? r.props.nameText) as string));
  rows.forEach((r, i) => {
    r.vector = toList(vectors[i]!);
  });
  pass.report.chunksEmbedded += rows.length;
}

/**
 * Writes `group` in one transaction. A write its content fails ({@link isWriteContentError}) is
 * halved until the node that fails it is alone; that node is left out and reported, and tried
 * again by the next pass.
 */
async function writeGroup(pass: NodePass, group: NodeWrite[]): Promise<void> {
  const live = group.filter((w) => !pass.failed.has(w.nodeId));
  if (!live.length) return;
  await embedGroup(pass, live);
  pass.lock.assertHeld();
  try {
    pass.report.chunksDeleted += await pass.store.writeNodes(live, pass.recorded.namesIndex);
    pass.report.chunksWritten += live.reduce((n, w) => n + w.rows.length, 0);
  } catch (err) {
    if (!isWriteContentError(err)) throw err;
    if (live.length === 1) {
      pass.failed.add(live[0]!.nodeId);
      return pass.skipped.add(live[0]!.nodeId, err);
    }
    const half = Math.ceil(live.length / 2);
    await writeGroup(pass, live.slice(0, half));
    await writeGroup(pass, live.slice(half));
  }
}

/** The nodes out of step: among those named, or found by the full check. */
async function* changesOf(pass: NodePass): AsyncGenerator<ChangedNode> {
  const named = pass.opts.nodeIds;
  if (!named) return yield* pass.store.changes(pass.params);
  for (let i = 0; i < named.length; i += WINDOW) yield* await pass.store.changesAmong(named.slice(i, i + WINDOW), pass.params);
  if (pass.opts.goneCheck) yield* pass.store.gone(pass.params);
}

/** Follows the store's changes: changed nodes synced {@link WINDOW} at a time; returns the deleted ones. */
async function syncChanges(pass: NodePass): Promise<string[]> {
  let refs: NodeRef[] = [];
  // A set: with the gone check, a deleted node the change source named is listed twice.
  const gone = new Set<string>();
  const inWindow = new Set<string>();
  for await (const { nodeId, seq } of changesOf(pass)) {
    if (seq === null) {
      gone.add(nodeId);
      continue;
    }
    // A node with two chunk 0 (left by an interrupted write) is listed twice: once is enough.
    if (inWindow.has(nodeId)) continue;
    inWindow.add(nodeId);
    refs.push({ seq, nodeId });
    if (refs.length < WINDOW) continue;
    await syncWindow(pass, refs);
    refs = [];
    inWindow.clear();
  }
  await syncWindow(pass, refs);
  return [...gone];
}

/** Records the plan again when new labels were planned or the carried lists changed. */
async function recordChanges(pass: NodePass): Promise<void> {
  const { recorded, plan, carry, report, opts } = pass;
  const { settings } = recorded;
  // Which carried properties hold lists now: those seen here, and those recorded that changed nodes may have given up.
  const changed = report.nodesChanged + report.nodesDeleted > 0;
  const lists =
    carry && changed && carry.lists.size
      ? await pass.store.unindexable(pass.params, [...carry.lists], MAX_CARRIED_CHARS)
      : [...(carry?.lists ?? [])].sort();
  const labelsOf = (p: TextPlan) => JSON.stringify(p.labels.map((l) => l.label));
  if (labelsOf(recorded.plan) !== labelsOf(plan) || (settings.carry && JSON.stringify(settings.carry.lists) !== JSON.stringify(lists))) {
    const next = { ...settings, carry: settings.carry && { ...settings.carry, lists } };
    await writeIndexMeta(pass.deps.graph.driver, opts.graph, opts.indexName, plan, next);
  }
}

/**
 * Brings index `opts.indexName` in step with the graph node by node.
 * @throws DomainError 409 `build-running` (the lock is held), 409 `sync-needs-build` (no record
 * of a build, or the model chunking changed since), 503 database, store or model server down.
 */
export async function syncIndexNodes(deps: IndexBuildDeps, opts: NodeSyncOptions): Promise<NodeSyncReport> {
  await validateBuildTarget(deps, opts.graph, opts.model);
  const lock = await acquireBuildLock(deps.kv, opts.indexName, deps.config.INDEX_LOCK_TTL_MS);
  try {
    const pass = await startPass(deps, opts, lock);
    const gone = await syncChanges(pass);
    for (let i = 0; i < gone.length; i += DELETE_SLICE) {
      lock.assertHeld();
      pass.report.chunksDeleted += await pass.store.deleteNodes(gone.slice(i, i + DELETE_SLICE));
    }
    pass.report.nodesDeleted = gone.length;
    await recordChanges(pass);
    return pass.report;
  } finally {
    await lock.release();
  }
}

/**
 * What one node's chunks become: a stored chunk whose text is wanted is kept (renumbered, its
 * `sig` and carried fields set), every wanted text it lacks is a new row (its vector to come),
 * and the node's other chunk nodes go. A node with no text keeps a marker. `namesApart`: the
 * index's full-text index covers `nameText` (else a header alone is written to `chunkText`, as
 * the index was built, until a build moves it).
 */
export function planNode(
  nodeId: string,
  want: { sig: string[]; texts: readonly ChunkText[]; carry?: Record<string, unknown> },
  stored: readonly StoredChunk[],
  carried: ReadonlySet<string>,
  namesApart = true,
): NodeWrite {
  const byText = new Map<string, StoredChunk[]>();
  for (const c of [...stored].sort((a, b) => a.chunk - b.chunk)) {
    if (c.text === null) continue;
    byText.set(c.text, [...(byText.get(c.text) ?? []), c]);
  }
  const write: NodeWrite = { nodeId, stale: [], kept: [], rows: [] };
  if (!want.texts.length) {
    write.marker = { chunk: neo4j.int(0), sig: want.sig };
    write.stale = stored.map((c) => c.id);
    return write;
  }
  for (const [i, chunk] of want.texts.entries()) {
    const { text } = chunk;
    // Under a full-text index made before names had a field of their own, names stay in chunkText (a build moves them).
    const nameOnly = namesApart && chunk.nameOnly === true;
    const props: Record<string, unknown> = { chunk: neo4j.int(i), sig: i === 0 ? want.sig : null, ...want.carry };
    // A header alone is stored in `nameText`, a text in `chunkText` (src/graph/dialect.ts).
    const field = nameOnly ? { nameText: text, chunkText: null } : { chunkText: text, nameText: null };
    const old = byText.get(text)?.shift();
    if (!old) {
      write.rows.push({ props: { ...props, ...field }, vector: [] });
      continue;
    }
    // A chunk of the layout before names had a field of their own moves its text; others keep theirs untouched.
    if (old.nameOnly !== nameOnly) Object.assign(props, field);
    // A carried field the node no longer has is removed (null), one it has is set.
    for (const k of old.keys) if (carried.has(k) && !(want.carry && k in want.carry)) props[k] = null;
    write.kept.push({ id: old.id, props });
  }
  const kept = new Set(write.kept.map((k) => k.id));
  write.stale = stored.filter((c) => !kept.has(c.id)).map((c) => c.id);
  return write;
}
