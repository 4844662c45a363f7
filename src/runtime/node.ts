/** Node entry: `node dist/node.js`. Listens with @hono/node-server; SIGTERM/SIGINT stop it. */
import { serve } from '@hono/node-server';
import { readFile } from 'node:fs/promises';
import { describeStartError, startService, type Serve } from '../server.js';

const PUBLIC = new URL('./public/', import.meta.url);

const nodeServe: Serve = (fetch, port) =>
  new Promise((resolve) => {
    const server = serve({ fetch, port }, () =>
      resolve({
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    );
  });

try {
  const service = await startService({
    env: process.env,
    serve: nodeServe,
    runtime: 'node',
    assets: (path) => readFile(new URL(path, PUBLIC)).then((b) => new Uint8Array(b), () => null),
  });
  const onSignal = () => void service.stop().then(() => process.exit(0));
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
} catch (err) {
  console.error(describeStartError(err));
  process.exit(1);
}
