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

/**
 * The operators, pattern relationships, node patterns and nesting depth of `code` (strings and
 * comments blanked), in one pass. Depth follows the tree Neo4j builds: a chain `a + b + c` nests
 * one level per operator, while AND and OR lists are flat. A word is a keyword only where a keyword can
 * stand (END after an operand, inside a CASE; WHEN after an operand), since `end`, `when` and
 * `case` are also legal variable names.
 */
function measure(code: string): { operators: number; relationships: number; nodes: number; depth: number } {
  // A frame per open bracket or CASE, with the length of the operator chain inside it so far.
  const frames = [{ isCase: false, chain: 0 }];
  let depth = 0; // open frames beyond the first plus every frame's chain
  let max = 0;
  let operators = 0;
  let relationships = 0;
  let nodes = 0;
  let operand = false; // the last token ends an operand: a name, literal or closed bracket
  let afterCase = false;
  let last = 0; // the last character that is not space
  let spaced = false; // space stands between that character and this one
  const top = () => frames[frames.length - 1]!;
  const link = () => {
    top().chain++;
    max = Math.max(max, ++depth);
  };
  const cut = () => {
    depth -= top().chain;
    top().chain = 0;
  };
  const open = (isCase: boolean) => {
    frames.push({ isCase, chain: 0 });
    max = Math.max(max, ++depth);
  };
  const close = () => {
    depth -= 1 + frames.pop()!.chain;
  };
  for (let i = 0; i < code.length; ) {
    const c = code.charCodeAt(i);
    const ch = code[i]!;
    let next = i + 1;
    let isOperand = false;
    if (isSpace(c)) {
      i++;
      spaced = true;
      continue;
    }
    if (isWordChar(c)) {
      const digits = isDigit(c); // a number's decimal point is no property access
      while (
        next < code.length &&
        (isWordChar(code.charCodeAt(next)) || (digits && code[next] === '.' && isDigit(code.charCodeAt(next + 1))))
      )
        next++;
      const word = next - i <= 8 ? code.slice(i, next).toUpperCase() : '';
      const named = last === 46 || last === 36; // after `.` or `$`: a property or parameter
      if (named) isOperand = true;
      else if (word === 'CASE') open(true);
      else if (word === 'END' && operand && top().isCase) {
        close();
        isOperand = true;
      } else if (SEPARATOR_WORDS.has(word) && (operand || afterCase)) {
        if (word !== 'THEN' && word !== 'ELSE') operators++;
        cut();
      } else if (word === 'NOT' || (OPERATOR_WORDS.has(word) && operand)) {
        operators++;
        link();
      } else if (word === 'WITH' && !operand && (last === 83 || last === 115)) {
        // STARTS WITH / ENDS WITH: one operator, already counted
      } else {
        // A name or literal right after another ends the expression (`… RETURN x`).
        if (operand) cut();
        isOperand = true;
      }
      afterCase = word === 'CASE' && !named;
    } else {
      afterCase = false;
      if (ch === "'") {
        const end = code.indexOf("'", next);
        next = end < 0 ? code.length : end + 1;
        if (operand) cut();
        isOperand = true;
      } else if (ch === '(' || ch === '[' || ch === '{') {
        // A call, an index or a map projection is one more link in the chain (`RETURN (` is not).
        if (operand && (!spaced || last === 41 || last === 93 || last === 125)) link();
        else if (ch === '(') nodes++;
        open(false);
      } else if (ch === ')' || ch === ']' || ch === '}') {
        while (frames.length > 1 && top().isCase) close();
        if (frames.length > 1) close();
        isOperand = true;
      } else if (ch === ',' || ch === ';') {
        if (ch === ',') operators++;
        cut();
      } else if (ch === '.') link();
      else if (OPERATOR_CHARS.has(ch)) {
        while (next < code.length && OPERATOR_CHARS.has(code[next]!)) next++;
        let after = next;
        while (after < code.length && isSpace(code.charCodeAt(after))) after++;
        const run = code.slice(i, next);
        // A pattern's arrow stands between a node and a relationship or node: `)-[`, `]->(`, `)--(`.
        const arrow = (last === 41 && (code[after] === '(' || code[after] === '[')) || (last === 93 && code[after] === '(');
        if (arrow && [...run].every((x) => ARROW_CHARS.has(x))) {
          if (last === 41) relationships++; // counted once, after the node on its left
        } else {
          for (let k = i; k < next; k++) link();
          operators += next - i;
        }
      }
    }
    operand = isOperand;
    spaced = false;
    last = code.charCodeAt(next - 1);
    i = next;
  }
  return { operators, relationships, nodes, depth: max };
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
