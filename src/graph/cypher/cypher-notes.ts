/**
 * What a model gets wrong when it writes Cypher for a given database: the deviations from
 * "textbook" (often Neo4j 3/4-era) Cypher it learned from, one block per database. The agent's
 * system prompt includes the block of the database it talks to; adding Memgraph means adding
 * a block here, not editing the prompt.
 */

/** Databases we have notes for. */
export type CypherDialectName = 'neo4j5';

const NEO4J5 = `Cypher notes for this database (Neo4j 5, Community edition):
- Property existence: use \`n.prop IS NOT NULL\` / \`IS NULL\`; \`exists(n.prop)\` was removed. \`exists { (n)-->() }\` (a subquery in braces) is fine.
- Node identity: vector_search returns \`dbId\` = the node's own \`dbId\` property if it has one, else \`id(n)\`; fetch it with \`MATCH (n) WHERE n.dbId = $id OR id(n) = $id\`. \`id()\` is deprecated but works; \`elementId(n)\` returns a string, not a number.
- Type checks: \`n.x IS :: STRING\`, \`valueType(x)\`; conversions: \`toInteger\`, \`toFloat\`, \`toString\`, \`toStringOrNull\`.
- Variable-length paths: \`(a)-[:T*1..3]->(b)\` — always give an upper bound. \`shortestPath((a)-[*..6]-(b))\` and \`SHORTEST 1 (a)-[:T]-+(b)\` work.
- Subqueries: \`CALL (x) { ... }\` (\`CALL { WITH x ... }\` is deprecated); \`COUNT { (n)-->() }\` and \`COLLECT { MATCH ... RETURN ... }\` exist.
- Labels and types with spaces or odd characters need backticks: \`MATCH (n:\`My Label\`)\`. Labels are case-sensitive.
- No APOC and no GDS are installed: do not call \`apoc.*\` or \`gds.*\`. Built-in schema procedures: \`CALL db.labels()\`, \`CALL db.relationshipTypes()\`, \`CALL db.propertyKeys()\`, \`CALL db.schema.visualization()\`.
- Vector search in Cypher: \`CALL db.index.vector.queryNodes(indexName, k, vector)\` needs a vector you do not have; use the vector_search tool instead. Labels starting with \`__\` hold vector index data: ignore them.
- Aggregation groups by the non-aggregated RETURN columns (no GROUP BY). \`ORDER BY\` before \`LIMIT\`; use \`DISTINCT\` when paths repeat nodes.
- String matching: \`CONTAINS\`, \`STARTS WITH\`, \`=~ '(?i).*term.*'\`; use \`toLower(n.name) CONTAINS toLower($q)\` for case-insensitive search.
- Read-only: CREATE, MERGE, SET, DELETE, REMOVE, LOAD CSV, \`dbms.*\` and schema commands are refused.`;

const NOTES: Record<CypherDialectName, string> = { neo4j5: NEO4J5 };

/** The notes block for `dialect` (default Neo4j 5). */
export function cypherNotes(dialect: CypherDialectName = 'neo4j5'): string {
  return NOTES[dialect];
}
