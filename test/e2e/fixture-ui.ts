/**
 * The real UI server (page, built client files, `/api` proxy) on a random port in front of a
 * scripted API, for the browser suites that need no real service: the client is built into
 * its own folder first, so suites never share build output.
 */
import { serve } from '@hono/node-server';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { buildUi } from '../../scripts/build-ui.js';
import { createLogger } from '../../src/lib/log.js';
import { createUiApp } from '../../src/ui/app.js';
import type { ApiFetch } from '../../src/ui/proxy.js';

/** A running UI server. */
export interface FixtureUi {
  url: string;
  close(): void;
}

/** Builds the client into `outdir/ui` and serves the UI, forwarding `/api/*` to `api`. */
export async function startFixtureUi(outdir: string, api: ApiFetch): Promise<FixtureUi> {
  await buildUi({ outdir: `${outdir}/ui` });
  const ui = createUiApp(
    {
      log: createLogger('silent'),
      assets: (p) =>
        readFile(`${outdir}/${p}`).then(
          (b) => new Uint8Array(b),
          () => null,
        ),
    },
    api,
  );
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: ui.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}
