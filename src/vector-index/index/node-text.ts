/**
 * A node's text as the index embeds it and search returns it, from the text plan
 * (src/graph/text/text-plan.ts): a name for the chunks' header and a body. One function serves the
 * build, the sync and the search, so what a search returns as `text` is what was indexed.
 *
 * Which plan a node follows: an explicitly chosen label of the node first; else its
 * `TEXT_PROPERTY` when it has one (the seed's behaviour; a list of strings is joined as lists
 * are everywhere, {@link asText}); else its discovered labels.
 */
import type { TextPlan } from '../../graph/text/text-plan.js';
import { isPlaceholder, joinName, nameValue } from '../../graph/text/text-rules.js';

/**
 * How property values are written into the body: `values`, one value per line; `keyed`, one
 * `property name: value` line each (names as words: `quantity per unit: 10 boxes`).
 * docs/benchmarks.md ("Graphs as people have them") has the measurement behind the default.
 */
export type TextFormat = 'values' | 'keyed';

/** The format a build uses unless told otherwise. */
export const DEFAULT_TEXT_FORMAT: TextFormat = 'values';

/** What the database returns for a node: its labels, `TEXT_PROPERTY`, the display name by rule, and the planned properties' values. */
export interface NodeFields {
  labels: readonly string[];
  text: unknown;
  displayName: string;
  /** `[property, value]` for every property the plan reads for the node's labels. */
  props: ReadonlyArray<readonly [string, unknown]>;
}

/** A node's composed text: `name` for the header, `body` to chunk and to return as `text`. */
export interface NodeText {
  name: string;
  body: string;
}

/** `quantityPerUnit`, `quantity_per_unit` → `quantity per unit`. */
export function keyAsWords(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase()
    .trim();
}

/**
 * A value as text: strings trimmed, lists of strings joined; anything else is not text, and
 * neither is a placeholder for a missing value (`NULL`, `N/A`, `-`: a list drops those items).
 */
const asText = (v: unknown): string => {
  if (typeof v === 'string') return isPlaceholder(v) ? '' : v.trim();
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) {
    return v
      .filter((x) => !isPlaceholder(x))
      .map((x) => x.trim())
      .join(', ');
  }
  return '';
};

/**
 * The text of one node under `plan`, or null when the node has none (no planned property
 * holds a string; such a node is not indexed).
 */
export function composeNodeText(plan: TextPlan, node: NodeFields, format: TextFormat = DEFAULT_TEXT_FORMAT): NodeText | null {
  const entries = plan.labels.filter((l) => node.labels.includes(l.label));
  const explicit = entries.filter((l) => l.source === 'explicit');
  // TEXT_PROPERTY as the seed had it; a list of strings joined as any list is ('' for none: not text).
  const own = typeof node.text === 'string' ? node.text : Array.isArray(node.text) ? asText(node.text) || null : null;
  if (!explicit.length && own !== null) return { name: node.displayName, body: own };
  const use = explicit.length ? explicit : entries.filter((l) => l.source === 'discovered');
  if (!use.length) return null;
  const raw = new Map(node.props.map(([k, v]) => [k, v]));
  const values = new Map(node.props.map(([k, v]) => [k, asText(v)]));
  // The plan's name when its values are names (strings, not placeholders); else the rule's
  // (src/graph/text/node-name.ts `nodeName`, which passes over what cannot be a name), so one odd node is
  // named all the same.
  let name = '';
  for (const l of use) {
    name = joinName(l.name.map((k) => raw.get(k))) ?? '';
    if (name) break;
  }
  if (!name) name = nameValue(node.displayName) ?? '';
  const lines: string[] = [];
  const seen = new Set<string>([name]);
  // A name key holding a list of strings names nothing, but its values are still text.
  const nameLists = use.flatMap((l) => l.name.filter((k) => Array.isArray(raw.get(k))));
  for (const l of use) {
    for (const k of [...(l === use[0] ? nameLists : []), ...l.body]) {
      const v = values.get(k);
      if (!v || seen.has(v)) continue;
      seen.add(v);
      lines.push(format === 'keyed' ? `${keyAsWords(k)}: ${v}` : v);
    }
  }
  const body = lines.join('\n');
  return name || body ? { name, body } : null;
}

/** The `text` a search result carries: the body, or the name for a node that has only a name. */
export function resultText(t: NodeText): string {
  return t.body || t.name;
}
