/**
 * Lua scripts run atomically in the key-value store. Each script is registered once per
 * client with ioredis `defineCommand`, which sends EVALSHA and falls back to EVAL when the
 * server has not seen the script yet.
 */
import type { KvClient } from './redis.js';

/** A script call: keys, then arguments; resolves to the script's reply. */
export type LuaScript = (redis: KvClient, keys: string[], args: Array<string | number>) => Promise<unknown>;

/** Wraps `lua` as a callable script registered under `name` (unique per script). */
export function defineScript(name: string, lua: string): LuaScript {
  return (redis, keys, args) => {
    const r = redis as unknown as Record<string, (...a: Array<string | number>) => Promise<unknown>>;
    if (typeof r[name] !== 'function') redis.defineCommand(name, { lua });
    return r[name]!(keys.length, ...keys, ...args);
  };
}
