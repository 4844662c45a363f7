/**
 * Settings and explicit choices (issue 37, item 7): `INDEX_LABELS`, `INDEX_PROPERTIES` and
 * `INDEX_FILTER_PROPERTIES` checked against the graph in readiness, errors a setting causes
 * blamed on the setting, explicit choices that mix in a number or list strings, prototype keys
 * as labels and as choices, and the index's own property names kept out of filters and close
 * names. A graph of the suite's own labels (one of them named `constructor`), real Neo4j and
 * Redis, the generated tiny potion model.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Status } from '../../../../src/contract/status.js';
import { chunkLabel, quoteName } from '../../../../src/graph/dialect/names.js';
import { isIndexProperty } from '../../../../src/graph/shape/internal-names.js';
import { DATA_TOOLS } from '../../../../src/agent/data-tools.js';
import { runTool, type ToolContext } from '../../../../src/agent/tools.js';
import { dropSearchIndex } from '../../../../src/graph/access/index-writer.js';
import { createTestApp } from '../../helpers/deps.js';
import { connectClient, startMcpServer, textOf } from '../../helpers/mcp-fixtures.js';

const MODEL = 'minishlab/potion-base-32M';
const tag = Math.random().toString(36).slice(2, 8);
const M = `Mission_${tag}`;
/** A label every plain object "has": `{}['constructor']` is Object. */
const CTOR = 'constructor';
const index = `test_settings_${tag}`;
const env = {
  TEXT_PROPERTY: `text_${tag}`,
  INDEX_DISCOVER: 'true',
  INDEX_LABELS: `${M},${CTOR}`,
  VECTOR_INDEX_NAME: index,
  EMBEDDING_MODEL: MODEL,
  DATA_DIR: `test-output/index-settings-${tag}`,
};
const { app, deps } = createTestApp(env);
const driver = deps.graph.driver;

const q = async (cypher: string, params: Record<string, unknown> = {}) =>
  (await driver.executeQuery(cypher, params, { database: 'neo4j' })).records.map((r) => r.toObject());
const send = (a: typeof app, path: string, body: unknown) =>
  a.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
type Problem = { detail: string; errors: { path: string; message: string }[] };
const refused = async (res: Response) => {
  expect(res.status).toBe(422);
  return (await res.json()) as Problem;
};

/** An app over the same graph with other settings; closed after `use`. */
async function withApp<T>(extra: Record<string, string>, use: (a: typeof app) => Promise<T>): Promise<T> {
  const other = createTestApp({ ...env, ...extra });
  try {
    return await use(other.app);
  } finally {
    await other.deps.close();
  }
}

const MISSIONS = [
  { name: `Apollo ${tag}`, summary: 'The crew landed on the moon and came back with rocks.', keywords: ['moon', 'crew'], batch: 'B-7' },
  {
    name: `Voyager ${tag}`,
    summary: 'A probe that left the solar system carrying a golden record.',
    keywords: ['probe', 'record'],
    batch: 'B-8',
  },
];

beforeAll(async () => {
  await q(
    `UNWIND range(0, size($missions) - 1) AS i
     WITH i, $missions[i] AS m
     CREATE (n:${quoteName(M)} {suite: $tag, name: m.name, summary: m.summary, keywords: m.keywords, batch: m.batch, launchYear: 1969 + i})`,
    { missions: MISSIONS, tag },
  );
  await q(`CREATE (n:${quoteName(CTOR)} {suite: $tag, name: $name, summary: 'Builds things from parts in the order given.'})`, {
    tag,
    name: `Builder ${tag}`,
  });
}, 60_000);
afterAll(async () => {
  await q(`MATCH (n) WHERE n.suite = $tag DETACH DELETE n`, { tag });
  await dropSearchIndex(driver, 'neo4j', index);
  await deps.close();
});

