/**
 * `examples list|add|check`: the agent's examples of a graph (src/examples/), against the graph
 * database and the key-value store directly, as `build-index` works (no running server needed;
 * the same store `POST /dev/examples` writes, under `KV_PREFIX`).
 * - `list [--graph g] [--jsonl]`: the examples in use (the file's and the added ones) and those
 *   rejected with line and reason; `--jsonl` prints the ones in use as an examples file.
 * - `add --question q --cypher c [--note n] [--graph g]`: checks one and stores it.
 * - `check <file> [--graph g]`: checks a file (one `eval --write-examples` wrote, say) line by line.
 * Exit codes: 0 done (for `check`: every line passed), 1 something rejected or a dependency down,
 * 2 bad arguments or an unreadable file.
 */
import { readFile } from 'node:fs/promises';
import { loadConfig, type Config } from '../config.js';
import { createEmbeddersFromConfig } from '../embeddings/embedders.js';
import { checkExampleQuery } from '../examples/check.js';
import { createAgentExamples } from '../examples/examples.js';
import { exampleLine, parseExamples, type RejectedExample } from '../examples/format.js';
import { createGraphStore, type GraphStore } from '../graph/access/driver.js';
import { createSkeletonCache } from '../graph/shape/skeleton-cache.js';
import { createExampleStore } from '../store/examples.js';
import { createKvStore } from '../store/redis.js';
import { parseCommandLine, type Command } from './command.js';

const USAGE = `usage: node dist/cli.js examples list [--graph <name>] [--jsonl]
       node dist/cli.js examples add --question <text> --cypher <query> [--note <text>] [--graph <name>]
       node dist/cli.js examples check <examples.jsonl> [--graph <name>]
  (env: EXAMPLES_FILE, GRAPHDB_*, KVSTORE_URL, KV_PREFIX; docs/chat-and-mcp.md, "Examples")`;

const where = (r: RejectedExample) => (r.source === 'file' ? `line ${r.line}` : `added example ${r.line}`);

/** One rejected example as a line of output. */
export const rejectedLine = (r: RejectedExample) => `${where(r)}: ${r.question ? `${JSON.stringify(r.question)}: ` : ''}${r.reason}`;

async function check(config: Config, graph: GraphStore, database: string, file: string): Promise<number> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    console.error(`examples: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    return 2;
  }
  const { examples, rejected } = parseExamples(text, database);
  const total = examples.length + rejected.length;
  const schema = await createSkeletonCache({ graph }).schema(database, 10_000);
  for (const e of examples) {
    const reason = await checkExampleQuery({ graph, schema, timeoutMs: config.GRAPH_QUERY_TIMEOUT_MS }, database, e.cypher);
    if (reason) rejected.push({ source: 'file', line: e.line, question: e.question, reason });
  }
  rejected.sort((a, b) => a.line - b.line);
  for (const r of rejected) console.log(rejectedLine(r));
  console.error(`examples: ${file}: ${total} examples, ${rejected.length} rejected`);
  return rejected.length ? 1 : 0;
}

/** The `examples` command. */
export const examplesCommand: Command = async (args, env) => {
  const cli = parseCommandLine(args, { strings: ['graph', 'question', 'cypher', 'note'], flags: ['jsonl'], positionals: true }, USAGE);
  if (typeof cli === 'number') return cli;
  const [action, ...rest] = cli.positionals;
  const { values } = cli;
  const wrong = !action || !['list', 'add', 'check'].includes(action) || (action === 'check' ? rest.length !== 1 : rest.length > 0);
  if (wrong || (action === 'add' && (!values.question || !values.cypher))) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig(env);
  const database = values.graph ?? config.GRAPHDB_GRAPH;
  const graph = createGraphStore(config);
  const kv = createKvStore({ url: config.KVSTORE_URL, prefix: config.KV_PREFIX });
  const embedders = createEmbeddersFromConfig(config);
  try {
    if (action === 'check') return await check(config, graph, database, rest[0]!);
    const skeleton = createSkeletonCache({ graph });
    const examples = createAgentExamples({ config, graph, skeleton, embedders, store: createExampleStore(kv) });
    if (action === 'add') {
      const added = await examples.add(database, { question: values.question, cypher: values.cypher, note: values.note });
      if ('rejected' in added) {
        console.error(`examples: rejected: ${added.rejected.reason}`);
        return 1;
      }
      console.log(`added example ${added.example.line} to graph "${database}"`);
      return 0;
    }
    const set = await examples.load(database);
    if (values.jsonl) {
      for (const e of set.examples) console.log(exampleLine(e));
    } else {
      for (const e of set.examples)
        console.log(`${where({ ...e, reason: '' })}: ${e.question}\n    ${e.cypher}${e.note ? `\n    note: ${e.note}` : ''}`);
      for (const r of set.rejected) console.log(`rejected ${rejectedLine(r)}`);
    }
    const file = set.file ? `${set.file}${set.fileError ? ` (${set.fileError})` : ''}` : 'no EXAMPLES_FILE';
    console.error(`examples of "${database}": ${set.examples.length} in use, ${set.rejected.length} rejected; ${file}`);
    return set.rejected.length || set.fileError ? 1 : 0;
  } catch (err) {
    console.error(`examples: ${(err as Error).message}`);
    return 1;
  } finally {
    await Promise.allSettled([graph.close(), kv.close(), embedders.close()]);
  }
};
