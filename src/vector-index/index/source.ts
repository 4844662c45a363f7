/**
 * The read side of the index build: text nodes streamed from the graph in a stable order, cut
 * into chunks and grouped into embedding batches whose boundaries depend on the chunks around
 * them, not on their position (see {@link chunkBatches}). Everything is pulled lazily, so at
 * any time only the current batch (plus the driver's fetch buffer) is in memory.
 *
 * Each chunk is indexed behind a one-line header naming its node (`Statin pathway (Pathway)`):
 * a question that names a node then matches it even when the node's own text never repeats
 * its name, in the vector and in the full-text index alike. The header is part of the chunk's
 * text in the batch key, so renaming or relabelling a node re-embeds its batch and nothing else.
 *
 * One node never stops the others (./skipped-nodes.ts): a node whose text cannot be composed or
 * chunked is left out and reported, and when a node's values make the database fail the whole
 * read (a Cypher function given a list aborts the stream), the rest is read by id in windows, a
 * failing window halved until the node that fails it is found ({@link streamTextNodes}).
 */
import type { Driver, Record as Neo4jRecord } from 'neo4j-driver';
import { isIndexLabel } from '../../graph/dialect/names.js';
import { readTextNodeRows, streamTextNodeRows, textNodeIdsAfter } from '../../graph/access/text-nodes.js';
import { type NameFields, type PlanName, displayName, nameKeys, nodeName } from '../../graph/text/node-name.js';
import { planKeys, planNames, type TextPlan } from '../../graph/text/text-plan.js';
import { cutText } from '../../lib/text.js';
import type { ChunkRef } from '../../graph/access/index-writer.js';
import { composeNodeText, type NodeFields, type TextFormat } from './node-text.js';
import { type CarryPlan, carriedValues } from './carry.js';
import { isValueError, type SkippedNodesLog } from './skipped-nodes.js';

/** A node with text to index. */
export interface TextNode {
  /** elementId. */
  nodeId: string;
  /** The body to chunk (may be empty for a node that has only a name). */
  text: string;
  /** The name in its chunks' header (may be empty). */
  displayName?: string;
  labels?: readonly string[];
  /** Filter values its chunks carry (./carry.ts); absent when the index carries none. */
  carry?: Record<string, unknown>;
  /** What its chunks are made from (src/graph/dialect/node-cypher.ts `nodeSig`), recorded on its chunk 0. */
  sig?: string[];
}

/**
 * Longest node name kept in a header, in characters. Names are short in practice; the cap keeps
 * a paragraph stored under `name` from being embedded twice. With the labels, a header stays
 * within ~40 tokens, inside the headroom every registry model has over the 256-token chunk budget
 * (512-token truncation for potion and BERT-size encoders; the local server's chunk estimate of
 * one token per 4 characters overcounts English WordPiece by about a fifth).
 */
export const HEADER_NAME_CHARS = 120;

/**
 * Longest header line, in characters: the name ({@link HEADER_NAME_CHARS}) and its labels. A node
 * with many long labels would otherwise make a header of any length; with it, a chunk's text is
 * at most this, a newline and the chunker's character bound (src/embeddings/chunking.ts).
 */
export const HEADER_CHARS = 240;

/** The header line of a node's chunks: `name (Label, Label)`, or '' when it has neither. */
export function chunkHeader(displayName = '', labels: readonly string[] = []): string {
  const cut = cutText(displayName, HEADER_NAME_CHARS);
  const shown = labels.filter((l) => !isIndexLabel(l));
  const tail = shown.length ? `(${shown.join(', ')})` : '';
  return cutText([cut, tail].filter(Boolean).join(' '), HEADER_CHARS);
}

/** One embedding batch. */
export interface ChunkBatch {
  /** Position of the batch in the build (0-based). */
  index: number;
  chunks: ChunkRef[];
  /** Source nodes fully chunked by the end of this batch (for progress). */
  nodesDone: number;
}

/**
 * The parameters of the queries that read nodes' text under `plan` (src/graph/dialect.ts
 * `hasText`), and the name keys it names nodes by (`nameFieldsOf`).
 */
export function textParams(plan: TextPlan): Record<string, unknown> {
  return { prop: plan.textProperty, textKeys: planKeys(plan), only: plan.only, nameKeys: nameKeys(planNames(plan)) };
}

/**
 * A database row's text fields, as {@link composeNodeText} reads them, named under `names`
 * (src/graph/text/text-plan.ts `planNames`): with `dbId`, by the name a result is shown by (with
 * fallbacks: src/graph/text/node-name.ts `displayName`), else by its name alone (the chunks' header).
 */
