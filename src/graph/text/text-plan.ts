/**
 * The text plan of a graph: for every label, where its nodes' text comes from. A label whose
 * nodes have `TEXT_PROPERTY` (a string, or a list of strings) keeps it (`text`, the seed's behaviour); a label named in an
 * explicit choice uses the properties given (`explicit`); any other label is sampled and its
 * name and descriptive properties found by rule (`discovered`, src/graph/text/text-rules.ts); a label
 * with nothing that reads as text is left out (`none`), with every property's reason.
 *
 * Reading costs one count (from the count store) and one sample of {@link SAMPLE_NODES} nodes per
 * label, each string cut to {@link SAMPLE_CHARS} characters, so a 10 kB picture blob costs no
 * more than a short name.
 */
import neo4j, { type Driver } from 'neo4j-driver';
import type { FieldError } from '../../contract/problem.js';
import type { TextPlanBody } from '../../contract/text-plan.js';
import { DomainError } from '../../errors.js';
import { closeNamesHint } from '../../lib/close-names.js';
import { isIndexLabel, quoteName } from '../dialect/names.js';
import { chooseLabelText, splitExplicit, type PropertySample, type SkippedProperty } from './text-rules.js';

/** Nodes sampled per label. */
export const SAMPLE_NODES = 500;
/** Characters of each sampled string kept (enough to tell a blob, a URL or a date from text). */
const SAMPLE_CHARS = 300;

/** Where a label's text comes from. */
export type TextSource = 'text' | 'discovered' | 'explicit' | 'none';

/** One label's part of the plan. */
export interface LabelPlan {
  label: string;
  /** Nodes with the label when the plan was made. */
  nodes: number;
  source: TextSource;
  /** Properties naming the node in its chunks' header, joined by a space (`text`: the display name rule). */
  name: string[];
  /** Properties whose values make the node's text, in order (`text`: just `TEXT_PROPERTY`). */
  body: string[];
  /** Properties left out, and why (discovered labels). */
  skipped: SkippedProperty[];
}

/** The text of a graph, label by label. */
export interface TextPlan {
  textProperty: string;
  /** Only these labels are indexed (null: all). */
  only: string[] | null;
  /** Largest labels first. */
  labels: LabelPlan[];
}

/** What a build asks for beyond the defaults. */
export interface TextChoice {
  /** Index only nodes with one of these labels. */
  labels?: readonly string[];
  /** Label → the properties that make its text (a leading name-like property names the node). */
  properties?: Readonly<Record<string, readonly string[]>>;
}

const LABELS = 'CALL db.labels() YIELD label RETURN collect(label) AS labels';

const sampleQuery = (label: string) => `
MATCH (n:${quoteName(label)}) WITH n LIMIT $sample
WITH collect(n) AS nodes
UNWIND nodes AS n
UNWIND keys(n) AS k
WITH size(nodes) AS sampled, k, n[k] AS v
RETURN sampled, k AS key, count(*) AS present,
  [s IN collect(CASE WHEN v IS :: STRING AND trim(v) <> '' THEN left(v, $chars) END) WHERE s IS NOT NULL] AS strings,
  head(collect(CASE WHEN NOT v IS :: STRING THEN valueType(v) END)) AS otherType`;

const countQuery = (label: string) => `MATCH (n:${quoteName(label)}) RETURN count(n) AS n`;

/** A sample of one label: how many nodes were read and what their properties hold. */
async function sampleLabel(driver: Driver, database: string, label: string) {
  const session = driver.session({ database, defaultAccessMode: neo4j.session.READ });
  try {
    const count = await session.run(countQuery(label));
    const nodes = Number(count.records[0]?.get('n') ?? 0);
    const { records } = await session.run(sampleQuery(label), { sample: neo4j.int(SAMPLE_NODES), chars: neo4j.int(SAMPLE_CHARS) });
    const sampled = Number(records[0]?.get('sampled') ?? 0);
    const properties: PropertySample[] = records.map((r) => ({
      key: r.get('key') as string,
      present: Number(r.get('present')),
      strings: r.get('strings') as string[],
      otherType: (r.get('otherType') as string | null) ?? undefined,
    }));
    return { nodes, sampled, properties };
  } finally {
    await session.close();
  }
}

/** The graph's labels, index data left out. */
async function readLabels(driver: Driver, database: string): Promise<string[]> {
  const { records } = await driver.executeQuery(LABELS, {}, { database, routing: 'READ' });
  return ((records[0]?.get('labels') ?? []) as string[]).filter((l) => !isIndexLabel(l));
}

