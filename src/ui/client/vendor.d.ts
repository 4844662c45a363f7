/** highlightjs-cypher ships no types: it is a highlight.js language definition. */
declare module 'highlightjs-cypher' {
  import type { LanguageFn } from 'highlight.js';

  const cypher: LanguageFn;
  export default cypher;
}
