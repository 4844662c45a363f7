/**
 * The readiness report behind `GET /status`: what the service has (graph, indexes, model files,
 * language models, queue, workers) and, as `checks`, what is missing with the command that
 * fixes it. Every probe has its own short timeout, so the report answers in about 2.5 s even
 * with every dependency down. Reports are shared for a few seconds and language-model probes
 * for longer, so a client polling the page (or an attacker) cannot turn it into load.
 */
import type { IndexState, Status, StatusCheck } from '../contract/status.js';
import { MODEL_REGISTRY, findModel, type ModelEntry } from '../contract/models.js';
import type { AppDeps } from '../deps.js';
import { detectModelKind, modelDir, nodeFileReader, type ModelFileReader } from '../embeddings/model-files.js';
import { fulltextIndexName, namesIndexName } from '../graph/dialect.js';
import { serverStatus } from '../graph/access/server-info.js';
import { graphStats, type GraphStats, type IndexInfo } from '../graph/shape/stats.js';
import type { LlmRole } from '../llm/clients.js';
import { llmFailureFix } from '../llm/failure.js';
import { probeLlm } from '../llm/probe.js';
import { withTimeout } from '../lib/timeout.js';
import { previewTextPlan } from '../vector-index/build/build.js';
import { resolveIndexName } from '../vector-index/index/target.js';
import { readIndexMeta } from '../vector-index/index/record.js';
import { textParams } from '../vector-index/index/source.js';
import { graphBookmark } from '../graph/access/bookmark.js';
import { readSyncState } from '../vector-index/sync/loop.js';
import { textPlanBody, type TextPlan } from '../graph/text/text-plan.js';
import { checkIndexSettings, hasIndexSettings, type SettingProblem } from './settings-check.js';

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

const GRAPH_TIMEOUT_MS = 2_000;
/** How long the text plan shown is reused: a preview samples every label, so not on every report. */
const PLAN_TTL_MS = 30_000;
/** How long a report waits for the plan (a preview samples each label, once per PLAN_TTL_MS). */
const PLAN_TIMEOUT_MS = 2_000;
const PROBE_TIMEOUT_MS = 2_000;

/** A value computed at most once per `ttlMs`; callers during a computation share it. */
function cached<T>(ttlMs: number, compute: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    if (!last || Date.now() - last.at > ttlMs) last = { at: Date.now(), value: compute() };
    return last.value;
  };
}

const stateOf = (info: IndexInfo | undefined): IndexState => {
  if (!info) return 'missing';
  const s = info.state.toLowerCase();
  return s === 'online' || s === 'populating' || s === 'failed' ? s : 'failed';
};

