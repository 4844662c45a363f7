/**
 * `build-index [--graph <name>] [--model <name>] [--batch-size <n>] [--plan]`: builds the vector index
 * like `POST /dev/build_vector_index` (same function), with a progress bar on a terminal and
 * plain progress lines otherwise; prints the result as JSON on stdout. Defaults: `GRAPHDB_GRAPH`,
 * `EMBEDDING_MODEL`, `INDEX_BATCH_SIZE`. The text property is `TEXT_PROPERTY` from the
 * environment, deliberately not a flag: the server's searches read the same variable; so are
 * `INDEX_LABELS`, `INDEX_PROPERTIES` and `INDEX_DISCOVER`. `--plan` prints what a build would
 * index per label (and what it leaves out, and why) without building.
 */
import { loadConfig } from '../config.js';
import { createEmbeddersFromConfig } from '../embeddings/embedders.js';
import { buildVectorIndex, previewTextPlan } from '../vector-index/build/build.js';
import { describeLabel } from '../contract/text-plan-lines.js';
import { textPlanBody } from '../graph/text/text-plan.js';
import { AppError, toAppError } from '../errors.js';
import { createGraphStore } from '../graph/access/driver.js';
import { createLogger } from '../lib/log.js';
import { createKvStore } from '../store/redis.js';
import { parseCommandLine, type Command } from './command.js';
import { createProgressPrinter } from './progress.js';

const USAGE =
  'usage: scripts/build-index [--graph <name>] [--model <name>] [--batch-size <n>] [--plan]  (env: TEXT_PROPERTY, INDEX_LABELS, INDEX_PROPERTIES, INDEX_DISCOVER, GRAPHDB_*, KVSTORE_URL, DATA_DIR, MODELS_DIR)';

/** Runs one build; exit code 0 on success, 1 on a build failure, 2 on bad arguments. */
export const buildIndexCommand: Command = async (args, env) => {
  const line = parseCommandLine(args, { strings: ['graph', 'model', 'batch-size'], flags: ['plan'] }, USAGE);
  if (typeof line === 'number') return line;
  const { values } = line;
  const batchSize = values['batch-size'] === undefined ? undefined : Number(values['batch-size']);
  if (batchSize !== undefined && !(Number.isInteger(batchSize) && batchSize > 0)) {
    console.error(`--batch-size must be a positive integer\n${USAGE}`);
    return 2;
  }
  const config = loadConfig(env);
  // Logs go to stderr so that stdout carries only the result.
  const log = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL, { cli: 'build-index' }, (l) => console.error(l));
  const graph = createGraphStore(config);
  const kv = createKvStore({ url: config.KVSTORE_URL, prefix: config.KV_PREFIX });
  const embedders = createEmbeddersFromConfig(config);
  const progress = createProgressPrinter();
  try {
    if (values.plan) {
      const plan = await previewTextPlan({ config, graph }, { graph: values.graph ?? config.GRAPHDB_GRAPH });
      for (const l of textPlanBody(plan).labels) console.log(describeLabel(l));
      if (!plan.labels.length)
        console.log(
          `no label to plan (INDEX_LABELS: ${config.INDEX_LABELS.join(', ') || 'all'}, INDEX_DISCOVER: ${config.INDEX_DISCOVER})`,
        );
      return 0;
    }
    const r = await buildVectorIndex(
      { config, graph, kv, embedders, log },
      {
        graph: values.graph ?? config.GRAPHDB_GRAPH,
        model: values.model ?? config.EMBEDDING_MODEL,
        batchSize,
        onProgress: progress.onProgress,
      },
    );
    progress.finish();
    const { timings, plan, ...result } = r;
    console.log(JSON.stringify(result));
    for (const l of textPlanBody(plan).labels) console.error(`  ${describeLabel(l)}`);
    console.error(
      `build-index: done in ${(timings.totalMs / 1000).toFixed(1)} s (tokenise ${ms(timings.tokenizeMs)}, ` +
        `inference ${ms(timings.inferenceMs)}, DB writes ${ms(timings.writeMs)}, index ${ms(timings.indexMs)})`,
    );
    return 0;
  } catch (err) {
    progress.finish();
    const e = err instanceof AppError ? err : toAppError(err);
    const detail = e.status === 500 && err instanceof Error ? `${e.message}: ${err.message}` : e.message;
    console.error(`build-index: ${detail}`);
    return 1;
  } finally {
    await Promise.allSettled([graph.close(), kv.close(), embedders.close()]);
  }
};

const ms = (n: number) => `${(n / 1000).toFixed(1)} s`;
