/**
 * Why a read query came back empty or wrong, told to its caller (a model or a person): what
 * Neo4j's `EXPLAIN` warned about (unknown labels, relationship types and property keys,
 * cartesian products), each unknown name with the closest names the graph has, plus our own
 * checks against the cached schema: a relationship walked against its direction, a pattern
 * that never occurs, a property a label does not have, a variable-length pattern without an
 * upper bound. Nothing here runs a query: the warnings come with the `EXPLAIN` the read guard
 * runs anyway and the schema is the skeleton cache's.
 */
import type { GqlStatusObject, Notification } from 'neo4j-driver';
import type { QueryNotice } from '../../contract/graph.js';
import { propertyOwners, readPatterns, type Hop } from './cypher-patterns.js';
import { closeNames } from '../../lib/close-names.js';
import { shownName } from '../../lib/shown-name.js';
import type { NamesByMeaning } from '../../lib/names-by-meaning.js';
import { formatPattern, SAMPLE_SIZE } from '../shape/schema.js';
import type { SkeletonData } from '../shape/skeleton.js';

/** What a notice is about. */
export type NoticeKind = QueryNotice['kind'];

/** The part of a result summary the notices come from. */
export interface ExplainSummary {
  notifications?: readonly Notification[];
  gqlStatusObjects?: readonly GqlStatusObject[];
}

const BY_GQL: Record<string, NoticeKind> = {
  '01N50': 'unknown-label',
  '01N51': 'unknown-relationship-type',
  '01N52': 'unknown-property',
  '03N90': 'cartesian-product',
  '03N91': 'unbounded-path',
};
const BY_CODE: Record<string, NoticeKind> = {
  'Neo.ClientNotification.Statement.UnknownLabelWarning': 'unknown-label',
  'Neo.ClientNotification.Statement.UnknownRelationshipTypeWarning': 'unknown-relationship-type',
  'Neo.ClientNotification.Statement.UnknownPropertyKeyWarning': 'unknown-property',
  'Neo.ClientNotification.Statement.CartesianProduct': 'cartesian-product',
  'Neo.ClientNotification.Statement.UnboundedVariableLengthPattern': 'unbounded-path',
};

/** The name a warning is about: `` `Film` `` (GQL text), `(… is: Film)` (older servers), `'(a), (b)'` (cartesian product). */
function nameIn(text: string): string | undefined {
  return /`([^`]+)`/.exec(text)?.[1] ?? /\bis: ([^)]+)\)/.exec(text)?.[1] ?? /'([^']+)'/.exec(text)?.[1];
}

/** The database's warnings, one per kind and name (GQL status objects first, then old-style notifications). */
function databaseWarnings(summary: ExplainSummary): Array<{ kind: NoticeKind; code?: string; name?: string }> {
  const out = new Map<string, { kind: NoticeKind; code?: string; name?: string }>();
  for (const g of summary.gqlStatusObjects ?? []) {
    const kind = BY_GQL[g.gqlStatus];
    if (kind && !out.has(`${kind}:${nameIn(g.statusDescription)}`))
      out.set(`${kind}:${nameIn(g.statusDescription)}`, { kind, code: g.gqlStatus, name: nameIn(g.statusDescription) });
  }
  for (const n of summary.notifications ?? []) {
    const kind = BY_CODE[n.code];
    const name = nameIn(n.description);
    // The same warning already came as a GQL status; the cartesian product's names differ between the two texts.
    if (kind && !out.has(`${kind}:${name}`) && !(kind === 'cartesian-product' && [...out.values()].some((w) => w.kind === kind))) {
      out.set(`${kind}:${name}`, { kind, name });
    }
  }
  return [...out.values()];
}

const orList = (items: string[]) => (items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`);
const someOf = (items: string[], n = 12) => `${items.slice(0, n).join(', ')}${items.length > n ? `, … (${items.length} in all)` : ''}`;

/** Property keys of a node with these labels, when every label's properties were sampled. */
function propertiesOf(schema: SkeletonData, labels: string[]): string[] | undefined {
  const lists = labels.map((l) => schema.properties.get(l));
  if (!labels.length || lists.some((l) => !l)) return undefined;
  return [...new Set(lists.flatMap((l) => l!.map((p) => p.name)))];
}