describe('settings checked against the graph', () => {
  /**
   * The readiness report of an app with `extra` settings. The check starts with the app; a report
   * goes without it when the graph is slow to answer (a loaded test machine), so ask again a while.
   */
  const statusWith = (extra: Record<string, string>, expectCheck = true) =>
    withApp(extra, async (a) => {
      for (let i = 0; ; i++) {
        const res = await a.request('/status');
        expect(res.status).toBe(200);
        const s = (await res.json()) as Status;
        if (!expectCheck || s.checks.some((c) => c.id === 'settings') || i >= 5) return s;
        await new Promise((r) => setTimeout(r, 3_100)); // past the report's 3 s reuse
      }
    });

  it('INDEX_PROPERTIES of the right form naming a property the label lacks: a failed readiness check naming it, with close names', async () => {
    const s = await statusWith({ INDEX_PROPERTIES: `${M}=nope` });
    const check = s.checks.find((c) => c.id === 'settings');
    expect(check).toMatchObject({ ok: false, required: true, title: 'Index settings' });
    expect(check!.detail).toContain(`INDEX_PROPERTIES.${M}.0: unknown property of ${M} "nope"; close names: "name"`);
    expect(check!.fix).toContain('INDEX_PROPERTIES');
    expect(s.ready).toBe(false);
  }, 60_000);

  it('a wrong INDEX_LABELS, and INDEX_FILTER_PROPERTIES naming a misspelt and an internal property (optional)', async () => {
    const labels = await statusWith({ INDEX_LABELS: `${M.replace('Mission', 'Misson')},${CTOR}` });
    const check = labels.checks.find((c) => c.id === 'settings')!;
    expect(check).toMatchObject({ ok: false, required: true });
    expect(check.detail).toContain(`INDEX_LABELS.0: unknown label "${M.replace('Mission', 'Misson')}"; close names: "${M}"`);

    const filters = await statusWith({ INDEX_FILTER_PROPERTIES: 'launchYeer,chunkText' });
    const f = filters.checks.find((c) => c.id === 'settings')!;
    expect(f).toMatchObject({ ok: false, required: false });
    expect(f.detail).toContain('INDEX_FILTER_PROPERTIES.0: unknown property "launchYeer"; close names: "launchYear"');
    expect(f.detail).toContain(`INDEX_FILTER_PROPERTIES.1: unknown property "chunkText" (a property of the search index's own nodes)`);
    expect(f.detail).not.toMatch(/close names: [^;]*"(chunkText|embedding|nodeId|batch|chunk)"/);
  }, 60_000);

  it('settings that name what the graph has pass; none set, no check', async () => {
    const good = await statusWith({ INDEX_PROPERTIES: `${M}=name,summary`, INDEX_FILTER_PROPERTIES: 'launchYear,batch' });
    expect(good.checks.find((c) => c.id === 'settings')).toMatchObject({ ok: true });
    const none = await statusWith({ INDEX_LABELS: '', INDEX_DISCOVER: 'false' }, false);
    expect(none.checks.find((c) => c.id === 'settings')).toBeUndefined();
  }, 60_000);

  it('a plan or build refused for a wrong setting blames the setting, not a field of the request', async () => {
    await withApp({ INDEX_PROPERTIES: `${M}=nope` }, async (a) => {
      for (const [path, body] of [
        ['/dev/text_plan', { graph_name: 'neo4j' }],
        ['/dev/build_vector_index', { graph_name: 'neo4j', model: MODEL }],
      ] as const) {
        const p = await refused(await send(a, path, body));
        expect(p.errors).toEqual([{ path: `INDEX_PROPERTIES.${M}.0`, message: expect.stringContaining('close names: "name"') }]);
        expect(p.detail).toMatch(/^the setting INDEX_PROPERTIES names what the graph cannot index: /);
      }
      // A request's own choice replaces the setting: no error.
      const own = await send(a, '/dev/text_plan', { graph_name: 'neo4j', properties: { [M]: ['summary'] } });
      expect(own.status).toBe(200);
    });
    await withApp({ INDEX_LABELS: `Nope_${tag}` }, async (a) => {
      const p = await refused(await send(a, '/dev/text_plan', { graph_name: 'neo4j' }));
      expect(p.errors[0]!.path).toBe('INDEX_LABELS.0');
      expect(p.detail).toContain('the setting INDEX_LABELS');
    });
  });
});

