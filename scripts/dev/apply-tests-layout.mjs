#!/usr/bin/env node
/**
 * Moves test files to the layout in a map ({"old path": "new path"}, repo-relative) and fixes
 * every reference to a moved file, or from one. Run from the repo root:
 *
 *   node scripts/dev/apply-tests-layout.mjs [scripts/dev/tests-layout.json] [--dry]
 *
 * - Moves with `git mv` each mapped file that exists (untracked files: a plain rename); files
 *   not in the map stay where they are.
 * - Code (.ts .mts .cts .js .mjs .cjs): every relative specifier of `from`, `import`, `import()`,
 *   `export … from`, `vi.mock`/`vi.doMock`/`vi.importActual`/`vi.importMock`, `require()`,
 *   `import.meta.resolve()` and `new URL('…', import.meta.url)` is resolved against the file's old
 *   place, mapped (a `.js` specifier names its `.ts` source; a folder keeps its trailing slash)
 *   and made relative again to the file's new place.
 * - Text (code, .md, .sh, .json, .yml, .toml): repo-relative mentions of a moved file
 *   (`test/integration/chat-harness.ts`, `…/chat-harness.js`, `…/chat-harness`) become the new
 *   path, and a bare `name.test.ts` whose name is unique becomes the new repo path. Shell files
 *   get full-name mentions only: a prefix such as `test/integration/http` there is a vitest filter
 *   (several files), so it is left for a person to rewrite.
 * - EXTRA lists the few paths built at run time (a folder joined with a name).
 *
 * Re-runnable: on a tree already moved it changes nothing, and files others added since (in the
 * old layout or the new) get their imports fixed all the same.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const P = path.posix;
const args = process.argv.slice(2);
const DRY = args.includes('--dry');
const mapFile = args.find((a) => !a.startsWith('--')) ?? 'scripts/dev/tests-layout.json';
const full = JSON.parse(fs.readFileSync(mapFile, 'utf8'));
const map = Object.fromEntries(Object.entries(full).filter(([o, n]) => o !== n));

/** Paths assembled at run time: [file (old or new path), text, replacement]. */
// biome-ignore format: one rewrite a line
const EXTRA = [
  [
    'test/helpers/child-process.ts',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
    '`${ROOT}test/integration/${name}.ts`',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the same, rewritten
    '`${ROOT}test/integration/helpers/${name}.ts`',
  ],
  [
    'test/helpers/child-process.ts',
    '/** Bundles test/integration/<name>.ts',
    '/** Bundles test/integration/helpers/<name>.ts',
  ],
];

const SKIP = new Set([mapFile, 'scripts/dev/apply-tests-layout.mjs', 'package-lock.json']);
const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && !SKIP.has(f) && !/(^|\/)(node_modules|dist|test-output|\.local)\//.test(f))
  .filter((f) => fs.existsSync(f) && fs.statSync(f).isFile());

const CODE = /\.(ts|mts|cts|tsx|js|mjs|cjs)$/;
const TEXT = /\.(ts|mts|cts|tsx|js|mjs|cjs|md|sh|json|jsonc|ya?ml|toml)$/;
const moving = (f) => (map[f] && fs.existsSync(f) ? map[f] : f);

/** The file a resolved path names after the move (`.js` → its `.ts` source when that is mapped). */
function mapTarget(abs) {
  if (map[abs]) return map[abs];
  for (const [from, to] of [
    ['.js', '.ts'],
    ['.mjs', '.mts'],
    ['', '.ts'],
  ]) {
    if (!abs.endsWith(from)) continue;
    const src = abs.slice(0, abs.length - from.length) + to;
    if (map[src]) return map[src].slice(0, map[src].length - to.length) + from;
  }
  return abs;
}

function respec(oldFile, newFile, spec) {
  const dirSlash = spec.endsWith('/') || spec === '.' || spec === '..';
  const abs = P.normalize(P.join(P.dirname(oldFile), spec));
  const target = mapTarget(abs);
  if (target === abs && oldFile === newFile) return spec;
  let rel = P.relative(P.dirname(newFile), target) || '.';
  if (!rel.startsWith('.')) rel = `./${rel}`;
  if (dirSlash && !rel.endsWith('/')) rel += '/';
  return rel;
}

