/**
 * An example is checked as `graph_query` checks a query, without running it: the same text
 * guard (src/graph/cypher/read-guard.ts), an `EXPLAIN` in a READ transaction whose query type
 * must be a read and whose plan must stay inside the graph, then the same notices
 * (src/graph/cypher/query-notices.ts). A notice about a name the graph lacks (a label,
 * relationship type or property key, or a property its label does not have) or a relationship
 * written against its direction rejects the example, with the notice's own message and close
 * names: a model shown that query would copy the mistake. Other notices (a cartesian product,
 * an unbounded path) do not: they are about cost, and the example's author chose them.
 */
import neo4j, { type Plan, type ResultSummary } from 'neo4j-driver';
import type { QueryNotice } from '../contract/graph.js';
import type { GraphStore } from '../graph/access/driver.js';
import { checkRanges } from '../graph/cypher/read-cost.js';
import { checkPlan, checkQueryText, codeOf, QueryRefusedError } from '../graph/cypher/read-guard.js';
import { queryNotices, withMeaning } from '../graph/cypher/query-notices.js';
import type { SkeletonData } from '../graph/shape/skeleton.js';
import type { NamesByMeaning } from '../lib/names-by-meaning.js';
import { boundText } from '../lib/text.js';

/** Notice kinds that reject an example. */
export const REJECTING_NOTICES: ReadonlySet<QueryNotice['kind']> = new Set([
  'unknown-label',
  'unknown-relationship-type',
  'unknown-property',
  'property-not-on-label',
  'reversed-direction',
]);

/** Longest reason kept, in characters (a database error may quote the whole query). */
const REASON_CHARS = 600;

/** What the check needs. */
export interface ExampleCheckDeps {
  graph: GraphStore;
  /** The graph's schema (the skeleton cache's), for the notices; null: only the database's warnings. */
  schema: SkeletonData | null;
  meaning?: NamesByMeaning;
  /** Timeout of the `EXPLAIN`, in ms. */
  timeoutMs: number;
}

/** Why `cypher` cannot be an example of `database`, or null when it can. */
export async function checkExampleQuery(deps: ExampleCheckDeps, database: string, cypher: string): Promise<string | null> {
  try {
    checkQueryText(cypher);
    checkRanges(codeOf(cypher));
  } catch (err) {
    if (err instanceof QueryRefusedError) return `not a read query as graph_query takes it: ${err.message}`;
    throw err;
  }
  const session = deps.graph.driver.session({ database, defaultAccessMode: neo4j.session.READ });
  let summary: ResultSummary;
  try {
    const result = await session.executeRead((tx) => tx.run(`EXPLAIN ${cypher}`), { timeout: deps.timeoutMs });
    summary = result.summary;
  } catch (err) {
    const e = err as { code?: string; message?: string };
    // A database that is down is not the example's fault: the caller reports it as unavailable.
    if (!e.code || /ServiceUnavailable|SessionExpired|DatabaseNotFound|DatabaseUnavailable/.test(e.code)) throw err;
    return boundText(`the database refuses it: ${(e.message ?? String(err)).split('\n')[0]}`, REASON_CHARS);
  } finally {
    await session.close();
  }
  try {
    checkPlan(summary.queryType, summary.plan as Plan | false, database);
  } catch (err) {
    if (err instanceof QueryRefusedError) return `not a read query as graph_query takes it: ${err.message}`;
    throw err;
  }
  const notices = await withMeaning(queryNotices(cypher, summary, deps.schema), deps.schema, deps.meaning);
  const wrong = notices.filter((n) => REJECTING_NOTICES.has(n.kind));
  return wrong.length ? boundText(wrong.map((n) => n.message).join('; '), REASON_CHARS) : null;
}
