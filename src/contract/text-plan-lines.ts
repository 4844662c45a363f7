/**
 * A text plan label as one line for people (the CLI; the web chat's setup panel shows a table,
 * src/ui/client/plan-table.ts). Apart from the schema module so that the page bundle, which
 * imports from here, stays without zod.
 */
import type { TextPlanBody } from './text-plan.js';

/** One label of a plan on the wire. */
export type LabelPlanBody = TextPlanBody['labels'][number];

/** One line per label for people: `Movie (38 nodes): name title; text tagline; skipped released (holds INTEGER values)`. */
export function describeLabel(l: LabelPlanBody): string {
  const head = `${l.label} (${l.nodes} node${l.nodes === 1 ? '' : 's'})`;
  if (l.source === 'text') return `${head}: its "${l.text[0]}" property, as set by TEXT_PROPERTY`;
  const parts: string[] = [];
  if (l.source === 'none') parts.push('nothing indexed');
  if (l.name.length) parts.push(`name ${l.name.join(' + ')}`);
  if (l.text.length) parts.push(`text ${l.text.join(', ')}`);
  if (l.source === 'explicit') parts.push('as chosen');
  if (l.skipped.length) parts.push(`skipped ${l.skipped.map((s) => `${s.property} (${s.detail})`).join(', ')}`);
  return `${head}: ${parts.join('; ')}`;
}
