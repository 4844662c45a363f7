/**
 * The policy half of read-only Cypher: what `graph_query` refuses before and after `EXPLAIN`.
 * A READ access-mode transaction already stops writes, but some "read" statements reach
 * outside the graph or the transaction: `LOAD CSV` reads files and URLs, `dbms.*` lists server
 * settings and connections, `SHOW SETTINGS` / `TERMINATE TRANSACTIONS` plan as reads, and APOC
 * (when installed) adds loaders and `apoc.cypher.run*` that would smuggle a query past this
 * check. The text check catches them early with a clear message; the plan check sees through
 * quoting, comments and spacing.
 */
import type { Plan } from 'neo4j-driver';

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
  let code = '';
  for (let i = 0; i < cypher.length; i++) {
    const ch = cypher[i]!;
    const next = cypher[i + 1];
    if (ch === '/' && next === '/') {
      while (i < cypher.length && cypher[i] !== '\n') i++;
      code += ' ';
    } else if (ch === '/' && next === '*') {
      const end = cypher.indexOf('*/', i + 2);
      i = end < 0 ? cypher.length : end + 1;
      code += ' ';
    } else if (ch === "'" || ch === '"') {
      let text = '';
      for (i++; i < cypher.length && cypher[i] !== ch; i++) {
        if (cypher[i] === '\\' && i + 1 < cypher.length) {
          const e = cypher[++i]!;
          text += e === 'n' ? '\n' : e === 't' ? '\t' : e;
        } else text += cypher[i];
      }
      code += `'#${strings.length}'`;
      strings.push(text);
    } else if (ch === '`') {
      const end = cypher.indexOf('`', i + 1);
      code += cypher.slice(i + 1, end < 0 ? cypher.length : end);
      i = end < 0 ? cypher.length : end;
    } else code += ch;
  }
  return { code: code.replace(/\s*\.\s*/g, '.'), strings };
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

/** Deepest nesting of (), [] and {} a query may have. */
export const MAX_NESTING = 64;

/** The deepest nesting of brackets in `code` (strings and comments already blanked). */
function nestingDepth(code: string): number {
  let depth = 0;
  let max = 0;
  for (const ch of code) {
    if (ch === '(' || ch === '[' || ch === '{') max = Math.max(max, ++depth);
    else if (ch === ')' || ch === ']' || ch === '}') depth = Math.max(0, depth - 1);
  }
  return max;
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
  const depth = nestingDepth(text);
  // Neo4j's parser takes minutes to fail on a 50,000-deep expression, and no query a person or
  // a model writes nests anywhere near this deep.
  if (depth > MAX_NESTING) throw new QueryRefusedError(`refused: brackets nest ${depth} deep; at most ${MAX_NESTING} are allowed`);
  for (const [re, why] of TEXT_RULES) if (re.test(text)) throw new QueryRefusedError(`refused: ${why}`);
  for (const m of text.matchAll(/\b([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)+)\s*\(/g)) {
    const hit = deniedName(m[1]!);
    if (hit) throw new QueryRefusedError(`refused: ${m[1]} is not allowed (${hit}* reaches outside the graph)`);
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
