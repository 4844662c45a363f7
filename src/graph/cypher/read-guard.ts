/**
 * The policy half of read-only Cypher: what `graph_query` refuses before and after `EXPLAIN`.
 * A READ access-mode transaction already stops writes, but some "read" statements reach
 * outside the graph or the transaction: `LOAD CSV` reads files and URLs, `dbms.*` lists server
 * settings and connections, `SHOW SETTINGS` / `TERMINATE TRANSACTIONS` plan as reads, and APOC
 * (when installed) adds loaders and `apoc.cypher.run*` that would smuggle a query past this
 * check. The text check catches them early with a clear message; the plan check sees through
 * quoting, comments and spacing. The text check also refuses a query too large or too deep to
 * plan: Neo4j cannot stop planning once it starts (a terminated query plans on), and a deep
 * enough expression overflows its stack and never answers. Every reading here is one pass over
 * the text, with no regular expression that can rescan it.
 */
import type { Plan } from 'neo4j-driver';
import { isDigit, isSpace, sizeRefusal } from './query-size.js';

/** Procedure and function namespaces `graph_query` refuses (matched as prefixes, lower case). */
export const DENIED_PROCEDURES: readonly string[] = Object.freeze([
  'dbms.', // server settings, connections, kill switches
  'tx.', // transaction metadata
  'db.stats.', // starts and clears server-side query collection
  'db.clearquerycaches',
  'db.create', // db.create.setVectorProperty, db.createLabel, …
  'db.resample',
  'db.prepareforreplanning',
  'db.awaitindex', // blocks for a caller-chosen time
  'apoc.load.', // reads files and URLs
  'apoc.import.',
  'apoc.export.',
  'apoc.cypher.', // runs a query string we never checked
  'apoc.periodic.',
  'apoc.do.',
  'apoc.systemdb.',
  'apoc.trigger.',
  'apoc.custom.',
  'apoc.config.',
  'apoc.log.',
  'apoc.static.',
  'apoc.util.sleep',
  'apoc.spatial.geocode', // calls an outside web service
  'gds.graph.', // in-memory projections hold server memory past the query
]);

/** Plan operators refused even though the planner calls them reads. */
const DENIED_OPERATORS =
  /^(LoadCSV|TerminateTransactions|AdministrationCommand|TransactionApply|TransactionForeach|Show(?!Indexes|Constraints|Procedures|Functions)\w*)$/;

/** Statement prefixes we refuse with a hint instead of a confusing syntax error. */
const DENIED_PREFIX = /^\s*(EXPLAIN|PROFILE)\b/i;

