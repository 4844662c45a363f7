/**
 * Whether the test server has the change-log plugin (plugin/). The dev Neo4j loads it by default
 * from 2025.x on; on 5.x only with NEO4J_PLUGIN=1 (scripts/services/neo4j.sh, docs/indexing.md
 * "The change-log plugin"). Suites of the plugin skip on a 5.x server without it, and fail on a
 * later one without it.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
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

/**
 * Restarts the test server on `port` with scripts/services/neo4j.sh, as it was started: its line
 * (5.x: the LTS, else the current calendar release) and, on 5.x, the plugin it had.
 */
export async function restartServer(port = process.env.TEST_GRAPHDB_PORT ?? '1234'): Promise<void> {
  const driver = neo4j.driver(`bolt://127.0.0.1:${port}`);
  let version = '';
  try {
    const { records } = await driver.executeQuery('CALL dbms.components() YIELD versions RETURN versions[0] AS v');
    version = String(records[0]?.get('v') ?? '');
  } finally {
    await driver.close();
  }
  const lts = version.startsWith('5.');
  const script = fileURLToPath(new URL('../../../scripts/services/neo4j.sh', import.meta.url));
  const env = { ...process.env, NEO4J_BOLT_PORT: port, NEO4J_VERSION: lts ? 'lts' : 'current', ...(lts ? { NEO4J_PLUGIN: '1' } : {}) };
  await promisify(execFile)('bash', [script, 'restart'], { env, timeout: 180_000 });
}
