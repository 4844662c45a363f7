/**
 * `graph_query` against what one caller can send, on the real Neo4j (both lines in CI): a query
 * built to make a backtracking reader take exponential time leaves the server answering, the value
 * notices run after the caller's transaction is closed and never cost it its rows, and errors,
 * columns and notices stay within their bounds. Labels carry a tag of this run.
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CHARS, NOTICE_CHARS, runReadQuery, type ReadQueryLimits } from '../../../../src/graph/cypher/read-query.js';
import { valueSampler, type ValueSampler } from '../../../../src/graph/cypher/value-samples.js';
import { connectClient, startMcpServer, type McpTestServer } from '../../helpers/mcp-fixtures.js';

const tag = randomUUID().slice(0, 8).replace(/-/g, '');
const PERSON = `HPerson${tag}`;
const BIG = `HBig${tag}`;
const limits: ReadQueryLimits = { timeoutMs: 2_000, maxRows: 100, maxChars: 20_000 };
let srv: McpTestServer;
let client: Client;

const db = (cypher: string, params: Record<string, unknown> = {}) =>
  srv.deps.graph.driver.executeQuery(cypher, params, { database: 'neo4j' });
const call = async (cypher: string) =>
  (await client.callTool({ name: 'graph_query', arguments: { cypher_query: cypher } })) as CallToolResult;
const size = (r: CallToolResult) => JSON.stringify(r).length;

/** The longest the event loop stalled while `work` ran: a timer due every 10 ms, late by this much at most. */
async function stallDuring<T>(work: Promise<T>): Promise<{ value: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last - 10);
    last = now;
  }, 10);
  try {
    return { value: await work, stallMs };
  } finally {
    clearInterval(timer);
  }
}

beforeAll(async () => {
  srv = await startMcpServer();
  await db(`CREATE (:${PERSON} {name: 'Keanu Reeves'}), (:${PERSON} {name: 'Tom Hanks'})`);
  await db(`CREATE (:${BIG} {description: $text})`, { text: 'lorem ipsum '.repeat(90_000) });
  await srv.deps.skeleton.refresh('neo4j');
  ({ client } = await connectClient(srv.url));
});
afterAll(async () => {
  await client?.close();
  await db(`MATCH (n) WHERE n:${PERSON} OR n:${BIG} DETACH DELETE n`);
  await srv.close();
});

describe('one query cannot stall the service', () => {
  it('a run of labels the readers once split 2^n ways is read at once, and /health answers meanwhile', async () => {
    const labels = `:${PERSON}`.repeat(40);
    for (const q of [
      `MATCH (p${labels} WHERE p.name = 'nobody') RETURN p.name LIMIT 1`,
      `MATCH (p${labels}) WHERE p.name = 'nobody at all' RETURN p.name`,
    ]) {
      const health = (async () => {
        const t = performance.now();
        await fetch(`${srv.base}/health`);
        return performance.now() - t;
      })();
      const { value, stallMs } = await stallDuring(call(q));
      expect(value.isError).toBeFalsy();
      expect(stallMs).toBeLessThan(250);
      expect(await health).toBeLessThan(1_000);
    }
  });
});

describe('value notices outside the caller’s transaction', () => {
  /**
   * The graph store with its sessions counted, and the real sampler noting how many of those were
   * open whenever it read (the sampler reads through the store itself, so its own are not counted).
   */
  const watching = () => {
    let open = 0;
    const seen: number[] = [];
    const driver = srv.deps.graph.driver;
    const counted = new Proxy(driver, {
      get(target, key) {
        if (key !== 'session') return Reflect.get(target, key, target);
        return (...args: Parameters<typeof driver.session>) => {
          const session = target.session(...args);
          open++;
          const close = session.close.bind(session);
          let closed = false;
          session.close = async () => {
            if (!closed) open--;
            closed = true;
            return close();
          };
          return session;
        };
      },
    });
    const inner = valueSampler(srv.deps.graph);
    const sampler: ValueSampler = {
      sample: async (...args) => (seen.push(open), inner.sample(...args)),
      exists: async (...args) => (seen.push(open), inner.exists(...args)),
    };
    return { graph: { ...srv.deps.graph, driver: counted }, sampler, seen };
  };

  it('reads values with the caller’s transaction closed, and gives the notice', async () => {
    const { graph, sampler, seen } = watching();
    const q = `MATCH (p:${PERSON}) WHERE p.name IN ['Keanu Reevs', 'nobody'] RETURN count(p) AS n`;
    const result = await runReadQuery(graph, 'neo4j', q, {}, limits, { schema: srv.deps.skeleton, values: sampler });
    expect(result.rows).toEqual([{ n: 0 }]);
    expect(result.notices?.[0]).toMatchObject({ kind: 'value-not-found', suggestions: ['Keanu Reeves'] });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((n) => n === 0)).toBe(true);
  });

  it('answers with its rows, within its time, when the checks cannot finish, and says so', async () => {
    const stuck: ValueSampler = { sample: () => new Promise(() => {}), exists: () => new Promise(() => {}) };
    const t = performance.now();
    const result = await runReadQuery(srv.deps.graph, 'neo4j', `MATCH (p:${PERSON} {name: 'nobody'}) RETURN p.name`, {}, limits, {
      schema: srv.deps.skeleton,
      values: stuck,
    });
    expect(performance.now() - t).toBeLessThan(limits.timeoutMs + 1_000);
    expect(result.rows).toEqual([]);
    expect(result.note).toMatch(/1 compared value was not checked against the graph/);
  });
});

describe('bounded answers', () => {
  it('an error that repeats a value of a megabyte is cut', async () => {
    const r = await call(`MATCH (b:${BIG}) RETURN date(b.description) AS d`);
    expect(r.isError).toBe(true);
    expect(size(r)).toBeLessThan(ERROR_CHARS + 500);
    expect((r.content[0] as { text: string }).text).toMatch(/cannot be parsed|Text cannot|… \[cut: [\d,]+ more characters\]/);
  });

  it('a long literal that matches nothing comes back short, in the error, the columns and the notice', async () => {
    const literal = 'x'.repeat(40_000);
    const err = await call(`RETURN date('${literal}') AS d`);
    expect(err.isError).toBe(true);
    expect(size(err)).toBeLessThan(ERROR_CHARS + 500);
    const r = await call(`MATCH (p:${PERSON}) WHERE p.name = '${literal}' RETURN count(p), '${literal}'`);
    expect(r.isError).toBeFalsy();
    const value = r.structuredContent as { columns: string[]; notices?: Array<{ message: string }> };
    expect(value.notices?.[0]?.message.length).toBeLessThanOrEqual(NOTICE_CHARS);
    expect(value.columns.every((c) => c.length < 300)).toBe(true);
    expect(size(r)).toBeLessThan(10_000);
  });
});
