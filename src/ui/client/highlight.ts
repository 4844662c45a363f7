/**
 * Syntax highlighting of fenced code blocks with highlight.js core and only the languages a graph
 * chat shows: Cypher (the grammar kept under the highlight.js organisation, `highlightjs-cypher`),
 * JSON, Bash, Python, JavaScript, TypeScript and SQL. A block without a language, or with one
 * not registered here, stays plain: guessing the language costs every grammar in the bundle.
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import cypher from 'highlightjs-cypher';

hljs.registerLanguage('cypher', cypher);
hljs.registerAliases(['cql', 'neo4j', 'opencypher'], { languageName: 'cypher' });
hljs.registerLanguage('json', json);
hljs.registerLanguage('bash', bash);
hljs.registerAliases(['sh', 'shell', 'console'], { languageName: 'bash' });
hljs.registerLanguage('python', python);
hljs.registerLanguage('javascript', javascript);
hljs.registerLanguage('typescript', typescript);
hljs.registerLanguage('sql', sql);

/** Class names highlight.js writes (`hljs-keyword`, `function_`) and the code element's own. */
const TOKEN_CLASS = /^(hljs(-[\w-]+)?|language-[a-z]+|[a-z]+_+)$/;

/** True when every class in `value` is one the highlighter writes (the sanitizer keeps only these). */
export function isHighlightClass(value: string): boolean {
  return value.split(/\s+/).every((c) => c === '' || TOKEN_CLASS.test(c));
}

/**
 * Highlights `code` as `lang`: the registered language's name and the highlighted HTML (the code
 * escaped, tokens in `<span class="hljs-…">`), or null for a language not registered here.
 */
export function highlightCode(code: string, lang: string | undefined): { language: string; html: string } | null {
  const language = lang ? hljs.getLanguage(lang.trim().toLowerCase()) : undefined;
  if (!language?.name) return null;
  // getLanguage accepted the name or an alias; the canonical key is what the class names.
  const key = hljs.listLanguages().find((l) => hljs.getLanguage(l) === language)!;
  return { language: key, html: hljs.highlight(code, { language: key, ignoreIllegals: true }).value };
}
