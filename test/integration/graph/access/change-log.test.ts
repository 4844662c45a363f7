/**
 * The change-log plugin (plugin/, docs/indexing.md "The change-log plugin") in the real Neo4j,
 * which scripts/services/neo4j.sh starts with it: `graphchat.changes` names the nodes committed
 * writes created, changed (properties, labels) or deleted, skips the service's own index writes
 * (metadata `graphChatIndex: true`, and nodes with a `__` label), pages by position and says `lost` for a position it cannot
 * answer from; `graphchat.changesInfo` describes the log.
 */
import { randomUUID } from 'node:crypto';
import neo4j, { type Driver } from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeLogExpected } from '../../helpers/change-log.js';

const port = process.env.TEST_GRAPHDB_PORT ?? '1234';
/** False on a 5.x server started without the plugin (its default): the suite runs on the 2025+ line. */
const expected = await changeLogExpected(port);
const LABEL = `ChangeLogTest_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
let driver: Driver;

interface Changes {
  epoch: string;
  position: number;
  lost: boolean;
  ids: string[];
}
interface Info {
  version: string;
  epoch: string;
  position: number;
  oldest: number;
  capacity: number;
}

async function run<T>(cypher: string, params: Record<string, unknown> = {}, metadata?: Record<string, unknown>): Promise<T[]> {
  const session = driver.session({ database: 'neo4j' });
  try {
    const res = await session.run(cypher, params, metadata ? { metadata } : undefined);
    return res.records.map((r) => r.toObject() as T);
  } finally {
    await session.close();
  }
}
const info = async () => (await run<Info>('CALL graphchat.changesInfo()'))[0]!;
const changes = async (after: number, max: number) =>
  (await run<Changes>('CALL graphchat.changes($after, $max)', { after: neo4j.int(after), max: neo4j.int(max) }))[0]!;
const create = async (props: Record<string, unknown> = {}, metadata?: Record<string, unknown>) =>
  (await run<{ id: string }>(`CREATE (n:${LABEL}) SET n = $props RETURN elementId(n) AS id`, { props }, metadata))[0]!.id;

beforeAll(async () => {
  if (!expected) return;
  driver = neo4j.driver(`bolt://127.0.0.1:${port}`, undefined, { disableLosslessIntegers: true });
  const procs = await run<{ name: string }>("SHOW PROCEDURES YIELD name WHERE name STARTS WITH 'graphchat' RETURN name");
  if (procs.length === 0) {
    throw new Error(`Neo4j on ${port} has no graphchat.* procedures: start it with scripts/services/neo4j.sh (NEO4J_PLUGIN unset)`);
  }
});
afterAll(async () => {
  if (!expected) return;
  await run(`MATCH (n:${LABEL}) DETACH DELETE n`);
  await driver.close();
});

describe.runIf(expected)('graphchat.changesInfo', () => {
  it('names the version, epoch, head, oldest retained position and capacity', async () => {
    const i = await info();
    expect(i.version).toBe('1');
    expect(i.epoch).toMatch(/^[0-9a-f-]{36}$/);
    expect(i.capacity).toBeGreaterThanOrEqual(1);
    expect(i.position).toBeGreaterThanOrEqual(0);
    expect(i.oldest).toBe(Math.max(1, i.position - i.capacity + 1));
    await create({ x: 1 });
    const after = await info();
    expect(after.epoch).toBe(i.epoch);
    expect(after.position).toBeGreaterThan(i.position);
  });
});

