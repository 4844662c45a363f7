/**
 * The graph skeleton: a compact text overview of a graph (labels with counts and their
 * properties in order of use, value kinds and common values, relationship patterns with counts
 * and their types' properties) for the agent's system prompt, its overview tool and the MCP
 * schema resource. It is bounded in characters whatever the schema's size: labels and patterns
 * are listed largest first, and what does not fit is summarised in one line each. Vector
 * index data is never part of it. {@link createSkeletonCache} computes it at start-up without
 * blocking and refreshes it when it gets old.
 */
import type { GraphStore } from '../access/driver.js';
import {
  formatPattern,
  graphCounts,
  labelProperties,
  propertyKeys,
  relationshipProperties as typeProperties,
  typePatterns,
  type LabelCount,
  type Pattern,
  type PropertyInfo,
  type TypeEnds,
} from './schema.js';
import { shownJson, shownName } from '../../lib/shown-name.js';
import { inPool } from '../../lib/pool.js';
import { DETAIL_LEVELS, orderProperties, propertyBlock } from './skeleton-view.js';

/** The raw material of a skeleton. */
export interface SkeletonData {
  database: string;
  labels: LabelCount[];
  patterns: Pattern[];
  relationshipCount: number;
  /** Every relationship type in use, most common first. */
  types: string[];
  /** Start and end labels of every type (count store); absent in hand-made data. */
  ends?: Map<string, TypeEnds>;
  /** Every property key the database knows (`db.propertyKeys()`), index internals left out. */
  propertyKeys: string[];
  /** Main properties of the largest labels (others were not sampled). */
  properties: Map<string, PropertyInfo[]>;
  /** Properties of the most common relationship types (others were not sampled); absent in hand-made data. */
  relationshipProperties?: Map<string, PropertyInfo[]>;
  /** Label → the properties `vector_search` finds its nodes by (the search index's text plan); absent when unknown. */
  searchable?: Map<string, string[]>;
}

/** Options of {@link computeSkeleton}. */
export interface SkeletonOptions {
  /** Keeps only labels (and patterns between them) for which this is true, e.g. a test's own labels. */
  labelFilter?: (label: string) => boolean;
  /** Labels whose properties are sampled (largest first; default 40). */
  detailedLabels?: number;
  /** Relationship types whose patterns are sampled (largest first; default 60). */
  detailedTypes?: number;
  timeoutMs?: number;
  /** The properties the search index reads per label, when an index has recorded them (src/vector-index/index/record.ts). */
  searchable?: (database: string) => Promise<Map<string, string[]> | null>;
}

/** Upper bound of {@link formatSkeleton}'s output, default 4,000 characters (~1,000 tokens). */
export const DEFAULT_SKELETON_CHARS = 4_000;

/** Reads given at once by {@link computeSkeleton}. */
const POOL = 4;

/** Reads counts, patterns and the main properties of a graph. */
export async function computeSkeleton(graph: GraphStore, database: string, opts: SkeletonOptions = {}): Promise<SkeletonData> {
  const keep = opts.labelFilter ?? (() => true);
  const counts = await graphCounts(graph, database, opts);
  const labels = counts.labels.filter((l) => keep(l.label));
  const patterns: Pattern[] = [];
  for (const type of counts.types.slice(0, opts.detailedTypes ?? 60)) {
    for (const p of await typePatterns(graph, database, type, opts)) {
      const ends = [...(p.fromLabels ?? p.from.split(':')), ...(p.toLabels ?? p.to.split(':'))];
      if (ends.every((l) => !l || keep(l))) {
        if (!opts.labelFilter || p.from || p.to) patterns.push(p);
      }
    }
  }
  patterns.sort((a, b) => b.count - a.count);
  // Property samples are small reads, each mostly a round trip: a few at a time.
  const labelSamples = await inPool(
    labels.slice(0, opts.detailedLabels ?? 40),
    POOL,
    async (l) => [l.label, (await labelProperties(graph, database, l.label, opts)).properties] as const,
  );
  const properties = new Map<string, PropertyInfo[]>(labelSamples);
  const sampledTypes = [...new Set(patterns.map((p) => p.type))].slice(0, opts.detailedTypes ?? 60);
  const typeSamples = await inPool(
    sampledTypes,
    POOL,
    async (t) => [t, (await typeProperties(graph, database, t, opts)).properties] as const,
  );
  const relationshipProperties = new Map<string, PropertyInfo[]>(typeSamples);
  const relationshipCount = opts.labelFilter ? patterns.reduce((n, p) => n + p.count, 0) : counts.types.reduce((n, t) => n + t.count, 0);
  const types = counts.types.map((t) => t.type);
  const keys = await propertyKeys(graph, database, opts);
  // The overview is useful without it: an index not yet built (or unreadable) just leaves it out.
  const searchable = (await opts.searchable?.(database).catch(() => null)) ?? undefined;
  return {
    database,
    labels,
    patterns,
    relationshipCount,
    types,
    ends: counts.ends,
    propertyKeys: keys,
    properties,
    relationshipProperties,
    searchable,
  };
}

const num = (n: number) => n.toLocaleString('en-US');

/** A "… and N more" line naming as many items as fit in `max` characters. */
function tailLine(prefix: string, names: string[], max: number): string {
  let line = prefix;
  for (let i = 0; i < names.length; i++) {
    const next = `${i ? ', ' : ''}${names[i]}`;
    if (line.length + next.length + 6 > max) return `${line}${i ? ', …' : '…'}`;
    line += next;
  }
  return line;
}

/**
 * One line per item at the richest detail level the budget allows: first the richest level at
 * which every item fits, then the first (largest) items upgraded one by one while what they add
 * still fits. When not even the barest lines all fit (some 130 labels of 30 characters in the
 * default 4,000), the largest items get the middle level and the rest are left to the tail line.
 */
