/**
 * `GRAPHDB_URL` as a full URI (DECISIONS #21): the routing scheme `neo4j://` works against the
 * single local server (the driver reads its routing table), and reads are sent as reads.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createGraphStore, type GraphStore } from '../../../../src/graph/access/driver.js';
import { graphStats } from '../../../../src/graph/shape/stats.js';
import { testConfig } from '../../helpers/deps.js';

const port = process.env.TEST_GRAPHDB_PORT ?? '1234';
const stores: GraphStore[] = [];
afterAll(() => Promise.all(stores.map((s) => s.close())));

describe('GRAPHDB_URL as a URI', () => {
  it.each([`neo4j://127.0.0.1:${port}`, `bolt://127.0.0.1:${port}`])('%s answers reads', async (uri) => {
    // GRAPHDB_PORT is deliberately wrong: a URI carries its own address.
    const graph = createGraphStore(testConfig({ GRAPHDB_URL: uri, GRAPHDB_PORT: '1' }));
    stores.push(graph);
    expect(await graph.ping(5_000)).toBe(true);
    expect(await graph.hasGraph('neo4j')).toBe(true);
    const stats = await graphStats(graph.driver, 'neo4j', { prop: 'text', textKeys: {}, only: null }, 5_000);
    expect(stats.nodes).toBeGreaterThanOrEqual(0);
  });

  it('a routing URI whose server is down fails the ping quickly', async () => {
    const graph = createGraphStore(testConfig({ GRAPHDB_URL: 'neo4j://127.0.0.1:1' }));
    stores.push(graph);
    const started = Date.now();
    expect(await graph.ping(3_000)).toBe(false);
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});