/**
 * The 422 of a choice the graph cannot index. Its subject is what the errors' paths point at:
 * the request's choice, or the setting a part of it came from (`INDEX_PROPERTIES`), so that a
 * wrong setting is not blamed on a request that did not make the choice.
 */
const invalid = (errors: FieldError[], from: ChoiceSettings) => {
  const setting = (e: FieldError) => [from.labels, from.properties].find((s) => s && (e.path === s || e.path.startsWith(`${s}.`)));
  const settings = [...new Set(errors.map(setting).filter((s) => s !== undefined))];
  const subjects = [...(errors.some((e) => !setting(e)) ? ['the text choice'] : []), ...settings.map((s) => `the setting ${s}`)];
  const detail = `${subjects.join(' and ')} ${subjects.length > 1 ? 'name' : 'names'} what the graph cannot index`;
  return new DomainError('invalid', 'text-choice', `${detail}: ${errors.map((e) => e.message).join('; ')}`, { errors });
};

/** Property names never offered as close names: index internals and properties named as internal (`__…`). */
const offered = (names: Iterable<string>) => [...names].filter((n) => !n.startsWith('__'));

const unknown = (kind: string, name: string, known: Iterable<string>, path: string): FieldError => {
  return { path, message: `unknown ${kind} ${JSON.stringify(name)}; ${closeNamesHint(name, offered(known))}` };
};

/** A sampled type as words: `INTEGER NOT NULL` → `INTEGER`. */
const typeName = (t: string) => t.replace(/ NOT NULL/g, '');
/** Lists of strings are text: the composer joins them (src/vector-index/index/node-text.ts). */
const isStringList = (t: string | undefined) => !!t && /^LIST<STRING\b/.test(t);
/** A sampled property that gives text: strings, or lists of strings. */
const givesText = (p: PropertySample) => p.strings.length > 0 || isStringList(p.otherType);

/**
 * The plan entry of an explicitly chosen label, or the field errors that make the choice unusable:
 * a property the label's nodes lack (with close names), one that holds something other than
 * strings or lists of strings in every sampled node (an INTEGER year read as text would be
 * silently dropped from every node's text), or a choice with no text at all.
 */
function explicitPlan(
  label: string,
  props: readonly string[],
  sample: Awaited<ReturnType<typeof sampleLabel>>,
  path: string,
): LabelPlan | FieldError[] {
  const byKey = new Map(sample.properties.map((p) => [p.key, p]));
  const errors = props.flatMap((p, i): FieldError[] => {
    const s = byKey.get(p);
    if (!s) return [unknown(`property of ${label}`, p, byKey.keys(), `${path}.${i}`)];
    if (s.strings.length || !s.otherType || isStringList(s.otherType)) return [];
    const message = `"${p}" of ${label} holds ${typeName(s.otherType)} values, not text: choose properties holding strings or lists of strings`;
    return [{ path: `${path}.${i}`, message }];
  });
  if (errors.length) return errors;
  if (!props.some((p) => givesText(byKey.get(p)!))) {
    const held = props.map((p) => `"${p}" holds ${byKey.get(p)!.otherType ?? 'only empty strings'}`).join(', ');
    return [{ path, message: `the properties chosen for ${label} yield no text: ${held}` }];
  }
  return { label, nodes: sample.nodes, source: 'explicit', ...splitExplicit(label, props), skipped: [] };
}

/**
 * The parts of a choice that came from settings rather than from a request, by the variable's
 * name: errors about them point at the setting (`INDEX_PROPERTIES.Mission.0`), not at a request
 * field (`properties.Mission.0`) the caller never sent.
 */
export interface ChoiceSettings {
  labels?: 'INDEX_LABELS';
  properties?: 'INDEX_PROPERTIES';
}

/** Options of {@link readTextPlan}. */
export interface ReadTextPlanOptions {
  textProperty: string;
  choice?: TextChoice;
  /** Which parts of `choice` are settings (default: none, every part is the request's). */
  fromSettings?: ChoiceSettings;
  /** Find the text of labels without `TEXT_PROPERTY` (default true); false plans only explicitly chosen labels. */
  discover?: boolean;
  /** Labels already planned (a sync keeps them as they are and samples only new labels). */
  previous?: TextPlan;
}

/**
 * Reads the plan of graph `database`.
 * @throws DomainError 422 when the choice names a label or property the graph lacks (with close
 * names), or properties that hold no text (field paths under `labels` / `properties`, or under
 * the setting's name for the parts in `fromSettings`).
 */
