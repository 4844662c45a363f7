/**
 * Text leaving the service is bounded (DECISIONS.md 27, issue 37): a node with a 5 MB text under
 * the seed's text property, and a node of a label of its own whose chosen description holds 5 MB
 * full of surrogate pairs, indexed with the test model (with their first 2,000 characters: the
 * build of huge values is the chunker's concern). `POST /vector/search` in each mode, MCP
 * `vector_search`, a lookup and an agent answer in the chat (job and session as the API returns
 * them) all carry the text cut to `SEARCH_TEXT_MAX_CHARS` with its marker; response sizes are
 * asserted in bytes. The sizes are printed (`bytes …`) for the record.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVectorIndex } from '../../../../src/vector-index/build/build.js';
import { quoteName } from '../../../../src/graph/dialect/names.js';
import { routerReply, toolCallReply } from '../../../helpers/llm-server.js';
import { startHarness, type Harness } from '../../helpers/chat-harness.js';
import { createIndexFixture, createTextNodes, dropIndexFixture } from '../../helpers/index-fixtures.js';
import { connectClient, startMcpServer, type McpTestServer } from '../../helpers/mcp-fixtures.js';

const MODEL = 'minishlab/potion-base-8M';
const MAX = 4_000; // SEARCH_TEXT_MAX_CHARS's default
const BIG = 5 * 1024 * 1024;
const f = createIndexFixture(MODEL, { VECTOR_SEARCH_TOP_K: '3', SEARCH_NEIGHBORS: '0' });
const DOC = `BoundDoc_${f.tag}`;

const LOG_START = 'Zephyr quartz lighthouse keeper logbook of storms and tides.';
const ARCHIVE_TITLE = 'Harbour archive';
const ARCHIVE_START = 'Tidal harbour archive of cargo manifests and ferry timetables.';
const filler = (seed: string, size: number) => {
  const words = `${seed} `.repeat(Math.ceil(size / (seed.length + 1)));
  return words.slice(0, size);
};
// 5 MB of ASCII prose under the seed's text property.
const bigLog = `${LOG_START} ${filler('wind rain gale beacon rock shore', BIG)}`;
// 5 MB of characters under a chosen property, every fourth one a surrogate pair: a naive cut splits one.
const bigArchive = `${ARCHIVE_START} ${filler('ab\u{1F6A2}', BIG)}`;
const small = [
  'Calcium channels open in muscle cells and let calcium ions in.',
  'The insulin receptor binds insulin at the plasma membrane of liver cells.',
  'Ribosomes translate messenger RNA into proteins in the cytoplasm.',
];

/** Code points of `s` (as the bound counts them). */
const chars = (s: string) => [...s].length;
/** A lone surrogate anywhere in `s`. */
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const sizes: Record<string, number> = {};
const bytes = (name: string, body: string) => {
  sizes[name] = Buffer.byteLength(body);
  return sizes[name];
};

/** A hit's text is within the bound, ends with the marker when cut, and never splits a character. */
function expectBounded(text: string) {
  expect(chars(text)).toBeLessThanOrEqual(MAX);
  expect(LONE.test(text)).toBe(false);
}
function expectCut(text: string, whole: number) {
  expectBounded(text);
  const m = /… \[cut: ([\d,]+) more characters; the node: \/graph\/node\?id=\d+\]$/.exec(text);
  expect(m).not.toBeNull();
  expect(chars(text.slice(0, m!.index)) + Number(m![1]!.replace(/,/g, ''))).toBe(whole);
}

let srv: McpTestServer;
let client: Client;
let h: Harness;

beforeAll(async () => {
  srv = await startMcpServer(f.env);
  const driver = srv.deps.graph.driver;
  // Indexed with their start (embedding 6 MB takes the build minutes), then grown: search reads the nodes as they are now.
  const [, , , log] = await createTextNodes(driver, f, [...small, bigLog.slice(0, 2_000)]);
  await driver.executeQuery(
    `CREATE (:${quoteName(DOC)} {dbId: 100, title: $title, description: $description, tags: ['archive', 'harbour']})`,
    { title: ARCHIVE_TITLE, description: bigArchive.slice(0, 2_000) },
    { database: 'neo4j' },
  );
  await buildVectorIndex(srv.deps, { graph: 'neo4j', model: MODEL, choice: { properties: { [DOC]: ['title', 'description'] } } });
  await driver.executeQuery(
    `MATCH (n) WHERE elementId(n) = $log SET n[$prop] = $bigLog
     WITH count(*) AS one MATCH (d:${quoteName(DOC)}) SET d.description = $bigArchive`,
    { log, prop: f.prop, bigLog, bigArchive },
    { database: 'neo4j' },
  );
  ({ client } = await connectClient(srv.url));
  h = await startHarness({ env: f.env, realSearch: true, realAgent: true });
}, 300_000);
afterAll(async () => {
  console.log(`bytes ${JSON.stringify(sizes)}`);
  await client?.close();
  await h?.close();
  await srv.deps.graph.driver.executeQuery(`MATCH (n:${quoteName(DOC)}) DETACH DELETE n`, {}, { database: 'neo4j' });
  await dropIndexFixture(srv.deps.graph.driver, f);
  await srv.close();
});