function fitLines(lineAt: Array<(level: number) => string>, budget: number): string[] {
  const size = (lines: string[]) => lines.reduce((n, l) => n + l.length + 1, 0);
  // When not even the barest lines all fit, the largest items keep a middle level and the rest go to the tail line.
  let base = DETAIL_LEVELS.findIndex((_, level) => size(lineAt.map((at) => at(level))) <= budget);
  if (base < 0) base = MIDDLE;
  const lines: string[] = [];
  let used = 0;
  for (const at of lineAt) {
    const line = at(base);
    if (used + line.length + 1 > budget) break;
    lines.push(line);
    used += line.length + 1;
  }
  for (let i = 0; i < lines.length && base > 0; i++) {
    for (let level = 0; level < base; level++) {
      const richer = lineAt[i]!(level);
      if (used + richer.length - lines[i]!.length <= budget) {
        used += richer.length - lines[i]!.length;
        lines[i] = richer;
        break;
      }
    }
  }
  return lines;
}

/** The level of detail of the lines that fit when not all do (6 properties with their kinds). */
const MIDDLE = 2;

/** The legend line for value kinds, when some property has one. */
const KINDS_LEGEND =
  'STRING of numbers/dates/booleans: the values are text; convert before comparing (toFloat(x.p) > 10, date(left(x.p, 10)), x.p = "1"); "e.g." lists common values.';

/**
 * Formats skeleton data as text of at most `maxChars` characters: a header, one line per label
 * (largest first, its properties in order of use: src/graph/shape/skeleton-view.ts), one line per
 * pattern (a type's properties on its first pattern), and a summary line for what did not fit.
 * Names are data: each is written as Cypher needs it, quoted and escaped where it must be
 * (src/lib/shown-name.ts), so none can end its line or pass for an instruction.
 * Patterns take what they need up to 40 % of the budget; labels the rest, each at the richest
 * level of detail that fits (src/graph/shape/skeleton-view.ts). Scale: movies + Northwind (9 labels,
 * 12 patterns) fit whole in 3,400 characters. 200 labels and 400 patterns (test/unit/graph/shape/skeleton):
 * in the default 4,000, the 27–34 largest labels with up to 6 properties each and the others
 * named in one tail line; every label is named from `SKELETON_MAX_CHARS` 8,000 (short names)
 * to 16,000 (23-character names), the largest with their properties.
 */
export function formatSkeleton(data: SkeletonData, maxChars = DEFAULT_SKELETON_CHARS): string {
  const header = `Graph ${shownJson(data.database)}: ${data.labels.length} labels, ${data.patterns.length} relationship patterns, ${num(data.relationshipCount)} relationships.`;
  const TAIL = 240;
  const budget = maxChars - header.length - 2 * TAIL - 64 - KINDS_LEGEND.length;

  const typeProps = new Map([...(data.relationshipProperties ?? [])].map(([t, props]) => [t, orderProperties(props)]));
  const described = new Set<string>();
  const patternAt = data.patterns.map((p) => {
    const first = !described.has(p.type);
    described.add(p.type);
    const props = first ? (typeProps.get(p.type) ?? []) : [];
    const count = `${p.estimated ? '~' : ''}${num(p.count)}`;
    return (level: number) => `- ${formatPattern(p, propertyBlock(props, DETAIL_LEVELS[Math.min(level, 2)]!))} ${count}`;
  });
  const patternNeed = patternAt.reduce((n, at) => n + at(0).length + 1, 0);
  const labelBudget = budget - Math.min(patternNeed, Math.floor(budget * 0.4));
  const labelAt = data.labels.map((l) => {
    const found = data.searchable?.get(l.label);
    const ordered = orderProperties(data.properties.get(l.label), found);
    const search = found?.length ? ` search: ${found.map((k) => shownName(k)).join(', ')}` : '';
    const name = shownName(l.label);
    return (level: number) => `- :${name} (${num(l.count)})${propertyBlock(ordered, DETAIL_LEVELS[level]!)}${level < 3 ? search : ''}`;
  });
  const labelLines = fitLines(labelAt, labelBudget);
  const used = labelLines.reduce((n, l) => n + l.length + 1, 0);
  const patternLines = fitLines(patternAt, budget - used);

  const kinds = [...data.properties.values(), ...(data.relationshipProperties?.values() ?? [])].some((ps) => ps.some((p) => p.kind));
  const legend = data.searchable ? ' search: properties vector_search matches' : '';
  const out = [header, `Node labels (node count) {properties, most used first; +N more}${legend}:`, ...labelLines];
  const restLabels = data.labels.slice(labelLines.length);
  if (restLabels.length) {
    const nodes = restLabels.reduce((n, l) => n + l.count, 0);
    out.push(
      tailLine(
        `- … ${restLabels.length} more labels (${num(nodes)} nodes): `,
        restLabels.map((l) => shownName(l.label)),
        TAIL,
      ),
    );
  }
  out.push('Relationship patterns (count; ~ = estimated from a sample) {properties of the type}:', ...patternLines);
  const restPatterns = data.patterns.slice(patternLines.length);
  if (restPatterns.length) {
    const types = [...new Set(restPatterns.map((p) => shownName(p.type)))];
    out.push(tailLine(`- … ${restPatterns.length} more patterns of types: `, types, TAIL));
  }
  if (!data.patterns.length) out.push('- (none)');
  if (kinds) out.push(KINDS_LEGEND);
  const text = out.join('\n');
  return text.length <= maxChars ? text : `${text.slice(0, maxChars - 2)}\n…`;
}
