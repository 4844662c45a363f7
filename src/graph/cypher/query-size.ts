/**
 * How large and how deep a query is, read in one pass over its code, and the bounds `graph_query`
 * holds it to before sending it: Neo4j cannot stop planning a query once it starts (a terminated
 * query plans on at a full core), and a deep enough expression overflows its stack and never
 * answers. Also the character classes the one-pass readers of ./read-guard.ts use.
 */

/** Characters a whole query may have; string literals are cheap to plan, so this bound is loose. */
export const MAX_QUERY_CHARS = 100_000;
/** Characters of code a query may have (comments dropped, string literals emptied). */
export const MAX_CODE_CHARS = 20_000;
/**
 * Operators a query may have: each comma, each character of `+ - * / % ^ = < > ~ | & !` outside
 * a pattern's arrows, and each AND, OR, XOR, NOT, IS, IN, CONTAINS, STARTS, ENDS and WHEN.
 */
export const MAX_OPERATORS = 300;
/**
 * Relationships a query's patterns may have in all (`(a)-[r]->(b)` and `(a)--(b)` count one).
 * Looser than the other bounds, whose worst case plans well under a second: the longest path it
 * lets through plans within the default timeout, and a question over a large schema may need
 * more relationships than that stricter margin allows (docs/benchmarks.md, "Queries too large to plan").
 */
export const MAX_RELATIONSHIPS = 16;
/** Node patterns a query may have, counted as the parentheses that call no function (so a bracketed expression counts too). */
export const MAX_NODE_PATTERNS = 64;
/**
 * Deepest nesting a query may have: each open bracket and `CASE … END` counts one, and so does
 * each link of a chain of operators, dots or indexes (`a + b + c` and `n.p.q` count two), which a
 * comma, AND, OR, XOR, WHEN, THEN or ELSE ends.
 */
export const MAX_NESTING = 32;

const SPACE = /\s/;
/** Whether a UTF-16 code unit is white space as `\s` reads it. */
export const isSpace = (c: number) => c === 32 || (c >= 9 && c <= 13) || (c > 127 && SPACE.test(String.fromCharCode(c)));
export const isDigit = (c: number) => c >= 48 && c <= 57;
/** Whether a code unit can be part of a name or number (`\w`, and any non-ASCII letter). */
const isWordChar = (c: number) => isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || (c > 127 && !isSpace(c));

const SEPARATOR_WORDS = new Set(['AND', 'OR', 'XOR', 'WHEN', 'THEN', 'ELSE']);
const OPERATOR_WORDS = new Set(['NOT', 'IS', 'IN', 'CONTAINS', 'STARTS', 'ENDS']);
const OPERATOR_CHARS = new Set('+-*/%^=<>~|&!');
const ARROW_CHARS = new Set('-<>');

/** Where {@link measure} is in a query's code, and what it has counted so far. */
interface Scan {
  code: string;
  /** A frame per open bracket or CASE, with the length of the operator chain inside it so far. */
  frames: { isCase: boolean; chain: number }[];
  /** Open frames beyond the first plus every frame's chain. */
  depth: number;
  /** The deepest {@link Scan.depth} so far. */
  max: number;
  operators: number;
  relationships: number;
  nodes: number;
  /** The last token ends an operand: a name, literal or closed bracket. */
  operand: boolean;
  /** The last token is the word CASE. */
  afterCase: boolean;
  /** The last character that is not space. */
  last: number;
  /** Space stands between that character and this one. */
  spaced: boolean;
}

/** A token read: where the next one starts, and whether this one ends an operand. */
interface Token {
  next: number;
  isOperand: boolean;
}

const top = (s: Scan) => s.frames[s.frames.length - 1]!;

/** One more link in the current frame's operator chain. */
function link(s: Scan): void {
  top(s).chain++;
  s.max = Math.max(s.max, ++s.depth);
}

/** Ends the current frame's operator chain (a comma, AND, OR, …). */
function cut(s: Scan): void {
  s.depth -= top(s).chain;
  top(s).chain = 0;
}

