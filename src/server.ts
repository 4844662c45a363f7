/**
 * Start-up shared by the runtime entries: parse config, build the dependencies once, serve the
 * app, and shut down in order (stop accepting, then close the drivers). Runtime-neutral: the
 * entry passes in how to listen and how to read static files.
 */
import { createApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import type { AppDeps, AssetLoader } from './deps.js';
import { createGraphStore } from './graph/driver.js';
import { createLogger } from './lib/log.js';
import { createKvStore } from './store/redis.js';

/** A fetch handler, as every runtime's server takes it. */
export type FetchHandler = (req: Request) => Response | Promise<Response>;

/** A listening server. */
export interface ServerHandle {
  close(): Promise<void>;
}

/** How a runtime listens: `serve(handler, port)` resolves once it accepts connections. */
export type Serve = (fetch: FetchHandler, port: number) => Promise<ServerHandle>;

/** What a runtime entry provides. */
export interface StartOptions {
  env: Record<string, string | undefined>;
  serve: Serve;
  assets: AssetLoader;
  runtime: string;
}

/** A running service; `stop()` is idempotent. */
export interface RunningService {
  config: Config;
  deps: AppDeps;
  stop(): Promise<void>;
}

/** Builds the real dependencies from config. */
export function createDeps(config: Config, assets: AssetLoader, runtime = 'node'): AppDeps {
  const log = createLogger(config.LOG_LEVEL, { runtime });
  return {
    config,
    log,
    assets,
    graph: createGraphStore(config),
    kv: createKvStore({ url: config.KVSTORE_URL }),
  };
}

/**
 * Parses config and starts serving.
 * @throws ConfigError with a one-line message when the environment is invalid.
 */
export async function startService(opts: StartOptions): Promise<RunningService> {
  const config = loadConfig(opts.env);
  const deps = createDeps(config, opts.assets, opts.runtime);
  const app = createApp(deps);
  const server = await opts.serve(app.fetch, config.PORT);
  deps.log.info('listening', { port: config.PORT, graph: config.GRAPHDB_GRAPH });

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      deps.log.info('shutting down');
      await server.close();
      await Promise.allSettled([deps.graph.close(), deps.kv.close()]);
    })());
  return { config, deps, stop };
}

/** Prints a start-up failure as one line (config errors) or a short message, for the entries. */
export function describeStartError(err: unknown): string {
  if (err instanceof ConfigError) return err.message;
  return `start-up failed: ${err instanceof Error ? err.message : String(err)}`;
}
