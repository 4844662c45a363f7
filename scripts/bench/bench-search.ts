/**
 * `npm run bench:search`: `POST /vector/search` over the WikiPathways index (built by
 * bench:index; built here from the cache when missing) under 16 concurrent clients for 30 s,
 * then the same load on the raw Cypher vector query alone (query vectors computed beforehand),
 * so the service's own overhead (HTTP, validation, embedding the query, JSON) is the difference.
 * The API runs in a child process; the clients share the machine with it and with Neo4j. A
 * short single-client run of each shows the overhead without queueing for the two cores.
 *
 * Options: --seconds <s> (30), --clients <n> (16), --top-k <k> (5), --keep (leave the WikiPathways
 * graph and index when this run had to create them; by default they are removed afterwards).
 * `--peer` runs the comparison with the in-process libraries' floor instead (bench-search-peer.ts).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import neo4j from 'neo4j-driver';
import { createEmbeddersFromConfig } from '../../src/embeddings/embedders.js';
import { searchQuery } from '../../src/graph/dialect/search-query.js';
import { createGraphStore } from '../../src/graph/access/driver.js';
import { dropSearchIndex } from '../../src/graph/access/index-writer.js';
import { textParams } from '../../src/vector-index/index/source.js';
import { queryTerms } from '../../src/vector-index/search/fulltext-query.js';
import { candidateCount } from '../../src/vector-index/search/plan.js';
import { BENCH_MODEL, WIKIPATHWAYS_INDEX, WIKIPATHWAYS_PROP, benchConfig, benchModels, describeMachine, fmt } from './bench-common.js';
import { type Created, ensureWikiPathwaysIndex, report, runLoad, startSearchServer } from './lib/search-bench.js';
import { peerBench } from './bench-search-peer.js';
import { DEFAULT_DIR, dropWikiPathways } from '../load-wikipathways.js';

/** The original mode: the potion model in-process, the service against the raw Cypher query. */
async function localBench(args: string[]) {
  const { values } = parseArgs({
    args,
    options: { seconds: { type: 'string' }, clients: { type: 'string' }, 'top-k': { type: 'string' }, keep: { type: 'boolean' } },
  });
  const SECONDS = Number(values.seconds ?? 30);
  const CLIENTS = Number(values.clients ?? 16);
  const TOP_K = Number(values['top-k'] ?? 5);
  const models = benchModels();
  // The service resolves (neo4j, BENCH_MODEL) to the bench index through VECTOR_INDEX_NAME.
  const env = {
    TEXT_PROPERTY: WIKIPATHWAYS_PROP,
    EMBEDDING_MODEL: BENCH_MODEL,
    VECTOR_INDEX_NAME: WIKIPATHWAYS_INDEX,
    GRAPHDB_GRAPH: 'neo4j',
  };
  const config = benchConfig(models.dir, env);
  const graph = createGraphStore(config);
  const embedders = createEmbeddersFromConfig(config);
  const db = config.GRAPHDB_GRAPH;

  /** Pathway titles as queries: real phrasing, and every one has relevant nodes. */
  const queries = readFileSync(`${DEFAULT_DIR}/pathways.jsonl`, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => String((JSON.parse(l) as { title: string }).title))
    .filter((_, i) => i % 7 === 0);

  let created: Created = { index: false, graph: false };
  try {
    console.log(`machine: ${await describeMachine(graph.driver, db)}`);
    console.log(`model:   ${models.description}`);
    created = await ensureWikiPathwaysIndex({ config, graph, embedders }, BENCH_MODEL);
    const { records } = await graph.driver.executeQuery(
      `MATCH (c:\`__Chunk_${WIKIPATHWAYS_INDEX}\`) RETURN count(c) AS n`,
      {},
      { database: db },
    );
    console.log(
      `index:   ${WIKIPATHWAYS_INDEX}, ${fmt(records[0]?.get('n') ?? 0)} chunks; ${queries.length} distinct queries (pathway titles); ${CLIENTS} clients × ${SECONDS} s; top_k ${TOP_K}`,
    );

    const server = await startSearchServer({ ...env, MODELS_DIR: models.dir });
    const url = `http://127.0.0.1:${server.port}/vector/search`;
    const post = async (i: number) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: queries[i % queries.length], graph_name: db, model: BENCH_MODEL, top_k: TOP_K }),
      });
      const body = (await res.json()) as unknown[];
      if (res.status !== 200 || !body.length) throw new Error(`status ${res.status}`);
    };
    const single = Math.min(10, SECONDS);
    let service, serviceOne;
    try {
      for (let i = 0; i < 50; i++) await post(i); // warm-up: JIT, connection pools, index pages
      serviceOne = report(`POST /vector/search, 1 client, ${single} s`, await runLoad(post, { clients: 1, seconds: single }));
      service = report(
        `POST /vector/search (HTTP, end to end), ${CLIENTS} clients`,
        await runLoad(post, { clients: CLIENTS, seconds: SECONDS }),
      );
    } finally {
      await server.stop();
    }

    const embedder = await embedders.get(BENCH_MODEL);
    const vectors = (await embedder.embed(queries)).map((v) => Array.from(v));
    // The same query and the same auto-commit call the service makes, minus everything else.
    const raw = async (i: number) => {
      const session = graph.driver.session({ database: db, defaultAccessMode: neo4j.session.READ });
      try {
        await session.run(searchQuery('vector'), {
          index: WIKIPATHWAYS_INDEX,
          k: neo4j.int(candidateCount(TOP_K)),
          topK: neo4j.int(TOP_K),
          vector: vectors[i % vectors.length],
          // The query's words: name chunks are weighed by the share of them they hold (src/graph/dialect/search-query.ts NAME_SHARE).
          terms: queryTerms(queries[i % queries.length]!),
          // The text plan's parameters of an index of one text property, as the searcher sends them.
          ...textParams({ textProperty: WIKIPATHWAYS_PROP, only: null, labels: [] }),
          textChars: neo4j.int(config.SEARCH_TEXT_MAX_CHARS),
        });
      } finally {
        await session.close();
      }
    };
    for (let i = 0; i < 50; i++) await raw(i);
    const cypherOne = report(`raw Cypher vector query, 1 client, ${single} s`, await runLoad(raw, { clients: 1, seconds: single }));
    const cypher = report(
      `raw Cypher vector query (driver, in the clients' process), ${CLIENTS} clients`,
      await runLoad(raw, { clients: CLIENTS, seconds: SECONDS }),
    );
    console.log(
      `\nservice overhead, 1 client:      p50 ${fmt(serviceOne.p50 - cypherOne.p50, 2)} ms · mean ${fmt(serviceOne.mean - cypherOne.mean, 2)} ms per request`,
    );
    console.log(
      `service overhead, ${CLIENTS} clients: p50 ${fmt(service.p50 - cypher.p50, 1)} ms · mean ${fmt(service.mean - cypher.mean, 1)} ms per request`,
    );
  } finally {
    // Only what this run created goes: a graph another run loaded stays (its index did not).
    if (created.index && !values.keep) {
      await dropSearchIndex(graph.driver, db, WIKIPATHWAYS_INDEX);
      if (created.graph) await dropWikiPathways(graph.driver, db);
      console.log(`\nWikiPathways ${created.graph ? 'graph and ' : ''}index removed (--keep keeps them)`);
    }
    await Promise.allSettled([graph.close(), embedders.close()]);
  }
}

const argv = process.argv.slice(2);
if (argv.includes('--peer')) await peerBench(argv.filter((a) => a !== '--peer'));
else await localBench(argv);
