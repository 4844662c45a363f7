/**
 * `npm run bench:mcp`: what a `vector_search` call costs over MCP compared with
 * `POST /vector/search`. Serves the app on a random local port (real HTTP, @hono/node-server),
 * builds an index over its own generated nodes (label `McpBench`, property `mcp_bench_text`),
 * then runs the same queries sequentially, interleaved round by round, through:
 *   1. in-process `deps.search.search` (the floor: embedding + Neo4j vector query),
 *   2. HTTP `POST /vector/search`,
 *   3. MCP `tools/call vector_search` with the SDK client in a stateful session (SSE reply),
 *   4. MCP stateless: one raw `tools/call` POST without a session (fresh server, JSON reply),
 * and prints p50/p90/p99/mean per path. Its nodes, index and cache are removed at the end.
 *
 * Options: --calls <n> (200), --nodes <n> (1000), --top-k <n> (5).
 */
import { rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { parseArgs } from 'node:util';
import { serve } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createApp } from '../../src/app.js';
import { buildVectorIndex } from '../../src/vector-index/build/build.js';
import { dropSearchIndex } from '../../src/graph/access/index-writer.js';
import { createDeps } from '../../src/server.js';
import { BENCH_MODEL, benchConfig, benchModels, describeMachine, fmt } from './bench-common.js';
import { generateProse } from './bench-prose.js';

const { values } = parseArgs({ options: { calls: { type: 'string' }, nodes: { type: 'string' }, 'top-k': { type: 'string' } } });
const CALLS = Number(values.calls ?? 200);
const NODES = Number(values.nodes ?? 1_000);
const TOP_K = Number(values['top-k'] ?? 5);
const WARMUP = 20;
const LABEL = 'McpBench';
const PROP = 'mcp_bench_text';
const INDEX = 'bench_mcp_potion_base_32M';
const DATA_DIR = 'test-output/bench-mcp-data';

const models = benchModels();
const config = benchConfig(models.dir, {
  EMBEDDING_MODEL: BENCH_MODEL,
  TEXT_PROPERTY: PROP,
  VECTOR_INDEX_NAME: INDEX,
  DATA_DIR,
  KV_PREFIX: 'bench-mcp:',
  VECTOR_SEARCH_TOP_K: String(TOP_K),
});
const deps = createDeps(config, async () => null);
const graph = config.GRAPHDB_GRAPH;
const run = (q: string, p: Record<string, unknown> = {}) => deps.graph.driver.executeQuery(q, p, { database: graph });
const queries = Array.from({ length: 50 }, (_, i) => generateProse(90_000 + i, 40, 160));

async function cleanup() {
  await run(`MATCH (n:${LABEL}) DETACH DELETE n`);
  await dropSearchIndex(deps.graph.driver, graph, INDEX);
  await rm(DATA_DIR, { recursive: true, force: true });
}

type Path = [name: string, call: (query: string) => Promise<unknown>];

/**
 * Runs WARMUP + CALLS rounds; each round sends the same query once through every path, in an
 * order that rotates, so load from other processes falls on all paths alike. Returns the
 * CALLS timings in ms per path.
 */
async function time(paths: Path[]): Promise<number[][]> {
  const ms = paths.map(() => [] as number[]);
  for (let i = 0; i < WARMUP + CALLS; i++) {
    for (let k = 0; k < paths.length; k++) {
      const p = (i + k) % paths.length;
      const started = performance.now();
      await paths[p]![1](queries[i % queries.length]!);
      if (i >= WARMUP) ms[p]!.push(performance.now() - started);
    }
  }
  return ms;
}

function stats(ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  return { p50: at(50), p90: at(90), p99: at(99), mean: ms.reduce((a, b) => a + b, 0) / ms.length };
}

await cleanup();
const server = serve({ fetch: createApp(deps).fetch, port: 0, hostname: '127.0.0.1' }) as Server;
await new Promise((r) => server.once('listening', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const client = new Client({ name: 'bench-mcp', version: '1.0.0' });
try {
  console.log(await describeMachine(deps.graph.driver, graph));
  console.log(`model: ${models.description}`);
  await run(`UNWIND range(0, $n - 1) AS i CREATE (n:${LABEL} {dbId: 900000 + i, name: 'bench ' + toString(i)}) SET n[$prop] = $texts[i]`, {
    n: NODES,
    prop: PROP,
    texts: Array.from({ length: NODES }, (_, i) => generateProse(80_000 + i, 200, 1200)),
  });
  const report = await buildVectorIndex(deps, { graph, model: BENCH_MODEL });
  console.log(
    `index: ${NODES} nodes, ${report.total_chunks} chunks; ${CALLS} sequential calls per path (interleaved) after ${WARMUP} warm-up rounds, top_k ${TOP_K}, queries of 40-160 characters\n`,
  );

  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  let id = 0;
  const paths: Path[] = [
    ['in-process deps.search.search', (query) => deps.search.search({ query, graph, model: BENCH_MODEL, topK: TOP_K })],
    [
      'HTTP POST /vector/search',
      async (query) => {
        const res = await fetch(`${base}/vector/search`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query, graph_name: graph, model: BENCH_MODEL, top_k: TOP_K }),
        });
        if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
        await res.json();
      },
    ],
    [
      'MCP session (SDK client, SSE reply)',
      async (sentence) => {
        const res = await client.callTool({ name: 'vector_search', arguments: { sentence, top_k: TOP_K } });
        if (res.isError) throw new Error(JSON.stringify(res.content));
      },
    ],
    [
      'MCP stateless (raw POST, JSON reply)',
      async (sentence) => {
        const res = await fetch(`${base}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: ++id,
            method: 'tools/call',
            params: { name: 'vector_search', arguments: { sentence, top_k: TOP_K } },
          }),
        });
        const body = (await res.json()) as { result?: { isError?: boolean } };
        if (!body.result || body.result.isError) throw new Error(JSON.stringify(body));
      },
    ],
  ];
  const timings = await time(paths);
  const results = paths.map(([name], i) => [name, timings[i]!] as const);

  const http = stats(results[1]![1]);
  console.log(
    `${'path'.padEnd(40)}${'p50 ms'.padStart(9)}${'p90 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'mean ms'.padStart(9)}  p50 vs HTTP`,
  );
  for (const [name, ms] of results) {
    const s = stats(ms);
    const delta = s.p50 - http.p50;
    console.log(
      `${name.padEnd(40)}${fmt(s.p50, 2).padStart(9)}${fmt(s.p90, 2).padStart(9)}${fmt(s.p99, 2).padStart(9)}${fmt(s.mean, 2).padStart(9)}  ${delta >= 0 ? '+' : ''}${fmt(delta, 2)}`,
    );
  }
} finally {
  await client.close().catch(() => {});
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await cleanup().catch((err) => console.error('cleanup failed:', err));
  await Promise.allSettled([deps.graph.close(), deps.kv.close(), deps.embedders.close()]);
}
