/**
 * The API alone, for `bench:search`: the real deps and app from the environment, served by
 * @hono/node-server on `BENCH_PORT` (default 0 = any free port); prints `listening <port>` once it accepts
 * connections. No UI and no chat worker, so the process serves searches only. On SIGTERM it prints
 * the event-loop delay it saw (stderr).
 */
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createNodeFetch } from '../../src/runtime/node-fetch.js';
import { createDeps } from '../../src/server.js';

const config = loadConfig(process.env);
// The Node entry's outbound client (src/runtime/node.ts), so the figures are the service's.
const deps = createDeps(config, async () => null, { fetch: createNodeFetch() });
const app = createApp(deps);
const server = serve({ fetch: app.fetch, port: Number(process.env.BENCH_PORT ?? 0) }, (info: AddressInfo) => {
  console.log(`listening ${info.port}`);
});
// How long callbacks waited for the event loop over the run (printed on exit, to stderr).
// A coarse resolution: at 1 ms the monitor itself cost the idle API ~2 % of a core.
const delay = monitorEventLoopDelay({ resolution: 20 });
delay.enable();
process.once('SIGTERM', () => {
  delay.disable();
  const ms = (ns: number) => (ns / 1e6).toFixed(1);
  console.error(`api event-loop delay: p50 ${ms(delay.percentile(50))} · p99 ${ms(delay.percentile(99))} · max ${ms(delay.max)} ms`);
  server.close();
  void Promise.allSettled([deps.graph.close(), deps.kv.close(), deps.embedders.close()]).then(() => process.exit(0));
});
