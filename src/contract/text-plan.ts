/**
 * Wire shape of a text plan (src/graph/text/text-plan.ts): what is indexed per label, what is
 * left out and why (built by `textPlanBody` there). `POST /dev/text_plan` answers with it before
 * a build, the build's response and `GET /status` carry it after (as extensions of the
 * contract's shapes; docs/indexing.md, "Graphs without a text property"), and the web chat's
 * setup panel shows it.
 */
import { z } from '@hono/zod-openapi';

/**
 * zod leaves an own `__proto__` key out of a record it parses (assigning it would replace the
 * result's prototype), so `{"__proto__": ["text"]}` would vanish and a full build run. The key
 * goes through the schema under this stand-in and comes out as an own property again, for the
 * plan to refuse as an unknown label like any other.
 */
const PROTO = '__proto__';
const PROTO_STAND_IN = '\u0000__proto__';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A copy with key `from` renamed `to`, in order; entries, so that `__proto__` stays an own key. */
const renamed = <T>(o: Record<string, T>, from: string, to: string): Record<string, T> =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k === from ? to : k, v]));

/** One label's properties. */
const LabelPropertiesSchema = z.array(z.string().min(1)).min(1).max(50);

const TextPropertiesRecord = z
  .record(z.string().min(1), LabelPropertiesSchema)
  .refine((m) => Object.keys(m).length <= 100, 'at most 100 labels')
  .transform((m) => (Object.hasOwn(m, PROTO_STAND_IN) ? renamed(m, PROTO_STAND_IN, PROTO) : m));

/** Label → properties, as a build request and `INDEX_PROPERTIES` take it. */
export const TextPropertiesSchema = z
  .preprocess((v, ctx) => {
    if (!isRecord(v) || !Object.hasOwn(v, PROTO)) return v;
    // Its value is checked here, so that an error names `__proto__`, not the stand-in.
    const checked = LabelPropertiesSchema.safeParse(v[PROTO]);
    for (const issue of checked.error?.issues ?? []) ctx.addIssue({ code: 'custom', message: issue.message, path: [PROTO, ...issue.path] });
    return checked.success ? renamed(v, PROTO, PROTO_STAND_IN) : Object.fromEntries(Object.entries(v).filter(([k]) => k !== PROTO));
  }, TextPropertiesRecord)
  .openapi('TextProperties', {
    description:
      'Label → the properties that make its nodes’ text, overriding discovery for that label. A leading name-like property ' +
      '(or a first and last name pair) names the node in its chunks’ header; the rest is its text, in the order given. ' +
      'Properties must hold strings or lists of strings (joined).',
    example: { Mission: ['displayName', 'text'] },
  });

/** The optional fields a build request and a plan request share. */
export const TextChoiceFields = {
  labels: z
    .array(z.string().min(1))
    .min(1)
    .max(100)
    .optional()
    .openapi({
      description: 'Index only nodes with one of these labels (default `INDEX_LABELS`, else every label)',
      example: ['Mission', 'Person'],
    }),
  properties: TextPropertiesSchema.optional(),
};

export const TextPlanSchema = z
  .object({
    text_property: z.string().describe('`TEXT_PROPERTY`: labels whose nodes have it index it, as the seed says'),
    only_labels: z.array(z.string()).nullable().describe('Only these labels are indexed; null: every label'),
    labels: z.array(
      z.object({
        label: z.string(),
        nodes: z.number().int().describe('Nodes with the label when the plan was made'),
        source: z
          .enum(['text', 'discovered', 'explicit', 'none'])
          .describe('text: its TEXT_PROPERTY; discovered: found by rule; explicit: as chosen; none: nothing indexed'),
        name: z.array(z.string()).describe('Properties naming the node in its chunks’ header, joined by a space'),
        text: z.array(z.string()).describe('Properties whose values make the node’s text, in order'),
        skipped: z
          .array(z.object({ property: z.string(), reason: z.string(), detail: z.string() }))
          .describe('Properties left out, with the reason (identifier, code, date, number, boolean, url, blob, empty, repeats, …)'),
      }),
    ),
  })
  .openapi('TextPlan');

/** The body of {@link TextPlanSchema}. */
export type TextPlanBody = z.infer<typeof TextPlanSchema>;