const SPEC_RE =
  /((?:\bfrom|\bimport|\bvi\.(?:mock|doMock|unmock|importActual|importMock)|\brequire|import\.meta\.resolve)\s*\(?\s*|new URL\(\s*)(['"`])(\.{1,2}(?:\/[^'"`\n$]*)?)\2/g;

function rewriteSpecs(text, oldFile, newFile) {
  return text.replace(SPEC_RE, (m, pre, q, spec, offset) => {
    // `new URL('…')` counts only beside import.meta.url (not a request URL).
    if (pre.startsWith('new URL') && !/^\s*,\s*import\.meta\.url/.test(text.slice(offset + m.length))) return m;
    const next = respec(oldFile, newFile, spec);
    return next === spec ? m : pre + q + next + q;
  });
}

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const stem = (p) => p.replace(/\.ts$/, '');
const olds = Object.keys(map).sort((a, b) => b.length - a.length);
// test/x/name(.test)?(.ts|.js)? not part of a longer name or path.
const MENTION_RE = new RegExp(
  `(?<![\\w-])(${olds.map((o) => esc(stem(o).replace(/\.test$/, ''))).join('|')})(\\.test)?(\\.ts|\\.js)?(?![\\w/*-])`,
  'g',
);
const stemOf = new Map(olds.map((o) => [stem(o).replace(/\.test$/, ''), o]));
function rewriteMentions(text, shell) {
  return text.replace(MENTION_RE, (m, s, test, ext) => {
    const old = stemOf.get(s);
    const isTest = old.endsWith('.test.ts');
    if (isTest && !test && ext) return m; // `name.ts` beside `name.test.ts`: another file
    if (shell && !ext) return m; // a vitest filter; see the header
    const to = stem(map[old]).replace(/\.test$/, '');
    return to + (test ?? '') + (ext ?? '');
  });
}

// Bare `name.test.ts` in prose, when only one moved test file has that name.
const byBase = new Map();
for (const o of olds.filter((o) => o.endsWith('.test.ts'))) {
  const b = P.basename(o);
  byBase.set(b, byBase.has(b) ? null : o);
}
const bases = [...byBase].filter(([b, o]) => o && P.basename(map[o]) !== b).map(([b]) => b);
const BASE_RE = bases.length ? new RegExp(`(?<![\\w/.-])(${bases.map(esc).join('|')})(?![\\w-])`, 'g') : null;

const out = new Map();
for (const f of files.filter((x) => TEXT.test(x))) {
  const src = fs.readFileSync(f, 'utf8');
  const to = moving(f);
  let next = src;
  // A file others added in the new layout, or a re-run: its specifiers already name new places.
  if (CODE.test(f)) next = rewriteSpecs(next, f, to);
  next = rewriteMentions(next, f.endsWith('.sh'));
  if (BASE_RE) next = next.replace(BASE_RE, (b) => map[byBase.get(b)]);
  for (const [file, a, b] of EXTRA) if (file === f || map[file] === f || map[file] === to) next = next.split(a).join(b);
  if (next !== src) out.set(f, next);
}

const moves = Object.entries(map).filter(([o]) => fs.existsSync(o));
for (const [o, n] of moves) if (fs.existsSync(n)) throw new Error(`${n} exists already (moving ${o})`);
if (DRY) {
  for (const f of out.keys()) console.log('rewrite', f);
  for (const [o, n] of moves) console.log('move', o, '->', n);
  process.exit(0);
}
for (const [f, s] of out) fs.writeFileSync(f, s);
const touched = [...out.keys()].map(moving).filter((f) => /\.(ts|mts|cts|js|mjs|cjs|json|jsonc)$/.test(f));
const tracked = new Set(execFileSync('git', ['ls-files'], { encoding: 'utf8' }).split('\n'));
for (const [o, n] of moves) {
  fs.mkdirSync(P.dirname(n), { recursive: true });
  if (tracked.has(o)) execFileSync('git', ['mv', o, n]);
  else fs.renameSync(o, n);
}
// Longer paths can push an import over the line width: format what was touched, nothing else.
if (touched.length) execFileSync('npx', ['biome', 'format', '--write', '--no-errors-on-unmatched', ...touched], { stdio: 'inherit' });
console.log(`rewrote ${out.size} files, moved ${moves.length}`);
