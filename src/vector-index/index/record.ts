/**
 * What an index is, as its build recorded it beside the chunks (src/graph/access/index-meta-node.ts):
 * the text plan it followed, the settings that shape its chunks, and its format version. The sync follows
 * the same plan and refuses to run when the settings changed since (a new chunking re-cuts every
 * node: that is a build). `/status` shows the plan of the configured index from here.
 *
 * The format version says what an index can do. A record of an older format is brought forward here, as
 * it is read (and an index with no record at all is described by {@link searchView}), so no
 * other module asks how old an index is: they read {@link IndexMeta}'s fields.
 */
import type { Driver } from 'neo4j-driver';
import { listIndexMetaNodes, readIndexMetaNode, writeIndexMetaNode } from '../../graph/access/index-meta-node.js';
import type { TextChoice, TextPlan } from '../../graph/text/text-plan.js';
import type { TextFormat } from './node-text.js';
import type { CarryPlan } from './carry.js';

/** The settings a build ran with. */
export interface IndexSettings {
  model: string;
  chunkTokens: number;
  chunkOverlap: number;
  batchSize: number;
  format: TextFormat;
  discover: boolean;
  choice: TextChoice;
  /** Filter values the chunks carry and the vector index declares (./carry.ts); absent or null: none (5.26, or none chosen). */
  carry?: CarryPlan | null;
  /** The index's format version, {@link INDEX_VERSION} when it was built (a sync keeps it). */
  version: number;
}

/**
 * The format version a build writes now.
 * - 1: the first recorded one: every chunk's vector in the texts' vector index.
 * - 2: a name chunk's vector in `nameEmbedding`, in a vector index of its own
 *   (src/graph/dialect/names.ts `NAME_VECTOR`), which a search asks beside the texts'.
 * An index of version 1 is searched and synced as it is until its next build writes version 2.
 */
export const INDEX_VERSION = 2;

/** An index's record. */
export interface IndexMeta {
  plan: TextPlan;
  settings: IndexSettings;
  /** ISO date-time of the last build. */
  builtAt: string;
  /** Name chunks' vectors are in the names' vector index (version 2 on). */
  namesIndex: boolean;
}

/** Settings as stored by any version, brought to the current shape. */
function settingsForward(stored: Omit<IndexSettings, 'version'> & { version?: number; namesIndex?: boolean }): IndexSettings {
  // Version 1 had no `version` field; version 2's first builds said `namesIndex: true` instead.
  const { namesIndex, version, ...rest } = stored;
  return { ...rest, version: version ?? (namesIndex ? 2 : 1) };
}

/** The record of `index`, or null for an index built before records were kept (or never built). */
export async function readIndexMeta(driver: Driver, database: string, index: string): Promise<IndexMeta | null> {
  const r = await readIndexMetaNode(driver, database, index);
  if (!r) return null;
  const settings = settingsForward(JSON.parse(r.settings));
  return { plan: JSON.parse(r.plan) as TextPlan, settings, builtAt: r.builtAt, namesIndex: settings.version >= 2 };
}

/** What a search needs of an index: its text plan, where name vectors are, the values its chunks carry. */
export interface SearchView {
  plan: TextPlan;
  namesIndex: boolean;
  carry: CarryPlan | null;
}

/** The search's view of `meta`; an index with no record reads `textProperty` alone, as such an index was built. */
export function searchView(meta: IndexMeta | null, textProperty: string): SearchView {
  if (!meta) return { plan: { textProperty, only: null, labels: [] }, namesIndex: false, carry: null };
  return { plan: meta.plan, namesIndex: meta.namesIndex, carry: meta.settings.carry ?? null };
}

/** Records written by this process, per `database/index`: a searcher here sees a new plan at once, others within their cache's lifetime. */
const written = new Map<string, number>();

/** How many times this process recorded `index` of `database` (part of the searcher's cache key). */
export function metaWrites(database: string, index: string): number {
  return written.get(`${database}/${index}`) ?? 0;
}

/** Records the plan and settings of `index` (after a build, or a sync that planned new labels). */
export async function writeIndexMeta(
  driver: Driver,
  database: string,
  index: string,
  plan: TextPlan,
  settings: IndexSettings,
): Promise<void> {
  await writeIndexMetaNode(driver, database, index, JSON.stringify(plan), JSON.stringify(settings));
  written.set(`${database}/${index}`, metaWrites(database, index) + 1);
}

/** The indexes of a graph that have a record, with their settings. */
export async function listIndexMeta(driver: Driver, database: string): Promise<{ index: string; settings: IndexSettings }[]> {
  const records = await listIndexMetaNodes(driver, database);
  return records.map((r) => ({ index: r.index, settings: settingsForward(JSON.parse(r.settings)) }));
}

/** Why chunks cut now would differ from the recorded build's, or null when they would not. */
export function chunkingChange(
  recorded: IndexSettings,
  now: Pick<IndexSettings, 'model' | 'chunkTokens' | 'chunkOverlap' | 'batchSize'>,
): string | null {
  const changes: string[] = [];
  if (recorded.model !== now.model) changes.push(`model ${recorded.model} → ${now.model}`);
  if (recorded.chunkTokens !== now.chunkTokens) changes.push(`CHUNK_TOKENS ${recorded.chunkTokens} → ${now.chunkTokens}`);
  if (recorded.chunkOverlap !== now.chunkOverlap) changes.push(`CHUNK_OVERLAP_TOKENS ${recorded.chunkOverlap} → ${now.chunkOverlap}`);
  if (recorded.batchSize !== now.batchSize) changes.push(`INDEX_BATCH_SIZE ${recorded.batchSize} → ${now.batchSize}`);
  return changes.length ? changes.join(', ') : null;
}

/** Label → the properties the recorded plan of `index` reads (name first), or null before its first recorded build. */
export async function searchableProperties(driver: Driver, database: string, index: string): Promise<Map<string, string[]> | null> {
  const meta = await readIndexMeta(driver, database, index);
  if (!meta) return null;
  return new Map(meta.plan.labels.filter((l) => l.source !== 'none').map((l) => [l.label, [...l.name, ...l.body]]));
}