/** What an unknown-name notice calls the name, and the graph's names of that kind. */
const UNKNOWN: Partial<Record<NoticeKind, { what: string; plural?: string; names(schema: SkeletonData | null): string[] }>> = {
  'unknown-label': { what: 'label', plural: 'labels', names: (s) => s?.labels.map((l) => l.label) ?? [] },
  'unknown-relationship-type': { what: 'relationship type', plural: 'types', names: (s) => s?.types ?? [] },
  'unknown-property': { what: 'property key', names: (s) => s?.propertyKeys ?? [] },
};

/** "its labels are :A, :B, …", the list a label or type notice gives when it has no suggestion. */
const listOf = (plural: string, names: string[]) => `its ${plural} are ${someOf(names.map((n) => `:${shownName(n)}`))}`;

function unknownName(
  kind: NoticeKind,
  name: string,
  code: string,
  labelsOf: Map<string, string[]>,
  schema: SkeletonData | null,
): Omit<QueryNotice, 'code'> {
  const { what, plural, names } = UNKNOWN[kind]!;
  if (plural) {
    const all = names(schema);
    const near = closeNames(name, all);
    const hint = near.length
      ? `; did you mean ${orList(near.map((n) => `:${shownName(n)}`))}?`
      : all.length
        ? `; ${listOf(plural, all)}`
        : '';
    return {
      kind,
      name,
      suggestions: near,
      message: `${what} :${shownName(name)} does not exist in this graph${hint}`,
      explainsEmpty: true,
    };
  }
  // A property key: first the keys of the labels the query reads it from (`Movie.title`), then any key.
  const owned = new Map<string, string>();
  for (const v of propertyOwners(code, name)) {
    for (const label of labelsOf.get(v) ?? []) {
      for (const key of closeNames(name, schema?.properties.get(label)?.map((p) => p.name) ?? [])) {
        owned.set(`${label}.${key}`, `${shownName(label)}.${shownName(key)}`);
      }
    }
  }
  const near = owned.size ? [...owned.keys()].slice(0, 3) : closeNames(name, names(schema));
  const shown = owned.size ? [...owned.values()].slice(0, 3) : near.map((n) => shownName(n));
  const hint = near.length ? `; did you mean ${orList(shown)}?` : '';
  return { kind, name, suggestions: near, message: `${what} ${shownName(name)} does not exist in this graph${hint}`, explainsEmpty: true };
}

const covers = (patternLabels: string, wanted: string[]) => {
  const have = patternLabels.split(':');
  return wanted.every((l) => have.includes(l));
};

/**
 * Whether `(:from)-[:type]->(:to)` occurs: by the sampled patterns when they hold every
 * relationship of the type, else by the count store's start and end labels (exact for each
 * end alone); undefined when the schema knows nothing of the type.
 */
function occurs(schema: SkeletonData, type: string, from: string[], to: string[]): boolean | undefined {
  const joint = schema.patterns.filter((p) => p.type === type);
  if (joint.length && !joint.some((p) => p.estimated)) return joint.some((p) => covers(p.from, from) && covers(p.to, to));
  const ends = schema.ends?.get(type);
  if (!ends) return joint.length ? joint.some((p) => covers(p.from, from) && covers(p.to, to)) || undefined : undefined;
  return from.every((l) => l in ends.from) && to.every((l) => l in ends.to);
}

/** What a type connects, for a message: its sampled patterns, else its start and end labels. */
function connects(schema: SkeletonData, type: string): string[] {
  const joint = schema.patterns.filter((p) => p.type === type).slice(0, 3);
  if (joint.length) return joint.map((p) => `${formatPattern(p)} (${p.count})`);
  const ends = schema.ends?.get(type);
  const top = (m: Record<string, number>) =>
    Object.entries(m)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([l]) => shownName(l))
      .join('|');
  return ends ? [`(:${top(ends.from)})-[:${shownName(type)}]->(:${top(ends.to)})`] : [];
}

