/**
 * Loads the WikiPathways extract (`../shared/datasets/wikipathways/`, CC0; see the README
 * beside it) into Neo4j, streaming both files in batches:
 *
 *   (:Pathway {wpid, dbId, displayName, <text property>: description, lastEdited})
 *   (:Species {name, displayName})  (:OntologyTerm {id, displayName})
 *   (:GeneProduct|:Protein|:Metabolite|:Rna|:DataNode {identifier, displayName})
 *   (:Pathway)-[:IN_SPECIES]->(:Species), -[:ANNOTATED_WITH]->(:OntologyTerm),
 *   -[:HAS_PARTICIPANT]->(entity)
 *
 * `dbId` of a pathway is the number of its WPID (WP254 → 254). Every node carries
 * `dataset: 'wikipathways'` so that `--drop` removes exactly what was loaded. Idempotent (MERGE).
 *
 * Usage: node scripts/run-ts.mjs scripts/load-wikipathways.ts [--dir <path>] [--text-property text] [--drop]
 * Connection from GRAPHDB_URL / GRAPHDB_PORT / GRAPHDB_USER / GRAPHDB_PASSWORD / GRAPHDB_GRAPH.
 */
import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import neo4j, { type Driver } from 'neo4j-driver';
import { loadConfig } from '../src/config.js';
import { createGraphStore } from '../src/graph/access/driver.js';

/** Default location: `../shared/datasets/wikipathways` (scripts run from the repository root). */
export const DEFAULT_DIR = resolve(process.cwd(), '../shared/datasets/wikipathways');
const ENTITY_LABELS = new Set(['GeneProduct', 'Protein', 'Metabolite', 'Rna']);
const LABELS = ['Pathway', 'Species', 'OntologyTerm', 'DataNode', ...ENTITY_LABELS];

/** Options of {@link loadWikiPathways}. */
export interface LoadOptions {
  dir?: string;
  database?: string;
  /** Property the pathway description is stored under (default `text`). */
  textProperty?: string;
  batchSize?: number;
}

/** Counts of what was read. */
export interface LoadResult {
  pathways: number;
  withText: number;
  participants: number;
  skippedRows: number;
}

async function* lines(path: string): AsyncGenerator<string> {
  const rl = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  for await (const line of rl) if (line.trim()) yield line;
}

async function* batches<T>(items: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let b: T[] = [];
  for await (const x of items) {
    b.push(x);
    if (b.length === size) {
      yield b;
      b = [];
    }
  }
  if (b.length) yield b;
}

