/**
 * Builds the web chat UI's browser files into `dist/public/ui/`: `app.js` (src/ui/client/main.ts
 * with marked and DOMPurify bundled in, minified), the chunks it imports on demand
 * (`chunk-<hash>.js`: Cytoscape.js for the graph view) and `app.css`. Called from tsup's `onSuccess`
 * so `npx tsup` / `npm run build` produce a dist/ that needs nothing from the internet.
 */
import { build } from 'esbuild';

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
  await build({
    entryPoints: { app: 'src/ui/client/main.ts' },
    outdir,
    bundle: true,
    format: 'esm',
    // Dynamic imports (the graph view's Cytoscape.js) become chunks loaded when first used.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    platform: 'browser',
    target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
    minify,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
  });
  await build({
    entryPoints: { app: 'src/ui/client/app.css' },
    outdir,
    bundle: true,
    minify,
    logLevel: 'warning',
  });
}
