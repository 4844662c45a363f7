/**
 * The floor over HTTP, for `bench:search --peer`: the floor's search (./lib/floor.ts) behind the
 * plainest `node:http` server, one that takes `{"query": …}` and answers the chunk rows as JSON,
 * in a process of its own like the API. What the in-process floor does not pay and any service
 * must: a request and its answer between two processes. Settings from the environment
 * (FLOOR_EMBEDDINGS_URL, FLOOR_MODEL, FLOOR_INDEX, FLOOR_TOP_K, GRAPHDB_URL, GRAPHDB_PORT,
 * GRAPHDB_GRAPH); prints `listening <port>`, stops on SIGTERM.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config.js';
import { createGraphStore } from '../../src/graph/access/driver.js';
import { type FloorTarget, floorSearch } from './lib/floor.js';

const env = process.env;
const config = loadConfig(env);
const graph = createGraphStore(config);
const target: FloorTarget = {
  driver: graph.driver,
  database: config.GRAPHDB_GRAPH,
  embeddingsUrl: env.FLOOR_EMBEDDINGS_URL!,
  model: env.FLOOR_MODEL!,
  index: env.FLOOR_INDEX!,
  topK: Number(env.FLOOR_TOP_K ?? 10),
};
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const { query } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query: string };
    floorSearch(target, query).then(
      (rows) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(rows.map((r) => r.toObject())));
      },
      (err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(err));
      },
    );
  });
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
process.once('SIGTERM', () => {
  server.close();
  void graph.close().then(() => process.exit(0));
});