/** The hop's check against the schema, or null when it is fine or cannot be judged. */
function checkHop(hop: Hop, schema: SkeletonData): QueryNotice | null {
  if (hop.variableLength || !hop.types.length || (!hop.left.length && !hop.right.length)) return null;
  const labels = new Set(schema.labels.map((l) => l.label));
  if (![...hop.left, ...hop.right].every((l) => labels.has(l))) return null;
  const [from, to] = hop.direction === 'in' ? [hop.right, hop.left] : [hop.left, hop.right];
  const forward = hop.types.map((t) => occurs(schema, t, from, to));
  const backward = hop.types.map((t) => occurs(schema, t, to, from));
  // A type the schema does not know (the database reports a missing one) is not judged.
  if (forward.some((f) => f !== false)) return null;
  if (hop.direction === 'both' && backward.some((b) => b !== false)) return null;
  const wanted = formatPattern({ from: from.join(':'), type: hop.types.join('|'), to: to.join(':') });
  const sampled = hop.types.some((t) => schema.patterns.some((p) => p.type === t && p.estimated))
    ? ' (in a sample of its relationships)'
    : '';
  const reversedTypes = hop.direction === 'both' ? [] : hop.types.filter((_, i) => backward[i]);
  if (reversedTypes.length) {
    const found = reversedTypes.map((type) => {
      const p = schema.patterns.find((x) => x.type === type && covers(x.from, to) && covers(x.to, from));
      const text = formatPattern(p ?? { from: to.join(':'), type, to: from.join(':') });
      return { text, counted: p ? `${text} (${p.count})` : text };
    });
    const exists = found.map((f) => f.text);
    const counted = found.map((f) => f.counted);
    return {
      kind: 'reversed-direction',
      name: hop.text,
      suggestions: exists,
      message: `${wanted} does not occur in this graph${sampled}, but ${orList(counted)} does: reverse the arrow in ${hop.text}`,
      explainsEmpty: true,
    };
  }
  const existing = hop.types.flatMap((t) => connects(schema, t));
  return {
    kind: 'pattern-not-found',
    name: hop.text,
    suggestions: existing.map((e) => e.replace(/ \(\d+\)$/, '')),
    message: `${wanted} does not occur in this graph${sampled}${existing.length ? `; :${hop.types.join('|:')} connects ${orList(existing)}` : ''}`,
    explainsEmpty: true,
  };
}

/** `n.key` where n's labels were all sampled and none of them has `key` (a key no node has is the database's warning). */
function missingProperties(code: string, labelsOf: Map<string, string[]>, schema: SkeletonData, skip: Set<string>): QueryNotice[] {
  const out: QueryNotice[] = [];
  const keys = new Set(schema.propertyKeys);
  const counts = new Map(schema.labels.map((l) => [l.label, l.count]));
  for (const [variable, labels] of labelsOf) {
    const props = propertiesOf(schema, labels);
    if (!props) continue;
    // Only labels sampled whole: a key missing from a sample of a large label may still exist.
    if (labels.some((l) => (counts.get(l) ?? Number.POSITIVE_INFINITY) > SAMPLE_SIZE)) continue;
    const used = new Set([...code.matchAll(new RegExp(`\\b${variable}\\.([A-Za-z_]\\w*)`, 'g'))].map((m) => m[1]!));
    for (const key of used) {
      if (props.includes(key) || !keys.has(key) || skip.has(key)) continue;
      const close = closeNames(key, props);
      const near = close.map((k) => `${labels[0]}.${k}`);
      const shown = close.map((k) => `${shownName(labels[0]!)}.${shownName(k)}`);
      const on = labels.map((l) => `:${shownName(l)}`).join('');
      out.push({
        kind: 'property-not-on-label',
        name: `${variable}.${key}`,
        suggestions: near,
        message: `(${variable}${on}) nodes have no property ${key}${near.length ? `; did you mean ${orList(shown)}?` : `; they have ${someOf(props.map((p) => shownName(p)))}`}`,
        explainsEmpty: true,
      });
    }
  }
  return out;
}

/**
 * The notices of a query: the database's warnings from its `EXPLAIN` summary (names suggested
 * from `schema`), then the pattern checks against `schema` (skipped when it is null).
 */
