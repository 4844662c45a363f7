/**
 * The agent's six schema tools: the graph overview (the skeleton), node labels, relationship
 * types, a label's properties, the patterns a relationship type connects, and sample nodes.
 * They let the model learn the graph's shape before it writes Cypher. Index data is hidden by
 * the introspection functions they call. Names are data: lines write them as Cypher does,
 * quoted where they must be, and JSON escapes their invisible characters (src/lib/shown-name.ts).
 */
import { z } from 'zod';
import { isIndexLabel } from '../graph/dialect/names.js';
import { shownJson, shownName } from '../lib/shown-name.js';
import {
  formatPattern,
  graphCounts,
  labelProperties,
  relationshipProperties,
  sampleNodes,
  typePatterns,
  type PropertyInfo,
} from '../graph/shape/schema.js';
import { categoryLike } from '../graph/shape/skeleton-view.js';
import { defineTool, ToolError, type AgentTool, type ToolContext } from './tools.js';

/** Most labels or types listed by one call. */
const LIST_CAP = 300;

const labelArg = z.string().min(1).describe('A node label exactly as get_node_labels lists it, without the leading colon, e.g. "Person".');

async function requireLabel(ctx: ToolContext, label: string): Promise<number> {
  const { labels } = await graphCounts(ctx.graph, ctx.database, { timeoutMs: ctx.limits.timeoutMs });
  const hit = labels.find((l) => l.label === label);
  if (hit) return hit.count;
  if (isIndexLabel(label)) throw new ToolError(`"${label}" holds vector index data; it is not part of the graph`);
  const near = labels.filter((l) => l.label.toLowerCase().includes(label.toLowerCase().replace(/^:/, ''))).slice(0, 10);
  const hint = near.length ? `did you mean ${near.map((l) => shownName(l.label)).join(', ')}?` : 'call get_node_labels for the list';
  throw new ToolError(`no label "${label}" in graph "${ctx.database}" (labels are case-sensitive); ${hint}`);
}

/** One row per property; `holds` says what a string property's values are when they are numbers, dates or booleans as text. */
const propertyRows = (props: PropertyInfo[]) =>
  props.map((p) => ({
    name: p.name,
    types: p.types,
    ...(p.kind ? { holds: `${p.kind === 'integer' ? 'integers' : `${p.kind}s`} as strings` } : {}),
    filled: `${Math.round(p.fill * 100)}%`,
    example: p.example,
    ...(categoryLike(p) ? { values: p.values } : {}),
  }));

const overview = defineTool({
  name: 'get_graph_overview',
  description:
    'Overview of the whole graph: node labels with counts and their properties (most used first, numbers or dates stored as strings marked, common values of categories), and relationship patterns (:A)-[:TYPE {properties}]->(:B) with counts, largest first, bounded in size. ' +
    'The system prompt may already contain it; call this when it is missing or with refresh=true after you suspect it is outdated.',
  schema: z.object({
    refresh: z.boolean().default(false).describe('Recompute from the database instead of using the cached overview.'),
  }),
  async run({ refresh }, ctx) {
    const text = refresh ? await ctx.skeleton.refresh(ctx.database) : ((await ctx.skeleton.current(ctx.database, 30_000)) ?? '');
    if (!text) throw new ToolError('the graph overview could not be computed; the graph database may be unavailable');
    return { text, summary: text.split('\n')[0] };
  },
});

const nodeLabels = defineTool({
  name: 'get_node_labels',
  description:
    'All node labels of the graph with their node counts, largest first. Use the exact spelling in Cypher (labels are case-sensitive).',
  schema: z.object({}),
  async run(_args, ctx) {
    const { labels } = await graphCounts(ctx.graph, ctx.database, { timeoutMs: ctx.limits.timeoutMs });
    const shown = labels.slice(0, LIST_CAP);
    const more = labels.length > shown.length ? `\n(${labels.length - shown.length} more labels not shown)` : '';
    return { text: shownJson(shown) + more, summary: `${labels.length} labels: ${shown.map((l) => shownName(l.label)).join(', ')}` };
  },
});

