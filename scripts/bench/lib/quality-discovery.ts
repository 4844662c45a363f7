/**
 * Discovery beside text in `npm run bench:quality` (issue 37): the same queries against the
 * index of the Pathway text alone (`INDEX_DISCOVER=false`, the bench's setting before) and the
 * index the service builds by default (discovery on, every WikiPathways label), printed side by
 * side, with the chunks each index holds per label and the queries that one index answers at
 * rank 1 and the other does not, with what took their place.
 */
import type { Driver } from 'neo4j-driver';
import type { SourceNode } from '../../../src/contract/search.js';
import { chunkLabel, quoteName } from '../../../src/graph/dialect/names.js';
import type { TextPlan } from '../../../src/graph/text/text-plan.js';
import { fmt } from '../bench-common.js';

/** recall@1/5/10 and MRR (over the first 10) of one query set in one search variant. */
export interface SetScores {
  r1: number;
  r5: number;
  r10: number;
  mrr: number;
}

/** Where one query's first relevant node came, and what the search put first. */
export interface QueryOutcome {
  text: string;
  /** 1-based rank of the first relevant node; 0 when none is in the results. */
  rank: number;
  /** The first hit: display name, labels and score. */
  top?: { name: string; labels: string[]; score: number };
  /** The first relevant hit's score, when found. */
  relevantScore?: number;
}

/** One index's measurements: scores by set and variant, outcomes by set for the default variant. */
export interface ModeResult {
  mode: 'off' | 'on';
  index: string;
  chunks: number;
  /** Chunks and nodes per label set of the source node (`Pathway`, `Metabolite`, …). */
  perLabel: { labels: string; nodes: number; chunks: number; headerOnly: number }[];
  scores: Record<string, Record<string, SetScores>>;
  /** Per set and variant, each query's outcome. */
  outcomes: Record<string, Record<string, QueryOutcome[]>>;
  /** The variant the flips are listed for: the service's default (hybrid at `HYBRID_ALPHA`). */
  defaultVariant: string;
}

/** Scores and per-query outcomes of `hits` lists against each query's relevant node ids. */
export function score(
  queries: readonly { text: string; relevant: Set<number> }[],
  hits: readonly SourceNode[][],
): { scores: SetScores; outcomes: QueryOutcome[] } {
  const at = [0, 0, 0];
  let mrr = 0;
  const outcomes = queries.map((q, i): QueryOutcome => {
    const list = hits[i] ?? [];
    const rank = list.findIndex((h) => q.relevant.has(h.dbId)) + 1;
    if (rank) {
      mrr += 1 / rank;
      [1, 5, 10].forEach((k, j) => (at[j]! += rank <= k ? 1 : 0));
    }
    const first = list[0];
    return {
      text: q.text,
      rank,
      top: first && { name: first.displayName, labels: first.labels, score: first.score },
      relevantScore: rank ? list[rank - 1]!.score : undefined,
    };
  });
  const n = Math.max(1, queries.length);
  return { scores: { r1: at[0]! / n, r5: at[1]! / n, r10: at[2]! / n, mrr: mrr / n }, outcomes };
}

/**
 * Chunks of index `index` per label set of their source nodes; `headerOnly` counts chunks that
 * are a header line alone (a node with a name and no other text).
 */
export async function chunksPerLabel(driver: Driver, database: string, index: string): Promise<ModeResult['perLabel']> {
  const { records } = await driver.executeQuery(
    `MATCH (c:${quoteName(chunkLabel(index))})
     WITH c.nodeId AS id, count(*) AS chunks, sum(CASE WHEN coalesce(c.chunkText CONTAINS '\\n', false) THEN 0 ELSE 1 END) AS headerOnly
     MATCH (n) WHERE elementId(n) = id
     RETURN labels(n) AS labels, count(n) AS nodes, sum(chunks) AS chunks, sum(headerOnly) AS headerOnly
     ORDER BY chunks DESC`,
    {},
    { database, routing: 'READ' },
  );
  return records.map((r) => ({
    labels: (r.get('labels') as string[]).join(', '),
    nodes: Number(r.get('nodes')),
    chunks: Number(r.get('chunks')),
    headerOnly: Number(r.get('headerOnly')),
  }));
}

/** The plan's labels in one line each: source, name and body properties. */
export function describePlan(plan: TextPlan): string[] {
  return plan.labels.map((l) => {
    const parts = [`${l.label} (${fmt(l.nodes)} nodes): ${l.source}`];
    if (l.name.length) parts.push(`name ${l.name.join(' + ')}`);
    if (l.body.length) parts.push(`text ${l.body.join(', ')}`);
    if (l.skipped.length) parts.push(`skipped ${l.skipped.map((s) => `${s.property} (${s.reason})`).join(', ')}`);
    return `  ${parts.join('; ')}`;
  });
}