export function nodeFields(get: (key: string) => unknown, names: readonly PlanName[], dbId?: unknown): NodeFields {
  const labels = get('labels') as string[];
  const fields = get('nameFields') as NameFields;
  return {
    labels,
    text: get('text'),
    displayName: dbId === undefined ? nodeName(names, labels, fields) : displayName(names, labels, fields, dbId),
    props: get('props') as [string, unknown][],
  };
}

/** What the chunks of an index carry, and where carried properties that held a list are noted (./carry.ts). */
export interface CarryState {
  plan: CarryPlan;
  lists: Set<string>;
}

/** Node ids read per window once the single stream has failed (a failing window is halved). */
const WINDOW = 256;

/**
 * A database row of {@link streamTextNodes} as a node to index, or null when it has no text
 * under `plan`; throws when its content cannot be composed (the caller decides what to do).
 */
export function rowReader(plan: TextPlan, format?: TextFormat, carry?: CarryState): (record: Neo4jRecord) => TextNode | null {
  const names = planNames(plan);
  return (record) => {
    const fields = nodeFields((k) => record.get(k), names);
    const text = composeNodeText(plan, fields, format);
    if (!text) return null;
    const node: TextNode = { nodeId: record.get('nodeId') as string, text: text.body, displayName: text.name, labels: fields.labels };
    const sig = record.get('sig') as string[] | null;
    if (sig !== null) node.sig = sig;
    if (carry) node.carry = carriedValues(carry.plan, fields.labels, record.get('carried') as [string, unknown][], carry.lists);
    return node;
  };
}

/** The query parameters of the text-node reads: the plan's ({@link textParams}) and the carried properties. */
export const readParams = (plan: TextPlan, carry?: CarryState) => ({ ...textParams(plan), carryProps: carry?.plan.properties ?? [] });

/**
 * Streams every node with text under `plan`, in node id order, from one query: the database
 * scans and sorts once, and the driver pulls records as they are consumed (it pauses the stream
 * when its buffer passes the fetch size), so memory stays bounded however large the graph is.
 * Nodes whose planned properties hold no text are skipped. With `carry`, each node comes with
 * the filter values its chunks carry.
 *
 * A node whose row cannot be composed is added to `skipped` and left out. When a node's values
 * make the query itself fail (the stream ends with an error), the nodes after the last one read
 * are listed by id (a query that reads no value, so it cannot fail that way) and read
 * {@link WINDOW} at a time by id; a window that fails is halved until the failing node is alone,
 * and that node is skipped. One bad node costs about 2 × log2(256) = 16 small reads, and the
 * scan of ids once; the build goes on to the end in windows (each a lookup by id, no scan).
 */
export async function* streamTextNodes(
  driver: Driver,
  database: string,
  plan: TextPlan,
  format?: TextFormat,
  carry?: CarryState,
  skipped?: SkippedNodesLog,
): AsyncGenerator<TextNode> {
  const params = readParams(plan, carry);
  const read = rowReader(plan, format, carry);
  const toNode = (record: Neo4jRecord): TextNode | null => {
    try {
      return read(record);
    } catch (err) {
      if (!skipped) throw err;
      skipped.add(record.get('nodeId') as string, err);
      return null;
    }
  };
  let after = -1;
  try {
    for await (const record of streamTextNodeRows(driver, database, params)) {
      after = Number(record.get('seq'));
      const node = toNode(record);
      if (node) yield node;
    }
    return;
  } catch (err) {
    if (!skipped || !isValueError(err)) throw err;
  }
  const readWindow = async function* (window: readonly NodeRef[]) {
    for await (const record of readRowsById(driver, database, params, window, skipped)) {
      const node = toNode(record);
      if (node) yield node;
    }
  };
  let refs: NodeRef[] = [];
  for await (const ref of textNodeIdsAfter(driver, database, params, after)) {
    refs.push(ref);
    if (refs.length < WINDOW) continue;
    yield* readWindow(refs);
    refs = [];
  }
  yield* readWindow(refs);
}

/** A node to read by id: `id(n)` and its elementId. */
export interface NodeRef {
  seq: number;
  nodeId: string;
}

/**
 * The rows of {@link streamTextNodes}' query for the nodes `refs` (a lookup by id, no scan); a
 * read that fails on a node's values is halved until the node that fails it is alone, and that
 * node is added to `skipped`. Nodes that no longer have text under the plan return no row.
 */
