/**
 * Nothing is lost when the sync dies or its database goes away (issue 39), against the real
 * Neo4j and Redis: a sync process SIGKILLed mid-pass leaves every unchanged node's chunks as
 * they were, and the next pass (in another process, which takes the dead holder's lock at once)
 * completes it, with the edits made meanwhile; a pass whose database is unreachable fails
 * without recording anything, and the next one catches up.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleTestChild } from '../../helpers/child-process.js';
import { chunkLabel, quoteName } from '../../../../src/graph/dialect/names.js';
import { dropSearchIndex } from '../../../../src/graph/access/index-writer.js';
import { buildVectorIndex } from '../../../../src/vector-index/build/build.js';
import { readSyncState, syncGraph } from '../../../../src/vector-index/sync/loop.js';
import { createTestDeps } from '../../helpers/deps.js';
import { createSyncFixture } from '../../helpers/index-fixtures.js';

let CHILD: string;
const MODEL = 'minishlab/potion-base-32M';
const { label, index, env } = createSyncFixture('SyncKill');
const deps = createTestDeps(env);
const driver = deps.graph.driver;
const L = quoteName(label);
const C = quoteName(chunkLabel(index));

const q = async (cypher: string, params: Record<string, unknown> = {}) =>
  (await driver.executeQuery(cypher, params, { database: 'neo4j' })).records.map((r) => r.toObject());
const count = async (cypher: string) => Number((await q(cypher))[0]!.n);
/** Chunk element ids and texts of the nodes numbered `from`../../../`to`, as sorted strings. */
const chunksOf = async (from: number, to: number) =>
  (
    await q(
      `MATCH (n:${L}), (c:${C}) WHERE $from <= n.i <= $to AND c.nodeId = elementId(n)
       RETURN elementId(c) + ' ' + c.chunkText AS x`,
      { from, to },
    )
  )
    .map((r) => r.x as string)
    .sort();
/** Nodes whose chunk text holds `word`. */
const holding = (word: string) => count(`MATCH (c:${C}) WHERE c.chunkText CONTAINS '${word}' RETURN count(DISTINCT c.nodeId) AS n`);
const pass = async (d = deps) => {
  const p = await syncGraph(d, 'neo4j');
  return { ...p, r: p.results.find((x) => x.index === index) };
};

beforeAll(async () => {
  CHILD = await bundleTestChild('index-sync-child');
  await q(`UNWIND range(0, 799) AS i CREATE (:${L} {i: i, title: 'Item ' + i, body: 'Body ' + i + ' about copper.'})`);
  await buildVectorIndex(deps, { graph: 'neo4j', model: MODEL });
  await pass();
}, 120_000);
afterAll(async () => {
  await q(`MATCH (n:${L}) DETACH DELETE n`);
  await dropSearchIndex(driver, 'neo4j', index);
  await deps.close();
});

describe('a sync that dies', () => {
  it('keeps every unchanged node when its process is killed mid-pass; the next pass completes it with the edits made meanwhile', async () => {
    await q(`MATCH (n:${L}) WHERE n.i < 600 SET n.body = 'Edited ' + n.i + ' about zinc.'`);
    const unchanged = await chunksOf(701, 799);
    expect(unchanged.length).toBe(99);

    // A second process runs the pass with a slow model and is killed once a first window is written.
    const child = spawn(process.execPath, [CHILD], {
      env: { ...process.env, SYNC_CHILD_ENV: JSON.stringify({ ...env, LOG_LEVEL: 'silent' }), SYNC_CHILD_DELAY_MS: '1500' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const until = Date.now() + 60_000;
    while ((await holding('zinc')) === 0) {
      if (Date.now() > until || child.exitCode !== null) throw new Error(`no window written by the child: ${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGKILL');
    await exited;
    expect(out).not.toContain('done');
    const written = await holding('zinc');
    // Part of the pass was written, in whole windows (one transaction each), and not all of it.
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(600);
    expect(written % 256).toBe(0);
    expect(await chunksOf(701, 799)).toEqual(unchanged);
    // The recorded bookmark is the one before the edits: the next pass knows it is behind.
    expect((await readSyncState(deps, 'neo4j')).behindSince).not.toBeNull();

    // Meanwhile: an edit, a new node, a deletion.
    await q(`MATCH (n:${L} {i: 700}) SET n.body = 'Late edit about tin.'`);
    await q(`CREATE (:${L} {i: 900, title: 'Item 900', body: 'Created while the sync was down, about lead.'})`);
    await q(`MATCH (n:${L} {i: 650}) DETACH DELETE n`);

    // The dead holder's lock is taken over at once (its Redis connection is gone).
    const next = await pass();
    expect(next.r).toMatchObject({ outcome: 'synced', nodes_deleted: 1 });
    expect(next.r!.nodes_changed).toBe(600 - written + 2);
    expect(await holding('zinc')).toBe(600);
    expect(await holding('copper')).toBe(800 - 600 - 2);
    expect(await holding('Late edit about tin')).toBe(1);
    expect(await holding('about lead')).toBe(1);
    expect(await count(`MATCH (c:${C}) WHERE c.chunkText STARTS WITH 'Item 650 ' RETURN count(c) AS n`)).toBe(0);
    // Every node has one chunk 0, the unchanged ones their very chunk nodes.
    expect(await count(`MATCH (c:${C}) WHERE c.chunk = 0 RETURN count(c) - count(DISTINCT c.nodeId) AS n`)).toBe(0);
    expect(await chunksOf(701, 799)).toEqual(unchanged);
    expect((await readSyncState(deps, 'neo4j')).behindSince).toBeNull();
  }, 120_000);

  it('records nothing when the database is down, and the next pass brings the edits made meanwhile', async () => {
    const before = await readSyncState(deps, 'neo4j');
    await q(`MATCH (n:${L} {i: 10}) SET n.body = 'Edited while the database was away, about iron.'`);
    const down = createTestDeps({ ...env, GRAPHDB_PORT: '1' });
    try {
      // The loop logs it and tries again on its next pass (startIndexSync).
      await expect(syncGraph(down, 'neo4j')).rejects.toThrow(/ECONNREFUSED|connect/i);
    } finally {
      // Not down.close(): it would delete the shared key prefix, the sync state with it.
      await Promise.allSettled([down.kv.close(), down.graph.close(), down.embedders.close()]);
    }
    const after = await readSyncState(deps, 'neo4j');
    expect(after.bookmark).toBe(before.bookmark);
    const next = await pass();
    expect(next.r).toMatchObject({ outcome: 'synced', nodes_changed: 1 });
    expect(await holding('about iron')).toBe(1);
  });
});
