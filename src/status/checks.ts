/**
 * The setup list of the readiness report: one check per piece a first answer needs (graph, store,
 * text, index settings, model files, index, workers), then the optional language models. A check
 * that fails carries the command or setting that fixes it.
 */
import { findModel } from '../contract/models.js';
import type { Status, StatusCheck } from '../contract/status.js';
import type { AppDeps } from '../deps.js';
import { llmFailureFix } from '../llm/failure.js';
import type { SettingProblem } from './settings-check.js';

/** The report without what is derived from it. */
export type StatusBody = Omit<Status, 'ready' | 'checks'>;
/** A check as found, and the fix shown when it fails. */
type Found = [check: Omit<StatusCheck, 'fix'>, fix: string];
type CheckConfig = Pick<AppDeps['config'], 'EMBEDDING_MODEL' | 'MODELS_DIR' | 'TEXT_PROPERTY'>;

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
export function checksOf(s: StatusBody, config: CheckConfig, settings: readonly SettingProblem[] | null = null): StatusCheck[] {
  const found: (Found | null)[] = [
    graphdbCheck(s),
    kvstoreCheck(s),
    s.graph.reachable ? textCheck(s, config.TEXT_PROPERTY) : null,
    s.graph.reachable && settings ? settingsCheck(settings) : null,
    modelFilesCheck(s, config),
    s.graph.reachable ? indexCheck(s, config.EMBEDDING_MODEL) : null,
    s.queue ? workersCheck(s.queue) : null,
    s.examples && (s.examples.file || s.examples.count || s.examples.rejected) ? examplesCheck(s.examples) : null,
    ...s.language_models.map(languageModelCheck),
  ];
  return found.filter((f) => f !== null).map(([c, fix]) => (c.ok ? c : { ...c, fix }));
}

function graphdbCheck(s: StatusBody): Found {
  const graph = s.graph.name;
  const server = s.graph.server ? ` (Neo4j ${s.graph.server.version} ${s.graph.server.edition})` : '';
  return [
    {
      id: 'graphdb',
      ok: s.graph.reachable,
      required: true,
      title: 'Graph database',
      detail: s.graph.reachable ? `graph "${graph}" answers${server}` : `graph "${graph}" does not answer`,
    },
    '`npm run services:start` starts the bundled Neo4j; for your own, set GRAPHDB_URL, GRAPHDB_PORT and GRAPHDB_GRAPH',
  ];
}

function kvstoreCheck(s: StatusBody): Found {
  return [
    {
      id: 'kvstore',
      ok: s.queue !== null,
      required: true,
      title: 'Key-value store',
      detail: s.queue ? 'Redis answers' : 'Redis does not answer',
    },
    '`npm run services:start` starts the bundled Redis; for your own, set KVSTORE_URL',
  ];
}

function textCheck(s: StatusBody, textProperty: string): Found {
  const texts = s.graph.text_nodes;
  const labels = s.index_text?.plan.labels ?? [];
  const by = (source: string) => labels.filter((l) => l.source === source).length;
  const sources = labels.length
    ? ` (labels: ${by('text')} with "${textProperty}", ${by('discovered')} discovered, ${by('explicit')} as chosen, ${by('none')} with no text)`
    : '';
  return [
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
    `no label has "${textProperty}" or properties that read as text: see what each label holds and why it was left out ` +
      '(`node dist/cli.js status`, or POST /dev/text_plan), then name the properties with INDEX_PROPERTIES=Label=prop,prop ' +
      '(or `properties` in the build request); `node dist/cli.js load-sample` loads the sample graph',
  ];
}

/** Only for a model that runs in process: a local-server model needs no files here. */
function modelFilesCheck(s: StatusBody, config: CheckConfig): Found | null {
  const model = config.EMBEDDING_MODEL;
  if (findModel(model)?.provider !== 'in-process') return null;
  const present = s.embedding_models.find((m) => m.model === model)?.files === 'present';
  return [
    {
      id: 'model-files',
      ok: present,
      required: true,
      title: 'Embedding model files',
      detail: `${model} ${present ? 'is' : 'is not'} under MODELS_DIR (${config.MODELS_DIR})`,
    },
    `\`scripts/fetch-models ${model}\` (needs the Hugging Face hub), or copy the model folder to ${config.MODELS_DIR}/${model}`,
  ];
}

