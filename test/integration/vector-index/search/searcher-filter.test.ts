/**
 * Filtered search (`labels`, `where`) over POST /vector/search, the agent's and MCP's
 * `vector_search`, against a real index over the suite's own 30 nodes (generated tiny model):
 * every operator, no match, unknown names with close ones, injection attempts, and top_k kept
 * under a selective filter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import neo4j from 'neo4j-driver';
import { buildVectorIndex } from '../../../../src/vector-index/build/build.js';
import { resolveIndexName } from '../../../../src/vector-index/index/target.js';
import { syncIndexNodes } from '../../../../src/vector-index/sync/node-sync.js';
import { createVectorSearcher } from '../../../../src/vector-index/search/searcher.js';
import { DATA_TOOLS } from '../../../../src/agent/data-tools.js';
import { runTool, type ToolContext } from '../../../../src/agent/tools.js';
import { generateProse } from '../../../../scripts/bench/bench-prose.js';
import { createTestApp } from '../../helpers/deps.js';
import { countingDriver, createIndexFixture, createTextNodes, dropIndexFixture } from '../../helpers/index-fixtures.js';
import { connectClient, startMcpServer, textOf } from '../../helpers/mcp-fixtures.js';

const MODEL = 'minishlab/potion-base-32M';
// The properties the suite filters on are carried on the chunks: on a server whose vector
// indexes take filter properties (Neo4j 2026.x) every case below runs through the index where it
// can (src/graph/filters/filter-index.ts); on 5.26 the same cases run through the post-filter.
const f = createIndexFixture(MODEL, {
  CHUNK_TOKENS: '48',
  CHUNK_OVERLAP_TOKENS: '8',
  INDEX_FILTER_PROPERTIES: 'year,kind,tags,flag,launched,launchedText,launchedAt',
});
const { app, deps } = createTestApp(f.env);
const driver = deps.graph.driver;
const PICK = `Pick_${f.tag}`;
const ODD_KEY = 'we`ird] key';
const texts = Array.from({ length: 30 }, (_, i) => generateProse(3000 + i, 500, 1000));
const KINDS = ['mission', 'pathway', 'probe'];
/** Node i's properties, as the suite stores them and as the expectations read them. */
const props = (i: number) => ({
  year: 1990 + i,
  kind: KINDS[i % 3]!,
  tags: i % 4 === 0 ? ['a', 'b'] : ['c'],
  flag: i % 5 === 0 ? true : null,
  month: i, // launched: 2000-01-01 + i months (a DATE); launchedAt: 2000-01-01T12:00Z + i days; launchedText: launched as a string
});
const all = Array.from({ length: 30 }, (_, i) => i);
const where = (pred: (i: number) => boolean) => all.filter(pred);

const search = (body: Record<string, unknown>) =>
  app.request('/vector/search', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ graph_name: 'neo4j', model: MODEL, query: texts[0], top_k: 30, ...body }),
  });
const ids = async (body: Record<string, unknown>) => {
  const res = await search(body);
  expect(res.status, JSON.stringify(body)).toBe(200);
  return ((await res.json()) as { dbId: number }[]).map((h) => h.dbId).sort((a, b) => a - b);
};

beforeAll(async () => {
  const elementIds = await createTextNodes(driver, f, texts);
  await driver.executeQuery(
    `UNWIND range(0, size($ids) - 1) AS i
     MATCH (n) WHERE elementId(n) = $ids[i]
     WITH n, i, $props[i] AS p, date('2000-01-01') + duration({months: i}) AS launched
     SET n.year = p.year, n.kind = p.kind, n.tags = p.tags, n.flag = p.flag, n.launched = launched,
       n.launchedText = toString(launched),
       n.launchedAt = datetime('2000-01-01T12:00:00Z') + duration({days: i})
     WITH n, i WHERE i % 6 = 1
     SET n:${'`'}${PICK}${'`'}, n[$odd] = 1`,
    { ids: elementIds, props: all.map((i) => ({ ...props(i), year: neo4j.int(1990 + i) })), odd: ODD_KEY },
    { database: 'neo4j' },
  );
  await buildVectorIndex(deps, { graph: 'neo4j', model: MODEL });
});
afterAll(async () => {
  await dropIndexFixture(driver, f);
  await deps.close();
});

