/**
 * The index settings checked against the graph: `INDEX_LABELS` and `INDEX_PROPERTIES` must name
 * labels and properties the graph has (properties holding strings or lists of strings), and
 * `INDEX_FILTER_PROPERTIES` property keys the graph's own nodes use, and `INDEX_CHANGED_PROPERTY` needs
 * a range index for each label the configured index holds. Config parsing can only
 * check their form, and a setting of the right form naming what the graph lacks would otherwise
 * leave readiness green while every build and plan is refused, blamed on a request field the
 * request never had. The readiness report (./report.ts) shows what this finds as a failed check
 * naming the setting, with close names, from the first report after start.
 */
import type { FieldError } from '../contract/problem.js';
import type { AppDeps } from '../deps.js';
import { DomainError } from '../errors.js';
import { readGraphNames } from '../graph/shape/graph-names.js';
import { graphPropertyNames, isIndexProperty, readHeldNames } from '../graph/shape/internal-names.js';
import { closeNamesHint } from '../lib/close-names.js';
import { type ChoiceSettings, readTextPlan, type TextChoice } from '../graph/text/text-plan.js';
import { resolveIndexName } from '../vector-index/index/target.js';
import { indexedLabels } from '../vector-index/sync/property-source.js';
import { propertyUnusable } from '../vector-index/sync/source.js';

/** A setting's problems. */
export interface SettingProblem {
  setting: 'INDEX_LABELS' | 'INDEX_PROPERTIES' | 'INDEX_FILTER_PROPERTIES' | 'INDEX_CHANGED_PROPERTY';
  /** Field errors under the setting's name (`INDEX_PROPERTIES.Mission.0`), each message with close names. */
  errors: FieldError[];
}

/** The errors of a plan read with `choice`, or [] when it plans (any other failure propagates). */
async function planErrors(run: () => Promise<unknown>): Promise<FieldError[]> {
  try {
    await run();
    return [];
  } catch (err) {
    if (err instanceof DomainError && err.code === 'text-choice' && err.errors) return err.errors;
    throw err;
  }
}

/** What is wrong with `INDEX_FILTER_PROPERTIES`: names no node of the graph's own has. */
async function filterErrors(deps: Pick<AppDeps, 'graph'>, database: string, wanted: readonly string[]): Promise<FieldError[]> {
  const names = await readGraphNames(deps.graph, database);
  const held = await readHeldNames(deps.graph, database, wanted);
  const known = graphPropertyNames(names.propertyKeys, held);
  const has = new Set(known);
  return wanted.flatMap((p, i) => {
    if (has.has(p)) return [];
    const hint = closeNamesHint(p, known);
    const why = isIndexProperty(p) ? " (a property of the search index's own nodes)" : '';
    return [{ path: `INDEX_FILTER_PROPERTIES.${i}`, message: `unknown property ${JSON.stringify(p)}${why}; ${hint}` }];
  });
}

/** What is wrong with `INDEX_CHANGED_PROPERTY`: an indexed label of the configured index has no range index on it. */
async function changedPropertyErrors(deps: Pick<AppDeps, 'graph' | 'config'>, database: string): Promise<FieldError[]> {
  const { config } = deps;
  const index = resolveIndexName(config, database, config.EMBEDDING_MODEL);
  const labels = await indexedLabels(deps, database, [{ index }]);
  const why = await propertyUnusable(deps, database, config.INDEX_CHANGED_PROPERTY, labels);
  return why ? [{ path: 'INDEX_CHANGED_PROPERTY', message: why }] : [];
}

/**
 * Checks the index settings against graph `database`; [] when every setting is unset or names
 * what the graph has. Reads the graph's labels and property keys and samples each label named
 * in `INDEX_PROPERTIES` (as a plan does), nothing else.
 * @throws what the graph driver throws (graph down): the caller decides what an unknown means.
 */
export async function checkIndexSettings(deps: Pick<AppDeps, 'graph' | 'config'>, database: string): Promise<SettingProblem[]> {
  const { config } = deps;
  const driver = deps.graph.driver;
  const textProperty = config.TEXT_PROPERTY;
  const filters = config.INDEX_FILTER_PROPERTIES ?? [];
  // Each setting on its own, so that a wrong label in one does not hide a wrong property in the other.
  const planOf = (choice: TextChoice, fromSettings: ChoiceSettings) =>
    planErrors(() => readTextPlan(driver, database, { textProperty, choice, fromSettings, discover: false }));
  const [labels, properties, filterProps, changed] = await Promise.all([
    config.INDEX_LABELS.length ? planOf({ labels: config.INDEX_LABELS }, { labels: 'INDEX_LABELS' }) : [],
    Object.keys(config.INDEX_PROPERTIES).length ? planOf({ properties: config.INDEX_PROPERTIES }, { properties: 'INDEX_PROPERTIES' }) : [],
    filters.length ? filterErrors(deps, database, filters) : [],
    config.INDEX_CHANGED_PROPERTY ? changedPropertyErrors(deps, database) : [],
  ]);
  const out: SettingProblem[] = [];
  if (labels.length) out.push({ setting: 'INDEX_LABELS', errors: labels });
  if (properties.length) out.push({ setting: 'INDEX_PROPERTIES', errors: properties });
  if (filterProps.length) out.push({ setting: 'INDEX_FILTER_PROPERTIES', errors: filterProps });
  if (changed.length) out.push({ setting: 'INDEX_CHANGED_PROPERTY', errors: changed });
  return out;
}

/** True when any index setting is set (the check has something to say). */
export const hasIndexSettings = (
  config: Pick<AppDeps['config'], 'INDEX_LABELS' | 'INDEX_PROPERTIES' | 'INDEX_FILTER_PROPERTIES' | 'INDEX_CHANGED_PROPERTY'>,
): boolean =>
  config.INDEX_LABELS.length > 0 ||
  Object.keys(config.INDEX_PROPERTIES).length > 0 ||
  (config.INDEX_FILTER_PROPERTIES?.length ?? 0) > 0 ||
  config.INDEX_CHANGED_PROPERTY !== '';
