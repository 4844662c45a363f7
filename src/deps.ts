/**
 * The dependencies `createApp` receives. Runtime entries build the real ones; tests build the
 * same ones against servers on their own ports.
 */
import type { Config } from './config.js';
import type { GraphStore } from './graph/driver.js';
import type { Logger } from './lib/log.js';
import type { KvStore } from './store/redis.js';

/** Reads a static file shipped in `dist/public/` (path relative to it), or null when absent. */
export type AssetLoader = (path: string) => Promise<Uint8Array | null>;

/** Everything the HTTP app uses. */
export interface AppDeps {
  readonly config: Config;
  readonly graph: GraphStore;
  readonly kv: KvStore;
  readonly log: Logger;
  readonly assets: AssetLoader;
}
