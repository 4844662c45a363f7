/**
 * The real UI server (page, built client, `/api` proxy) in this process, in front of the
 * scripted fixture API, for the browser suites that need exact, steerable answers.
 */
import { serve } from '@hono/node-server';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { buildUi } from '../../scripts/build-ui.js';
import { createLogger } from '../../src/lib/log.js';
import { createUiApp } from '../../src/ui/app.js';
import { createFixtureApi, type FixtureApi } from './fixture-api.js';

/** A running UI on the fixture API. */
export interface FixtureUi {
  fixture: FixtureApi;
  uiUrl: string;
  close(): void;
}

/** Builds the client into `outdir` (its own per suite) and serves it on a free port. */
export async function startFixtureUi(outdir: string, anon: string): Promise<FixtureUi> {
  await buildUi({ outdir: `${outdir}/ui` });
  const fixture = createFixtureApi(anon);
  const ui = createUiApp(
    {
      log: createLogger('silent'),
      assets: (p) =>
        readFile(`${outdir}/${p}`).then(
          (b) => new Uint8Array(b),
          () => null,
        ),
    },
    (req) => fixture.app.fetch(req),
  );
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: ui.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  return { fixture, uiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}
