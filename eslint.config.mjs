/**
 * ESLint (`npm run lint:eslint`, part of `npm run lint` and so of `npm test`) for what Biome
 * does not check. Sizes: no file of src/ over 400 lines and no function over 100, so that a
 * module stays readable in one sitting and logic is not buried in one long closure. ReDoS: every regular
 * expression in src/ is checked by eslint-plugin-regexp for exponential or polynomial
 * backtracking and for quadratic scans, since most of them read outside input (Cypher from a
 * model or an MCP client, request fields, the user's graph). Biome does the rest of the linting. TypeScript 7 has no parser ESLint can load, so types are
 * stripped first by amaro (Node's own type stripper: whitespace in place of types, so line and
 * column numbers stay those of the source).
 */
import { transformSync } from 'amaro';
import regexp from 'eslint-plugin-regexp';

/** The file as JavaScript; `transform` (positions may shift) only for syntax strip-only refuses (parameter properties). */
function javascript(text) {
  try {
    return transformSync(text, { mode: 'strip-only' }).code;
  } catch {
    return transformSync(text, { mode: 'transform', sourceMap: false }).code;
  }
}

const stripTypes = {
  preprocess: (text) => [{ text: javascript(text), filename: '0.js' }],
  postprocess: (messages) => messages.flat(),
  supportsAutofix: false,
};

export default [
  { files: ['src/**/*.ts'], processor: stripTypes },
  {
    files: ['src/**/*.js'],
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
      'max-lines': ['error', { max: 400 }],
      'max-lines-per-function': ['error', { max: 100 }],
    },
  },
];
