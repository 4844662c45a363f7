/**
 * The filter language of search (`labels` and `where` of `POST /vector/search`, of the agent's
 * and MCP's `vector_search`): a JSON shape, never Cypher text. Property names and values reach
 * the database as parameters only (src/graph/filters/filter-cypher.ts compiles it). Nesting is bounded
 * by the shape itself (a condition, or a group of conditions and groups of conditions: two
 * levels), so the JSON Schema a model reads has no recursion; {@link MAX_FILTER_CONDITIONS}
 * bounds the size.
 */
import { z } from '@hono/zod-openapi';
import {
  describeFilterProblem,
  isCalendarDay,
  MAX_FILTER_CONDITIONS,
  MAX_IN_VALUES,
  MAX_PROPERTY_CHARS,
  MAX_STRING_VALUE_CHARS,
  temporalProblem,
} from './filter-explain.js';

export { MAX_FILTER_CONDITIONS, MAX_IN_VALUES };

/** Labels one search may name. */
export const MAX_FILTER_LABELS = 20;

/** How a string value compares: as a day, as an instant, or as plain text. */
export function temporalKind(value: unknown): 'date' | 'datetime' | null {
  if (typeof value !== 'string' || temporalProblem(value) !== null) return null;
  return isCalendarDay(value) ? 'date' : 'datetime';
}

const PropertySchema = z
  .string()
  .min(1)
  .max(MAX_PROPERTY_CHARS)
  .describe('Node property name, exactly as stored (case matters), e.g. "year"');

const ScalarSchema = z.union([z.string().max(MAX_STRING_VALUE_CHARS), z.number(), z.boolean()]);

const TemporalSchema = z.string().superRefine((s, ctx) => {
  const problem = temporalProblem(s);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

const EqualityConditionSchema = z.object({
  property: PropertySchema,
  op: z.enum(['=', '<>']),
  value: ScalarSchema.describe('String, number or boolean; an ISO date string also matches a date property on that day'),
});

const ComparisonConditionSchema = z.object({
  property: PropertySchema,
  op: z.enum(['<', '<=', '>', '>=']),
  value: z.union([z.number(), TemporalSchema]).describe('A number, or an ISO date / date-time string compared as a date'),
});

const InConditionSchema = z.object({
  property: PropertySchema,
  op: z.literal('in'),
  value: z.array(ScalarSchema).min(1).max(MAX_IN_VALUES).describe(`1..${MAX_IN_VALUES} values; the property equals one of them`),
});

const ExistsConditionSchema = z.object({ property: PropertySchema, op: z.literal('exists') });

/** One test of a node property. */
export const FilterConditionSchema = z
  .discriminatedUnion('op', [EqualityConditionSchema, ComparisonConditionSchema, InConditionSchema, ExistsConditionSchema])
  .openapi('FilterCondition', {
    description:
      'A test of one node property: `=`, `<>` (a string, number or boolean), `<`, `<=`, `>`, `>=` (a number, or an ISO ' +
      'date or date-time string: compared with date/datetime properties as dates, with ISO-formatted strings as text), ' +
      '`in` (a list of values), `exists` (no value). A node without the property fails every test but `exists`; on a list ' +
      'property `=` and `in` match when any element matches.',
  });

/** One test of a node property. */
export type FilterCondition = z.infer<typeof FilterConditionSchema>;

/** A union that fails says only that no shape fits: name the rule the input breaks instead. */
const GROUP_ERROR = { error: (issue: { input?: unknown }) => describeFilterProblem(issue.input) };
const items = <T extends z.ZodType>(item: T) => z.array(item).min(1).max(MAX_FILTER_CONDITIONS);

/** A group of conditions only (the second level). */
const InnerGroupSchema = z.union(
  [z.strictObject({ and: items(FilterConditionSchema) }), z.strictObject({ or: items(FilterConditionSchema) })],
  GROUP_ERROR,
);

const ItemSchema = z.union([FilterConditionSchema, InnerGroupSchema], GROUP_ERROR);

/** A group of conditions and groups of conditions (the first level). */
export const FilterGroupSchema = z
  .union([z.strictObject({ and: items(ItemSchema) }), z.strictObject({ or: items(ItemSchema) })], GROUP_ERROR)
  .openapi('FilterGroup', {
    description: '`{"and": [...]}`: every item holds; `{"or": [...]}`: at least one does. Items: conditions, or groups of conditions.',
  });

/** A group of conditions and groups of conditions. */
export type FilterGroup = z.infer<typeof FilterGroupSchema>;

/** A `where` as accepted: one condition or a group. */
export type SearchFilter = FilterCondition | FilterGroup;

/** Every condition of a filter, depth first (with the path of each, as `where.and.1.or.0`). */
export function filterConditions(filter: SearchFilter, path = 'where'): { condition: FilterCondition; path: string }[] {
  if ('op' in filter) return [{ condition: filter, path }];
  const [key, list] = 'and' in filter ? (['and', filter.and] as const) : (['or', filter.or] as const);
  return list.flatMap((item, i) => filterConditions(item as SearchFilter, `${path}.${key}.${i}`));
}

/** `where`: a condition or a group, at most {@link MAX_FILTER_CONDITIONS} conditions in all. */
export const SearchFilterSchema = z
  .union([FilterConditionSchema, FilterGroupSchema], GROUP_ERROR)
  .superRefine((f, ctx) => {
    if (filterConditions(f).length > MAX_FILTER_CONDITIONS)
      ctx.addIssue({ code: 'custom', message: `at most ${MAX_FILTER_CONDITIONS} conditions in all (got ${filterConditions(f).length})` });
  })
  .openapi('SearchFilter', {
    description:
      'Keeps only nodes whose properties pass: one condition, or `{"and": [...]}` / `{"or": [...]}` of conditions and ' +
      `groups of conditions (two levels at most, ${MAX_FILTER_CONDITIONS} conditions in all). Example: ` +
      '`{"and": [{"property": "year", "op": ">=", "value": 2000}, {"property": "species", "op": "in", "value": ["Homo sapiens"]}]}`. ' +
      'A property the graph does not have is refused with close names; the search index’s own properties (`chunkText`, ' +
      '`embedding`, `nodeId`, …) are not the graph’s.',
    // Holds on the sample graph (Mission.launchDate), as the document's examples must.
    example: { property: 'launchDate', op: '>=', value: '2000-01-01' },
  });

/** `labels`: nodes carrying any of them. */
export const FilterLabelsSchema = z
  .array(z.string().min(1).max(200))
  .min(1)
  .max(MAX_FILTER_LABELS)
  .openapi('FilterLabels', {
    description: `Keeps only nodes with at least one of these labels (1..${MAX_FILTER_LABELS}, exact spelling); a label the graph does not have is refused with close names.`,
    example: ['Mission'],
  });
