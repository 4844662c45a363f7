/**
 * Builds the web chat UI's browser files into `dist/public/ui/`: `app.js` (src/ui/client/main.ts
 * with marked, DOMPurify and highlight.js bundled in, minified), the chunks it imports on demand
 * (`chunk-<hash>.js`: Cytoscape.js for the graph view), `theme.js` (the blocking script that sets
 * the theme before the first paint) and `app.css`. Called from tsup's `onSuccess`
 * so `npx tsup` / `npm run build` produce a dist/ that needs nothing from the internet.
 */
import { build, type BuildOptions } from 'esbuild';

/** Options of {@link buildUi}. */
export interface BuildUiOptions {
  /** Output folder (default `dist/public/ui`). */
  outdir?: string;
  /** Minify (default true). */
  minify?: boolean;
}

/** Bundles the client script and stylesheet. */
export async function buildUi(opts: BuildUiOptions = {}): Promise<void> {
  const outdir = opts.outdir ?? 'dist/public/ui';
  const minify = opts.minify ?? true;
  const script: BuildOptions = {
    outdir,
    bundle: true,
    platform: 'browser',
    target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
    minify,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
  };
  // Dynamic imports (the graph view's Cytoscape.js) become chunks loaded when first used.
  await build({ ...script, entryPoints: { app: 'src/ui/client/main.ts' }, format: 'esm', splitting: true, chunkNames: 'chunk-[hash]' });
  // A classic script (not a module, which would be deferred): it must run before the first paint.
  await build({ ...script, entryPoints: { theme: 'src/ui/client/theme-boot.ts' }, format: 'iife' });
  await build({
    entryPoints: { app: 'src/ui/client/app.css' },
    outdir,
    bundle: true,
    minify,
    logLevel: 'warning',
  });
}