const search = async (body: Record<string, unknown>) => {
  const res = await fetch(`${srv.base}/vector/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ graph_name: 'neo4j', model: MODEL, top_k: 3, ...body }),
  });
  expect(res.status).toBe(200);
  return res.text();
};

describe('POST /vector/search', () => {
  it.each(['vector', 'fulltext', 'hybrid'] as const)('%s: a 5 MB text comes cut to the bound with its marker', async (mode) => {
    const body = await search({ query: LOG_START, mode });
    // Three hits of at most 4,000 ASCII characters each, and their other fields.
    expect(bytes(`search ${mode} (log)`, body)).toBeLessThan(3 * MAX + 2_000);
    const hits = JSON.parse(body) as Array<{ dbId: number; text: string }>;
    const log = hits.find((x) => x.dbId === 3)!;
    expect(log.text.startsWith(LOG_START)).toBe(true);
    expectCut(log.text, chars(bigLog));
    for (const x of hits) expectBounded(x.text);
    expect(hits.find((x) => x.dbId === 0)?.text ?? small[0]).toBe(small[0]);
  });

  it.each(['vector', 'fulltext', 'hybrid'] as const)('%s: a chosen property is cut at a character boundary', async (mode) => {
    const body = await search({ query: ARCHIVE_START, mode });
    // Surrogate pairs are 4 bytes in UTF-8: at most 4 × 4,000 per hit.
    expect(bytes(`search ${mode} (archive)`, body)).toBeLessThan(3 * 4 * MAX + 2_000);
    const archive = (JSON.parse(body) as Array<{ dbId: number; text: string }>).find((x) => x.dbId === 100)!;
    expect(archive.text.startsWith(ARCHIVE_START)).toBe(true);
    expectCut(archive.text, chars(bigArchive));
  });

  it('leaves short texts whole', async () => {
    const hits = JSON.parse(await search({ query: small[1], mode: 'fulltext' })) as Array<{ dbId: number; text: string }>;
    expect(hits.find((x) => x.dbId === 1)?.text).toBe(small[1]);
  });
});

describe('MCP vector_search', () => {
  it('carries the cut text in structuredContent and in the JSON text block', async () => {
    const result = (await client.callTool({ name: 'vector_search', arguments: { sentence: LOG_START } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(bytes('mcp vector_search', JSON.stringify(result))).toBeLessThan(2 * (3 * MAX + 2_000));
    const { results } = result.structuredContent as { results: Array<{ dbId: number; text: string }> };
    const log = results.find((x) => x.dbId === 3)!;
    expectCut(log.text, chars(bigLog));
    const block = result.content[0]!;
    expect(block.type === 'text' && JSON.parse(block.text)).toEqual(result.structuredContent);
  });
});

describe('chat', () => {
  it('a lookup stores its sources and answer within the bound (job and session)', async () => {
    h.llm.script(routerReply('lookup', 0.95));
    const sub = await h.submit(ARCHIVE_START);
    const job = await h.waitJob(sub.job_id, 30_000);
    expect(job.status).toBe('done');
    const session = await (await h.app.request(`/chat/session/${sub.session_id}`)).text();
    // Answer and sources: up to three texts twice in the job, three times in the session (the answer, job_done's copy).
    const sizeOf = { job: bytes('chat lookup job', JSON.stringify(job)), session: bytes('chat lookup session', session) };
    expect(sizeOf.job).toBeLessThan(2 * 3 * 4 * MAX + 4_000);
    expect(sizeOf.session).toBeLessThan(3 * 3 * 4 * MAX + 4_000);
    const sources = job.result.sources as Array<{ dbId: number; text: string }>;
    expect(sources.some((s) => s.dbId === 100)).toBe(true);
    for (const s of sources) expectBounded(s.text);
    expectCut(sources.find((s) => s.dbId === 100)!.text, chars(bigArchive));
  });

  it("an agent's search: the model reads a short text, the job and session keep bounded sources", async () => {
    h.llm.script(routerReply('agent', 0.95), toolCallReply({ name: 'vector_search', arguments: { query: LOG_START } }), {
      content: 'The logbook is long.',
    });
    const sub = await h.submit('What does the lighthouse logbook say?');
    const job = await h.waitJob(sub.job_id, 30_000);
    expect(job.status).toBe('done');
    const session = await (await h.app.request(`/chat/session/${sub.session_id}`)).text();
    // The sources once in the job, twice in the session (job_done's copy and the result's), both hits' texts within the bound.
    const sizeOf = { job: bytes('chat agent job', JSON.stringify(job)), session: bytes('chat agent session', session) };
    expect(sizeOf.job).toBeLessThan(3 * 4 * MAX + 4_000);
    expect(sizeOf.session).toBeLessThan(2 * 3 * 4 * MAX + 4_000);
    const sources = job.result.sources as Array<{ dbId: number; text: string }>;
    expectCut(sources.find((s) => s.dbId === 3)!.text, chars(bigLog));
    for (const s of sources) expectBounded(s.text);
    const tool = (h.llm.chatRequests().at(-1)!.body.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'tool')!;
    expect(tool.content.length).toBeLessThan(3 * 1_000);
    expect(LONE.test(tool.content)).toBe(false);
  });
});