describe.runIf(expected)('graphchat.changes', () => {
  it('names nodes created, given or stripped of a property, stripped of a label or deleted since a position', async () => {
    const kept = await create({ name: 'kept' });
    const labelled = (await run<{ id: string }>(`CREATE (n:${LABEL}:Extra {name: 'labelled'}) RETURN elementId(n) AS id`))[0]!.id;
    const doomed = await create({ name: 'doomed' });
    const unset = await create({ name: 'unset', text: 'gone soon' });
    const from = (await info()).position;

    const created = await create({ name: 'new' });
    await run(`MATCH (n:${LABEL}) WHERE elementId(n) = $id SET n.text = 'changed'`, { id: kept });
    await run(`MATCH (n:${LABEL}) WHERE elementId(n) = $id REMOVE n:Extra`, { id: labelled });
    await run(`MATCH (n:${LABEL}) WHERE elementId(n) = $id DELETE n`, { id: doomed });
    await run(`MATCH (n:${LABEL}) WHERE elementId(n) = $id REMOVE n.text`, { id: unset });

    const c = await changes(from, 1_000_000);
    expect(c.lost).toBe(false);
    expect(c.ids).toEqual(expect.arrayContaining([created, kept, labelled, doomed, unset]));
    expect(new Set(c.ids).size).toBe(c.ids.length);
    expect(c.position).toBe((await info()).position);
    expect(c.position - from).toBeGreaterThanOrEqual(5);
    // Caught up: nothing after the head.
    expect(await changes(c.position, 10)).toMatchObject({ position: c.position, lost: false, ids: [] });
  });

  it('names a node once per transaction and pages by position', async () => {
    const from = (await info()).position;
    const [row] = await run<{ ids: string[] }>(
      `UNWIND range(1, 3) AS i CREATE (n:${LABEL} {i: i}) SET n.j = i, n:Extra REMOVE n.i RETURN collect(elementId(n)) AS ids`,
    );
    const ids = row!.ids;
    const all = await changes(from, 100);
    expect(all.ids).toEqual(expect.arrayContaining(ids));
    expect(all.position - from).toBeGreaterThanOrEqual(3);

    const first = await changes(from, 1);
    expect(first.position).toBe(from + 1);
    expect(first.ids).toHaveLength(1);
    const rest = await changes(first.position, 100);
    expect(rest.position).toBe(all.position);
    expect([...first.ids, ...rest.ids]).toEqual(expect.arrayContaining(ids));
  });

  it('skips writes tagged graphChatIndex: true (the index writes)', async () => {
    const target = await create({ name: 'target' });
    const from = (await info()).position;
    const tagged = await create({ name: 'index write' }, { graphChatIndex: true });
    await run(`MATCH (n:${LABEL}) WHERE elementId(n) = $id SET n.__chunked = true`, { id: target }, { graphChatIndex: true });
    const c = await changes(from, 1000);
    expect(c.ids).not.toContain(tagged);
    expect(c.ids).not.toContain(target);
    // The same write without the tag is seen.
    await run(`MATCH (n:${LABEL}) WHERE elementId(n) = $id SET n.__chunked = false`, { id: target });
    expect((await changes(from, 1000)).ids).toContain(target);
  });

  it('skips nodes created or deleted with an index label (__…), as CALL { } IN TRANSACTIONS writes them untagged', async () => {
    const index = `__Chunk_${LABEL}`;
    const from = (await info()).position;
    const [row] = await run<{ id: string }>(`CREATE (c:${index} {chunk: 0}) RETURN elementId(c) AS id`);
    // (A property set on an index node is known by its tag only: the service's writes carry it.)
    await run(`MATCH (c:${index}) SET c.chunk = 1`, {}, { graphChatIndex: true });
    await run(`MATCH (c:${index}) CALL (c) { DELETE c } IN TRANSACTIONS OF 10 ROWS`);
    const user = await create({ name: 'beside' });
    const c = await changes(from, 1000);
    expect(c.ids).not.toContain(row!.id);
    expect(c.ids).toContain(user);
  });

  it('says lost, with the head and no ids, for a position beyond the head (another epoch)', async () => {
    const head = (await info()).position;
    const c = await changes(head + 1_000, 10);
    expect(c).toMatchObject({ lost: true, ids: [] });
    expect(c.position).toBeGreaterThanOrEqual(head);
  });
});
