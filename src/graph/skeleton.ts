/**
 * The graph skeleton: a compact text overview of a graph (labels with counts and main
 * properties, relationship patterns with counts) for the agent's system prompt and its
 * overview tool. It is bounded in characters whatever the schema's size: labels and patterns
 * are listed largest first, and what does not fit is summarised in one line each. Vector
 * index data is never part of it. {@link createSkeletonCache} computes it at start-up without
 * blocking and refreshes it when it gets old.
 */
import type { GraphStore } from './driver.js';
import {
  formatPattern,
  graphCounts,
  labelProperties,
  propertyKeys,
  typePatterns,
  type LabelCount,
  type Pattern,
  type PropertyInfo,
  type TypeEnds,
} from './schema.js';

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
  /** The properties the search index reads per label, when an index has recorded them (src/vector-index/index-meta.ts). */
  searchable?: (database: string) => Promise<Map<string, string[]> | null>;
}

/** Upper bound of {@link formatSkeleton}'s output, default 4,000 characters (~1,000 tokens). */
export const DEFAULT_SKELETON_CHARS = 4_000;

/** Reads counts, patterns and the main properties of a graph. */
export async function computeSkeleton(graph: GraphStore, database: string, opts: SkeletonOptions = {}): Promise<SkeletonData> {
  const keep = opts.labelFilter ?? (() => true);
  const counts = await graphCounts(graph, database, opts);
  const labels = counts.labels.filter((l) => keep(l.label));
  const patterns: Pattern[] = [];
  for (const type of counts.types.slice(0, opts.detailedTypes ?? 60)) {
    for (const p of await typePatterns(graph, database, type, opts)) {
      if (p.from.split(':').every((l) => !l || keep(l)) && p.to.split(':').every((l) => !l || keep(l))) {
        if (!opts.labelFilter || p.from || p.to) patterns.push(p);
      }
    }
  }
  patterns.sort((a, b) => b.count - a.count);
  const properties = new Map<string, PropertyInfo[]>();
  for (const l of labels.slice(0, opts.detailedLabels ?? 40)) {
    properties.set(l.label, (await labelProperties(graph, database, l.label, opts)).properties);
  }
  const relationshipCount = opts.labelFilter ? patterns.reduce((n, p) => n + p.count, 0) : counts.types.reduce((n, t) => n + t.count, 0);
  const types = counts.types.map((t) => t.type);
  const keys = await propertyKeys(graph, database, opts);
  // The overview is useful without it: an index not yet built (or unreadable) just leaves it out.
  const searchable = (await opts.searchable?.(database).catch(() => null)) ?? undefined;
  return { database, labels, patterns, relationshipCount, types, ends: counts.ends, propertyKeys: keys, properties, searchable };
}

const num = (n: number) => n.toLocaleString('en-US');

function propertyList(props: PropertyInfo[] | undefined): string {
  if (!props?.length) return '';
  const main = props.filter((p) => p.fill >= 0.2 && !p.types.some((t) => t.startsWith('VECTOR'))).slice(0, 6);
  return main.length ? ` {${main.map((p) => `${p.name}: ${p.types.join('|')}`).join(', ')}}` : '';
}

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
 * Formats skeleton data as text of at most `maxChars` characters: a header, one line per label
 * (largest first, with main properties), one line per pattern, and a summary line for what
 * did not fit.
 */
export function formatSkeleton(data: SkeletonData, maxChars = DEFAULT_SKELETON_CHARS): string {
  const header = `Graph "${data.database}": ${data.labels.length} labels, ${data.patterns.length} relationship patterns, ${num(data.relationshipCount)} relationships.`;
  const TAIL = 240;
  const budget = maxChars - header.length - 2 * TAIL - 64;
  // Labels get 55% of the budget up front; what they leave unused goes to the patterns.
  const labelBudget = Math.floor(budget * 0.55);

  const labelLines: string[] = [];
  let used = 0;
  for (const l of data.labels) {
    const found = data.searchable?.get(l.label);
    const line = `- :${l.label} (${num(l.count)})${propertyList(data.properties.get(l.label))}${found?.length ? ` search: ${found.join(', ')}` : ''}`;
    if (used + line.length + 1 > labelBudget) break;
    labelLines.push(line);
    used += line.length + 1;
  }
  const patternBudget = budget - used;
  const patternLines: string[] = [];
  used = 0;
  for (const p of data.patterns) {
    const line = `- ${formatPattern(p)} ${p.estimated ? '~' : ''}${num(p.count)}`;
    if (used + line.length + 1 > patternBudget) break;
    patternLines.push(line);
    used += line.length + 1;
  }

  const legend = data.searchable ? ' search: properties vector_search matches' : '';
  const out = [header, `Node labels (node count) {main properties}${legend}:`, ...labelLines];
  const restLabels = data.labels.slice(labelLines.length);
  if (restLabels.length) {
    const nodes = restLabels.reduce((n, l) => n + l.count, 0);
    out.push(
      tailLine(
        `- … ${restLabels.length} more labels (${num(nodes)} nodes): `,
        restLabels.map((l) => l.label),
        TAIL,
      ),
    );
  }
  out.push('Relationship patterns (count; ~ = estimated from a sample):', ...patternLines);
  const restPatterns = data.patterns.slice(patternLines.length);
  if (restPatterns.length) {
    const types = [...new Set(restPatterns.map((p) => p.type))];
    out.push(tailLine(`- … ${restPatterns.length} more patterns of types: `, types, TAIL));
  }
  if (!data.patterns.length) out.push('- (none)');
  const text = out.join('\n');
  return text.length <= maxChars ? text : `${text.slice(0, maxChars - 2)}\n…`;
}
