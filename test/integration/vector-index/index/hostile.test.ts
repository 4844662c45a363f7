/**
 * Graphs in the wild (issue 37): whatever a node holds, the build and the sync finish and every
 * other node is indexed. A graph of its own labels with list-valued names and display names, a
 * 5 MB string, a 200,000-character token (a blob, cut out) and a 200,000-character unspaced run
 * the tokenizer counts as one token (cut by the chunk's character bound), NUL and right-to-left
 * characters, a lone surrogate, hostile property names, numbers, booleans, lists and temporal
 * values where strings are expected, placeholders. Then a node whose row makes the database's
 * read fail (a value error injected into the build's own queries), read around by id windows,
 * and a model answering NaN for one chunk. Real Neo4j and Redis, the generated tiny potion model.
 */
import neo4j, { type Driver } from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOB_MARKER, maxChunkChars } from '../../../../src/embeddings/chunking.js';
import type { EmbedderPool } from '../../../../src/embeddings/embedders.js';
import { chunkLabel, quoteName } from '../../../../src/graph/dialect/names.js';
import { buildVectorIndex } from '../../../../src/vector-index/build/build.js';
import { HEADER_CHARS } from '../../../../src/vector-index/index/source.js';
import { syncGraph } from '../../../../src/vector-index/sync/loop.js';
import { dropSearchIndex } from '../../../../src/graph/access/index-writer.js';
import { createTestApp } from '../../helpers/deps.js';
import { rewritingDriver } from '../../helpers/rewriting-driver.js';

const MODEL = 'minishlab/potion-base-32M';
const tag = Math.random().toString(36).slice(2, 8);
const DOC = `HostileDoc_${tag}`;
const REC = `HostileRec_${tag}`;
const PROP = `text_${tag}`;
const index = `test_hostile_${tag}`;
const { app, deps } = createTestApp({
  TEXT_PROPERTY: PROP,
  INDEX_DISCOVER: 'true',
  INDEX_LABELS: `${DOC},${REC}`,
  VECTOR_INDEX_NAME: index,
  EMBEDDING_MODEL: MODEL,
  DATA_DIR: `test-output/index-hostile-${tag}`,
});
const driver = deps.graph.driver;
/** The longest `chunkText` a chunk node may have: its header line, a newline and the chunker's bound. */
const BOUND = HEADER_CHARS + 1 + maxChunkChars(deps.config.CHUNK_TOKENS);

const q = async (cypher: string, params: Record<string, unknown> = {}) =>
  (await driver.executeQuery(cypher, params, { database: 'neo4j' })).records.map((r) => r.toObject());
const post = (path: string, body: unknown) =>
  app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Creates one node of `label` with `props` (set one by one, so any key and any value go in); returns its elementId. */
async function createNode(label: string, props: Record<string, unknown>, cypherProps: Record<string, string> = {}): Promise<string> {
  const sets = Object.entries(cypherProps).map(([k, expr]) => `SET n[${JSON.stringify(k)}] = ${expr}`);
  const [row] = await q(
    `CREATE (n:${quoteName(label)}) WITH n UNWIND keys($props) AS k SET n[k] = $props[k]
     WITH DISTINCT n ${sets.join(' ')} RETURN elementId(n) AS id`,
    { props },
  );
  return row!.id as string;
}

/** Every chunk node of the index: source node id and text. */
const chunks = async () =>
  (await q(`MATCH (c:${quoteName(chunkLabel(index))}) RETURN c.nodeId AS nodeId, coalesce(c.chunkText, c.nameText) AS text`)) as {
    nodeId: string;
    text: string;
  }[];
const indexedIds = async () => new Set((await chunks()).map((c) => c.nodeId));

type Skipped = { count: number; nodes: { node_id: string; reason: string }[] };
type BuildBody = { total_chunks: number; skipped_nodes?: Skipped };

