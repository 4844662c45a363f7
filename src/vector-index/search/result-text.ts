/**
 * The `text` of a search hit, bounded so that no node can make a response large: at most `SEARCH_TEXT_MAX_CHARS`
 * characters, marker included, whatever the node holds. The database already cuts each value
 * to that many characters (src/graph/dialect/node-cypher.ts `cutValue`) and says how long it was, so a 5 MB
 * description is neither read nor sent whole; here the text is composed as the index composed
 * it (../index/node-text.ts) and cut, and the marker counts what was left out in both places and names
 * `/graph/node`, where the node's properties are.
 */
import { planNames, type TextPlan } from '../../graph/text/text-plan.js';
import { boundText, codePointLength } from '../../lib/text.js';
import { nodeFields } from '../index/source.js';
import { composeNodeText, type NodeFields, resultText } from '../index/node-text.js';

/** A value as the composer joins it: a string, or a list of strings joined by ', ' (null for anything else). */
const joined = (v: unknown): string | null =>
  typeof v === 'string' ? v : Array.isArray(v) && v.every((x) => typeof x === 'string') ? v.join(', ') : null;

/**
 * Characters the database left out of the values `text` was composed from: for each value that
 * came cut (its whole size, from the query, above what arrived) and that the text holds.
 */
function omittedChars(text: string, values: ReadonlyArray<readonly [unknown, unknown]>): number {
  let omitted = 0;
  for (const [value, size] of values) {
    const s = joined(value);
    if (s === null || typeof size !== 'number') continue;
    const more = size - codePointLength(s);
    const shown = s.trim();
    if (more > 0 && shown && text.includes(shown)) omitted += more;
  }
  return omitted;
}

/** The path of a node's details: `/graph/node?id=42`, with `graph_name` when it is not the default graph. */
export function nodePath(dbId: number, graph: string, defaultGraph: string): string {
  return graph === defaultGraph ? `/graph/node?id=${dbId}` : `/graph/node?graph_name=${encodeURIComponent(graph)}&id=${dbId}`;
}

/**
 * A search row's `text` under `plan`, at most `max` characters: `get` reads the row's columns
 * (`text`, `textSize`, `props` as `[key, value, size]`, `labels`, `nameFields`, `dbId`); `rest` is
 * where the whole node can be read, named in the marker of a cut text. `fields`: the row's
 * fields as the searcher already read them (it shows the same `displayName`), else read here.
 */
export function hitText(
  plan: TextPlan,
  get: (key: string) => unknown,
  max: number,
  rest: string,
  fields: NodeFields = nodeFields(get, planNames(plan), get('dbId')),
): string {
  const composed = composeNodeText(plan, fields);
  if (!composed) return '';
  const text = resultText(composed);
  const props = (get('props') as [string, unknown, unknown][]).map(([, v, size]) => [v, size] as const);
  const omitted = omittedChars(text, [[get('text'), get('textSize')], ...props]);
  return boundText(text, max, { omitted, rest });
}
