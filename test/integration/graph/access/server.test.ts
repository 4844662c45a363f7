/**
 * What the service learns of the graph server (src/graph/access/server-info.ts) against the real Neo4j:
 * 5.26 LTS and the calendar release scripts/test.sh also runs these suites on (2026.x) answer
 * differently, and each must be told apart; the filtered-index probe creates nothing; a server
 * that does not answer is asked again rather than remembered.
 */
import neo4j, { type Driver } from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerInfo, probeServer } from '../../../../src/graph/access/server-info.js';

const port = process.env.TEST_GRAPHDB_PORT ?? '1234';
let driver: Driver;

beforeAll(() => {
  driver = neo4j.driver(`bolt://127.0.0.1:${port}`, undefined, { disableLosslessIntegers: true });
});
afterAll(() => driver?.close());

describe('graph server capabilities', () => {
  it('reads the version and edition, and tells 5.x from the calendar releases', async () => {
    const info = await probeServer(driver, 'neo4j');
    expect(info.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(info.edition).toBe('community');
    const major = Number(info.version.split('.')[0]);
    if (major === 5) {
      expect(info).toMatchObject({ cypher25: false, vectorFilters: false, defaultCypher: '5' });
    } else {
      // 2026.x: Cypher 25 and filtered vector indexes; a database defaults to Cypher 5 unless set otherwise.
      expect(major).toBeGreaterThanOrEqual(2026);
      expect(info).toMatchObject({ cypher25: true, vectorFilters: true });
      const { records } = await driver.executeQuery(
        'SHOW DATABASES YIELD name, defaultLanguage WHERE name = $name RETURN defaultLanguage',
        { name: 'neo4j' },
        { database: 'system' },
      );
      expect(`CYPHER ${info.defaultCypher}`).toBe(records[0]?.get('defaultLanguage'));
    }
  });

  it('plans the filtered vector index without creating it', async () => {
    await probeServer(driver, 'neo4j');
    const { records } = await driver.executeQuery(
      'SHOW INDEXES YIELD name WHERE name STARTS WITH $p RETURN name',
      { p: '__probe' },
      { database: 'neo4j' },
    );
    expect(records).toEqual([]);
  });

  it('shares one probe between callers and keeps its answer', async () => {
    const server = createServerInfo(driver, 'neo4j');
    const first = server();
    expect(server()).toBe(first);
    const info = await first;
    expect(await server()).toBe(info);
  });

  it('asks again after a failure, and again after the time to keep an answer', async () => {
    const dead = neo4j.driver('bolt://127.0.0.1:1', undefined, { connectionTimeout: 1_000, maxTransactionRetryTime: 0 });
    try {
      const server = createServerInfo(dead, 'neo4j');
      const failed = server();
      await expect(failed).rejects.toThrow();
      expect(server()).not.toBe(failed);
      await server().catch(() => null);
    } finally {
      await dead.close();
    }
    const short = createServerInfo(driver, 'neo4j', 0);
    const first = short();
    await first;
    await new Promise((r) => setTimeout(r, 5));
    expect(short()).not.toBe(first);
  });
});