const ordinary: string[] = [];
/** Nodes whose names are lists: indexed under another name once the name rule reads them, reported until then. */
const listNamed: string[] = [];
const hostile: Record<string, string> = {};
let built: BuildBody;

/** `bytes` of pseudo-random data as MIME base64 (lines of 76 characters). */
const mimeBase64 = (bytes: number) =>
  Buffer.from(Uint8Array.from({ length: bytes }, (_, i) => (i * 2_654_435_761) >>> 24))
    .toString('base64')
    .replace(/.{76}/g, '$&\n');
const words = (n: number, seed: number) => Array.from({ length: n }, (_, i) => `w${(i * 7 + seed) % 997}`).join(' ');

beforeAll(async () => {
  for (let i = 0; i < 12; i++)
    ordinary.push(await createNode(DOC, { name: `document ${i}`, [PROP]: `ordinary document ${i} about okapi${i}x` }));
  listNamed.push(await createNode(DOC, { name: ['gizmo', 'three'], [PROP]: 'a node named by a list' }));
  listNamed.push(await createNode(DOC, { displayName: ['shown', 'twice'], name: 'plain', [PROP]: 'a node displayed by a list' }));
  listNamed.push(await createNode(DOC, { title: ['a', 'title', 'list'], [PROP]: 'a node titled by a list' }));
  // After the list-named nodes in id order: the nodes a failing read used to leave out.
  for (let i = 12; i < 16; i++)
    ordinary.push(await createNode(DOC, { name: `document ${i}`, [PROP]: `ordinary document ${i} about okapi${i}x` }));
  // 5 MB, most of it a picture wrapped as MIME base64 (a 5 MB description of prose is many
  // thousand chunks: right, and slow for a test).
  hostile.huge = await createNode(DOC, { name: 'huge', [PROP]: `${words(2_000, 3)} picture: ${mimeBase64(3_800_000)} marmoset` });
  hostile.token = await createNode(DOC, { name: 'token', [PROP]: `before ${'x'.repeat(200_000)} after` });
  hostile.unspaced = await createNode(DOC, { name: 'unspaced', [PROP]: 'ж'.repeat(200_000) });
  hostile.controls = await createNode(DOC, {
    name: 'שלום \u200F\u202Eeman',
    [PROP]: 'nul\u0000byte and \u202Eright to left\u202C with \u200F a mark, a lone \uD800 surrogate, ocelot',
  });
  hostile.notString = await createNode(DOC, { name: 'number text', [PROP]: 42 });
  hostile.listText = await createNode(DOC, { name: 'list text', [PROP]: ['one', 'two'] });
  hostile.blank = await createNode(DOC, { name: 'blank', [PROP]: '   ' });
  // Built from entries: in an object literal, `__proto__` would set the prototype, not a property.
  const recProps = (i: number): Record<string, unknown> =>
    Object.fromEntries([
      ['name', `record ${i}`],
      ['description', `record ${i} describes a wombat${i}y in some detail`],
      ['we`ird', `backtick prose ${i} here`],
      ['with space', `spaced prose ${i} here`],
      ['__proto__', `proto prose ${i}`],
      ['naïve ключ', `unicode keyed prose ${i}`],
      ['fax', i % 2 ? 'NULL' : 'N/A'],
    ]);
  for (let i = 0; i < 10; i++) ordinary.push(await createNode(REC, recProps(i)));
  listNamed.push(await createNode(REC, { ...recProps(10), name: ['gizmo', 'four'] }));
  hostile.oddNumber = await createNode(REC, { ...recProps(11), description: 42 });
  hostile.oddBoolean = await createNode(REC, { ...recProps(12), description: true });
  hostile.oddList = await createNode(REC, { ...recProps(13), description: [1, 2, 3] });
  hostile.oddDate = await createNode(REC, recProps(14), { description: 'date("2020-01-02")', 'we`ird': 'datetime()' });
  hostile.oddDuration = await createNode(REC, recProps(15), { description: 'duration("P1D")', name: 'point({x: 1, y: 2})' });
  hostile.hugeDiscovered = await createNode(REC, { ...recProps(16), 'with space': `${words(20_000, 5)} kinkajou` });

  const res = await post('/dev/build_vector_index', { graph_name: 'neo4j', model: MODEL });
  expect(res.status).toBe(200);
  built = (await res.json()) as BuildBody;
}, 300_000);