const edgeTypes = defineTool({
  name: 'get_edge_types',
  description:
    'All relationship (edge) types of the graph with their counts, largest first. Call get_relationship_patterns to see which labels a type connects and in which direction.',
  schema: z.object({}),
  async run(_args, ctx) {
    const { types } = await graphCounts(ctx.graph, ctx.database, { timeoutMs: ctx.limits.timeoutMs });
    const shown = types.slice(0, LIST_CAP);
    const more = types.length > shown.length ? `\n(${types.length - shown.length} more types not shown)` : '';
    const names = shown.map((t) => shownName(t.type)).join(', ');
    return { text: shownJson(shown) + more, summary: `${types.length} relationship types: ${names}` };
  },
});

const labelProps = defineTool({
  name: 'get_label_properties',
  description:
    'Properties of nodes with one label, from a sample of up to 200 nodes: name, value types, how often it is filled, and an example value. ' +
    'Use it before filtering or returning properties in Cypher, to get names and types right.',
  schema: z.object({ label: labelArg }),
  async run({ label }, ctx) {
    const count = await requireLabel(ctx, label);
    const { sampled, properties } = await labelProperties(ctx.graph, ctx.database, label, { timeoutMs: ctx.limits.timeoutMs });
    const text = shownJson({ label, nodes: count, sampled, properties: propertyRows(properties) });
    const names = properties.map((p) => shownName(p.name)).join(', ');
    return { text, summary: `${shownName(label)}: ${properties.length} properties (${names})` };
  },
});

const patterns = defineTool({
  name: 'get_relationship_patterns',
  description:
    'Which node labels each relationship type connects, as (:From)-[:TYPE]->(:To) with counts (~ marks counts estimated from a sample), plus the properties of the relationships when a type is given. ' +
    'Use it to write MATCH patterns with the right direction.',
  schema: z.object({
    type: z.string().min(1).optional().describe('One relationship type, e.g. "ACTED_IN"; omit for the patterns of all types.'),
  }),
  async run({ type }, ctx) {
    const opts = { timeoutMs: ctx.limits.timeoutMs };
    const { types } = await graphCounts(ctx.graph, ctx.database, opts);
    const chosen = type ? types.filter((t) => t.type === type) : types.slice(0, 60);
    if (type && !chosen.length) {
      throw new ToolError(
        `no relationship type "${type}" in graph "${ctx.database}"; known types: ${
          types
            .slice(0, 30)
            .map((t) => shownName(t.type))
            .join(', ') || '(none)'
        }`,
      );
    }
    const lines: string[] = [];
    for (const t of chosen) {
      for (const p of await typePatterns(ctx.graph, ctx.database, t, opts))
        lines.push(`${formatPattern(p)} ${p.estimated ? '~' : ''}${p.count}`);
    }
    let text = lines.slice(0, 200).join('\n') || '(no relationships)';
    if (lines.length > 200) text += `\n(${lines.length - 200} more patterns not shown)`;
    if (types.length > chosen.length && !type) text += `\n(${types.length - chosen.length} smaller types not shown; ask for one type)`;
    if (type) {
      const { properties } = await relationshipProperties(ctx.graph, ctx.database, type, opts);
      text += `\nProperties of :${shownName(type)}: ${properties.length ? shownJson(propertyRows(properties)) : '(none)'}`;
    }
    return { text, summary: `${lines.length} patterns: ${lines.slice(0, 5).join('; ')}` };
  },
});

const samples = defineTool({
  name: 'get_sample_nodes',
  description:
    'A few example nodes of one label with all their properties (long texts cut, vectors omitted; _id is id(n)). Use it to see what real values look like before filtering on them.',
  schema: z.object({
    label: labelArg,
    limit: z.number().int().min(1).max(10).optional().describe('How many nodes, 1 to 10 (default 3).'),
  }),
  async run({ label, limit }, ctx) {
    await requireLabel(ctx, label);
    const nodes = await sampleNodes(ctx.graph, ctx.database, label, limit ?? 3, { timeoutMs: ctx.limits.timeoutMs });
    return { text: shownJson(nodes), summary: `${nodes.length} ${shownName(label)} nodes` };
  },
});

/** The six schema tools, overview first. */
export const SCHEMA_TOOLS: readonly AgentTool[] = [overview, nodeLabels, edgeTypes, labelProps, patterns, samples];
