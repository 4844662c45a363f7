/**
 * The reference lists of `npm run bench:quality` (issue 50): BM25 over each pathway's whole text
 * (its chunks' header and the whole description, one Lucene document per pathway, not 256-token
 * chunks, no share of the query's words), and the per-set check "hybrid is at least as good as
 * the better of its own lists" that the targets are read from.
 *
 * The whole-text list is the same in both discovery settings: the pathways alone (a list with
 * the Metabolites' names in it could only do worse on these sets, whose relevant nodes are
 * pathways), so with discovery on it is the stricter reference.
 */
import type { Driver } from 'neo4j-driver';
import type { SourceNode } from '../../../src/contract/search.js';
import { toLuceneQuery } from '../../../src/vector-index/search/fulltext-query.js';
import { chunkHeader } from '../../../src/vector-index/index/source.js';
import { fmt } from '../bench-common.js';
import type { SetScores } from './quality-discovery.js';

/** The name of the reference row in the tables. */
export const WHOLE_TEXT = 'BM25 whole text';

/** The pathways' whole text, in a property and a full-text index of their own. */
const WHOLE_PROP = 'wp_quality_whole';
const WHOLE_INDEX = 'bench_quality_whole_text';

/**
 * Sets each pathway of `subset` its whole text (`<title> (Pathway)`, a newline, the text of
 * `textProp`), removes it from the others, and makes the full-text index over it with `analyzer`
 * (the service's, FULLTEXT_ANALYZER), waiting until it is online.
 */
export async function ensureWholeTextIndex(
  driver: Driver,
  database: string,
  subset: readonly { dbId: number; title: string }[],
  textProp: string,
  analyzer: string,
): Promise<void> {
  const rows = subset.map((p) => ({ id: p.dbId, header: chunkHeader(p.title, ['Pathway']) }));
  await driver.executeQuery(
    `MATCH (p:Pathway) WHERE p.${WHOLE_PROP} IS NOT NULL AND NOT p.dbId IN $ids REMOVE p.${WHOLE_PROP}`,
    { ids: rows.map((r) => r.id) },
    { database },
  );
  await driver.executeQuery(
    `UNWIND $rows AS r MATCH (p:Pathway {dataset: 'wikipathways', dbId: r.id}) SET p.${WHOLE_PROP} = r.header + '\n' + p.${textProp}`,
    { rows },
    { database },
  );
  const { records } = await driver.executeQuery(
    'SHOW FULLTEXT INDEXES YIELD name, options WHERE name = $n RETURN options.indexConfig.`fulltext.analyzer` AS analyzer',
    { n: WHOLE_INDEX },
    { database },
  );
  if (records.length && records[0]!.get('analyzer') !== analyzer) await driver.executeQuery(`DROP INDEX ${WHOLE_INDEX}`, {}, { database });
  await driver.executeQuery(
    `CREATE FULLTEXT INDEX ${WHOLE_INDEX} IF NOT EXISTS FOR (p:Pathway) ON EACH [p.${WHOLE_PROP}]
     OPTIONS {indexConfig: {\`fulltext.analyzer\`: $analyzer}}`,
    { analyzer },
    { database },
  );
  await driver.executeQuery('CALL db.awaitIndexes(300)', {}, { database });
}

/** The `topK` pathways by BM25 over their whole text for `text` (the service's Lucene query of it). */
export async function searchWholeText(driver: Driver, database: string, text: string, topK: number): Promise<SourceNode[]> {
  const q = toLuceneQuery(text);
  if (!q) return [];
  const { records } = await driver.executeQuery(
    `CALL db.index.fulltext.queryNodes('${WHOLE_INDEX}', $q, {limit: $k}) YIELD node, score
     RETURN node.dbId AS dbId, node.displayName AS name, score`,
    { q, k: topK },
    { database, routing: 'READ' },
  );
  return records.map((r) => ({
    dbId: Number(r.get('dbId')),
    displayName: String(r.get('name') ?? ''),
    labels: ['Pathway'],
    score: Number(r.get('score')),
    text: '',
  }));
}

/**
 * Per set, each hybrid variant against the better of the lists (vector, full-text, BM25 over
 * whole texts) at recall@1, recall@5 and MRR: `ok` within `slack` of the best on all three and
 * recall@5 at least `r5Goal` (the targets); prints one line per set and returns the sets
 * that fall short for the default variant `main`.
 */
export function printListCheck(
  scores: Record<string, Record<string, SetScores>>,
  main: string,
  { slack = 0.002, r5Goal = 0.99 } = {},
): string[] {
  const lists = ['vector', 'fulltext', WHOLE_TEXT];
  const short: string[] = [];
  console.log(`\nhybrid against the better of its lists (${lists.join(', ')}), within ${slack}; recall@5 goal ${r5Goal}:`);
  console.log('| set | variant | R@1 (best) | R@5 (best) | MRR (best) | ≥ best | R@5 ≥ goal |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [set, byVariant] of Object.entries(scores)) {
    const best = (k: keyof SetScores) => Math.max(...lists.map((l) => byVariant[l]?.[k] ?? 0));
    for (const [variant, s] of Object.entries(byVariant)) {
      if (!variant.startsWith('hybrid')) continue;
      const keys = ['r1', 'r5', 'mrr'] as const;
      const atLeast = keys.every((k) => s[k] >= best(k) - slack);
      const cells = keys.map((k) => `${fmt(s[k], 3)} (${fmt(best(k), 3)})`);
      console.log(`| ${set} | ${variant} | ${cells.join(' | ')} | ${atLeast ? 'yes' : 'NO'} | ${s.r5 >= r5Goal ? 'yes' : 'NO'} |`);
      if (variant === main && !(atLeast && s.r5 >= r5Goal)) short.push(set);
    }
  }
  return short;
}

/** The name of the row fusing the default hybrid list with {@link WHOLE_TEXT} (plain reciprocal rank, k 60): the figure of what a whole-text list adds. */
export const HYBRID_PLUS_WHOLE = 'hybrid ⊕ BM25 whole text (RRF)';

/** Plain reciprocal-rank fusion of `lists` (each best first) by node, `k` 60, the best `topK`. */
export function rrfFuse(lists: readonly SourceNode[][], topK: number, k = 60): SourceNode[] {
  const fused = new Map<number, SourceNode>();
  for (const list of lists) {
    list.forEach((h, i) => {
      const prev = fused.get(h.dbId);
      fused.set(h.dbId, { ...(prev ?? h), score: (prev?.score ?? 0) + 1 / (k + i + 1) });
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score).slice(0, topK);
}
