/**
 * Whether the test server has the change-log plugin (plugin/). The dev Neo4j loads it by default
 * from 2025.x on; on 5.x only with NEO4J_PLUGIN=1 (scripts/services/neo4j.sh, docs/indexing.md
 * "The change-log plugin"). Suites of the plugin skip on a 5.x server without it, and fail on a
 * later one without it.
 */
import neo4j from 'neo4j-driver';

/** Asks the server on `port` (the suites' TEST_GRAPHDB_PORT, default 1234) once. */
export async function changeLogExpected(port = process.env.TEST_GRAPHDB_PORT ?? '1234'): Promise<boolean> {
  const driver = neo4j.driver(`bolt://127.0.0.1:${port}`);
  try {
    const procs = await driver.executeQuery("SHOW PROCEDURES YIELD name WHERE name STARTS WITH 'graphchat' RETURN name");
    if (procs.records.length) return true;
    const { records } = await driver.executeQuery('CALL dbms.components() YIELD versions RETURN versions[0] AS v');
    return !String(records[0]?.get('v') ?? '').startsWith('5.');
  } finally {
    await driver.close();
  }
}