/** Opens a bracket or a CASE. */
function open(s: Scan, isCase: boolean): void {
  s.frames.push({ isCase, chain: 0 });
  s.max = Math.max(s.max, ++s.depth);
}

/** Closes the innermost bracket or CASE, and its chain. */
function close(s: Scan): void {
  s.depth -= 1 + s.frames.pop()!.chain;
}

/**
 * What word `word` does where it stands (`named`: after `.` or `$`, a property or parameter);
 * returns whether it is an operand. A keyword counts only where a keyword can stand.
 */
function applyWord(s: Scan, word: string, named: boolean): boolean {
  if (named) return true;
  if (word === 'CASE') open(s, true);
  else if (word === 'END' && s.operand && top(s).isCase) {
    close(s);
    return true;
  } else if (SEPARATOR_WORDS.has(word) && (s.operand || s.afterCase)) {
    if (word !== 'THEN' && word !== 'ELSE') s.operators++;
    cut(s);
  } else if (word === 'NOT' || (OPERATOR_WORDS.has(word) && s.operand)) {
    s.operators++;
    link(s);
  } else if (word === 'WITH' && !s.operand && (s.last === 83 || s.last === 115)) {
    // STARTS WITH / ENDS WITH: one operator, already counted
  } else {
    // A name or literal right after another ends the expression (`… RETURN x`).
    if (s.operand) cut(s);
    return true;
  }
  return false;
}

/** Reads the name, keyword or number at `i`. */
function readWord(s: Scan, i: number): Token {
  const { code } = s;
  const digits = isDigit(code.charCodeAt(i)); // a number's decimal point is no property access
  let next = i + 1;
  while (next < code.length && (isWordChar(code.charCodeAt(next)) || (digits && code[next] === '.' && isDigit(code.charCodeAt(next + 1)))))
    next++;
  const word = next - i <= 8 ? code.slice(i, next).toUpperCase() : '';
  const named = s.last === 46 || s.last === 36; // after `.` or `$`: a property or parameter
  const isOperand = applyWord(s, word, named);
  s.afterCase = word === 'CASE' && !named;
  return { next, isOperand };
}

/**
 * Reads the run of operator characters at `i`: a pattern's arrow (`)-[`, `]->(`, `)--(`) counts
 * one relationship, anything else one operator and one link per character. Returns where it ends.
 */
function readOperators(s: Scan, i: number): number {
  const { code } = s;
  let next = i + 1;
  while (next < code.length && OPERATOR_CHARS.has(code[next]!)) next++;
  let after = next;
  while (after < code.length && isSpace(code.charCodeAt(after))) after++;
  const run = code.slice(i, next);
  // A pattern's arrow stands between a node and a relationship or node: `)-[`, `]->(`, `)--(`.
  const arrow = (s.last === 41 && (code[after] === '(' || code[after] === '[')) || (s.last === 93 && code[after] === '(');
  if (arrow && [...run].every((x) => ARROW_CHARS.has(x))) {
    if (s.last === 41) s.relationships++; // counted once, after the node on its left
  } else {
    for (let k = i; k < next; k++) link(s);
    s.operators += next - i;
  }
  return next;
}

/** Reads the string literal, bracket, separator, dot or operators at `i`. */
function readSymbol(s: Scan, i: number): Token {
  const { code } = s;
  const ch = code[i]!;
  s.afterCase = false;
  if (ch === "'") {
    const end = code.indexOf("'", i + 1);
    if (s.operand) cut(s);
    return { next: end < 0 ? code.length : end + 1, isOperand: true };
  }
  if (ch === '(' || ch === '[' || ch === '{') {
    // A call, an index or a map projection is one more link in the chain (`RETURN (` is not).
    if (s.operand && (!s.spaced || s.last === 41 || s.last === 93 || s.last === 125)) link(s);
    else if (ch === '(') s.nodes++;
    open(s, false);
  } else if (ch === ')' || ch === ']' || ch === '}') {
    while (s.frames.length > 1 && top(s).isCase) close(s);
    if (s.frames.length > 1) close(s);
    return { next: i + 1, isOperand: true };
  } else if (ch === ',' || ch === ';') {
    if (ch === ',') s.operators++;
    cut(s);
  } else if (ch === '.') link(s);
  else if (OPERATOR_CHARS.has(ch)) return { next: readOperators(s, i), isOperand: false };
  return { next: i + 1, isOperand: false };
}

