/** Bun entry: `bun dist/bun.js`. Listens with `Bun.serve`; SIGTERM/SIGINT stop it. */
import { describeStartError } from '../config.js';
import { setClientAddress } from '../lib/client-address.js';
import { startService, type Serve } from '../server.js';

declare const Bun: {
  serve(o: {
    fetch: (r: Request, server: { requestIP(r: Request): { address: string } | null }) => Response | Promise<Response>;
    port: number;
    hostname?: string;
    idleTimeout?: number;
  }): { stop(force?: boolean): Promise<void> };
  file(path: URL): { exists(): Promise<boolean>; bytes(): Promise<Uint8Array> };
  env: Record<string, string | undefined>;
};
declare const process: { once(sig: string, fn: () => void): void; exit(code: number): never };

const PUBLIC = new URL('./public/', import.meta.url);

// idleTimeout 0: SSE streams stay open between heartbeats.
const bunServe: Serve = async (fetch, port, hostname) => {
  const server = Bun.serve({
    fetch: (req, srv) => {
      setClientAddress(req, srv.requestIP(req)?.address);
      return fetch(req);
    },
    port,
    hostname,
    idleTimeout: 0,
  });
  return { close: () => server.stop() };
};

try {
  const service = await startService({
    env: Bun.env,
    serve: bunServe,
    runtime: 'bun',
    assets: async (path) => {
      const f = Bun.file(new URL(path, PUBLIC));
      return (await f.exists()) ? f.bytes() : null;
    },
  });
  const onSignal = () => void service.stop().then(() => process.exit(0));
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
} catch (err) {
  console.error(describeStartError(err));
  process.exit(1);
}