/** Creates the reporter over the app's dependencies. */
export function createStatusReporter(deps: AppDeps, opts: StatusReporterOptions = {}): StatusReporter {
  const { config } = deps;
  const files = opts.files ?? nodeFileReader;
  const graphName = config.GRAPHDB_GRAPH;
  const probes = new Map<string, () => Promise<{ state: Status['language_models'][number]['state']; at: number }>>();

  const languageModel = async (role: LlmRole) => {
    // Config refuses a hosted provider without a key, so the configured target always resolves.
    const target = deps.llm.resolve(role);
    const key = `${target.provider}\n${target.model}`;
    let probe = probes.get(key);
    if (!probe) {
      probe = cached(opts.probeTtlMs ?? 15_000, async () => ({ state: await probeLlm(target, PROBE_TIMEOUT_MS), at: Date.now() / 1000 }));
      probes.set(key, probe);
    }
    const { state, at } = await probe();
    const f = target.forms;
    const forms = {
      structured_output: f.structured,
      stream_with_tools: f.streamTools,
      usage_in_streams: f.streamUsage,
      refused: [...f.refusals],
    };
    return { role, provider: target.provider, model: target.model, state, checked_at: at, context_tokens: target.contextTokens, forms };
  };

  /** Whether a model's files are where the embedder pool will look for them. */
  const filesOf = async (m: ModelEntry): Promise<Status['embedding_models'][number]['files']> => {
    if (m.provider === 'local-server') return 'not-needed';
    const kind = await detectModelKind(modelDir(config.MODELS_DIR, m.name), files).catch(() => null);
    return kind && kind.type !== 'missing' ? 'present' : 'missing';
  };

  /** The configured index's recorded plan, else what a build would index now; null when the graph cannot be read in time. */
  const readPlan = cached(PLAN_TTL_MS, async () => {
    const meta = await readIndexMeta(deps.graph.driver, graphName, config.VECTOR_INDEX_NAME);
    if (meta) return { source: 'build' as const, built_at: meta.builtAt, plan: meta.plan, carry: meta.settings.carry ?? null };
    return { source: 'preview' as const, built_at: null, plan: await previewTextPlan(deps, { graph: graphName }), carry: null };
  });
  // A slow preview goes on in the background and serves the next report; this one goes without it.
  const planInfo = () => withTimeout(readPlan(), PLAN_TIMEOUT_MS, 'text plan').catch(() => null);

  /** The index settings checked against the graph (./settings-check.ts); a wrong one is logged once per reading. */
  const readSettings = cached(PLAN_TTL_MS, async () => {
    const problems = await checkIndexSettings(deps, graphName);
    for (const p of problems) deps.log.warn('index setting names what the graph lacks', { setting: p.setting, errors: p.errors });
    return problems;
  });
  // Null: not set, or not read in time (the graph check says whether the graph answers).
  const settingsInfo = () =>
    hasIndexSettings(config) ? withTimeout(readSettings(), PLAN_TIMEOUT_MS, 'index settings').catch(() => null) : Promise.resolve(null);
  // Checked once at start, so the first report (the one `npm start` prints) has the answer and a wrong setting is logged at once.
  if (hasIndexSettings(config)) readSettings().catch(() => {});

  /** The sync's state, and whether the graph was written to since the indexes were last in step. */
  const syncInfo = async (): Promise<Status['sync']> => {
    const [state, bookmark] = await Promise.all([
      readSyncState(deps, graphName),
      withTimeout(graphBookmark(deps.graph.driver, graphName), GRAPH_TIMEOUT_MS, 'bookmark').catch(() => null),
    ]);
    const inStep = bookmark === null || state.bookmark === null ? null : bookmark === state.bookmark;
    return {
      enabled: config.INDEX_SYNC_INTERVAL_MS > 0,
      interval_ms: config.INDEX_SYNC_INTERVAL_MS,
      in_step: inStep,
      checked_at: state.checkedAt,
      synced_at: state.syncedAt,
      behind_seconds: state.behindSince === null || inStep ? null : Math.round((Date.now() - state.behindSince) / 1000),
      last: state.last,
      busy: state.busy,
      error: state.error,
    };
  };

  const build = async (): Promise<Status> => {
    const server = serverStatus(deps.graph, GRAPH_TIMEOUT_MS); // beside the other probes
    // The plan is read beside the other probes; only the text count waits for it.
    const textP = planInfo();
    const fallback: TextPlan = { textProperty: config.TEXT_PROPERTY, only: null, labels: [] };
    const [text, stats, kvUp, queue, router, agent, modelFiles, sync, settings] = await Promise.all([
      textP,
      withTimeout(
        graphStats(
          deps.graph.driver,
          graphName,
          textP.then((t) => textParams(t?.plan ?? fallback)),
          GRAPH_TIMEOUT_MS,
        ),
        // The text count starts once the plan is read (a preview samples every label).
        PLAN_TIMEOUT_MS + GRAPH_TIMEOUT_MS + 500,
        'graph stats',
      ).catch(() => null as GraphStats | null),
      deps.kv.ping(1_000),
      withTimeout(deps.jobs.stats(), 1_000, 'queue stats').catch(() => null),
      languageModel('router'),
      languageModel('agent'),
      Promise.all(MODEL_REGISTRY.map(async (m) => ({ model: m.name, provider: m.provider, files: await filesOf(m) }))),
      withTimeout(syncInfo(), 1_500, 'index sync state').catch(() => null),
      settingsInfo(),
    ]);

    const indexes = MODEL_REGISTRY.map((m) => {
      const name = resolveIndexName(config, graphName, m.name);
      // The texts' vector index, or the names' (src/graph/dialect.ts NAME_VECTOR) while it is the one not yet online.
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

    const status: Omit<Status, 'ready' | 'checks'> = {
      graph: {
        name: graphName,
        reachable: stats !== null,
        nodes: stats?.nodes ?? null,
        relationships: stats?.relationships ?? null,
        text_nodes: stats?.textNodes ?? null,
        server: await server,
      },
      indexes,
      embedding_models: modelFiles,
      language_models: [router, agent],
      queue: kvUp ? queue : null,
      index_text: text && {
        source: text.source,
        built_at: text.built_at,
        plan: textPlanBody(text.plan),
        filters: text.carry && { labels: text.carry.labels, properties: text.carry.properties, lists: text.carry.lists },
      },
      sync: kvUp ? sync : null,
    };
    const checks = checksOf(status, deps.config, settings);
    return { ready: checks.every((c) => c.ok || !c.required), ...status, checks };
  };

  return { report: cached(opts.reportTtlMs ?? 3_000, build) };
}

const FOUND: Record<Status['language_models'][number]['state'], string> = {
  ok: 'answers',
  unreachable: 'does not answer',
  'unknown-model': 'is not on the model server',
  'key-refused': 'refused the API key',
  unavailable: 'is overloaded or failing',
};

/**
 * The setup list: one check per piece a first answer needs, then the optional language models.
 * `settings`: the index settings checked against the graph (null: none set, or not read).
 */
export function checksOf(
  s: Omit<Status, 'ready' | 'checks'>,
  config: AppDeps['config'],
  settings: readonly SettingProblem[] | null = null,
): StatusCheck[] {
  const checks: StatusCheck[] = [];
  const add = (c: Omit<StatusCheck, 'fix'>, fix: string) => checks.push(c.ok ? c : { ...c, fix });
  const model = config.EMBEDDING_MODEL;
  const graph = s.graph.name;

  add(
    {
      id: 'graphdb',
      ok: s.graph.reachable,
      required: true,
      title: 'Graph database',
      detail: s.graph.reachable
        ? `graph "${graph}" answers${s.graph.server ? ` (Neo4j ${s.graph.server.version} ${s.graph.server.edition})` : ''}`
        : `graph "${graph}" does not answer`,
    },
    '`npm run services:start` starts the bundled Neo4j; for your own, set GRAPHDB_URL, GRAPHDB_PORT and GRAPHDB_GRAPH',
  );
  add(
    {
      id: 'kvstore',
      ok: s.queue !== null,
      required: true,
      title: 'Key-value store',
      detail: s.queue ? 'Redis answers' : 'Redis does not answer',
    },
    '`npm run services:start` starts the bundled Redis; for your own, set KVSTORE_URL',
  );
  if (s.graph.reachable) {
    const texts = s.graph.text_nodes;
    const labels = s.index_text?.plan.labels ?? [];
    const by = (source: string) => labels.filter((l) => l.source === source).length;
    const sources = labels.length
      ? ` (labels: ${by('text')} with "${config.TEXT_PROPERTY}", ${by('discovered')} discovered, ${by('explicit')} as chosen, ${by('none')} with no text)`
      : '';
    add(
      {
        id: 'graph',
        ok: texts !== 0,
        required: true,
        title: 'Text in the graph',
        detail:
          texts === null
            ? `${s.graph.nodes ?? '?'} nodes; nodes with text not counted in time`
            : `${texts} of ${s.graph.nodes ?? '?'} nodes have text to index${sources}, ${s.graph.relationships ?? '?'} relationships`,
      },
      `no label has "${config.TEXT_PROPERTY}" or properties that read as text: see what each label holds and why it was left out ` +
        '(`node dist/cli.js status`, or POST /dev/text_plan), then name the properties with INDEX_PROPERTIES=Label=prop,prop ' +
        '(or `properties` in the build request); `node dist/cli.js load-sample` loads the sample graph',
    );
  }
  if (s.graph.reachable && settings) add(...settingsCheck(settings));
  const entry = findModel(model);
  const files = s.embedding_models.find((m) => m.model === model);
  if (entry?.provider === 'in-process') {
    add(
      {
        id: 'model-files',
        ok: files?.files === 'present',
        required: true,
        title: 'Embedding model files',
        detail: `${model} ${files?.files === 'present' ? 'is' : 'is not'} under MODELS_DIR (${config.MODELS_DIR})`,
      },
      `\`scripts/fetch-models ${model}\` (needs the Hugging Face hub), or copy the model folder to ${config.MODELS_DIR}/${model}`,
    );
  }
  if (s.graph.reachable) {
    const index = s.indexes.find((i) => i.configured);
    const state = index?.vector ?? 'missing';
    add(
      {
        id: 'index',
        ok: state === 'online',
        required: true,
        title: 'Search index',
        detail:
          state === 'populating'
            ? `index ${index?.index_name} is being populated (${index?.population_percent.toFixed(0)}%)`
            : `index ${index?.index_name} for ${model} is ${state}`,
      },
      state === 'populating'
        ? 'wait until it is online'
        : `\`scripts/build-index --graph ${graph} --model ${model}\`, or POST /dev/build_vector_index {"graph_name": "${graph}", "model": "${model}"}`,
    );
  }
  if (s.queue) {
    add(
      {
        id: 'workers',
        ok: s.queue.workers > 0,
        required: true,
        title: 'Chat workers',
        detail: `${s.queue.workers} worker(s) alive, ${s.queue.pending} job(s) waiting`,
      },
      'start a process with SERVICE_ROLE=all (the default) or SERVICE_ROLE=worker against the same Redis',
    );
  }
  for (const m of s.language_models) {
    const ok = m.state === 'ok';
    add(
      {
        id: m.role === 'router' ? 'router-model' : 'agent-model',
        ok,
        required: false,
        title: m.role === 'router' ? 'Router language model' : 'Agent language model',
        detail: `${m.model} (${m.provider}) ${FOUND[m.state]}${ok ? '' : m.role === 'router' ? ': messages are answered by lookup' : ': questions that need the agent fail'}`,
      },
      m.state === 'ok' ? '' : llmFailureFix(m, m.role, m.state),
    );
  }
  return checks;
}

/**
 * The check of the index settings: failed when one names what the graph lacks. Required when it
 * is `INDEX_LABELS` or `INDEX_PROPERTIES` (every build and sync is refused until it is fixed);
 * a wrong `INDEX_FILTER_PROPERTIES` only leaves filters to be applied after the index.
 */
function settingsCheck(problems: readonly SettingProblem[]): [Omit<StatusCheck, 'fix'>, string] {
  const names = problems.map((p) => p.setting);
  const errors = problems.flatMap((p) => p.errors.map((e) => `${e.path}: ${e.message}`));
  const check = {
    id: 'settings' as const,
    ok: problems.length === 0,
    required: !problems.length || names.some((n) => n !== 'INDEX_FILTER_PROPERTIES'),
    title: 'Index settings',
    detail: problems.length
      ? `${names.join(', ')} ${names.length > 1 ? 'name' : 'names'} what the graph lacks: ${errors.join('; ')}`
      : 'INDEX_LABELS, INDEX_PROPERTIES and INDEX_FILTER_PROPERTIES name what the graph has',
  };
  const effect = names.some((n) => n !== 'INDEX_FILTER_PROPERTIES')
    ? 'until then every build refuses them'
    : 'until then filters on them are applied after the index';
  const fix =
    `correct ${names.join(' and ')} to the graph's names (close names above; POST /dev/text_plan shows each label's ` +
    `properties) and restart; ${effect}`;
  return [check, fix];
}