/**
 * The operators, pattern relationships, node patterns and nesting depth of `code` (strings and
 * comments blanked), in one pass. Depth follows the tree Neo4j builds: a chain `a + b + c` nests
 * one level per operator, while AND and OR lists are flat. A word is a keyword only where a keyword can
 * stand (END after an operand, inside a CASE; WHEN after an operand), since `end`, `when` and
 * `case` are also legal variable names.
 */
function measure(code: string): { operators: number; relationships: number; nodes: number; depth: number } {
  const s: Scan = {
    code,
    frames: [{ isCase: false, chain: 0 }],
    depth: 0,
    max: 0,
    operators: 0,
    relationships: 0,
    nodes: 0,
    operand: false,
    afterCase: false,
    last: 0,
    spaced: false,
  };
  for (let i = 0; i < code.length; ) {
    const c = code.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      s.spaced = true;
      continue;
    }
    const { next, isOperand } = isWordChar(c) ? readWord(s, i) : readSymbol(s, i);
    s.operand = isOperand;
    s.spaced = false;
    s.last = code.charCodeAt(next - 1);
    i = next;
  }
  return { operators: s.operators, relationships: s.relationships, nodes: s.nodes, depth: s.max };
}

const fmt = (n: number) => n.toLocaleString('en-US');
// Neo4j cannot stop planning once it starts: a terminated query plans on at a full core.
const UNSTOPPABLE = 'because Neo4j cannot stop planning a query once it starts';

/**
 * Why a query is too large or too deep to plan within the timeout (figures: docs/benchmarks.md,
 * "Queries too large to plan"), or undefined when it is not; `code` is its {@link codeOf} text.
 * Linear in the query's length.
 */
export function sizeRefusal(cypher: string, code: string): string | undefined {
  if (cypher.length > MAX_QUERY_CHARS) {
    return `refused: the query is ${fmt(cypher.length)} characters long; at most ${fmt(MAX_QUERY_CHARS)} are allowed — pass long values as parameters ($name)`;
  }
  if (code.length > MAX_CODE_CHARS) {
    return `refused: the query has ${fmt(code.length)} characters of code; at most ${fmt(MAX_CODE_CHARS)} are allowed, ${UNSTOPPABLE} — split it, or pass values as a list parameter: WHERE n.x IN $values`;
  }
  const { operators, relationships, nodes, depth } = measure(code);
  if (operators > MAX_OPERATORS) {
    return `refused: the query has ${fmt(operators)} operators; at most ${fmt(MAX_OPERATORS)} are allowed, ${UNSTOPPABLE} — split it, or pass values as a list parameter: WHERE n.x IN $values`;
  }
  if (depth > MAX_NESTING) {
    return `refused: brackets, CASE and operator chains nest ${fmt(depth)} deep; at most ${MAX_NESTING} are allowed, because deeper expressions take Neo4j long to plan or crash it without an answer — flatten it`;
  }
  if (relationships > MAX_RELATIONSHIPS) {
    return `refused: the query's patterns have ${fmt(relationships)} relationships; at most ${MAX_RELATIONSHIPS} are allowed, ${UNSTOPPABLE} — split it into smaller queries`;
  }
  if (nodes > MAX_NODE_PATTERNS) {
    return `refused: the query has ${fmt(nodes)} node patterns and bracketed expressions; at most ${MAX_NODE_PATTERNS} are allowed, ${UNSTOPPABLE} — split it into smaller queries`;
  }
  return undefined;
}
