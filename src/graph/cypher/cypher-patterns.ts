/**
 * A shallow reading of a Cypher query's graph patterns, enough to check them against the
 * graph's schema: each hop `(a:A)-[:T]->(b:B)` with the labels its two ends are known to carry
 * (from the pattern itself or from another pattern or `WHERE x:Label` naming the same
 * variable), which labels a variable has, and the variable-length hops without an upper bound.
 * It is not a parser: what it cannot read (quantified path groups, label expressions with
 * `|`, `!` or `%`) it leaves out, so a check built on it can miss a mistake but not invent one.
 */
import { codeOf } from './read-guard.js';

/** One relationship hop of a pattern, with the direction written in the query. */
export interface Hop {
  /** Labels the left node must have (all of them); empty when unknown. */
  left: string[];
  right: string[];
  /** Relationship types (any of them); empty for an untyped relationship. */
  types: string[];
  /** `out`: left→right, `in`: left←right, `both`: undirected. */
  direction: 'out' | 'in' | 'both';
  /** True for a variable-length relationship (`*`). */
  variableLength: boolean;
  /** The hop as written (code form: strings blanked). */
  text: string;
}

/** What {@link readPatterns} found. */
export interface QueryPatterns {
  hops: Hop[];
  /** Labels per variable (undefined: the variable's labels are unknown or not a plain conjunction). */
  labelsOf: Map<string, string[]>;
  /** `[*]`, `[:T*2..]` and the like, as written. */
  unbounded: string[];
  /** The query's code (comments dropped, strings blanked: `codeOf`), for further reading. */
  code: string;
}

const NAME = '[A-Za-z_][\\w]*';
/**
 * `:A:B`, `: A &B`, `:A|B`: each label starts at a colon and holds none, so a run of labels splits
 * one way only. Every regular expression here is written so that no two of its parts can take
 * the same characters (checked by `npm run lint:regexp`): a reading costs time linear in the query.
 */
export const LABELS = '(?::\\s*[^\\s:(){}\\[\\],]+\\s*)*';
// (var:Label:Other {props}) — label expressions with | ! % are captured whole and skipped later.
const NODE = new RegExp(`\\(\\s*(?:(${NAME})\\s*)?(${LABELS})(?:\\{[^{}]*\\}\\s*)?\\)`, 'y');
// <-[r:T|U*1..3 {props}]-> and the short forms -->, <--, --.
const REL = new RegExp(
  `\\s*(<)?-\\s*(?:\\[\\s*(?:${NAME}\\s*)?(?::([^\\]*{]*))?(\\*[^\\]{]*)?(?:\\{[^{}]*\\}\\s*)?\\]\\s*)?-(>)?\\s*`,
  'y',
);

/** `:A:B` → ['A', 'B']; `:A&B` → ['A', 'B']; anything with `|`, `!` or `%` → undefined (not a plain conjunction). */
function labelList(expr: string): string[] | undefined {
  const text = expr.replace(/\s+/g, '');
  if (!text) return [];
  if (/[|!%()]/.test(text)) return undefined;
  return text.split(/[:&]/).filter(Boolean);
}

function typeList(expr: string | undefined): string[] | undefined {
  const text = (expr ?? '').replace(/\s+/g, '');
  if (!text) return [];
  if (/[&!%()]/.test(text)) return undefined;
  return text.split(/\|:?/).filter(Boolean);
}

interface NodeMatch {
  variable?: string;
  labels?: string[];
  end: number;
}

function nodeAt(code: string, at: number): NodeMatch | undefined {
  NODE.lastIndex = at;
  const m = NODE.exec(code);
  if (!m) return undefined;
  return { variable: m[1], labels: labelList(m[2] ?? ''), end: NODE.lastIndex };
}

/** Reads the hops, variable labels and unbounded variable-length relationships of `cypher`. */
export function readPatterns(cypher: string): QueryPatterns {
  const code = codeOf(cypher);
  const labelsOf = new Map<string, string[]>();
  const vague = new Set<string>();
  const remember = (node: NodeMatch) => {
    if (!node.variable) return;
    if (!node.labels) vague.add(node.variable);
    else if (node.labels.length) labelsOf.set(node.variable, [...new Set([...(labelsOf.get(node.variable) ?? []), ...node.labels])]);
  };
  const raw: Array<{ left: NodeMatch; right: NodeMatch; types?: string[]; direction: Hop['direction']; star: boolean; text: string }> = [];
  const unbounded: string[] = [];

  for (let at = code.indexOf('('); at >= 0; at = code.indexOf('(', at + 1)) {
    let left = nodeAt(code, at);
    if (!left) continue;
    remember(left);
    let start = at;
    for (;;) {
      REL.lastIndex = left.end;
      const rel = REL.exec(code);
      if (!rel) break;
      const rightStart = REL.lastIndex;
      const right = nodeAt(code, rightStart);
      if (!right) break;
      remember(right);
      const [, lt, types, star, gt] = rel;
      const direction = lt && !gt ? 'in' : gt && !lt ? 'out' : 'both';
      if (star && !/\.\.\s*\d|^\*\s*\d+\s*$/.test(star)) unbounded.push(code.slice(left.end, REL.lastIndex).trim());
      raw.push({ left, right, types: typeList(types), direction, star: !!star, text: code.slice(start, right.end) });
      start = rightStart;
      left = right;
      // The chain's later nodes were read here; the scan goes on after the last one.
      at = right.end - 1;
    }
  }
  for (const m of code.matchAll(new RegExp(`\\b(?:WHERE|AND|OR)\\s+(${NAME})\\s*:\\s*(${NAME}(?:\\s*[:&]\\s*${NAME})*)`, 'gi'))) {
    remember({ variable: m[1], labels: labelList(m[2]!), end: 0 });
  }
  for (const v of vague) labelsOf.delete(v);

  const known = (n: NodeMatch) => (n.variable && !vague.has(n.variable) ? (labelsOf.get(n.variable) ?? []) : (n.labels ?? []));
  const hops: Hop[] = raw
    .filter((h) => h.types && h.left.labels && h.right.labels)
    .map((h) => ({
      left: known(h.left),
      right: known(h.right),
      types: h.types!,
      direction: h.direction,
      variableLength: h.star,
      text: h.text.replace(/\s+/g, ' ').trim(),
    }));
  return { hops, labelsOf, unbounded: [...new Set(unbounded)], code };
}

/**
 * The variables a query reads `key` from (`n.key`, `n[key]` is not followed), and map keys
 * `{key: …}` of node patterns; `code` is the query's {@link QueryPatterns.code}.
 */
export function propertyOwners(code: string, key: string): string[] {
  const owners = new Set<string>();
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const m of code.matchAll(new RegExp(`\\b(${NAME})\\.${escaped}\\b`, 'g'))) owners.add(m[1]!);
  for (const m of code.matchAll(new RegExp(`\\(\\s*(${NAME})\\s*(?::[^{}()]*)?\\{[^{}]*\\b${escaped}\\s*:`, 'g'))) owners.add(m[1]!);
  return [...owners];
}
