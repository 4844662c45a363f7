/**
 * Test-only graph data for the browser suite: a few nodes under a label unique to one run, one
 * of them with hostile text, and a vector index of their own chunk nodes whose embeddings are
 * the scripted model server's vectors for known questions — so a lookup for such a question
 * finds exactly these nodes. Only what was created here is deleted.
 */
import { randomUUID } from 'node:crypto';
import neo4j from 'neo4j-driver';
import { fakeEmbedding } from '../helpers/llm-server.js';

/** A node to create: its name and text, and the question that should find it. */
export interface FixtureNode {
  name: string;
  text: string;
  question: string;
}

/** The created data. */
export interface GraphFixture {
  /** Label of the source nodes (test-only). */
  label: string;
  /** Name of the vector index (pass as `VECTOR_INDEX_NAME`). */
  index: string;
  /** `dbId` of each node as the search reports it, by name. */
  ids: Record<string, number>;
  drop(): Promise<void>;
}

/** Creates `nodes` and their index (384 dimensions, cosine) and waits until it is online. */
export async function createGraphFixture(nodes: FixtureNode[], dims = 384): Promise<GraphFixture> {
  const tag = randomUUID().slice(0, 8);
  const label = `E2eUi_${tag}`;
  const chunk = `E2eUiChunk_${tag}`;
  const index = `e2e_ui_${tag}`;
  const driver = neo4j.driver(`bolt://127.0.0.1:${process.env.TEST_GRAPHDB_PORT ?? '1234'}`, undefined, { disableLosslessIntegers: true });
  const ids: Record<string, number> = {};
  try {
    for (const n of nodes) {
      const { records } = await driver.executeQuery(
        `CREATE (n:${label} {name: $name, text: $text})
         CREATE (c:${chunk} {nodeId: elementId(n), embedding: $embedding})
         RETURN id(n) AS id`,
        { name: n.name, text: n.text, embedding: fakeEmbedding(n.question, dims) },
      );
      ids[n.name] = records[0]!.get('id') as number;
    }
    await driver.executeQuery(
      `CREATE VECTOR INDEX ${index} IF NOT EXISTS FOR (c:${chunk}) ON c.embedding
       OPTIONS {indexConfig: {\`vector.dimensions\`: ${dims}, \`vector.similarity_function\`: 'cosine'}}`,
    );
    await driver.executeQuery(`CALL db.awaitIndex($index, 60)`, { index });
  } catch (err) {
    await driver.close();
    throw err;
  }
  return {
    label,
    index,
    ids,
    async drop() {
      try {
        await driver.executeQuery(`DROP INDEX ${index} IF EXISTS`);
        await driver.executeQuery(`MATCH (n) WHERE n:${label} OR n:${chunk} DETACH DELETE n`);
      } finally {
        await driver.close();
      }
    },
  };
}