/** The side-by-side table: each set and variant, off beside on, recall@1, recall@5 and MRR. */
export function printSideBySide(off: ModeResult, on: ModeResult): void {
  console.log('\ndiscovery off (Pathway text alone) beside on (the service default):');
  console.log('| set | mode | R@1 off | R@1 on | R@5 off | R@5 on | MRR off | MRR on | on ≥ off |');
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---|');
  for (const [set, byVariant] of Object.entries(off.scores)) {
    for (const [variant, a] of Object.entries(byVariant)) {
      const b = on.scores[set]?.[variant];
      if (!b) continue;
      const ok = b.r1 >= a.r1 && b.r5 >= a.r5 && b.mrr >= a.mrr ? 'yes' : 'NO';
      const cells = [a.r1, b.r1, a.r5, b.r5, a.mrr, b.mrr].map((x) => fmt(x, 3));
      console.log(`| ${set} | ${variant} | ${cells.join(' | ')} | ${ok} |`);
    }
  }
  for (const m of [off, on]) {
    console.log(`\nchunks of ${m.index} (discovery ${m.mode}): ${fmt(m.chunks)}`);
    console.log('| labels | nodes | chunks | header-only chunks |');
    console.log('|---|---:|---:|---:|');
    for (const l of m.perLabel) console.log(`| ${l.labels} | ${fmt(l.nodes)} | ${fmt(l.chunks)} | ${fmt(l.headerOnly)} |`);
  }
}

/**
 * How many queries each variant answers at rank 1 with discovery off and not on (and the
 * reverse); for the default variant, up to `limit` of them per set and direction, with the hit
 * that came first instead.
 */
export function printFlips(off: ModeResult, on: ModeResult, limit: number): void {
  const tops = new Map<string, number>();
  const variant = on.defaultVariant;
  for (const [set, byVariant] of Object.entries(off.outcomes)) {
    /** Variant `v`'s outcomes, off and on, query by query. */
    const outcomesOf = (v: string) => ({ a: byVariant[v] ?? [], b: on.outcomes[set]?.[v] ?? [] });
    const lostIn = (v: string) => {
      const { a, b } = outcomesOf(v);
      return {
        lost: a.flatMap((x, i) => (x.rank === 1 && b[i]?.rank !== 1 ? [[x, b[i]!] as const] : [])),
        won: a.flatMap((x, i) => (x.rank !== 1 && b[i]?.rank === 1 ? [[x, b[i]!] as const] : [])),
      };
    };
    const perVariant = Object.keys(byVariant).map((v) => {
      const { lost, won } = lostIn(v);
      return `${v} −${lost.length} +${won.length}`;
    });
    const { lost, won } = lostIn(variant);
    console.log(`\n${set}: rank 1 lost and gained with discovery on: ${perVariant.join(', ')}`);
    for (const [, b] of lost) {
      const key = b.top?.labels.join(', ') ?? 'nothing';
      tops.set(key, (tops.get(key) ?? 0) + 1);
    }
    for (const [a, b] of lost.slice(0, limit)) {
      const top = b.top ? `"${b.top.name}" (${b.top.labels.join(', ')}) ${fmt(b.top.score, 3)}` : 'nothing';
      console.log(`  - "${a.text}": on rank ${b.rank || '>10'} (${fmt(b.relevantScore ?? 0, 3)}), first ${top}`);
    }
    for (const [a, b] of won.slice(0, limit)) console.log(`  + "${a.text}": off rank ${a.rank || '>10'}, on rank ${b.rank}`);
    // Below rank 1 too (recall@5 and MRR move there): the default variant's queries ranked lower with discovery on.
    const { a, b } = outcomesOf(variant);
    const rankOf = (r: number) => r || 11;
    const worse = a.flatMap((x, i) => (b[i] && rankOf(b[i].rank) > rankOf(x.rank) ? [[x, b[i]] as const] : []));
    const better = a.filter((x, i) => b[i] && rankOf(b[i].rank) < rankOf(x.rank)).length;
    console.log(`  ${variant}: ${worse.length} ranked lower with discovery on, ${better} higher`);
    for (const [x, y] of worse.slice(0, limit)) {
      const top = y.top ? `"${y.top.name}" (${y.top.labels.join(', ')})` : 'nothing';
      console.log(`  v "${x.text}": rank ${x.rank || '>10'} → ${y.rank || '>10'}, first ${top}`);
    }
  }
  console.log(`\n${variant}: what came first instead, over all sets: ${[...tops].map(([k, n]) => `${k} ${n}`).join(', ')}`);
}