export function queryNotices(cypher: string, summary: ExplainSummary, schema: SkeletonData | null): QueryNotice[] {
  const notices: QueryNotice[] = [];
  const patterns = readPatterns(cypher);
  const unknownKeys = new Set<string>();
  for (const w of databaseWarnings(summary)) {
    const code = w.code ? { code: w.code } : {};
    if ((w.kind === 'unknown-label' || w.kind === 'unknown-relationship-type' || w.kind === 'unknown-property') && w.name) {
      if (w.kind === 'unknown-property') unknownKeys.add(w.name);
      notices.push({ ...unknownName(w.kind, w.name, patterns.code, patterns.labelsOf, schema), ...code });
    } else if (w.kind === 'cartesian-product') {
      const what = w.name ? ` (${w.name})` : '';
      notices.push({
        kind: w.kind,
        ...code,
        ...(w.name ? { name: w.name } : {}),
        message: `the query pairs every row of disconnected patterns${what} with every other (a cartesian product); connect them with a relationship or match one after the other with WITH`,
        explainsEmpty: false,
      });
    }
  }
  for (const text of patterns.unbounded) {
    notices.push({
      kind: 'unbounded-path',
      name: text,
      message: `${text} has no upper bound and may run until the timeout on a large graph; give one, e.g. *1..4`,
      explainsEmpty: false,
    });
  }
  if (schema) {
    const seen = new Set<string>();
    for (const hop of patterns.hops) {
      const notice = checkHop(hop, schema);
      if (notice && !seen.has(notice.message)) {
        seen.add(notice.message);
        notices.push(notice);
      }
    }
    notices.push(...missingProperties(patterns.code, patterns.labelsOf, schema, unknownKeys));
  }
  return notices;
}

/**
 * `notices` with the unknown names that no spelling rule matched given the graph's names
 * closest in meaning (`Film` → `Movie`), when `meaning` finds any; the rest unchanged.
 */
export async function withMeaning(
  notices: QueryNotice[],
  schema: SkeletonData | null,
  meaning: NamesByMeaning | undefined,
): Promise<QueryNotice[]> {
  if (!meaning || !schema) return notices;
  return Promise.all(
    notices.map(async (n) => {
      const unknown = UNKNOWN[n.kind];
      if (!unknown || !n.name || n.suggestions?.length) return n;
      const { what, plural } = unknown;
      const names = unknown.names(schema);
      const near = await meaning.nearest(n.name, names);
      if (!near.length) return n;
      const [name, shown] = plural
        ? [`:${shownName(n.name)}`, near.map((x) => `:${shownName(x)}`)]
        : [shownName(n.name), near.map((x) => shownName(x))];
      // The list of the graph's names stays: a guess by meaning is wrong about a third of the time.
      const list = plural ? listOf(plural, names) : '';
      const tail = list ? ` ${list[0]!.toUpperCase()}${list.slice(1)}` : '';
      return {
        ...n,
        suggestions: near,
        message: `${what} ${name} does not exist in this graph; did you mean ${orList(shown)} (closest in meaning)?${tail}`,
      };
    }),
  );
}

/** Value notices come only with an empty result or one of zeros and nulls (src/graph/cypher/value-notices.ts). */
const aboutValues = (notices: readonly QueryNotice[]) => notices.some((n) => n.kind.startsWith('value-'));

/**
 * "0 rows, probably because …" for an empty result with notices that can explain it ("only
 * zeros and nulls, probably because …" for an aggregate over nothing, told by value notices), else undefined.
 */
export function emptyReason(notices: readonly QueryNotice[], rows = 0): string | undefined {
  const why = notices.filter((n) => n.explainsEmpty).map((n) => n.message);
  return why.length ? `${rows ? 'only zeros and nulls' : '0 rows'}, probably because ${why.join('; and ')}` : undefined;
}

/** The one line a caller reads: the empty-result reason, else the notices' messages; undefined when there are none. */
export function noticeLine(notices: readonly QueryNotice[], rows: number): string | undefined {
  if (!notices.length) return undefined;
  const reason = rows === 0 || aboutValues(notices) ? emptyReason(notices, rows) : undefined;
  const rest = notices.filter((n) => !(reason && n.explainsEmpty)).map((n) => n.message);
  return [reason, ...(rest.length ? [`Note: ${rest.join('; ')}`] : [])].filter(Boolean).join('. ');
}
