/**
 * The setup panel's text plan as a table: a row per label with its node count, the properties
 * that name its nodes, those that make their text, and how many were left out, the reasons
 * folded under that count (a wide label leaves out dozens; the table stays one line a label).
 * Label and property names come from the graph: they go in as text nodes (`h`), never as HTML,
 * inside elements that isolate their writing direction, so a right-to-left or control
 * character in a name cannot reorder the cell around it. The table scrolls sideways inside its
 * own box on a narrow screen rather than widening the page. Its folds and scrolling carry
 * `data-keep` keys, so a redraw of the panel keeps what the reader opened (keep-state.ts).
 */
import type { LabelPlanBody } from '../../contract/text-plan-lines.js';
import type { TextPlanBody } from '../../contract/text-plan.js';
import { h } from './dom.js';

const NUMBER = new Intl.NumberFormat('en-US');

/** `1 node`, `1,096 nodes`: a count with its noun (an `s` added unless `plural` is given). */
export function countOf(n: number, noun: string, plural = `${noun}s`): string {
  return `${NUMBER.format(n)} ${n === 1 ? noun : plural}`;
}

/** How a label's text was chosen, in a few words (shown under the label). */
export function sourceWords(l: Pick<LabelPlanBody, 'source'>, textProperty: string): string {
  switch (l.source) {
    case 'text':
      return `has "${textProperty}" (TEXT_PROPERTY)`;
    case 'discovered':
      return 'discovered';
    case 'explicit':
      return 'as chosen';
    default:
      return 'no text found';
  }
}

/** What an empty cell says, in words (a dash says nothing to a screen reader). */
function none(words: string): HTMLElement {
  return h('span', { class: 'muted' }, words);
}

/** Property names as `code`, between `sep`. */
function props(keys: string[], sep: string): Array<Node | string> {
  return keys.flatMap((k, i) => (i ? [sep, h('code', {}, k)] : [h('code', {}, k)]));
}

function skippedCell(l: LabelPlanBody): HTMLElement {
  if (!l.skipped.length) return h('td', {}, none('none'));
  return h(
    'td',
    {},
    h(
      'details',
      { class: 'plan-skipped', 'data-keep': `skipped:${l.label}` },
      h('summary', {}, `${l.skipped.length} skipped`),
      h('ul', {}, ...l.skipped.map((s) => h('li', { 'data-property': s.property }, h('code', {}, s.property), ' — ', s.detail))),
    ),
  );
}

function row(l: LabelPlanBody, textProperty: string): HTMLTableRowElement {
  // A TEXT_PROPERTY label is named by the general rule (displayName, name, title, …), not by the plan.
  const name = l.name.length ? props(l.name, ' + ') : [none(l.source === 'text' ? 'default' : 'none')];
  const text = l.text.length ? props(l.text, ', ') : [none('nothing indexed')];
  return h(
    'tr',
    { 'data-label': l.label, 'data-source': l.source },
    h(
      'th',
      { scope: 'row' },
      h('span', { class: 'plan-label' }, l.label),
      h('span', { class: 'plan-source' }, sourceWords(l, textProperty)),
    ),
    h('td', { class: 'plan-nodes' }, NUMBER.format(l.nodes)),
    h('td', {}, ...name),
    h('td', {}, ...text),
    skippedCell(l),
  );
}

/** The plan's table, in a box that scrolls sideways (focusable, so a keyboard can scroll it too). */
export function planTable(plan: TextPlanBody, caption: string): HTMLElement {
  const head = ['Label', 'Nodes', 'Name', 'Text', 'Skipped'].map((c) => h('th', { scope: 'col' }, c));
  return h(
    'div',
    { class: 'plan-scroll', role: 'region', 'aria-labelledby': 'setup-plan-caption', tabindex: 0, 'data-keep': 'plan-scroll' },
    h(
      'table',
      { class: 'plan-table' },
      h('caption', { id: 'setup-plan-caption' }, caption),
      h('thead', {}, h('tr', {}, ...head)),
      h('tbody', {}, ...plan.labels.map((l) => row(l, plan.text_property))),
    ),
  );
}
