/**
 * `npm run bench:chat`: bundles scripts/bench-chat.ts (TypeScript sources, packages external)
 * into test-output/ and runs it with Node.
 */
import { build } from 'tsup';

const outDir = 'test-output/bench-chat';
await build({
  config: false,
  entry: { 'bench-chat': 'scripts/bench-chat.ts' },
  outDir,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  silent: true,
  clean: true,
});
await import(new URL(`../${outDir}/bench-chat.js`, import.meta.url).href);
