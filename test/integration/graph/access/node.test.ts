/**
 * GET /graph/node against the real Neo4j: a node by its `dbId` property or its database id,
 * properties without vectors or `__` internals, long values cut, neighbours capped over every
 * type, and the problems (404 unknown graph or node or index data, 422 bad id, 503 database
 * down); nothing a caller sends can write.
 */
import { randomUUID } from 'node:crypto';
import neo4j from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_LIST_ITEMS, NODE_NEIGHBORS, NODE_STRING_CHARS } from '../../../../src/graph/access/node-details.js';
import { createTestApp } from '../../helpers/deps.js';

const tag = randomUUID().replace(/-/g, '').slice(0, 10);
const LABEL = `NodeTest_${tag}`;
// Far above any database id, so no other suite's node can answer to it.
const DBID = 9_000_000_000_000 + Math.floor(Math.random() * 1e9);
const { app, deps } = createTestApp();
const db = (cypher: string, params: Record<string, unknown> = {}) => deps.graph.driver.executeQuery(cypher, params, { database: 'neo4j' });
let plainId = 0;
let chunkId = 0;

const get = (query: string) => app.request(`/graph/node?${query}`);
const count = async () => (await db(`MATCH (n:${LABEL}) RETURN count(n) AS c`)).records[0]!.get('c') as number;

beforeAll(async () => {
  await db(
    `CREATE (n:${LABEL}:Pathway {dbId: $dbId, displayName: 'Glycolysis', text: $long, synonyms: $list,
       embedding: $vector, __internal: 'index bookkeeping', year: 2001})
     WITH n UNWIND range(1, 60) AS i CREATE (n)-[:HAS_PART]->(:${LABEL} {name: 'part ' + toString(i)})
     WITH DISTINCT n CREATE (:${LABEL}:Paper {name: 'A paper'})-[:CITES]->(n)`,
    {
      dbId: neo4j.int(DBID),
      long: 'x'.repeat(NODE_STRING_CHARS + 500),
      list: Array.from({ length: NODE_LIST_ITEMS + 30 }, (_, i) => `syn ${i}`),
      vector: Array.from({ length: 384 }, (_, i) => i / 384),
    },
  );
  plainId = (await db(`CREATE (n:${LABEL} {name: 'No dbId'}) RETURN id(n) AS id`)).records[0]!.get('id') as number;
  chunkId = (await db(`CREATE (c:__Chunk_${tag} {chunkText: 'x'}) RETURN id(c) AS id`)).records[0]!.get('id') as number;
});
afterAll(async () => {
  await db(`MATCH (n) WHERE n:${LABEL} OR n:__Chunk_${tag} DETACH DELETE n`);
  await deps.close();
});

describe('GET /graph/node', () => {
  it('returns labels and properties without vectors or internals, long values cut with a marker', async () => {
    const res = await get(`graph_name=neo4j&id=${DBID}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ dbId: DBID, displayName: 'Glycolysis', omitted_properties: ['__internal', 'embedding'], degree: 61 });
    expect(body.labels.sort()).toEqual([LABEL, 'Pathway'].sort());
    expect(Object.keys(body.properties).sort()).toEqual(['dbId', 'displayName', 'synonyms', 'text', 'year']);
    expect(body.properties.year).toBe(2001);
    expect(body.properties.text).toBe(`${'x'.repeat(NODE_STRING_CHARS)}… [500 more characters]`);
    expect(body.properties.synonyms).toHaveLength(NODE_LIST_ITEMS + 1);
    expect(body.properties.synonyms.at(-1)).toBe('… [30 more items]');
    expect(JSON.stringify(body)).not.toContain('index bookkeeping');
  });

  it('caps the neighbours and keeps the rare relationship type among them', async () => {
    const body = await (await get(`id=${DBID}`)).json();
    expect(body.neighbors).toHaveLength(NODE_NEIGHBORS);
    expect(body.neighbors).toContainEqual({
      type: 'CITES',
      direction: 'in',
      dbId: expect.any(Number),
      displayName: 'A paper',
      labels: expect.arrayContaining(['Paper']),
    });
    expect(body.neighbors.filter((n: { type: string }) => n.type === 'HAS_PART')).toHaveLength(NODE_NEIGHBORS - 1);
  });

  it('finds a node without a dbId property by its database id, in the default graph', async () => {
    const res = await get(`id=${plainId}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ dbId: plainId, displayName: 'No dbId', labels: [LABEL], neighbors: [], degree: 0 });
  });

  it('404 for an unknown node, an unknown graph, and index data', async () => {
    for (const q of [`id=${DBID + 1}`, `graph_name=nograph${tag}&id=${DBID}`, `id=${chunkId}`]) {
      const res = await get(q);
      expect(res.status, q).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
  });

  it('422 naming the field for a missing or non-integer id', async () => {
    for (const q of ['graph_name=neo4j', 'id=abc', 'id=1.5', `id=${DBID}%20OR%201=1`, 'id=1&graph_name=']) {
      const res = await get(q);
      expect(res.status, q).toBe(422);
      const body = await res.json();
      expect(
        body.errors.map((e: { path: string }) => e.path),
        q,
      ).toEqual([q.endsWith('=') ? 'query.graph_name' : 'query.id']);
    }
  });

  it('cannot write: other methods are refused and a Cypher-shaped id never runs', async () => {
    const before = await count();
    expect((await app.request(`/graph/node?id=${DBID}`, { method: 'DELETE' })).status).toBe(405);
    expect((await app.request(`/graph/node?id=${DBID}`, { method: 'POST' })).status).toBe(405);
    const res = await get(`id=${encodeURIComponent(`${DBID}}) DETACH DELETE n //`)}`);
    expect(res.status).toBe(422);
    expect(await count()).toBe(before);
  });

  it('is in the OpenAPI document', async () => {
    const doc = await (await app.request('/openapi.json')).json();
    expect(Object.keys(doc.paths['/graph/node'].get.responses).sort()).toEqual(['200', '404', '422', '503']);
    expect(doc.components.schemas.NodeDetails).toBeDefined();
  });

  it('503 when the graph database is down', async () => {
    const down = createTestApp({ GRAPHDB_PORT: '1299' });
    try {
      const res = await down.app.request(`/graph/node?id=${DBID}`);
      expect(res.status).toBe(503);
    } finally {
      await down.deps.close();
    }
  });
});
