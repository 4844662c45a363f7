/**
 * One round of a search: the mode's query (`searchQuery` in src/graph/dialect/search-query.ts), one round
 * trip, each node's relationships read by the same query when `neighbors` > 0, and each row made
 * a source node named and worded as the index composed it.
 */
import neo4j from 'neo4j-driver';
import type { RetrievalMode, SourceNode } from '../../contract/search.js';
import type { AutoRead } from '../../graph/access/auto-read.js';
import { NEIGHBOR_SCAN, nodeContext, type RawNeighbor } from '../../graph/access/neighbors.js';
import { fulltextIndexName, namesIndexName } from '../../graph/dialect/names.js';
import { type Fusion, missingIndexKind, searchQuery } from '../../graph/dialect/search-query.js';
import { planNames } from '../../graph/text/text-plan.js';
import type { SearchView } from '../index/record.js';
import { nodeFields, textParams } from '../index/source.js';
import { queryTerms } from './fulltext-query.js';
import { type AppliedFilter, type Lists, namesCount, roundSuffices, type SearchPlan, widen } from './plan.js';
import { hitText, nodePath } from './result-text.js';

/** How hits are weighed and worded: the same for every search of one searcher. */
export interface RoundSettings {
  /** Weight of the vector scores in hybrid mode. */
  alpha: number;
  /** Weigh hits by the share of the query's words they hold (src/graph/dialect/search-query.ts TERM_SHARE, NAME_SHARE). */
  termShare: 'none' | 'names' | 'all';
  /** How hybrid fuses its lists (src/graph/dialect/search-query.ts {@link Fusion}). */
  fusion: Fusion;
  /** Most characters of a result's text. */
  textChars: number;
  /** The configured graph (its nodes' paths omit the graph's name). */
  defaultGraph: string;
}

/** One round of one search. */
export interface RoundOptions {
  read: AutoRead;
  graph: string;
  index: string;
  view: SearchView;
  /** Whether the names' vector index and full-text field are asked: the index keeps names apart and holds some. */
  names: boolean;
  mode: RetrievalMode;
  /** The user's words. */
  query: string;
  /** The Lucene query; null in vector mode. */
  q: string | null;
  vector: readonly number[] | null;
  topK: number;
  neighbors: number;
  lists: Lists;
  filter: AppliedFilter | null;
  settings: RoundSettings;
}

/** What a round found: the nodes, and how many chunks the vector index returned when it applied the filter (else null). */
export interface RoundResult {
  nodes: SourceNode[];
  chunkHits: number | null;
}

/** Runs one round. */
export async function runRound(o: RoundOptions): Promise<RoundResult> {
  const { view, filter, settings } = o;
  const inIndex = filter?.inIndex ? { index: o.index, where: filter.inIndex.cypher } : undefined;
  const cypher = searchQuery(o.mode, {
    withRels: o.neighbors > 0,
    filter: filter?.post?.cypher,
    inIndex,
    names: o.names,
    // An index that keeps names apart and holds none has texts alone.
    kinds: view.namesIndex && !o.names ? 'texts' : 'mixed',
    fusion: settings.fusion,
  });
  const records = await o.read(cypher, {
    index: o.index,
    namesIndex: namesIndexName(o.index),
    ftIndex: fulltextIndexName(o.index),
    vector: o.vector,
    q: o.mode === 'vector' ? null : o.q,
    query: o.query,
    ...filter?.post?.params,
    ...filter?.inIndex?.params,
    ...textParams(view.plan),
    // The words a hit's share is counted over; none: the scores alone.
    terms: settings.termShare === 'none' ? [] : queryTerms(o.mode !== 'vector' && o.q ? o.q : o.query),
    shareAll: settings.termShare === 'all',
    textChars: neo4j.int(settings.textChars),
    alpha: settings.alpha,
    k: neo4j.int(o.lists.k),
    kn: neo4j.int(namesCount(o.lists, o.topK, filter !== null)),
    kf: neo4j.int(o.lists.kf),
    topK: neo4j.int(o.topK),
    scan: neo4j.int(NEIGHBOR_SCAN),
  });
  const chunkHits = filter?.inIndex && records[0]?.has('chunkHits') ? Number(records[0].get('chunkHits')) : null;
  // The text a result carries is the text that was indexed for it (../index/node-text.ts), bounded
  // (./result-text.ts); nodes are named as the index names them (src/graph/text/node-name.ts).
  const names = planNames(view.plan);
  const nodes = records.map((r): SourceNode => {
    const dbId = r.get('dbId') as number;
    const get = (k: string) => r.get(k);
    // Named once: the result shows the name its text was composed with.
    const fields = nodeFields(get, names, dbId);
    const node: SourceNode = {
      dbId,
      displayName: fields.displayName,
      text: hitText(view.plan, get, settings.textChars, nodePath(dbId, o.graph, settings.defaultGraph), fields),
      score: r.get('score') as number,
      labels: fields.labels as string[],
    };
    const rels = r.has('rels') ? (r.get('rels') as RawNeighbor[]) : undefined;
    return rels ? { ...node, ...nodeContext(rels, r.get('degree'), o.neighbors, names) } : node;
  });
  return { nodes, chunkHits };
}

/** One round of `plan`, with the plan's fallback mode when the full-text index is missing. */
export async function runPlanned(o: RoundOptions, plan: SearchPlan): Promise<RoundResult> {
  try {
    return await runRound(o);
  } catch (err) {
    if (plan.fallback && o.mode === plan.mode && missingIndexKind(err) === 'fulltext') return runRound({ ...o, mode: plan.fallback });
    throw err;
  }
}

/** What a filtered search asks of its searcher: the index's size (read once, only when a round falls short), and where to remember the lists that served. */
export interface FilterRounds {
  limit(): Promise<number>;
  remember(lists: Lists): void;
}

/**
 * Rounds with longer lists while fewer than `topK` nodes pass the filter, until the lists cover
 * the index or reach its limit (./plan.ts `roundSuffices`, `widen`); the lists that sufficed are
 * remembered for the next search with this filter.
 */
export async function searchFiltered(
  o: RoundOptions,
  plan: SearchPlan,
  filter: AppliedFilter,
  rounds: FilterRounds,
): Promise<SourceNode[]> {
  let lists: Lists = plan.lists;
  let limit: number | undefined;
  for (;;) {
    const { nodes, chunkHits } = await runPlanned({ ...o, lists }, plan);
    const round = { lists, found: nodes.length, chunkHits };
    let next: Lists | null = null;
    if (!roundSuffices(filter, o.topK, round)) {
      limit ??= await rounds.limit();
      next = widen(round, o.topK, limit);
    }
    if (!next) {
      rounds.remember(lists);
      return nodes;
    }
    lists = next;
  }
}