function indexCheck(s: StatusBody, model: string): Found {
  const graph = s.graph.name;
  const index = s.indexes.find((i) => i.configured);
  const state = index?.vector ?? 'missing';
  return [
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
  ];
}

function workersCheck(queue: NonNullable<StatusBody['queue']>): Found {
  return [
    {
      id: 'workers',
      ok: queue.workers > 0,
      required: true,
      title: 'Chat workers',
      detail: `${queue.workers} worker(s) alive, ${queue.pending} job(s) waiting`,
    },
    'start a process with SERVICE_ROLE=all (the default) or SERVICE_ROLE=worker against the same Redis',
  ];
}

/** Optional: without the router messages are answered by lookup; without the agent, questions that need it fail. */
function languageModelCheck(m: StatusBody['language_models'][number]): Found {
  const ok = m.state === 'ok';
  const router = m.role === 'router';
  const effect = ok ? '' : router ? ': messages are answered by lookup' : ': questions that need the agent fail';
  return [
    {
      id: router ? 'router-model' : 'agent-model',
      ok,
      required: false,
      title: router ? 'Router language model' : 'Agent language model',
      detail: `${m.model} (${m.provider}) ${FOUND[m.state]}${effect}`,
    },
    m.state === 'ok' ? '' : llmFailureFix(m, m.role, m.state),
  ];
}

/**
 * The check of the index settings: failed when one names what the graph lacks. Required when it
 * is `INDEX_LABELS` or `INDEX_PROPERTIES` (every build and sync is refused until it is fixed);
 * a wrong `INDEX_FILTER_PROPERTIES` only leaves filters to be applied after the index, and a
 * missing range index for `INDEX_CHANGED_PROPERTY` leaves the sync on the full check.
 */
function settingsCheck(problems: readonly SettingProblem[]): Found {
  const names = problems.map((p) => p.setting);
  const errors = problems.flatMap((p) => p.errors.map((e) => `${e.path}: ${e.message}`));
  const blocking = names.some((n) => n === 'INDEX_LABELS' || n === 'INDEX_PROPERTIES');
  const check = {
    id: 'settings' as const,
    ok: problems.length === 0,
    required: !problems.length || blocking,
    title: 'Index settings',
    detail: problems.length
      ? `${names.join(', ')} ${names.length > 1 ? 'name' : 'names'} what the graph lacks: ${errors.join('; ')}`
      : 'INDEX_LABELS, INDEX_PROPERTIES and INDEX_FILTER_PROPERTIES name what the graph has',
  };
  const effect = blocking
    ? 'until then every build refuses them'
    : names.includes('INDEX_FILTER_PROPERTIES')
      ? 'until then filters on them are applied after the index'
      : 'until then the sync compares every indexed node';
  const fix = names.every((n) => n === 'INDEX_CHANGED_PROPERTY')
    ? `create the range indexes named above (or unset INDEX_CHANGED_PROPERTY); ${effect}`
    : `correct ${names.join(' and ')} to the graph's names (close names above; POST /dev/text_plan shows each label's ` +
      `properties) and restart; ${effect}`;
  return [check, fix];
}

/** The agent examples: failed (never required) when some were rejected, or the file cannot be read. */
function examplesCheck(e: NonNullable<StatusBody['examples']>): Found {
  const shown = e.reasons.slice(0, 3).map((r) => `${r.source === 'file' ? 'line' : 'added example'} ${r.line}: ${r.reason}`);
  const more = e.rejected > shown.length ? `; … ${e.rejected - shown.length} more` : '';
  const rejected = e.rejected ? `; ${e.rejected} rejected (${shown.join('; ')}${more})` : '';
  return [
    {
      id: 'examples',
      ok: !e.rejected && !e.file_error,
      required: false,
      title: 'Agent examples',
      detail: `${e.count} in use, the closest ${e.per_prompt} in each agent prompt${rejected}${e.file_error ? `; ${e.file_error}` : ''}`,
    },
    e.file_error
      ? 'set EXAMPLES_FILE to a readable JSON Lines file (docs/chat-and-mcp.md, "Examples")'
      : 'correct or remove the rejected examples (`GET /dev/examples` or `node dist/cli.js examples list` gives each with its line and reason); the rest are used meanwhile',
  ];
}