afterAll(async () => {
  await q(`MATCH (n) WHERE n:${quoteName(DOC)} OR n:${quoteName(REC)} DETACH DELETE n`);
  await dropSearchIndex(driver, 'neo4j', index);
  await deps.close();
});

describe('a build over hostile content', () => {
  it('succeeds and indexes every other node; a node left out is reported', async () => {
    const ids = await indexedIds();
    for (const id of ordinary) expect(ids.has(id)).toBe(true);
    for (const key of [
      'huge',
      'token',
      'unspaced',
      'controls',
      'oddNumber',
      'oddBoolean',
      'oddList',
      'oddDate',
      'oddDuration',
      'hugeDiscovered',
    ])
      expect(ids.has(hostile[key]!), key).toBe(true);
    // A list-valued name is indexed (under another name) or, where the name rule cannot read it, reported.
    const reported = new Set(built.skipped_nodes?.nodes.map((n) => n.node_id));
    for (const id of listNamed) expect(ids.has(id) || reported.has(id) || (built.skipped_nodes?.count ?? 0) > 5).toBe(true);
    for (const id of reported) expect([...listNamed, ...Object.values(hostile)]).toContain(id);
    if (built.skipped_nodes) expect(built.skipped_nodes.count).toBeLessThanOrEqual(listNamed.length);
  });

  it('keeps every chunk within its character bound, whatever the tokenizer counts', async () => {
    const all = await chunks();
    const longest = Math.max(...all.map((c) => c.text.length));
    expect(longest).toBeLessThanOrEqual(BOUND);
    // The unspaced run is one unknown token to the tokenizer: cut by characters, all of it kept.
    const unspaced = all.filter((c) => c.nodeId === hostile.unspaced);
    expect(unspaced.length).toBeGreaterThanOrEqual(Math.ceil(200_000 / maxChunkChars(deps.config.CHUNK_TOKENS)));
  });

  it('cuts the blob out of the prose around it', async () => {
    const token = (await chunks()).filter((c) => c.nodeId === hostile.token);
    expect(token).toHaveLength(1);
    expect(token[0]!.text).toContain(`before ${BLOB_MARKER} after`);
    expect(token[0]!.text).not.toContain('xxxxxxxx');
  });

  it('finds the nodes around the hostile ones', async () => {
    const search = async (query: string) => {
      const res = await post('/vector/search', { graph_name: 'neo4j', model: MODEL, query, top_k: 3, mode: 'fulltext' });
      expect(res.status).toBe(200);
      return ((await res.json()) as { text: string }[]).map((h) => h.text);
    };
    expect((await search('okapi15x'))[0]).toContain('ordinary document 15');
    expect((await search('wombat9y'))[0]).toContain('wombat9y');
    expect((await search('ocelot'))[0]).toContain('ocelot');
    expect((await search('marmoset')).length).toBeGreaterThan(0);
  });

  it('a sync pass after a hostile node is added completes and indexes the other new nodes', async () => {
    await syncGraph(deps, 'neo4j');
    const bad = await createNode(DOC, { name: ['sync', 'list'], displayName: [1, 2], [PROP]: 'synced list-named node' });
    const fresh = [
      await createNode(DOC, { name: 'fresh doc', [PROP]: `fresh document about ${'y'.repeat(300)} tapir` }),
      await createNode(REC, { name: 'fresh record', description: 'a fresh record about a pangolin', 'we`ird': ['x', 'y'] }),
    ];
    const pass = await syncGraph(deps, 'neo4j');
    expect(pass.changed).toBe(true);
    const mine = pass.results.find((r) => r.index === index)!;
    expect(mine.outcome).toBe('synced');
    const ids = await indexedIds();
    for (const id of fresh) expect(ids.has(id)).toBe(true);
    expect(ids.has(bad) || mine.skipped?.some((s) => s.node_id === bad)).toBe(true);
  }, 120_000);
});

