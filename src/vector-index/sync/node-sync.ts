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
import { createChunkStore, type NodeWrite, type StoredChunk } from '../../graph/access/chunk-store.js';
import { readTextPlan, type TextPlan } from '../../graph/text/text-plan.js';
import { DomainError } from '../../errors.js';
import { acquireBuildLock } from '../../store/build-lock.js';
import neo4j from 'neo4j-driver';
import { carryFields, MAX_CARRIED_CHARS } from '../index/carry.js';
import { type IndexBuildDeps, validateBuildTarget } from '../index/target.js';
import { chunkingChange, readIndexMeta, writeIndexMeta } from '../index/record.js';
import { toList } from '../../graph/access/index-writer.js';
import { type CarryState, type ChunkText, type NodeRef, nodeChunkTexts, readParams, readRowsById, rowReader } from '../index/source.js';
import { createSkippedNodes, SKIPPED_SHOWN, type SkippedNodes } from '../index/skipped-nodes.js';
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
}

/**
 * Brings index `opts.indexName` in step with the graph node by node.
 * @throws DomainError 409 `build-running` (the lock is held), 409 `sync-needs-build` (no record
 * of a build, or the model chunking changed since), 503 database, store or model server down.
 */
export async function syncIndexNodes(deps: IndexBuildDeps, opts: NodeSyncOptions): Promise<NodeSyncReport> {
  const { config } = deps;
  const { graph, model, indexName: index } = opts;
  await validateBuildTarget(deps, graph, model);
  const driver = deps.graph.driver;
  const lock = await acquireBuildLock(deps.kv, index, config.INDEX_LOCK_TTL_MS);
  try {
    const recorded = await readIndexMeta(driver, graph, index);
    if (!recorded) {
      throw new DomainError(
        'conflict',
        'sync-needs-build',
        `vector index "${index}" has no record of its build; build it once to keep it in step`,
      );
    }
    const { settings } = recorded;
    const change = chunkingChange(settings, {
      model,
      chunkTokens: config.CHUNK_TOKENS,
      chunkOverlap: config.CHUNK_OVERLAP_TOKENS,
      batchSize: settings.batchSize,
    });
    if (change)
      throw new DomainError('conflict', 'sync-needs-build', `the chunking of vector index "${index}" changed (${change}); build it again`);
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
    const embedder = await deps.embedders.get(model);
    const dims = embedder.dimensions;
    const params = readParams(plan, carry);
    const read = rowReader(plan, settings.format, carry);
    const fields = new Set(carryFields(settings.carry));
    const skipped = createSkippedNodes((node) => {
      if (skipped.state.count <= SKIPPED_SHOWN) deps.log.warn('node left out of the index: its content failed', { index, ...node });
    });
    const report: NodeSyncReport = {
      nodesChanged: 0,
      nodesDeleted: 0,
      chunksEmbedded: 0,
      chunksWritten: 0,
      chunksKept: 0,
      chunksDeleted: 0,
      skipped: skipped.state,
      plan,
    };

    const syncWindow = async (refs: NodeRef[]) => {
      if (!refs.length) return;
      lock.assertHeld();
      report.nodesChanged += refs.length;
      const wanted = new Map<string, { sig: string[]; texts: ChunkText[]; carry?: Record<string, unknown> }>();
      for await (const record of readRowsById(driver, graph, params, refs, skipped)) {
        const nodeId = record.get('nodeId') as string;
        try {
          const node = read(record);
          const texts = node ? nodeChunkTexts(node, (t) => embedder.chunk(t)) : [];
          wanted.set(nodeId, { sig: record.get('sig') as string[], texts, carry: node?.carry });
        } catch (err) {
          skipped.add(nodeId, err);
        }
      }
      if (!wanted.size) return;
      const stored = await store.chunksOf([...wanted.keys()]);
      const writes: NodeWrite[] = [];
      const staleBytes = new Map<string, number>();
      for (const [nodeId, want] of wanted) {
        const old = stored.get(nodeId) ?? [];
        for (const c of old) staleBytes.set(c.id, storedBytes(c, dims));
        const w = planNode(nodeId, want, old, fields, namesApart);
        report.chunksKept += w.kept.length;
        writes.push(w);
      }
      const groups = splitWrites(writes, { dims, stale: (id) => staleBytes.get(id) ?? 0 }, opts.writeBytes);
      // The next transaction's chunks are embedded while this one is written (a large node is many).
      let embedded = embedGroup(groups[0] ?? []);
      for (const [i, group] of groups.entries()) {
        await embedded;
        embedded = embedGroup(groups[i + 1] ?? []);
        // Awaited in the next round; when this write ends the pass first, its failure is moot.
        embedded.catch(() => undefined);
        await writeGroup(group);
      }
    };

    /** Nodes a write failed on: left out, and the rest of their parts with them. */
    const failed = new Set<string>();
    /** Embeds the new chunks of `group` (one transaction's writes) that have no vector yet. */
    const embedGroup = async (group: readonly NodeWrite[]) => {
      const rows = group.filter((w) => !failed.has(w.nodeId)).flatMap((w) => w.rows.filter((r) => !r.vector.length));
      if (!rows.length) return;
      const vectors = await embedder.embed(rows.map((r) => (r.props.chunkText ?? r.props.nameText) as string));
      rows.forEach((r, i) => {
        r.vector = toList(vectors[i]!);
      });
      report.chunksEmbedded += rows.length;
    };
    /**
     * Writes `group` in one transaction. A write its content fails ({@link isWriteContentError})
     * is halved until the node that fails it is alone; that node is left out and reported, and
     * tried again by the next pass.
     */
    const writeGroup = async (group: NodeWrite[]): Promise<void> => {
      const live = group.filter((w) => !failed.has(w.nodeId));
      if (!live.length) return;
      await embedGroup(live);
      lock.assertHeld();
      try {
        report.chunksDeleted += await store.writeNodes(live, settings.namesIndex === true);
        report.chunksWritten += live.reduce((n, w) => n + w.rows.length, 0);
      } catch (err) {
        if (!isWriteContentError(err)) throw err;
        if (live.length === 1) {
          failed.add(live[0]!.nodeId);
          return skipped.add(live[0]!.nodeId, err);
        }
        const half = Math.ceil(live.length / 2);
        await writeGroup(live.slice(0, half));
        await writeGroup(live.slice(half));
      }
    };

    let refs: NodeRef[] = [];
    const gone: string[] = [];
    const inWindow = new Set<string>();
    for await (const { nodeId, seq } of store.changes(params)) {
      if (seq === null) {
        gone.push(nodeId);
        continue;
      }
      // A node with two chunk 0 (left by an interrupted write) is listed twice: once is enough.
      if (inWindow.has(nodeId)) continue;
      inWindow.add(nodeId);
      refs.push({ seq, nodeId });
      if (refs.length < WINDOW) continue;
      await syncWindow(refs);
      refs = [];
      inWindow.clear();
    }
    await syncWindow(refs);
    for (let i = 0; i < gone.length; i += DELETE_SLICE) {
      lock.assertHeld();
      report.chunksDeleted += await store.deleteNodes(gone.slice(i, i + DELETE_SLICE));
    }
    report.nodesDeleted = gone.length;

    // Which carried properties hold lists now: those seen here, and those recorded that changed nodes may have given up.
    const changed = report.nodesChanged + report.nodesDeleted > 0;
    const lists =
      carry && changed && carry.lists.size
        ? await store.unindexable(params, [...carry.lists], MAX_CARRIED_CHARS)
        : [...(carry?.lists ?? [])].sort();
    // The record changes only when new labels were planned or the carried lists changed.
    const labelsOf = (p: TextPlan) => JSON.stringify(p.labels.map((l) => l.label));
    if (labelsOf(recorded.plan) !== labelsOf(plan) || (settings.carry && JSON.stringify(settings.carry.lists) !== JSON.stringify(lists))) {
      await writeIndexMeta(driver, graph, index, plan, { ...settings, carry: settings.carry && { ...settings.carry, lists } });
    }
    return report;
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