export async function* readRowsById(
  driver: Driver,
  database: string,
  params: Record<string, unknown>,
  refs: readonly NodeRef[],
  skipped: SkippedNodesLog,
): AsyncGenerator<Neo4jRecord> {
  if (!refs.length) return;
  let records: Neo4jRecord[];
  try {
    records = await readTextNodeRows(
      driver,
      database,
      params,
      refs.map((r) => r.seq),
    );
  } catch (err) {
    if (!isValueError(err)) throw err;
    if (refs.length === 1) return skipped.add(refs[0]!.nodeId, err);
    const half = Math.ceil(refs.length / 2);
    yield* readRowsById(driver, database, params, refs.slice(0, half), skipped);
    yield* readRowsById(driver, database, params, refs.slice(half), skipped);
    return;
  }
  yield* records;
}

/** One chunk's text, and whether it is the node's header alone (stored in `nameText`). */
export interface ChunkText {
  text: string;
  nameOnly?: boolean;
}

/**
 * The texts of a node's chunks: its header, a newline, then each piece `chunk` cuts its body
 * into (just the piece for a node with no header); a node with a name and no other text (a
 * person, a category; or a text that was only blobs) is one chunk, its header alone.
 */
export function nodeChunkTexts(node: TextNode, chunk: (text: string) => string[]): ChunkText[] {
  const header = chunkHeader(node.displayName, node.labels);
  const pieces = node.text ? chunk(node.text) : [];
  if (!pieces.length) return header ? [{ text: header, nameOnly: true }] : [];
  return pieces.map((piece) =>
    header && piece ? { text: `${header}\n${piece}` } : piece ? { text: piece } : { text: header, nameOnly: true },
  );
}

/** 32-bit FNV-1a of a string: cheap, stable across runs and platforms. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Cuts each node's text with `chunk` and yields batches of about `batchSize` chunks; each
 * chunk's text is the node's header, a newline, then the piece (just the piece for a node with
 * no header). A node's chunks may span two batches.
 *
 * Boundaries are content-defined: a batch closes after a chunk whose identity (node id and
 * chunk number, not its text) hashes to 0 modulo `batchSize - min + 1`, once it holds at least
 * `min = batchSize / 4` chunks, and at `2 × batchSize` chunks in any case. With fixed-size
 * batches one inserted or deleted node shifted every later boundary, so every later batch key
 * changed and the whole index was re-embedded; here the boundaries after an edit fall where
 * they fell before, so only the batch around it (rarely two or three) changes. Hashing the
 * identity rather than the text keeps an edited or renamed node's batch boundaries in place.
 * The mean stays about `batchSize`; the bound of twice that keeps an embedding call's memory
 * bounded (embedders cut it further into their own runs).
 */
export async function* chunkBatches(
  nodes: AsyncIterable<TextNode>,
  chunk: (text: string) => string[],
  batchSize: number,
  skipped?: SkippedNodesLog,
): AsyncGenerator<ChunkBatch> {
  const min = Math.max(1, Math.floor(batchSize / 4));
  const max = Math.max(1, batchSize * 2);
  const modulus = batchSize - min + 1;
  let current: ChunkRef[] = [];
  let index = 0;
  let nodesDone = 0;
  for await (const node of nodes) {
    let texts: ChunkText[];
    try {
      texts = nodeChunkTexts(node, chunk);
    } catch (err) {
      if (!skipped) throw err;
      skipped.add(node.nodeId, err);
      nodesDone++;
      continue;
    }
    for (let i = 0; i < texts.length; i++) {
      const { text, nameOnly } = texts[i]!;
      const ref: ChunkRef = { nodeId: node.nodeId, chunk: i, text };
      if (node.carry) ref.carry = node.carry;
      if (i === 0 && node.sig !== undefined) ref.sig = node.sig;
      // A header alone is stored apart from the texts (csv-cache.ts `nameOnly`).
      if (nameOnly) ref.nameOnly = true;
      current.push(ref);
      const closes = current.length >= max || (current.length >= min && fnv1a(`${node.nodeId}#${i}`) % modulus === 0);
      if (closes) {
        // A node whose last chunk closes the batch counts as done in it.
        const done = i === texts.length - 1 ? nodesDone + 1 : nodesDone;
        yield { index: index++, chunks: current, nodesDone: done };
        current = [];
      }
    }
    nodesDone++;
  }
  if (current.length) yield { index, chunks: current, nodesDone };
}