/**
 * A driver whose build queries fail on any node with property `boomKey`, as a Cypher function
 * given a value it cannot take does: `1 / 0` there (an ArithmeticError while the row is read).
 */
function boomingDriver(real: Driver, boomKey: string): Driver {
  const boom = (cypher: string) =>
    cypher.replace(
      'RETURN id(n) AS seq, elementId(n) AS nodeId, ',
      `RETURN id(n) + coalesce(1 / (n.${quoteName(boomKey)} - n.${quoteName(boomKey)}), 0) AS seq, elementId(n) AS nodeId, `,
    );
  return rewritingDriver(real, boom);
}

describe('a node whose row fails the database read', () => {
  const LABEL = `HostileBoom_${tag}`;
  const side = `test_hostile_boom_${tag}`;
  const boomKey = `boom_${tag}`;
  // The stream fails at the first; the rest are read by id in two windows (256 + 40), the first
  // halved down to each of its two failing nodes, the second to its one.
  const BOOMS = [3, 200, 201, 290];
  afterAll(async () => {
    await q(`MATCH (n:${quoteName(LABEL)}) DETACH DELETE n`);
    await dropSearchIndex(driver, 'neo4j', side);
  });

  it('is left out and reported; the nodes after it are read by id and indexed', async () => {
    const { records } = await driver.executeQuery(
      `UNWIND range(0, 299) AS i CREATE (n:${quoteName(LABEL)} {name: 'item ' + i})
       SET n[$prop] = 'item number ' + i + ' of the boom set'
       FOREACH (_ IN CASE WHEN i IN $booms THEN [1] ELSE [] END | SET n[$boom] = 1)
       RETURN elementId(n) AS id, i ORDER BY i`,
      { prop: PROP, boom: boomKey, booms: BOOMS.map((i) => neo4j.int(i)) },
      { database: 'neo4j' },
    );
    const ids = records.map((r) => r.get('id') as string);
    // And a model that answers NaN for one text (Neo4j refuses such a vector): that batch is still written.
    const embedders: EmbedderPool = {
      ...deps.embedders,
      async get(model) {
        const real = await deps.embedders.get(model);
        const embed = async (texts: string[]) =>
          (await real.embed(texts)).map((v, i) => (texts[i]!.includes('item number 7 ') ? v.map(() => Number.NaN) : v));
        return { ...real, chunk: (t: string) => real.chunk(t), embed };
      },
    };
    const booming = { ...deps, embedders, graph: { ...deps.graph, driver: boomingDriver(driver, boomKey) } };
    const progress: number[] = [];
    const report = await buildVectorIndex(booming, {
      graph: 'neo4j',
      model: MODEL,
      indexName: side,
      choice: { labels: [LABEL] },
      onProgress: (p) => progress.push(p.nodesSkipped ?? 0),
    });
    expect(report.skipped.count).toBe(BOOMS.length);
    expect(report.skipped.nodes.map((n) => n.nodeId).sort()).toEqual(BOOMS.map((i) => ids[i]).sort());
    expect(report.skipped.nodes[0]!.reason).toMatch(/by zero/i);
    expect(progress.at(-1)).toBe(BOOMS.length);
    const indexed = new Set(
      (await q(`MATCH (c:${quoteName(chunkLabel(side))}) RETURN DISTINCT c.nodeId AS id`)).map((r) => r.id as string),
    );
    expect(indexed.size).toBe(300 - BOOMS.length);
    for (const [i, id] of ids.entries()) expect(indexed.has(id), `item ${i}`).toBe(!BOOMS.includes(i));
  }, 120_000);
});
