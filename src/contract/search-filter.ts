/**
 * The filter language of search (`labels` and `where` of `POST /vector/search`, of the agent's
 * and MCP's `vector_search`): a JSON shape, never Cypher text. Property names and values reach
 * the database as parameters only (src/graph/filter-cypher.ts compiles it). Nesting is bounded
 * by the shape itself (a condition, or a group of conditions and groups of conditions: two
 * levels), so the JSON Schema a model reads has no recursion; {@link MAX_FILTER_CONDITIONS}
 * bounds the size.
 */
import { z } from '@hono/zod-openapi';

/** Conditions one `where` may hold in all, across its groups. */
export const MAX_FILTER_CONDITIONS = 20;

/** Labels one search may name. */
export const MAX_FILTER_LABELS = 20;

/** Values one `in` condition may list. */
export const MAX_IN_VALUES = 100;

/** `YYYY-MM-DD`. */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** `YYYY-MM-DDThh:mm[:ss[.fraction]][Z|±hh:mm]`, hours 00-23 and minutes 00-59 (Neo4j's `datetime()` would throw on others). */
const ISO_DATETIME = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)?$/;

/** True for a real calendar day `YYYY-MM-DD` (not 2001-02-29). */
function isCalendarDay(s: string): boolean {
  const m = ISO_DATE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** How a string value compares: as a day, as an instant, or as plain text. */
export function temporalKind(value: unknown): 'date' | 'datetime' | null {
  if (typeof value !== 'string') return null;
  if (isCalendarDay(value)) return 'date';
  const m = ISO_DATETIME.exec(value);
  return m && isCalendarDay(m[1]!) ? 'datetime' : null;
}

const PropertySchema = z.string().min(1).max(200).describe('Node property name, exactly as stored (case matters), e.g. "year"');

const ScalarSchema = z.union([z.string().max(1000), z.number(), z.boolean()]);

const TemporalSchema = z
  .string()
  .refine((s) => temporalKind(s) !== null, 'must be a number, an ISO date (2000-01-31) or an ISO date-time (2000-01-31T12:00:00Z)');

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

const GROUP_ERROR = 'expected a condition {"property", "op", "value"} or a group {"and": [...]} / {"or": [...]}';
const items = <T extends z.ZodType>(item: T) => z.array(item).min(1).max(MAX_FILTER_CONDITIONS);

/** A group of conditions only (the second level). */
const InnerGroupSchema = z.union(
  [z.strictObject({ and: items(FilterConditionSchema) }), z.strictObject({ or: items(FilterConditionSchema) })],
  { error: GROUP_ERROR },
);

const ItemSchema = z.union([FilterConditionSchema, InnerGroupSchema], { error: GROUP_ERROR });

/** A group of conditions and groups of conditions (the first level). */
export const FilterGroupSchema = z
  .union([z.strictObject({ and: items(ItemSchema) }), z.strictObject({ or: items(ItemSchema) })], { error: GROUP_ERROR })
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
  .union([FilterConditionSchema, FilterGroupSchema], { error: GROUP_ERROR })
  .superRefine((f, ctx) => {
    if (filterConditions(f).length > MAX_FILTER_CONDITIONS)
      ctx.addIssue({ code: 'custom', message: `at most ${MAX_FILTER_CONDITIONS} conditions in all` });
  })
  .openapi('SearchFilter', {
    description:
      'Keeps only nodes whose properties pass: one condition, or `{"and": [...]}` / `{"or": [...]}` of conditions and ' +
      `groups of conditions (two levels at most, ${MAX_FILTER_CONDITIONS} conditions in all). Example: ` +
      '`{"and": [{"property": "year", "op": ">=", "value": 2000}, {"property": "species", "op": "in", "value": ["Homo sapiens"]}]}`. ' +
      'A property the graph does not have is refused with close names.',
  });

/** `labels`: nodes carrying any of them. */
export const FilterLabelsSchema = z
  .array(z.string().min(1).max(200))
  .min(1)
  .max(MAX_FILTER_LABELS)
  .openapi('FilterLabels', {
    description: `Keeps only nodes with at least one of these labels (1..${MAX_FILTER_LABELS}, exact spelling); a label the graph does not have is refused with close names.`,
    example: ['Pathway'],
  });
