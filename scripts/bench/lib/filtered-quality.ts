/**
 * The filtered part of `npm run bench:quality`: each query once without a filter and once with
 * `labels: ["Pathway"]` and its source pathway's species, both judged by the relevant pathways
 * of that species. recall@5 and MRR, and the search latency of both with query vectors cached.
 * Queries whose species holds less than {@link SELECTIVE_SHARE} of the subset are also reported
 * apart: there the filter keeps few candidates and the search must widen its lists.
 */
import type { SourceNode } from '../../../src/contract/search.js';
import type { SearchFilterFields } from '../../../src/vector-index/search/filter.js';
import { fmt } from '../bench-common.js';
import { pct } from './stats.js';

/** A query of bench:quality. */
export interface FilterQuery {
  text: string;
  relevant: Set<number>;
  source: number;
}

/** Species shares below this make a query "selective". */
export const SELECTIVE_SHARE = 0.1;

/** What the filtered measurement needs. */
export interface FilteredQualityOptions {
  variants: readonly { name: string }[];
  search(variant: number, text: string, filter?: SearchFilterFields): Promise<SourceNode[]>;
  sets: Record<string, FilterQuery[]>;
  /** Species by pathway dbId (the subset). */
  species: ReadonlyMap<number, string>;
  /** The species property the filter names. */
  property: string;
  latencyQueries: number;
}

interface Scores {
  r5: number;
  mrr: number;
  selective: number;
  selectiveN: number;
  p50: number;
  p99: number;
}

/** Prints one table per query set: each mode unfiltered and filtered. */
export async function runFilteredQuality(o: FilteredQualityOptions): Promise<void> {
  const counts = new Map<string, number>();
  for (const s of o.species.values()) counts.set(s, (counts.get(s) ?? 0) + 1);
  const share = (s: string) => (counts.get(s) ?? 0) / o.species.size;
  const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 4);
  console.log(
    `\nfiltered: labels ["Pathway"] + ${o.property} = <species>; species of the subset: ${top.map(([s, n]) => `${s} ${n}`).join(', ')}, … (${counts.size} in all)`,
  );

  const measure = async (i: number, queries: FilterQuery[], filtered: boolean): Promise<Scores> => {
    let [r5, mrr, selective, selectiveN] = [0, 0, 0, 0];
    const filterOf = (sp: string): SearchFilterFields | undefined =>
      filtered ? { labels: ['Pathway'], where: { property: o.property, op: '=', value: sp } } : undefined;
    for (const q of queries) {
      const sp = o.species.get(q.source)!;
      const relevant = new Set([...q.relevant].filter((id) => o.species.get(id) === sp));
      const hits = await o.search(i, q.text, filterOf(sp));
      const rank = hits.findIndex((h) => relevant.has(h.dbId)) + 1;
      const hit5 = rank > 0 && rank <= 5 ? 1 : 0;
      r5 += hit5;
      mrr += rank ? 1 / rank : 0;
      if (share(sp) < SELECTIVE_SHARE) [selective, selectiveN] = [selective + hit5, selectiveN + 1];
    }
    const times: number[] = [];
    for (const q of queries.slice(0, o.latencyQueries)) {
      const s = performance.now();
      await o.search(i, q.text, filterOf(o.species.get(q.source)!));
      times.push(performance.now() - s);
    }
    times.sort((a, b) => a - b);
    const n = queries.length;
    return {
      r5: r5 / n,
      mrr: mrr / n,
      selective: selective / Math.max(1, selectiveN),
      selectiveN,
      p50: pct(times, 50),
      p99: pct(times, 99),
    };
  };

  for (const [setName, queries] of Object.entries(o.sets)) {
    console.log(`\n${setName} (${queries.length} queries), judged by the relevant pathways of the query's species:`);
    console.log('| mode | filter | recall@5 | recall@5, selective | MRR | p50 ms | p99 ms |');
    console.log('|---|---|---|---|---|---|---|');
    for (let i = 0; i < o.variants.length; i++) {
      const plain = await measure(i, queries, false);
      const filtered = await measure(i, queries, true);
      for (const [label, r] of [
        ['none', plain],
        ['species', filtered],
      ] as const) {
        console.log(
          `| ${o.variants[i]!.name} | ${label} | ${fmt(r.r5, 3)} | ${fmt(r.selective, 3)} (${r.selectiveN}) | ${fmt(r.mrr, 3)} | ${fmt(r.p50, 1)} | ${fmt(r.p99, 1)} |`,
        );
      }
      const ok = filtered.r5 >= plain.r5 && filtered.p50 <= 1.5 * plain.p50;
      console.log(
        `|  | filtered/unfiltered | ${fmt(filtered.r5 - plain.r5, 3)} |  |  | ×${fmt(filtered.p50 / plain.p50, 2)} ${ok ? '(ok)' : '(MISSED)'} |  |`,
      );
    }
  }
}
