/**
 * A sync-only process for the kill test: one pass of the index sync (syncGraph) with the config
 * in SYNC_CHILD_ENV (a JSON object, over the test config), each embedding call held for
 * SYNC_CHILD_DELAY_MS first (a slow model server). It prints `embedding` as each call starts;
 * the test SIGKILLs it mid-pass.
 */
import { syncGraph } from '../../../src/vector-index/sync/loop.js';
import { createTestDeps } from './deps.js';
import { spyEmbedders } from './index-fixtures.js';

const deps = createTestDeps(JSON.parse(process.env.SYNC_CHILD_ENV ?? '{}') as Record<string, string>);
const slow = spyEmbedders(deps.embedders, { delayMs: Number(process.env.SYNC_CHILD_DELAY_MS ?? 0) });
const embedders = {
  ...slow.pool,
  async get(model: string) {
    const e = await slow.pool.get(model);
    return {
      ...e,
      embed(texts: string[]) {
        console.log('embedding');
        return e.embed(texts);
      },
    };
  },
};
const pass = await syncGraph({ ...deps, embedders }, 'neo4j');
console.log(`done ${JSON.stringify(pass.results)}`);
process.exit(0);
