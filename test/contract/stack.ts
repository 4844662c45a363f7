/**
 * The stack scripts/test/schemathesis.sh runs against: the service as `npm start` runs it (API and
 * chat worker, on PORT) with the scripted model server for chat and embeddings, and the sample
 * graph indexed with EMBEDDING_MODEL, so that the document's examples and fuzzed searches reach
 * real filters and a real index. What the stack and the run add it removes on SIGTERM: the
 * sample (a graph that already held it keeps it), every search index that was not there before
 * (the run's builds), and the keys under its KV_PREFIX. Index sync is off: the run must not
 * touch other indexes of the database. Prints `ready <port>` once serving.
 */
import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import data from '../../src/graph/access/sample-data.json' with { type: 'json' };
import { loadSampleGraph, type SampleGraph } from '../../src/graph/access/sample.js';
import { startService } from '../../src/server.js';
import { buildVectorIndex } from '../../src/vector-index/build/build.js';
import { dropSearchIndex } from '../../src/graph/access/index-writer.js';
import { deletePrefix } from '../integration/helpers/deps.js';
import { routerReply, startLlmServer } from '../helpers/llm-server.js';

const sample = data as SampleGraph;
const llm = await startLlmServer({ defaultReply: routerReply('lookup', 0.9, 'scripted for the contract run') });
const service = await startService({
  env: { ...process.env, LOCAL_LLM_BASE_URL: llm.url, INDEX_SYNC_INTERVAL_MS: '0' },
  runtime: 'node',
  assets: async () => null,
  serve: (fetch, port, hostname) =>
    new Promise((resolve) => {
      const server = serve({ fetch, port, hostname }, () =>
        resolve({ close: () => new Promise<void>((done) => (server as Server).close(() => done())) }),
      ) as Server;
    }),
});
const { deps, config } = service;
const graph = config.GRAPHDB_GRAPH;
const driver = deps.graph.driver;
const run = (q: string, params: Record<string, unknown> = {}) => driver.executeQuery(q, params, { database: graph });

// The sample's first label names it; a graph without any `Mission` node gets the sample.
const { records } = await run('MATCH (n:Mission) RETURN count(n) > 0 AS has');
const loadedSample = !records[0]?.get('has') && (await loadSampleGraph(driver, sample, { database: graph, ifEmpty: false })).loaded;
/** Names of the vector indexes in the graph now. */
const vectorIndexes = async () =>
  new Set((await run('SHOW VECTOR INDEXES YIELD name RETURN name')).records.map((r) => r.get('name') as string));
const before = await vectorIndexes();
if (loadedSample || !before.has(config.VECTOR_INDEX_NAME)) await buildVectorIndex(deps, { graph, model: config.EMBEDDING_MODEL });
console.log(`ready ${config.PORT}`);

process.once('SIGTERM', () => {
  void (async () => {
    // What this run added goes first, while the driver is open; then the service stops.
    for (const name of await vectorIndexes()) if (!before.has(name)) await dropSearchIndex(driver, graph, name).catch(() => {});
    if (loadedSample) {
      const labels = [...new Set(sample.nodes.flatMap((n) => n.labels))];
      const ids = sample.nodes.map((n) => n.properties.dbId);
      await run('MATCH (n) WHERE n.dbId IN $ids AND any(l IN labels(n) WHERE l IN $labels) DETACH DELETE n', { ids, labels });
    }
    await deletePrefix(deps.kv);
    await service.stop();
    await llm.close();
    process.exit(0);
  })();
});
