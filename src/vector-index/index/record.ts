/**
 * What a build records beside its index (src/graph/access/index-meta-node.ts): the text plan
 * it followed and the settings that shape its chunks. The sync follows the same plan and refuses
 * to run when the settings changed since (a new chunking re-cuts every node: that is a build).
 * `/status` shows the plan of the configured index from here.
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
  /** Filter values the chunks carry and the vector index declares (./carry.ts); absent or null: none (5.26, or built before). */
  carry?: CarryPlan | null;
  /**
   * Name chunks' vectors are in `nameEmbedding`, in the names' vector index (src/graph/dialect.ts
   * `NAME_VECTOR`); absent: built before, names in the texts' index until the next build.
   */
  namesIndex?: boolean;
}

/** An index's record. */
export interface IndexMeta {
  plan: TextPlan;
  settings: IndexSettings;
  /** ISO date-time of the last build. */
  builtAt: string;
}

/** The record of `index`, or null for an index built before records were kept (or never built). */
export async function readIndexMeta(driver: Driver, database: string, index: string): Promise<IndexMeta | null> {
  const r = await readIndexMetaNode(driver, database, index);
  if (!r) return null;
  return { plan: JSON.parse(r.plan) as TextPlan, settings: JSON.parse(r.settings) as IndexSettings, builtAt: r.builtAt };
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
  return records.map((r) => ({ index: r.index, settings: JSON.parse(r.settings) as IndexSettings }));
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
