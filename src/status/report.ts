/**
 * The readiness report behind `GET /status`: what the service has (graph, indexes, model files,
 * language models, queue, workers) and, as `checks`, what is missing with the command that
 * fixes it (./checks.ts). Every probe has its own short timeout (./probes.ts), so the report
 * answers in about 2.5 s even with every dependency down. Reports are shared for a few seconds
 * and language-model probes for longer, so a client polling the page (or an attacker) cannot
 * turn it into load.
 */
import type { IndexState, Status } from '../contract/status.js';
import { MODEL_REGISTRY } from '../contract/models.js';
import type { AppDeps } from '../deps.js';
import { nodeFileReader, type ModelFileReader } from '../embeddings/model-files.js';
import { fulltextIndexName, namesIndexName } from '../graph/dialect/names.js';
import { serverStatus } from '../graph/access/server-info.js';
import { graphStats, type GraphStats, type IndexInfo } from '../graph/shape/stats.js';
import { withTimeout } from '../lib/timeout.js';
import { resolveIndexName } from '../vector-index/index/target.js';
import { textParams } from '../vector-index/index/source.js';
import { textPlanBody, type TextPlan } from '../graph/text/text-plan.js';
import { checksOf, type StatusBody } from './checks.js';
import {
  cached,
  createLanguageModelProbe,
  createPlanReader,
  createSettingsReader,
  GRAPH_TIMEOUT_MS,
  modelFilesOf,
  PLAN_TIMEOUT_MS,
  type PlanInfo,
  syncInfo,
} from './probes.js';

/** Options of {@link createStatusReporter}. */
export interface StatusReporterOptions {
  /** How long a report is reused (default 3 s). */
  reportTtlMs?: number;
  /** How long a language-model probe is reused (default 15 s). */
  probeTtlMs?: number;
  /** Model file access (tests); default the file system. */
  files?: ModelFileReader;
}

/** Builds readiness reports; one per app, holding the caches. */
export interface StatusReporter {
  report(): Promise<Status>;
}

/** What the reporter reads: the graph, the store, the queue and the language models, per the config. */
export type StatusDeps = Pick<AppDeps, 'config' | 'graph' | 'kv' | 'jobs' | 'llm' | 'log' | 'examples'>;

/** Rejected examples listed at most. */
const REJECTED_SHOWN = 20;

/** The examples' part of the report: the checked set if there is one yet (a check is started otherwise, for the next report). */
function examplesOf(deps: StatusDeps, graphName: string): Status['examples'] {
  if (!deps.examples) return undefined;
  const set = deps.examples.peek(graphName);
  if (!set) {
    deps.examples.load(graphName).catch(() => {});
    return null;
  }
  return {
    file: set.file,
    ...(set.fileError ? { file_error: set.fileError } : {}),
    count: set.examples.length,
    rejected: set.rejected.length,
    reasons: set.rejected.slice(0, REJECTED_SHOWN),
    per_prompt: deps.config.AGENT_EXAMPLES,
  };
}

const stateOf = (info: IndexInfo | undefined): IndexState => {
  if (!info) return 'missing';
  const s = info.state.toLowerCase();
  return s === 'online' || s === 'populating' || s === 'failed' ? s : 'failed';
};

/** The indexes of each registered model that is configured or has one, with their states. */
function indexesOf(config: StatusDeps['config'], graphName: string, stats: GraphStats | null): Status['indexes'] {
  return MODEL_REGISTRY.map((m) => {
    const name = resolveIndexName(config, graphName, m.name);
    // The texts' vector index, or the names' (src/graph/dialect/names.ts NAME_VECTOR) while it is the one not yet online.
    const texts = stats?.indexes.get(name);
    const names = stats?.indexes.get(namesIndexName(name));
    const vector = texts && names && stateOf(texts) === 'online' && stateOf(names) !== 'online' ? names : texts;
    return {
      model: m.name,
      index_name: name,
      vector: stateOf(vector),
      fulltext: stateOf(stats?.indexes.get(fulltextIndexName(name))),
      population_percent: vector?.populationPercent ?? 0,
      configured: m.name === config.EMBEDDING_MODEL,
    };
  }).filter((i) => i.configured || i.vector !== 'missing' || i.fulltext !== 'missing');
}

/** The `index_text` of the report: the plan shown and the filters the index applies inside it. */
const indexTextOf = (text: PlanInfo | null): Status['index_text'] =>
  text && {
    source: text.source,
    built_at: text.built_at,
    plan: textPlanBody(text.plan),
    filters: text.carry && { labels: text.carry.labels, properties: text.carry.properties, lists: text.carry.lists },
  };

/** Creates the reporter over the app's dependencies. */
export function createStatusReporter(deps: StatusDeps, opts: StatusReporterOptions = {}): StatusReporter {
  const { config } = deps;
  const files = opts.files ?? nodeFileReader;
  const graphName = config.GRAPHDB_GRAPH;
  const languageModel = createLanguageModelProbe(deps, opts.probeTtlMs ?? 15_000);
  const planInfo = createPlanReader(deps, graphName);
  const settingsInfo = createSettingsReader(deps, graphName);
  const fallback: TextPlan = { textProperty: config.TEXT_PROPERTY, only: null, labels: [] };

  /** Graph counts; the text count starts once the plan is read (a preview samples every label). */
  const statsOf = (plan: Promise<PlanInfo | null>) =>
    withTimeout(
      graphStats(
        deps.graph.driver,
        graphName,
        plan.then((t) => textParams(t?.plan ?? fallback)),
        GRAPH_TIMEOUT_MS,
      ),
      PLAN_TIMEOUT_MS + GRAPH_TIMEOUT_MS + 500,
      'graph stats',
    ).catch(() => null as GraphStats | null);

  const build = async (): Promise<Status> => {
    const server = serverStatus(deps.graph, GRAPH_TIMEOUT_MS); // beside the other probes
    // The plan is read beside the other probes; only the text count waits for it.
    const textP = planInfo();
    const [text, stats, kvUp, queue, router, agent, modelFiles, sync, settings] = await Promise.all([
      textP,
      statsOf(textP),
      deps.kv.ping(1_000),
      withTimeout(deps.jobs.stats(), 1_000, 'queue stats').catch(() => null),
      languageModel('router'),
      languageModel('agent'),
      Promise.all(
        MODEL_REGISTRY.map(async (m) => ({ model: m.name, provider: m.provider, files: await modelFilesOf(config.MODELS_DIR, m, files) })),
      ),
      withTimeout(syncInfo(deps, graphName), 1_500, 'index sync state').catch(() => null),
      settingsInfo(),
    ]);
    const status: StatusBody = {
      graph: {
        name: graphName,
        reachable: stats !== null,
        nodes: stats?.nodes ?? null,
        relationships: stats?.relationships ?? null,
        text_nodes: stats?.textNodes ?? null,
        server: await server,
      },
      indexes: indexesOf(config, graphName, stats),
      embedding_models: modelFiles,
      language_models: [router, agent],
      queue: kvUp ? queue : null,
      index_text: indexTextOf(text),
      sync: kvUp ? sync : null,
      examples: examplesOf(deps, graphName),
    };
    const checks = checksOf(status, config, settings);
    return { ready: checks.every((c) => c.ok || !c.required), ...status, checks };
  };

  return { report: cached(opts.reportTtlMs ?? 3_000, build) };
}
