/**
 * Test child processes (a worker or a sync killed mid-work): bundled with tsup into
 * test-output/<name>/<name>.js, so a plain `node` runs them without a TypeScript loader.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Bundles test/integration/helpers/<name>.ts and returns the path of the script to run. */
export async function bundleTestChild(name: string): Promise<string> {
  await build({
    config: false,
    entry: { [name]: `${ROOT}test/integration/helpers/${name}.ts` },
    outDir: `${ROOT}test-output/${name}`,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    silent: true,
    clean: false,
  });
  return `${ROOT}test-output/${name}/${name}.js`;
}
