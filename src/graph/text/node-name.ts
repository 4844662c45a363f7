/**
 * The name a node is shown by, everywhere: the chunks' header, search results, their neighbours,
 * `/graph/node` and the nodes of a query's result. One rule, evaluated here: the database only
 * returns a node's candidate properties (src/graph/dialect/node-cypher.ts `nameFieldsOf`), because the rule
 * written out in Cypher makes every query that names nodes several times slower to plan
 * (docs/benchmarks.md, "Names picked in JS: the planning cost").
 *
 * Order: the plan's name for a label of the node (src/graph/text/text-plan.ts `planNames`) when all
 * its keys hold names; then the rule's candidates (src/graph/text/text-rules.ts `nameCandidates`)
 * over the keys that hold names, without its weaker steps when the plan found that a label of the
 * node has no name (an Order's `shipName` repeats its customer's); for display only, then the
 * label's own identifier (`Order 10248`), then `Label #dbId`.
 */
import neo4j from 'neo4j-driver';
import { dropControls } from '../../lib/invisible.js';
import { joinName, NAME_CHARS, NAME_LEAD_CHARS, nameCandidates, nameValue, norm } from './text-rules.js';

/** A plan's name for one label (`keys` empty: the plan found that the label has no name). */
export interface PlanName {
  label: string;
  keys: readonly string[];
}

/**
 * A node's candidate name properties as `[key, value]` pairs: strings (the database sends at
 * most {@link NAME_FIELD_CHARS} characters of each) and whole numbers (a driver integer, a
 * bigint, or a JS number that is an integer); other values name nothing.
 */
export type NameFields = ReadonlyArray<readonly [string, unknown]>;

/** Characters of a string the database sends for a name field: enough to judge it (`nameValue`) and to take it. */
export const NAME_FIELD_CHARS = NAME_CHARS + NAME_LEAD_CHARS;

/** A whole number as its digits, or null: driver integers, bigints, integral JS numbers. */
function wholeNumber(value: unknown): string | null {
  if (typeof value === 'bigint') return String(value);
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value).toString() : null;
  return neo4j.isInt(value) ? value.toString() : null;
}

/** The value of `key` when it is `label`'s own identifier (`orderID` on Order): a whole number or a name. */
function ownId(label: string, key: string, value: unknown): string | null {
  const m = /^(.+?)_?(id|ID|Id)$/.exec(key);
  if (!m || norm(m[1]!).length < 3 || !norm(label).startsWith(norm(m[1]!))) return null;
  return wholeNumber(value) ?? nameValue(value);
}

/**
 * The name of a node labelled `labels` with candidate fields `fields` under the plan's names
 * `names` (`[]`: the rule alone), or '' when nothing names it: the chunks' header.
 */
export function nodeName(names: readonly PlanName[], labels: readonly string[], fields: NameFields): string {
  const values = new Map<string, string>();
  for (const [k, v] of fields) {
    const name = nameValue(v);
    if (name !== null && !values.has(k)) values.set(k, v as string);
  }
  const join = (keys: readonly string[]) => joinName(keys.map((k) => values.get(k))) ?? '';
  for (const e of names) {
    if (e.keys.length && labels.includes(e.label) && e.keys.every((k) => values.has(k))) return join(e.keys);
  }
  const unnamed = names.some((e) => !e.keys.length && labels.includes(e.label));
  const [keys] = nameCandidates(labels, [...values.keys()], { strongOnly: unnamed });
  return keys ? join(keys) : '';
}

/** A label as part of a name: its controls dropped as a name's are (text-rules.ts `nameValue`). */
const labelText = (label: string | undefined) => dropControls(label ?? '').trim() || 'Node';

/**
 * The name a node is shown by: {@link nodeName}, else its label and own identifier (`Order
 * 10248`; labels in order, keys alphabetically), else its first label and `dbId` (`Order #42`).
 * Never empty, and never holds a control character (NUL, a right-to-left override).
 */
export function displayName(names: readonly PlanName[], labels: readonly string[], fields: NameFields, dbId: unknown): string {
  const name = nodeName(names, labels, fields);
  if (name) return name;
  const sorted = [...fields].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (const label of labels) {
    for (const [key, value] of sorted) {
      const id = ownId(label, key, value);
      if (id !== null) return `${labelText(label)} ${id}`;
    }
  }
  return `${labelText(labels[0])} #${wholeNumber(dbId) ?? String(dbId)}`;
}

/** Every key `names` name nodes by, once each: the database sends these besides the rule's keys (`$nameKeys` of dialect/node-cypher.ts `nameFieldsOf`). */
export function nameKeys(names: readonly PlanName[]): string[] {
  return [...new Set(names.flatMap((e) => e.keys))];
}
