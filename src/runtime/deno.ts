/** Deno entry: `deno run -A dist/deno.js`. Listens with `Deno.serve`; SIGTERM/SIGINT stop it. */
import { describeStartError } from '../config.js';
import { setClientAddress } from '../lib/client-address.js';
import { startService, type Serve } from '../server.js';

declare const Deno: {
  serve(
    o: { port: number; hostname?: string; onListen?: () => void },
    fetch: (r: Request, info: { remoteAddr: { hostname?: string } }) => Response | Promise<Response>,
  ): { shutdown(): Promise<void>; finished: Promise<void> };
  readFile(path: URL): Promise<Uint8Array>;
  env: { toObject(): Record<string, string> };
  addSignalListener(sig: 'SIGTERM' | 'SIGINT', fn: () => void): void;
  exit(code: number): never;
};

const PUBLIC = new URL('./public/', import.meta.url);

const denoServe: Serve = (fetch, port, hostname) =>
  new Promise((resolve) => {
    const server = Deno.serve({ port, hostname, onListen: () => resolve({ close: () => server.shutdown() }) }, (req, info) => {
      setClientAddress(req, info.remoteAddr.hostname);
      return fetch(req);
    });
  });

try {
  const service = await startService({
    env: Deno.env.toObject(),
    serve: denoServe,
    runtime: 'deno',
    assets: (path) => Deno.readFile(new URL(path, PUBLIC)).catch(() => null),
  });
  const onSignal = () => void service.stop().then(() => Deno.exit(0));
  Deno.addSignalListener('SIGTERM', onSignal);
  Deno.addSignalListener('SIGINT', onSignal);
} catch (err) {
  console.error(describeStartError(err));
  Deno.exit(1);
}
