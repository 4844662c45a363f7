/**
 * The readiness report's probes, each bounded and cached so that polling `GET /status` cannot
 * turn into load: language models (one probe per provider and model), model files, the text
 * plan the index holds (or would hold), the index settings checked against the graph, and the
 * index sync's state.
 */
import type { Status } from '../contract/status.js';
import type { ModelEntry } from '../contract/models.js';
import type { AppDeps } from '../deps.js';
import { detectModelKind, modelDir, type ModelFileReader } from '../embeddings/model-files.js';
import { graphBookmark } from '../graph/access/bookmark.js';
import type { TextPlan } from '../graph/text/text-plan.js';
import type { LlmRole } from '../llm/clients.js';
import { probeLlm } from '../llm/probe.js';
import { withTimeout } from '../lib/timeout.js';
import { previewTextPlan } from '../vector-index/build/build.js';
import type { CarryPlan } from '../vector-index/index/carry.js';
import { readIndexMeta } from '../vector-index/index/record.js';
import { nextPassIn, readSyncState } from '../vector-index/sync/loop.js';
import { goneCheckAt } from '../vector-index/sync/property-source.js';
import type { SyncState } from '../store/sync-state.js';
import { checkIndexSettings, hasIndexSettings, type SettingProblem } from './settings-check.js';

/** Bound of one graph read of the report. */
export const GRAPH_TIMEOUT_MS = 2_000;
/** How long the text plan shown is reused: a preview samples every label, so not on every report. */
const PLAN_TTL_MS = 30_000;
/** How long a report waits for the plan (a preview samples each label, once per PLAN_TTL_MS). */
export const PLAN_TIMEOUT_MS = 2_000;
const PROBE_TIMEOUT_MS = 2_000;

type LanguageModelStatus = Status['language_models'][number];
type LanguageModelState = LanguageModelStatus['state'];

/** A value computed at most once per `ttlMs`; callers during a computation share it. */
export function cached<T>(ttlMs: number, compute: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    if (!last || Date.now() - last.at > ttlMs) last = { at: Date.now(), value: compute() };
    return last.value;
  };
}

/** The language model of a role as the report shows it, probed at most once per `ttlMs` per provider and model. */
export function createLanguageModelProbe(deps: Pick<AppDeps, 'llm'>, ttlMs: number): (role: LlmRole) => Promise<LanguageModelStatus> {
  const probes = new Map<string, () => Promise<{ state: LanguageModelState; at: number }>>();
  return async (role) => {
    // Config refuses a hosted provider without a key, so the configured target always resolves.
    const target = deps.llm.resolve(role);
    const key = `${target.provider}\n${target.model}`;
    let probe = probes.get(key);
    if (!probe) {
      probe = cached(ttlMs, async () => ({ state: await probeLlm(target, PROBE_TIMEOUT_MS), at: Date.now() / 1000 }));
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
}

/** Whether a model's files are where the embedder pool will look for them. */
export async function modelFilesOf(
  modelsDir: string,
  m: ModelEntry,
  files: ModelFileReader,
): Promise<Status['embedding_models'][number]['files']> {
  if (m.provider === 'local-server') return 'not-needed';
  const kind = await detectModelKind(modelDir(modelsDir, m.name), files).catch(() => null);
  return kind && kind.type !== 'missing' ? 'present' : 'missing';
}

/** The text plan the report shows: where it comes from, when it was built, and the index's filter carry. */
export interface PlanInfo {
  source: 'build' | 'preview';
  built_at: string | null;
  plan: TextPlan;
  carry: CarryPlan | null;
}

/**
 * The configured index's recorded plan, else what a build would index now; null when the graph
 * cannot be read within {@link PLAN_TIMEOUT_MS}. A slow preview goes on in the background and
 * serves the next report; this one goes without it.
 */
export function createPlanReader(deps: Pick<AppDeps, 'config' | 'graph'>, graphName: string): () => Promise<PlanInfo | null> {
  const readPlan = cached(PLAN_TTL_MS, async (): Promise<PlanInfo> => {
    const meta = await readIndexMeta(deps.graph.driver, graphName, deps.config.VECTOR_INDEX_NAME);
    if (meta) return { source: 'build', built_at: meta.builtAt, plan: meta.plan, carry: meta.settings.carry ?? null };
    return { source: 'preview', built_at: null, plan: await previewTextPlan(deps, { graph: graphName }), carry: null };
  });
  return () => withTimeout(readPlan(), PLAN_TIMEOUT_MS, 'text plan').catch(() => null);
}

/**
 * The index settings checked against the graph (./settings-check.ts); a wrong one is logged once
 * per reading. Null: not set, or not read in time (the graph check says whether the graph
 * answers). Read once on creation, so that the first report (the one `npm start` prints) has the
 * answer and a wrong setting is logged at start.
 */
export function createSettingsReader(
  deps: Pick<AppDeps, 'config' | 'graph' | 'log'>,
  graphName: string,
): () => Promise<readonly SettingProblem[] | null> {
  const readSettings = cached(PLAN_TTL_MS, async () => {
    const problems = await checkIndexSettings(deps, graphName);
    for (const p of problems) deps.log.warn('index setting names what the graph lacks', { setting: p.setting, errors: p.errors });
    return problems;
  });
  const set = hasIndexSettings(deps.config);
  if (set) readSettings().catch(() => {});
  return () => (set ? withTimeout(readSettings(), PLAN_TIMEOUT_MS, 'index settings').catch(() => null) : Promise.resolve(null));
}

/** When the next full check may run: after a reconcile period under the change log, else spaced by its own duration. */
function nextFullCheckAt(config: AppDeps['config'], state: SyncState): number | null {
  if (state.fullAt === null) return null;
  if (state.source === 'plugin' || state.source === 'property') return state.fullAt + config.INDEX_RECONCILE_MS;
  return state.fullAt + nextPassIn(config, { source: 'scan', fullMs: state.fullMs }, false);
}

/** The sync's state, and whether the graph was written to since the indexes were last in step. */
export async function syncInfo(deps: Pick<AppDeps, 'config' | 'graph' | 'kv'>, graphName: string): Promise<Status['sync']> {
  const { config } = deps;
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
    source: {
      name: state.source === 'plugin' || state.source === 'property' || state.source === 'scan' ? state.source : null,
      why: state.sourceWhy,
      full_check_at: state.fullAt,
      next_full_check_at: nextFullCheckAt(config, state),
      ...(state.source === 'property' ? { deleted_check_at: state.goneAt, next_deleted_check_at: goneCheckAt(config, state) || null } : {}),
    },
  };
}