describe('where: each operator', () => {
  const cases: [string, unknown, number[]][] = [
    ['= string', { property: 'kind', op: '=', value: 'probe' }, where((i) => i % 3 === 2)],
    ['= on a list property', { property: 'tags', op: '=', value: 'a' }, where((i) => i % 4 === 0)],
    ['<>', { property: 'kind', op: '<>', value: 'mission' }, where((i) => i % 3 !== 0)],
    ['<', { property: 'year', op: '<', value: 1995 }, where((i) => i < 5)],
    ['<=', { property: 'year', op: '<=', value: 1995 }, where((i) => i <= 5)],
    ['>', { property: 'year', op: '>', value: 2015 }, where((i) => i > 25)],
    ['>=', { property: 'year', op: '>=', value: 2015.0 }, where((i) => i >= 25)],
    ['in strings', { property: 'kind', op: 'in', value: ['mission', 'probe'] }, where((i) => i % 3 !== 1)],
    ['in numbers (integer property)', { property: 'year', op: 'in', value: [1990, 1991, 3000] }, [0, 1]],
    ['exists', { property: 'flag', op: 'exists' }, where((i) => i % 5 === 0)],
    ['>= date on a DATE property', { property: 'launched', op: '>=', value: '2001-01-01' }, where((i) => i >= 12)],
    ['= date on a DATE property', { property: 'launched', op: '=', value: '2000-03-01' }, [2]],
    ['<= date on a DATETIME property (by day)', { property: 'launchedAt', op: '<=', value: '2000-01-05' }, where((i) => i <= 4)],
    ['< date-time on a DATETIME property', { property: 'launchedAt', op: '<', value: '2000-01-03T00:00:00Z' }, [0, 1]],
    ['> date on an ISO string property', { property: 'launchedText', op: '>', value: '2002-01-01' }, where((i) => i > 24)],
    ['< date-time with the largest offset, +18:00', { property: 'launchedAt', op: '<', value: '2000-01-03T18:00+18:00' }, [0, 1]],
    ['> a date in year 0099', { property: 'launched', op: '>', value: '0099-01-01' }, all],
    ['< a date-time in year 0000', { property: 'launchedAt', op: '<', value: '0000-01-01T00:00:00-18:00' }, []],
    [
      'or of a condition and an and-group',
      {
        or: [
          { property: 'kind', op: '=', value: 'probe' },
          {
            and: [
              { property: 'year', op: '<', value: 1993 },
              { property: 'flag', op: 'exists' },
            ],
          },
        ],
      },
      where((i) => i % 3 === 2 || (i < 3 && i % 5 === 0)),
    ],
  ];

  it.each(cases)('%s', async (_name, filter, expected) => {
    expect(await ids({ where: filter })).toEqual(expected);
  });

  it('combines labels and where (both must hold)', async () => {
    expect(await ids({ labels: [PICK] })).toEqual(where((i) => i % 6 === 1));
    expect(await ids({ labels: [PICK, f.label], where: { property: 'year', op: '>', value: 2000 } })).toEqual(where((i) => i > 10));
    expect(await ids({ labels: [PICK], where: { property: 'year', op: '>', value: 2000 } })).toEqual([13, 19, 25]);
  });

  it('a filter that matches nothing: 200 and an empty list, in every mode', async () => {
    for (const mode of ['vector', 'fulltext', 'hybrid']) {
      const res = await search({ mode, query: 'protein kinase signalling', where: { property: 'kind', op: '=', value: 'nothing' } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual([]);
    }
  });
});

describe('top_k under a selective filter', () => {
  it.each(['vector', 'fulltext', 'hybrid'] as const)('%s: 5 of 30 nodes carry the label, top_k 5 gives those 5', async (mode) => {
    const query = `${texts[0]} ${texts[2]}`;
    const found = await deps.search.search({ query, graph: 'neo4j', model: MODEL, topK: 5, mode, labels: [PICK] });
    expect(found.map((h) => h.dbId).sort((a, b) => a - b)).toEqual([1, 7, 13, 19, 25]);
    const scores = found.map((h) => h.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('widens the candidate lists only when the first round falls short, and ranks like the unfiltered search', async () => {
    // Without widening (the first round alone) the label's nodes are not all among the candidates.
    const query = texts[0]!;
    const unfiltered = await deps.search.search({ query, graph: 'neo4j', model: MODEL, topK: 30, mode: 'vector' });
    const picked = unfiltered.filter((h) => h.labels.includes(PICK));
    const filtered = await createVectorSearcher(deps).search({
      query,
      graph: 'neo4j',
      model: MODEL,
      topK: 5,
      mode: 'vector',
      labels: [PICK],
    });
    expect(filtered.map((h) => h.dbId)).toEqual(picked.slice(0, 5).map((h) => h.dbId));
    const firstRound = await deps.search.search({ query, graph: 'neo4j', model: MODEL, topK: 5, mode: 'vector' });
    expect(firstRound.filter((h) => h.labels.includes(PICK)).length).toBeLessThan(5);
  });

  it('starts a repeated filter from the lists it needed: one round trip the second time (the first too, inside the index)', async () => {
    const { counting, runs } = countingDriver(driver);
    const searcher = createVectorSearcher({ ...deps, graph: { ...deps.graph, driver: counting } });
    const q = { graph: 'neo4j', model: MODEL, topK: 5, mode: 'vector' as const, labels: [PICK] };
    let path = '';
    const first = await searcher.search({ ...q, query: texts[0]!, onFilterPath: (p) => (path = p) });
    const rounds = runs.filter((r) => r && 'k' in r).length;
    // Inside the index its list holds only chunks of the label's nodes: no second round.
    if (path === 'index') expect(rounds).toBe(1);
    else expect(rounds).toBeGreaterThan(1);
    runs.length = 0;
    const again = await searcher.search({ ...q, query: texts[2]! });
    expect(runs.filter((r) => r && 'k' in r)).toHaveLength(1);
    expect([first, again].map((h) => h.map((n) => n.dbId).sort((a, b) => a - b))).toEqual([
      [1, 7, 13, 19, 25],
      [1, 7, 13, 19, 25],
    ]);
  });

  it('a filter fewer than top_k nodes pass: all of them, and inside the index in one round trip', async () => {
    const { counting, runs } = countingDriver(driver);
    const searcher = createVectorSearcher({ ...deps, graph: { ...deps.graph, driver: counting } });
    for (const mode of ['vector', 'hybrid'] as const) {
      runs.length = 0;
      let path = '';
      const found = await searcher.search({
        query: texts[3]!,
        graph: 'neo4j',
        model: MODEL,
        topK: 10,
        mode,
        labels: [PICK],
        onFilterPath: (p) => (path = p),
      });
      expect(found.map((h) => h.dbId).sort((a, b) => a - b)).toEqual([1, 7, 13, 19, 25]);
      // The index returned fewer chunks than asked: nothing else passes, so no second round.
      const rounds = runs.filter((r) => r && 'k' in r).length;
      if (path === 'index') expect(rounds, mode).toBe(1);
      else expect(rounds, mode).toBeGreaterThan(1);
    }
  });

  it('a filter every node passes gives the unfiltered results', async () => {
    const q = { query: 'insulin signalling in the liver', graph: 'neo4j', model: MODEL, topK: 6 };
    for (const mode of ['vector', 'fulltext', 'hybrid'] as const) {
      const plain = await deps.search.search({ ...q, mode });
      expect(await deps.search.search({ ...q, mode, where: { property: 'year', op: 'exists' } })).toEqual(plain);
    }
  });
});

describe('inside the vector index (servers whose vector indexes take filter properties)', () => {
  it('says where the filter was applied: inside the index where it can, after it for the rest', async () => {
    const { vectorFilters } = await deps.graph.server();
    const pathOf = async (body: Record<string, unknown>) => (await search(body)).headers.get('search-filter');
    const cases: [Record<string, unknown>, string][] = [
      [{ labels: [PICK] }, 'index'],
      [
        {
          where: {
            and: [
              { property: 'year', op: '>=', value: 1995 },
              { property: 'year', op: '<', value: 2005 },
            ],
          },
        },
        'index',
      ],
      [{ where: { property: 'kind', op: 'in', value: ['probe', 'mission'] } }, 'index'],
      // `=` on a property some node holds as a list means "contains": after the index.
      [{ where: { property: 'tags', op: '=', value: 'a' } }, 'post'],
      [
        {
          where: {
            and: [
              { property: 'kind', op: '=', value: 'probe' },
              { property: 'kind', op: '<>', value: 'x' },
            ],
          },
        },
        'index+post',
      ],
      [
        {
          where: {
            or: [
              { property: 'kind', op: '=', value: 'probe' },
              { property: 'year', op: '<', value: 1992 },
            ],
          },
        },
        'post',
      ],
      [{ labels: [PICK, f.label] }, 'post'],
    ];
    for (const [body, path] of cases) expect(await pathOf(body), JSON.stringify(body)).toBe(vectorFilters ? path : 'post');
    expect((await search({})).headers.get('search-filter')).toBeNull();
  });

  it('keeps carried values in step with the graph: a changed property is found by its new value after a sync', async () => {
    const yearOf = (i: number) => ids({ where: { property: 'year', op: '=', value: 1990 + i }, mode: 'vector' });
    const [id3] = await yearOf(3);
    await driver.executeQuery(
      'MATCH (n) WHERE n.dbId = $id OR id(n) = $id SET n.year = 2990',
      { id: neo4j.int(id3!) },
      { database: 'neo4j' },
    );
    try {
      await syncIndexNodes(deps, { graph: 'neo4j', model: MODEL, indexName: resolveIndexName(deps.config, 'neo4j', MODEL) });
      expect(await yearOf(3)).toEqual([]);
      expect(await yearOf(1000)).toEqual([id3]);
    } finally {
      await driver.executeQuery(
        'MATCH (n) WHERE n.dbId = $id OR id(n) = $id SET n.year = $y',
        { id: neo4j.int(id3!), y: neo4j.int(1993) },
        { database: 'neo4j' },
      );
      await syncIndexNodes(deps, { graph: 'neo4j', model: MODEL, indexName: resolveIndexName(deps.config, 'neo4j', MODEL) });
    }
  });
});

describe('a carried property that begins to hold a list', () => {
  it('is filtered after the index from the next sync on, so `=` keeps meaning "contains"', async () => {
    const { vectorFilters } = await deps.graph.server();
    const kindIs = (value: string) => search({ where: { property: 'kind', op: '=', value }, mode: 'vector' });
    expect((await kindIs('probe')).headers.get('search-filter')).toBe(vectorFilters ? 'index' : 'post');
    const [id0] = await ids({ where: { property: 'year', op: '=', value: 1990 } });
    const setKind = (kind: unknown) =>
      driver.executeQuery(
        'MATCH (n) WHERE n.dbId = $id OR id(n) = $id SET n.kind = $kind',
        { id: neo4j.int(id0!), kind },
        { database: 'neo4j' },
      );
    await setKind(['probe', 'rover']);
    try {
      await syncIndexNodes(deps, { graph: 'neo4j', model: MODEL, indexName: resolveIndexName(deps.config, 'neo4j', MODEL) });
      const res = await kindIs('rover');
      expect(res.headers.get('search-filter')).toBe('post');
      expect(((await res.json()) as { dbId: number }[]).map((h) => h.dbId)).toEqual([id0]);
    } finally {
      await setKind('mission');
      await syncIndexNodes(deps, { graph: 'neo4j', model: MODEL, indexName: resolveIndexName(deps.config, 'neo4j', MODEL) });
    }
    expect((await kindIs('probe')).headers.get('search-filter')).toBe(vectorFilters ? 'index' : 'post');
  });
});

describe('names the graph lacks', () => {
  it('422 naming the label, with the close name', async () => {
    const res = await search({ labels: [PICK.toLowerCase()] });
    expect(res.status).toBe(422);
    const p = await res.json();
    expect(p.errors).toEqual([{ path: 'body.labels.0', message: expect.stringContaining(`close names: "${PICK}"`) }]);
    expect(p.detail).toContain(`unknown label "${PICK.toLowerCase()}"`);
  });

  it('422 naming a nested property, with close names', async () => {
    const res = await search({
      where: { and: [{ property: 'year', op: '>', value: 1 }, { or: [{ property: 'yeer', op: '=', value: 1 }] }] },
    });
    expect(res.status).toBe(422);
    const p = await res.json();
    expect(p.errors).toHaveLength(1);
    expect(p.errors[0].path).toBe('body.where.and.1.or.0.property');
    expect(p.errors[0].message).toMatch(/^unknown property "yeer": the graph has no such property; close names: .*"year"/);
  });

  it('a label created after the names were read is found (the cache is read again before refusing)', async () => {
    const fresh = `Fresh_${f.tag}`;
    expect((await search({ labels: [PICK] })).status).toBe(200);
    await driver.executeQuery(`MATCH (n:${f.label} {dbId: 3}) SET n:${fresh}`, {}, { database: 'neo4j' });
    expect(await ids({ labels: [fresh] })).toEqual([3]);
  });
});

describe('injection attempts', () => {
  it('a property or label name with Cypher in it is refused as unknown, not run', async () => {
    for (const body of [
      { where: { property: 'year` IS NOT NULL OR true //', op: 'exists' } },
      { labels: ['Pick` OR true //'] },
      { where: { property: "x']) RETURN 1 //", op: '=', value: 1 } },
    ]) {
      const res = await search(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect((await res.json()).detail).toMatch(/unknown (property|label)/);
    }
  });

  it('a value with Cypher in it is inert: compared as a value', async () => {
    for (const value of ["probe' OR 1=1 //", 'probe" OR true //', '} RETURN n //']) {
      expect(await ids({ where: { property: 'kind', op: '=', value } })).toEqual([]);
    }
  });

  it('a real property whose name holds a backtick and a bracket is filtered by, being a parameter', async () => {
    expect(await ids({ where: { property: ODD_KEY, op: '=', value: 1 } })).toEqual(where((i) => i % 6 === 1));
  });

  it.each([
    ['an unknown op', { property: 'year', op: 'LIKE', value: 1 }, 'body.where'],
    ['a comparison with a non-date string', { property: 'year', op: '>', value: 'abc' }, 'body.where'],
    ['an impossible date', { property: 'launched', op: '>', value: '2001-02-29' }, 'body.where'],
    ['in without a list', { property: 'kind', op: 'in', value: 'probe' }, 'body.where'],
    ['a group with both and and or', { and: [{ property: 'year', op: 'exists' }], or: [] }, 'body.where'],
    ['three levels of groups', { and: [{ or: [{ and: [{ property: 'year', op: 'exists' }] }] }] }, 'body.where'],
    ['more than 20 conditions', { or: Array.from({ length: 21 }, () => ({ property: 'year', op: 'exists' })) }, 'body.where'],
  ])('422 for %s', async (_name, filter, path) => {
    const res = await search({ where: filter });
    expect(res.status).toBe(422);
    expect((await res.json()).errors.map((e: { path: string }) => e.path).join(' ')).toContain(path);
  });

  it('422 naming the field and the limit for offsets past ±18:00, too many conditions or values, unknown operators and null', async () => {
    const cond = { property: 'year', op: '=', value: 1 };
    // Where the shape is known the error's path names the field; inside a union it names the
    // filter, and the message starts with the path under it.
    const cases: [unknown, RegExp][] = [
      [{ property: 'launchedAt', op: '<', value: '2000-01-01T00:00+18:30' }, /^body\.where\.value: zone offset \+18:30 is beyond ±18:00/],
      [{ property: 'launched', op: '>=', value: '2000-01-01T00:00-1900' }, /^body\.where\.value: zone offset -1900 is beyond ±18:00/],
      [{ and: Array(21).fill(cond) }, /^body\.where: and: at most 20 conditions in all \(got 21/],
      [
        { property: 'year', op: 'in', value: Array.from({ length: 101 }, (_, i) => i) },
        /^body\.where: value: op "in" takes 1\.\.100 values \(got 101\)/,
      ],
      [
        { or: [{ property: 'kind', op: '=~', value: 'p.*' }] },
        /^body\.where: or\.0\.op: must be one of "=", "<>", .*"exists" \(got "=~"\)/,
      ],
      [{ property: 'kind', op: '=', value: null }, /^body\.where: value: must be a string, number or boolean, not null/],
    ];
    for (const [filter, message] of cases) {
      const res = await search({ where: filter });
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(`${body.errors[0].path}: ${body.errors[0].message}`).toMatch(message);
    }
  });

  it('422 for empty or non-string labels', async () => {
    for (const labels of [[], [''], [3], 'Pick']) {
      const res = await search({ labels });
      expect(res.status, JSON.stringify(labels)).toBe(422);
      expect((await res.json()).errors[0].path).toMatch(/^body\.labels/);
    }
  });
});

describe('the agent and MCP take the same fields', () => {
  const ctx = (): ToolContext =>
    ({
      graph: deps.graph,
      database: 'neo4j',
      search: deps.search,
      embeddingModel: MODEL,
      defaultTopK: 5,
      neighbors: 0,
      addSources: () => {},
    }) as unknown as ToolContext;

  it('agent: filtered results, and a tool error naming the close label', async () => {
    const ok = await runTool(DATA_TOOLS, 'vector_search', JSON.stringify({ query: texts[0], labels: [PICK], top_k: 5 }), ctx());
    expect(ok.ok).toBe(true);
    expect((JSON.parse(ok.text) as { dbId: number }[]).map((r) => r.dbId).sort((a, b) => a - b)).toEqual([1, 7, 13, 19, 25]);
    const bad = await runTool(DATA_TOOLS, 'vector_search', JSON.stringify({ query: 'x y', labels: [`${PICK}s`] }), ctx());
    expect(bad.ok).toBe(false);
    expect(bad.text).toMatch(new RegExp(`^Tool error: .*unknown label "${PICK}s".*close names: "${PICK}"`));
    const none = await runTool(
      DATA_TOOLS,
      'vector_search',
      JSON.stringify({ query: 'x y', where: { property: 'kind', op: '=', value: 'zz' } }),
      ctx(),
    );
    expect(none).toMatchObject({ ok: true, text: 'No nodes pass the filter among the matches.' });
  });

  it('MCP: filtered results, and an isError result naming the close property', async () => {
    const server = await startMcpServer(f.env);
    const { client } = await connectClient(server.url);
    try {
      const tool = (await client.listTools()).tools.find((t) => t.name === 'vector_search')!;
      expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['labels', 'where']));
      const res = await client.callTool({
        name: 'vector_search',
        arguments: { sentence: texts[0], where: { property: 'year', op: '<', value: 1993 } },
      });
      expect(res.isError).toBeFalsy();
      const results = (res.structuredContent as { results: { dbId: number }[] }).results;
      expect(results.map((r) => r.dbId).sort()).toEqual([0, 1, 2]);
      const bad = await client.callTool({ name: 'vector_search', arguments: { sentence: 'x', where: { property: 'Year', op: 'exists' } } });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toMatch(/^Error: .*unknown property "Year".*close names: "year"/);
      // Was "an unexpected error occurred": Neo4j's datetime() refuses offsets past ±18:00.
      const offset = { property: 'launchedAt', op: '<', value: '2000-01-01T00:00+18:30' };
      const far = await client.callTool({ name: 'vector_search', arguments: { sentence: 'x', where: offset } });
      expect(far.isError).toBe(true);
      expect(textOf(far)).toMatch(/^Error: invalid filter: where\.value: zone offset \+18:30 is beyond ±18:00/);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
