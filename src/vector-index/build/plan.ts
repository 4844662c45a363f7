/**
 * What a build would index: the text plan it follows (labels and properties from the request,
 * the settings, and discovery), and the values its chunks carry for filters.
 */
import type { Config } from '../../config.js';
import { assertGraph } from '../../graph/access/driver.js';
import { textNodeLabels } from '../../graph/access/text-nodes.js';
import { type ChoiceSettings, readTextPlan, type TextChoice, type TextPlan } from '../../graph/text/text-plan.js';
import { type CarryPlan, chooseCarry, MAX_CARRIED_LABELS } from '../index/carry.js';
import { textParams } from '../index/source.js';
import type { IndexBuildDeps } from '../index/target.js';

/** What to plan: the graph, and the choice and discovery a build would use (defaults from config). */
export interface PlanRequest {
  graph: string;
  choice?: TextChoice;
  discover?: boolean;
}

/** A choice with each part it leaves out taken from its setting: `INDEX_LABELS`, `INDEX_PROPERTIES`. */
export const withDefaults = (config: Pick<Config, 'INDEX_LABELS' | 'INDEX_PROPERTIES'>, choice: TextChoice = {}): TextChoice => ({
  labels: choice.labels ?? config.INDEX_LABELS,
  properties: choice.properties ?? config.INDEX_PROPERTIES,
});

/** The parts of a choice {@link withDefaults} fills from settings, for errors to blame the setting, not the request. */
export const settingsIn = (choice: TextChoice = {}): ChoiceSettings => ({
  labels: choice.labels ? undefined : 'INDEX_LABELS',
  properties: choice.properties ? undefined : 'INDEX_PROPERTIES',
});

/**
 * The text plan a build of `req.graph` would follow now, without building (`POST /dev/text_plan`,
 * `scripts/build-index --plan`, `/status` before the first build).
 * @throws DomainError 404 unknown graph, 422 a choice naming what the graph lacks.
 */
export async function previewTextPlan(deps: Pick<IndexBuildDeps, 'graph' | 'config'>, req: PlanRequest): Promise<TextPlan> {
  await assertGraph(deps.graph, req.graph);
  return readTextPlan(deps.graph.driver, req.graph, {
    textProperty: deps.config.TEXT_PROPERTY,
    choice: withDefaults(deps.config, req.choice),
    fromSettings: settingsIn(req.choice),
    discover: req.discover ?? deps.config.INDEX_DISCOVER,
  });
}

/**
 * What a new index's chunks carry for filtering inside the vector index (../index/carry.ts), or null
 * where the server's vector indexes take no filter properties (5.26) or none are wanted.
 */
export async function planCarry(deps: Pick<IndexBuildDeps, 'graph' | 'config'>, graph: string, plan: TextPlan): Promise<CarryPlan | null> {
  const server = await deps.graph.server().catch(() => null);
  if (!server?.vectorFilters || !deps.config.INDEX_FILTERS) return null;
  const labels = await textNodeLabels(deps.graph.driver, graph, textParams(plan), MAX_CARRIED_LABELS);
  const carry = chooseCarry(plan, labels, deps.config.INDEX_FILTER_PROPERTIES ?? null);
  return carry.labels.length || carry.properties.length ? carry : null;
}
