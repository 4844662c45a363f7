/**
 * bench:quality `--churn <rounds>` (issue 39, item 4): search quality on an index after heavy
 * churn against the same chunks freshly indexed. Each round edits `edits` pathways of the subset
 * and brings the index in step with the node-by-node sync (src/vector-index/sync/node-sync.ts); rounds
 * go in pairs, the first putting a sentence before the text (every chunk of the pathway changes:
 * the chunk boundaries move), the second putting the text back, so after an even number of
 * rounds the graph and the chunk texts are what they were, and only the indexes have churned.
 * Then the vector and full-text indexes are dropped and created again over the same chunk nodes,
 * as the build creates them (same vectors: nothing embedded), and the sets are measured once more.
 */
import neo4j from 'neo4j-driver';
import { findModel } from '../../../src/contract/models.js';
import { createIndexWriter } from '../../../src/graph/access/index-writer.js';
import { indexStatements } from '../../../src/graph/dialect/index-statements.js';
import { carryFields } from '../../../src/vector-index/index/carry.js';
import { readIndexMeta } from '../../../src/vector-index/index/record.js';
import type { IndexBuildDeps } from '../../../src/vector-index/index/target.js';
import { syncIndexNodes } from '../../../src/vector-index/sync/node-sync.js';
import { fmt } from '../bench-common.js';
import type { SetScores } from './quality-discovery.js';

/** What {@link measureChurn} needs from the bench. */
export interface ChurnRun {
  deps: IndexBuildDeps;
  database: string;
  index: string;
  model: string;
  /** The text property the subset's pathways are indexed by, and the one holding their original text. */
  prop: string;
  sourceProp: string;
  /** dbIds of the subset's pathways. */
  ids: number[];
  rounds: number;
  edits: number;
  /** Scores per set and variant of the index as it is now. */
  measure(): Promise<Record<string, Record<string, SetScores>>>;
}

/** The sentence the first round of a pair puts before a pathway's text. */
const REVISED = 'This pathway description was revised by its curators. ';

/**
 * Drops the vector (texts' and names') and full-text indexes of `index` and creates them again as its build does
 * (the index writer, with the build's settings and filter properties), then waits until both
 * are online: the same chunk nodes, freshly indexed.
 */
async function recreateIndexes(deps: IndexBuildDeps, database: string, index: string, model: string): Promise<number> {
  const t = performance.now();
  const { driver } = deps.graph;
  const { config } = deps;
  const s = indexStatements(index);
  for (const ddl of [s.dropVectorIndex, s.dropNamesIndex, s.dropFulltextIndex]) await driver.executeQuery(ddl, {}, { database });
  const meta = await readIndexMeta(driver, database, index);
  const writer = createIndexWriter({
    driver,
    database,
    indexName: index,
    dimensions: findModel(model)!.dimensions,
    hnswM: config.VECTOR_INDEX_HNSW_M,
    efConstruction: config.VECTOR_INDEX_EF_CONSTRUCTION,
    analyzer: config.FULLTEXT_ANALYZER,
    filterFields: carryFields(meta?.settings.carry),
  });
  await writer.prepare();
  await writer.awaitOnline();
  return performance.now() - t;
}

/** Runs the churn rounds, measures, recreates the indexes, measures again, and prints both side by side with the figures before. */
export async function measureChurn(run: ChurnRun): Promise<void> {
  const { deps, database, index, model, prop, sourceProp, ids, rounds, edits } = run;
  const driver = deps.graph.driver;
  console.log(`\n## churn: ${rounds} rounds of ${edits} edited pathways on ${index}, synced node by node`);
  const before = await run.measure();
  const totals = { embedded: 0, written: 0, deleted: 0, ms: 0 };
  for (let r = 0; r < rounds; r++) {
    const pair = Math.floor(r / 2);
    const slice = Array.from({ length: edits }, (_, j) => ids[(pair * edits + j) % ids.length]!);
    await driver.executeQuery(
      `UNWIND $ids AS id MATCH (p:Pathway {dataset: 'wikipathways', dbId: id})
       SET p.${prop} = CASE WHEN $revise THEN $revised + p.${sourceProp} ELSE p.${sourceProp} END`,
      { ids: slice.map((i) => neo4j.int(i)), revise: r % 2 === 0, revised: REVISED },
      { database },
    );
    const t = performance.now();
    const report = await syncIndexNodes(deps, { graph: database, model, indexName: index });
    totals.ms += performance.now() - t;
    totals.embedded += report.chunksEmbedded;
    totals.written += report.chunksWritten;
    totals.deleted += report.chunksDeleted;
  }
  console.log(
    `churn: ${fmt(totals.written)} chunk nodes written, ${fmt(totals.deleted)} deleted (${fmt(totals.embedded)} texts embedded), ` +
      `sync ${fmt(totals.ms / 1000, 1)} s over ${rounds} passes`,
  );
  const churned = await run.measure();
  const ms = await recreateIndexes(deps, database, index, model);
  console.log(`vector and full-text indexes created again over the same chunk nodes: ${fmt(ms / 1000, 1)} s`);
  const fresh = await run.measure();
  console.log(
    '\n| set | variant | R@1 before | R@1 churned | R@1 fresh | R@5 churned | R@5 fresh | MRR churned | MRR fresh | churned − fresh (MRR) |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const [set, byVariant] of Object.entries(fresh)) {
    for (const [variant, f] of Object.entries(byVariant)) {
      const b = before[set]?.[variant];
      const c = churned[set]?.[variant];
      if (!b || !c) continue;
      const cells = [b.r1, c.r1, f.r1, c.r5, f.r5, c.mrr, f.mrr, c.mrr - f.mrr].map((x) => fmt(x, 3));
      console.log(`| ${set} | ${variant} | ${cells.join(' | ')} |`);
    }
  }
}
