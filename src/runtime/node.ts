/** Node entry: `node dist/node.js`. Listens with @hono/node-server; SIGTERM/SIGINT stop it. */
import { serve } from '@hono/node-server';
import { readFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { describeStartError } from '../config.js';
import { setClientAddress } from '../lib/client-address.js';
import { startService, type Serve } from '../server.js';
import { createNodeFetch } from './node-fetch.js';

const PUBLIC = new URL('./public/', import.meta.url);

/** Connections still busy this long after shutdown starts (open streams) are cut. */
const CLOSE_GRACE_MS = 2_000;

const nodeServe: Serve = (fetch, port, hostname) =>
  new Promise((resolve) => {
    const server = serve(
      {
        fetch: (req, env: { incoming?: { socket?: { remoteAddress?: string } } }) => {
          setClientAddress(req, env.incoming?.socket?.remoteAddress);
          return fetch(req);
        },
        port,
        hostname,
      },
      () =>
        resolve({
          close: () =>
            new Promise<void>((done) => {
              const http = server as Server;
              http.close(() => done());
              // Without this, idle keep-alive connections hold shutdown for their 5 s timeout.
              http.closeIdleConnections();
              setTimeout(() => http.closeAllConnections(), CLOSE_GRACE_MS).unref();
            }),
        }),
    );
  });

try {
  const service = await startService({
    env: process.env,
    serve: nodeServe,
    runtime: 'node',
    fetch: createNodeFetch(),
    assets: (path) =>
      readFile(new URL(path, PUBLIC)).then(
        (b) => new Uint8Array(b),
        () => null,
      ),
  });
  const onSignal = () => void service.stop().then(() => process.exit(0));
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
} catch (err) {
  console.error(describeStartError(err));
  process.exit(1);
}
