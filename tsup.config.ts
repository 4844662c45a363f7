import { cpSync, mkdirSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { buildUi } from './scripts/build-ui.js';

/**
 * One ESM bundle: the runtime-neutral app is shared by the thin per-runtime entries and the CLI.
 * Packages stay external (node_modules), so the same dist/ runs under Node, Bun and Deno.
 */
export default defineConfig({
  entry: {
    node: 'src/runtime/node.ts',
    bun: 'src/runtime/bun.ts',
    deno: 'src/runtime/deno.ts',
    cli: 'src/cli/main.ts',
  },
  format: 'esm',
  target: 'es2022',
  platform: 'neutral',
  splitting: true,
  sourcemap: true,
  clean: true,
  outDir: 'dist',
  onSuccess: async () => {
    // Static files served by the app (the docs page), copied so that dist/ stands alone.
    mkdirSync('dist/public/docs', { recursive: true });
    for (const f of ['swagger-ui-bundle.js', 'swagger-ui.css']) {
      cpSync(`node_modules/swagger-ui-dist/${f}`, `dist/public/docs/${f}`);
    }
    // The web chat UI's browser bundle (dist/public/ui/app.js, app.css).
    await buildUi();
  },
});