/** Loads both files; safe to run again (MERGE on `wpid`, `name`, `id`, `identifier`). */
export async function loadWikiPathways(driver: Driver, opts: LoadOptions = {}): Promise<LoadResult> {
  const dir = opts.dir ?? DEFAULT_DIR;
  const database = opts.database ?? 'neo4j';
  const prop = opts.textProperty ?? 'text';
  const size = opts.batchSize ?? 1000;
  const run = (q: string, params: Record<string, unknown> = {}) => driver.executeQuery(q, params, { database });
  const keyOf: Record<string, string> = { Pathway: 'wpid', Species: 'name', OntologyTerm: 'id' };
  for (const label of LABELS) {
    const key = keyOf[label] ?? 'identifier';
    await run(`CREATE INDEX wikipathways_${label}_${key} IF NOT EXISTS FOR (n:${label}) ON (n.${key})`);
  }
  await run('CALL db.awaitIndexes(300)');

  const result: LoadResult = { pathways: 0, withText: 0, participants: 0, skippedRows: 0 };
  const pathways = (async function* () {
    for await (const line of lines(`${dir}/pathways.jsonl`)) yield JSON.parse(line) as Record<string, unknown>;
  })();
  for await (const rows of batches(pathways, size)) {
    const params = rows.map((p) => ({
      wpid: String(p.wpid),
      dbId: neo4j.int(Number(String(p.wpid).replace(/\D/g, ''))),
      title: String(p.title ?? p.wpid),
      description: typeof p.description === 'string' && p.description.trim() ? p.description : null,
      organisms: (p.organisms as string[] | undefined) ?? [],
      ontology: (p.ontology_ids as string[] | undefined) ?? [],
      lastEdited: p.last_edited ?? null,
    }));
    await run(
      `UNWIND $rows AS r
       MERGE (p:Pathway {wpid: r.wpid})
       SET p.dbId = r.dbId, p.displayName = r.title, p.lastEdited = r.lastEdited, p.dataset = 'wikipathways',
           p[$prop] = r.description
       FOREACH (o IN r.organisms |
         MERGE (s:Species {name: o}) SET s.displayName = o, s.dataset = 'wikipathways'
         MERGE (p)-[:IN_SPECIES]->(s))
       FOREACH (t IN r.ontology |
         MERGE (o:OntologyTerm {id: t}) SET o.displayName = t, o.dataset = 'wikipathways'
         MERGE (p)-[:ANNOTATED_WITH]->(o))`,
      { rows: params, prop },
    );
    result.pathways += rows.length;
    result.withText += params.filter((p) => p.description).length;
  }

  const participants = (async function* () {
    let header = true;
    for await (const line of lines(`${dir}/datanodes.tsv`)) {
      if (header) {
        header = false;
        continue;
      }
      const [wpid, label, type, identifier] = line.split('\t');
      // A few rows of the extract are shifted (a name in the type column) or lack an identifier.
      if (!wpid || !identifier || !type || !/^[A-Za-z]+$/.test(type)) {
        result.skippedRows++;
        continue;
      }
      yield { wpid, label: label ?? identifier, type: ENTITY_LABELS.has(type) ? type : 'DataNode', identifier };
    }
  })();
  for await (const rows of batches(participants, size * 4)) {
    const byType = new Map<string, typeof rows>();
    for (const r of rows) {
      const group = byType.get(r.type) ?? [];
      group.push(r);
      byType.set(r.type, group);
    }
    for (const [type, group] of byType) {
      await run(
        `UNWIND $rows AS r
         MERGE (e:${type} {identifier: r.identifier})
         ON CREATE SET e.displayName = r.label, e.dataset = 'wikipathways'
         WITH e, r MATCH (p:Pathway {wpid: r.wpid})
         MERGE (p)-[:HAS_PARTICIPANT]->(e)`,
        { rows: group },
      );
    }
    result.participants += rows.length;
  }
  return result;
}

/** Deletes every node the loader created (and its relationships) and the loader's indexes. */
export async function dropWikiPathways(driver: Driver, database = 'neo4j'): Promise<void> {
  const session = driver.session({ database });
  try {
    for (const label of LABELS) {
      await session.run(`MATCH (n:${label} {dataset: 'wikipathways'}) CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS`);
    }
  } finally {
    await session.close();
  }
  const keyOf: Record<string, string> = { Pathway: 'wpid', Species: 'name', OntologyTerm: 'id' };
  for (const label of LABELS) {
    await driver.executeQuery(`DROP INDEX wikipathways_${label}_${keyOf[label] ?? 'identifier'} IF EXISTS`, {}, { database });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { dir: { type: 'string' }, 'text-property': { type: 'string' }, drop: { type: 'boolean' } },
  });
  const config = loadConfig(process.env);
  const graph = createGraphStore(config);
  try {
    if (values.drop) {
      await dropWikiPathways(graph.driver, config.GRAPHDB_GRAPH);
      console.log('wikipathways: removed');
      return;
    }
    const started = performance.now();
    const r = await loadWikiPathways(graph.driver, {
      dir: values.dir,
      database: config.GRAPHDB_GRAPH,
      textProperty: values['text-property'] ?? config.TEXT_PROPERTY,
    });
    console.log(
      `wikipathways: ${r.pathways} pathways (${r.withText} with text), ${r.participants} participant rows ` +
        `(${r.skippedRows} malformed rows skipped) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await graph.close();
  }
}

if (/load-wikipathways\.ts$/.test(process.argv[1] ?? '')) {
  await main().catch((err) => {
    console.error(`wikipathways: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  });
}
