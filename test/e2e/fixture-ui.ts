/**
 * The real UI server (page, built client, `/api` proxy) in this process, in front of a scripted
 * API (the fixture API, or a suite's own), for the browser suites that need exact, steerable answers.
 */
import { serve } from '@hono/node-server';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { buildUi } from '../../scripts/build-ui.js';
import { createLogger } from '../../src/lib/log.js';
import { createUiApp } from '../../src/ui/app.js';
import type { ApiFetch } from '../../src/ui/proxy.js';
import { launchBrowser } from './browser.js';
import { createFixtureApi, type FixtureApi } from './fixture-api.js';

/** A running UI server. */
export interface ServedUi {
  url: string;
  close(): void;
}

/** Builds the client into `outdir/ui` (its own per suite) and serves the UI on a free port, forwarding `/api/*` to `api`. */
export async function serveUi(outdir: string, api: ApiFetch): Promise<ServedUi> {
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

/** A running UI on the fixture API. */
export interface FixtureUi {
  fixture: FixtureApi;
  uiUrl: string;
  close(): void;
}

/** The UI in front of a fresh fixture API that knows `anon`. */
export async function startFixtureUi(outdir: string, anon: string): Promise<FixtureUi> {
  const fixture = createFixtureApi(anon);
  const { url, close } = await serveUi(outdir, (req) => fixture.app.fetch(req));
  return { fixture, uiUrl: url, close };
}

/** A browser suite's shared handles, filled in by the hooks {@link fixtureSuite} registers. */
export interface FixtureSuite {
  fixture: FixtureApi;
  /** The UI's address. */
  url: string;
  browser: Browser;
}

/** Registers hooks that start the fixture UI and a browser before the file's tests and stop them after. */
export function fixtureSuite(outdir: string, anon: string): FixtureSuite {
  const suite = {} as FixtureSuite;
  let close: (() => void) | undefined;
  beforeAll(async () => {
    const ui = await startFixtureUi(outdir, anon);
    close = ui.close;
    Object.assign(suite, { fixture: ui.fixture, url: ui.uiUrl, browser: await launchBrowser() });
  });
  afterAll(async () => {
    await suite.browser?.close();
    close?.();
  });
  return suite;
}