const TEXT_RULES: ReadonlyArray<[RegExp, string]> = [
  [/\bLOAD\s+CSV\b/i, 'LOAD CSV reads files and URLs outside the graph'],
  [/\bIN\s+TRANSACTIONS\b/i, 'CALL { … } IN TRANSACTIONS is not allowed'],
  [/(^|[\s;{}])USE\s+[A-Za-z_`]/i, 'USE (switching databases) is not allowed'],
  [
    /\b(TERMINATE|SHOW)\s+(TRANSACTIONS?|SETTINGS?|USERS?|ROLES?|PRIVILEGES|SERVERS?|DATABASES?|ALIASES)\b/i,
    'administration commands are not allowed',
  ],
];

/** A refusal; its message is shown to the model after `Tool error: `. */
export class QueryRefusedError extends Error {
  override name = 'QueryRefusedError';
}

/**
 * The query with comments dropped, string literals replaced by `'#<n>'` (their text in
 * `strings`), backticks removed and spaces around dots closed.
 */
export function maskLiterals(cypher: string): { code: string; strings: string[] } {
  const strings: string[] = [];
  // Copied in slices and joined once: a query may be long, and one string per character is slow.
  const code: string[] = [];
  let plain = 0; // where the text not copied to `code` yet starts
  for (let i = 0; i < cypher.length; i++) {
    const ch = cypher[i]!;
    const next = cypher[i + 1];
    if (ch !== "'" && ch !== '"' && ch !== '`' && !(ch === '/' && (next === '/' || next === '*'))) continue;
    code.push(cypher.slice(plain, i));
    if (ch === '/' && next === '/') {
      const end = cypher.indexOf('\n', i);
      i = end < 0 ? cypher.length : end;
      code.push(' ');
    } else if (ch === '/') {
      const end = cypher.indexOf('*/', i + 2);
      i = end < 0 ? cypher.length : end + 1;
      code.push(' ');
    } else if (ch === '`') {
      const end = cypher.indexOf('`', i + 1);
      code.push(cypher.slice(i + 1, end < 0 ? cypher.length : end));
      i = end < 0 ? cypher.length : end;
    } else {
      const text: string[] = [];
      let from = i + 1;
      for (i++; i < cypher.length && cypher[i] !== ch; i++) {
        if (cypher[i] === '\\' && i + 1 < cypher.length) {
          const e = cypher[++i]!;
          text.push(cypher.slice(from, i - 1), e === 'n' ? '\n' : e === 't' ? '\t' : e);
          from = i + 1;
        }
      }
      text.push(cypher.slice(from, i));
      code.push(`'#${strings.length}'`);
      strings.push(text.join(''));
    }
    plain = i + 1;
  }
  code.push(cypher.slice(plain));
  return { code: closeDots(code.join('')), strings };
}

/** `code` with the white space around each dot removed, in one pass (a regular expression rescans long runs of spaces). */
function closeDots(code: string): string {
  const out: string[] = [];
  let from = 0;
  for (let dot = code.indexOf('.'); dot >= 0; dot = code.indexOf('.', from)) {
    let end = dot;
    while (end > from && isSpace(code.charCodeAt(end - 1))) end--;
    out.push(code.slice(from, end), '.');
    from = dot + 1;
    while (from < code.length && isSpace(code.charCodeAt(from))) from++;
  }
  out.push(code.slice(from));
  return out.join('');
}

/**
 * The query's code only: comments dropped, string literals emptied (a search for 'use case' is
 * not a USE clause), backtick quotes removed and spaces around dots closed, so names compare
 * as the planner reads them.
 */
export function codeOf(cypher: string): string {
  return maskLiterals(cypher).code.replace(/'#\d+'/g, "''");
}

function deniedName(name: string): string | undefined {
  const lower = name.toLowerCase();
  return DENIED_PROCEDURES.find((p) => lower.startsWith(p) || lower === p.replace(/\.$/, ''));
}

const isNameStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isNameChar = (c: number) => isNameStart(c) || isDigit(c);

/**
 * The dotted names called in `code` (`db.labels(`, `apoc.load.json (`), left to right, each
 * read from the start of its dotted chain. One pass: a regular expression would rescan a long
 * `a.b.c…` chain from each of its dots.
 */
function calledNames(code: string): string[] {
  const names: string[] = [];
  for (let i = 0; i < code.length; ) {
    if (!isNameStart(code.charCodeAt(i)) || (i > 0 && isNameChar(code.charCodeAt(i - 1)))) {
      i++;
      continue;
    }
    let end = i;
    let parts = 0;
    do {
      end++;
      while (end < code.length && isNameChar(code.charCodeAt(end))) end++;
      parts++;
    } while (code[end] === '.' && isNameStart(code.charCodeAt(end + 1)) && ++end);
    let after = end;
    while (after < code.length && isSpace(code.charCodeAt(after))) after++;
    if (parts > 1 && code[after] === '(') names.push(code.slice(i, end));
    i = end;
  }
  return names;
}

/**
 * Refuses a query by its text (before it reaches the database).
 * @throws QueryRefusedError naming the rule.
 */
export function checkQueryText(cypher: string): void {
  if (!cypher.trim()) throw new QueryRefusedError('the query is empty');
  if (DENIED_PREFIX.test(cypher)) {
    throw new QueryRefusedError('send the query without EXPLAIN/PROFILE; it is planned and checked for you');
  }
  const text = codeOf(cypher);
  const tooLarge = sizeRefusal(cypher, text);
  if (tooLarge) throw new QueryRefusedError(tooLarge);
  for (const [re, why] of TEXT_RULES) if (re.test(text)) throw new QueryRefusedError(`refused: ${why}`);
  for (const name of calledNames(text)) {
    const hit = deniedName(name);
    if (hit) throw new QueryRefusedError(`refused: ${name} is not allowed (${hit}* reaches outside the graph)`);
  }
}

/**
 * Refuses a query by its `EXPLAIN` result: the query type must be a read (`r`), every
 * operator must run on `database`, and no operator may load files, administer the server or
 * call a denied procedure.
 * @throws QueryRefusedError naming the rule.
 */
export function checkPlan(queryType: string | undefined, plan: Plan | false | undefined, database: string): void {
  if (queryType !== 'r') {
    const kind = { w: 'writes', rw: 'reads and writes', s: 'changes the schema or the server' }[queryType ?? ''] ?? 'is not a read';
    throw new QueryRefusedError(`refused: graph_query is read-only and this query ${kind}`);
  }
  if (!plan) return;
  const walk = (p: Plan) => {
    const [op, db] = p.operatorType.split('@');
    if (db && db !== database) throw new QueryRefusedError(`refused: the query reaches database "${db}"`);
    if (DENIED_OPERATORS.test(op!)) throw new QueryRefusedError(`refused: ${op} is not allowed in graph_query`);
    if (op === 'ProcedureCall') {
      const details = String(p.arguments?.Details ?? p.arguments?.details ?? '');
      const name = details.split('(')[0]!.trim();
      const hit = deniedName(name);
      if (hit) throw new QueryRefusedError(`refused: ${name} is not allowed (${hit}* reaches outside the graph)`);
    }
    for (const c of p.children) walk(c);
  };
  walk(plan);
}
