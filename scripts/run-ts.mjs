#!/usr/bin/env node
/**
 * Runs a TypeScript script of this repo under plain Node: bundles it (and the src/ modules it
 * imports) with esbuild into test-output/.run/, packages left external, then imports the bundle
 * with the remaining arguments in process.argv. Used by the benchmark and loader scripts.
 *
 * Usage: node scripts/run-ts.mjs <script.ts> [args...]
 */
import { build } from 'esbuild';
import { basename, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [entry, ...rest] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node scripts/run-ts.mjs <script.ts> [args...]');
  process.exit(2);
}
const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const outfile = resolve(root, 'test-output/.run', `${basename(entry, '.ts')}-${process.pid}.mjs`);
await build({
  entryPoints: [resolve(entry)],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  outfile,
  sourcemap: 'inline',
  logLevel: 'error',
});
process.argv = [process.argv[0], resolve(entry), ...rest];
try {
  await import(pathToFileURL(outfile).href);
} finally {
  const { rm } = await import('node:fs/promises');
  await rm(outfile, { force: true });
}