export async function readTextPlan(driver: Driver, database: string, opts: ReadTextPlanOptions): Promise<TextPlan> {
  const { textProperty, choice = {}, previous, discover = true, fromSettings = {} } = opts;
  const labelsPath = fromSettings.labels ?? 'labels';
  const propertiesPath = fromSettings.properties ?? 'properties';
  const all = await readLabels(driver, database);
  const errors: FieldError[] = [];
  choice.labels?.forEach((l, i) => {
    if (!all.includes(l)) errors.push(unknown('label', l, all, `${labelsPath}.${i}`));
  });
  // Own keys only, read through a Map: a label named `constructor` or `__proto__` is a name like
  // any other, never something every object inherits.
  const chosen = new Map(Object.entries(choice.properties ?? {}));
  for (const l of chosen.keys()) {
    if (!all.includes(l)) errors.push(unknown('label', l, all, `${propertiesPath}.${l}`));
  }
  if (errors.length) throw invalid(errors, fromSettings);
  const only = choice.labels?.length ? [...choice.labels] : null;
  const wanted = only ? all.filter((l) => only.includes(l)) : all;
  const kept = new Map((previous?.labels ?? []).map((p) => [p.label, p]));
  const labels: LabelPlan[] = [];
  for (const label of wanted) {
    const old = kept.get(label);
    if (old) {
      const { records } = await driver.executeQuery(countQuery(label), {}, { database, routing: 'READ' });
      labels.push({ ...old, nodes: Number(records[0]?.get('n') ?? 0) });
      continue;
    }
    const props = chosen.get(label);
    if (!props && !discover) continue;
    const sample = await sampleLabel(driver, database, label);
    if (!sample.nodes) continue;
    if (props) {
      const plan = explicitPlan(label, props, sample, `${propertiesPath}.${label}`);
      if (Array.isArray(plan)) errors.push(...plan);
      else labels.push(plan);
      continue;
    }
    const hasText = sample.properties.some((p) => p.key === textProperty && givesText(p));
    if (hasText) {
      labels.push({ label, nodes: sample.nodes, source: 'text', name: [], body: [textProperty], skipped: [] });
      continue;
    }
    const text = chooseLabelText(label, sample.sampled, sample.properties, textProperty);
    const source: TextSource = text.name.length || text.body.length ? 'discovered' : 'none';
    labels.push({ label, nodes: sample.nodes, source, ...text });
  }
  if (errors.length) throw invalid(errors, fromSettings);
  labels.sort((a, b) => b.nodes - a.nodes || a.label.localeCompare(b.label));
  return { textProperty, only, labels };
}

/** Label → the properties a node's text is read from (`explicit` and `discovered` labels), for the Cypher that reads them. */
export function planKeys(plan: TextPlan): Record<string, string[]> {
  // Built from entries: `out[label] = …` on a plain object would set the prototype for a label
  // named `__proto__`, and the label would vanish from the query's map.
  const read = plan.labels.filter((l) => l.source === 'explicit' || l.source === 'discovered');
  return Object.fromEntries(read.map((l) => [l.label, [...l.name, ...l.body]]));
}

/**
 * The plan's names for naming nodes (src/graph/text/node-name.ts `nodeName`), in
 * the order node-text.ts reads labels: explicit choices first, then the rest as planned. A
 * sampled label whose plan found no name is listed with no keys: the rule's weaker steps
 * (`title`, any `…Name`) then do not name its nodes either (an Order's `shipName` repeats its
 * customer's). Labels read whole (`text`) and choices without a name are left to the rule.
 */
export function planNames(plan: TextPlan): { label: string; keys: string[] }[] {
  const decided = (l: LabelPlan) => l.source === 'discovered' || l.source === 'none' || (l.source === 'explicit' && l.name.length > 0);
  const explicit = plan.labels.filter((l) => l.source === 'explicit');
  const rest = plan.labels.filter((l) => l.source !== 'explicit');
  return [...explicit, ...rest].filter(decided).map((l) => ({ label: l.label, keys: [...l.name] }));
}

/** A plan on the wire (src/contract/text-plan.ts). */
export function textPlanBody(plan: TextPlan): TextPlanBody {
  return {
    text_property: plan.textProperty,
    only_labels: plan.only,
    labels: plan.labels.map((l) => ({ label: l.label, nodes: l.nodes, source: l.source, name: l.name, text: l.body, skipped: l.skipped })),
  };
}