describe('explicit choices', () => {
  const plan = (body: unknown) => send(app, '/dev/text_plan', body);

  it('a number mixed into the text is refused, naming the field and what it holds', async () => {
    const p = await refused(await plan({ graph_name: 'neo4j', properties: { [M]: ['summary', 'launchYear'] } }));
    expect(p.errors).toEqual([
      {
        path: `body.properties.${M}.1`,
        message: expect.stringMatching(new RegExp(`^"launchYear" of ${M} holds INTEGER values, not text`)),
      },
    ]);
  });

  it('a list of strings is text: accepted alone, and joined in the indexed text', async () => {
    const res = await plan({ graph_name: 'neo4j', properties: { [M]: ['keywords'] } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { labels: { label: string; source: string; text: string[] }[] };
    expect(body.labels.find((l) => l.label === M)).toMatchObject({ source: 'explicit', text: ['keywords'] });
  });

  it('prototype keys are labels like any other: unknown ones refused with close names, a label named constructor chosen', async () => {
    // Raw JSON: an object literal's `__proto__` would set its prototype, not a key.
    const proto = await refused(await plan(`{"graph_name": "neo4j", "properties": {"__proto__": ["summary"]}}`));
    expect(proto.errors).toEqual([{ path: 'body.properties.__proto__', message: expect.stringMatching(/^unknown label "__proto__"; /) }]);
    for (const key of ['hasOwnProperty', 'prototype', 'toString', 'valueOf']) {
      const p = await refused(await plan({ graph_name: 'neo4j', properties: { [key]: ['summary'] } }));
      expect(p.errors).toEqual([
        { path: `body.properties.${key}`, message: expect.stringMatching(new RegExp(`^unknown label "${key}"; `)) },
      ]);
    }
    const ctor = await plan({ graph_name: 'neo4j', properties: { [CTOR]: ['name', 'summary'] } });
    expect(ctor.status).toBe(200);
    const body = (await ctor.json()) as { labels: { label: string; source: string; name: string[]; text: string[] }[] };
    expect(body.labels.find((l) => l.label === CTOR)).toMatchObject({ source: 'explicit', name: ['name'], text: ['summary'] });
  });
});

describe('a build, and filters on the index', () => {
  beforeAll(async () => {
    const res = await send(app, '/dev/build_vector_index', {
      graph_name: 'neo4j',
      model: MODEL,
      properties: { [M]: ['name', 'summary', 'keywords'] },
    });
    expect(res.status).toBe(200);
  }, 120_000);

  it('indexes a label named constructor by discovery, and joins an explicit list of strings', async () => {
    const rows = await q(
      `MATCH (c:${quoteName(chunkLabel(index))}) MATCH (n) WHERE elementId(n) = c.nodeId AND n.suite = $tag
       RETURN labels(n)[0] AS label, coalesce(c.chunkText, c.nameText) AS text ORDER BY text`,
      { tag },
    );
    expect(rows.map((r) => r.label).sort()).toEqual([CTOR, M, M].sort());
    expect(rows.find((r) => (r.text as string).includes(`Apollo ${tag}`))!.text).toContain('moon, crew');
    expect(rows.find((r) => r.label === CTOR)!.text).toContain('Builds things from parts');
  });

  it('every property of the chunk nodes is an index name (never offered, never filtered on)', async () => {
    const [row] = await q(`MATCH (c:${quoteName(chunkLabel(index))}) UNWIND keys(c) AS k RETURN collect(DISTINCT k) AS keys`);
    const keys = row!.keys as string[];
    expect(keys).toEqual(expect.arrayContaining(['chunkText', 'embedding', 'nodeId']));
    expect(keys.filter((k) => !isIndexProperty(k))).toEqual([]);
  });

  const search = (where: unknown) =>
    send(app, '/vector/search', { graph_name: 'neo4j', model: MODEL, mode: 'hybrid', query: `Apollo ${tag}`, top_k: 5, where });

  it("a filter on the index's own properties is refused, and close names never offer them", async () => {
    for (const property of ['chunkText', 'embedding', 'nodeId', 'chunk', 'prop:launchYear', 'label:Mission', '__x']) {
      const p = await refused(await search({ property, op: 'exists' }));
      expect(p.errors[0]!.path).toBe('body.where.property');
      expect(p.errors[0]!.message).toMatch(new RegExp(`^unknown property ${JSON.stringify(property)}: `));
    }
    const internal = await refused(await search({ property: 'chunkText', op: 'exists' }));
    expect(internal.errors[0]!.message).toContain("a property of the search index's own nodes");
    for (const property of ['embeding', 'chunkTxt', 'nodeID']) {
      const p = await refused(await search({ property, op: 'exists' }));
      expect(p.errors[0]!.message).not.toMatch(/close names: [^;]*"(chunkText|embedding|nodeId|batch|chunk)"/);
    }
  });

  it('a plain name the graph’s own nodes also hold (batch) is filtered on as usual', async () => {
    const res = await search({ property: 'batch', op: '=', value: 'B-7' });
    expect(res.status).toBe(200);
    const hits = (await res.json()) as { displayName: string }[];
    expect(hits.map((h) => h.displayName)).toEqual([`Apollo ${tag}`]);
  });

  it("the agent's and MCP's vector_search refuse them as tool errors", async () => {
    const ctx = {
      graph: deps.graph,
      database: 'neo4j',
      search: deps.search,
      embeddingModel: MODEL,
      defaultTopK: 5,
      neighbors: 0,
      addSources: () => {},
    } as unknown as ToolContext;
    const where = { property: 'chunkText', op: 'exists' };
    const agent = await runTool(DATA_TOOLS, 'vector_search', JSON.stringify({ query: 'moon', where }), ctx);
    expect(agent.ok).toBe(false);
    expect(agent.text).toMatch(/^Tool error: .*unknown property "chunkText"/);
    const server = await startMcpServer(env);
    const { client } = await connectClient(server.url);
    try {
      const bad = await client.callTool({ name: 'vector_search', arguments: { sentence: 'moon', where } });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toMatch(/^Error: .*unknown property "chunkText"/);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
