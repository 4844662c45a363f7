/**
 * A source of an answer as a card: name, ID, labels and score in a native `<details>` summary
 * (a keyboard control by itself); opening it the first time fetches the node's properties and
 * neighbours (`GET /graph/node`). Failures stay inside the card, with a way to try again.
 */
import type { NodeDetails } from '../../contract/graph.js';
import type { Neighbor, SourceNode } from '../../contract/search.js';
import { ApiError, request } from './api.js';
import { cutText } from '../../lib/text.js';
import { append, h } from './dom.js';

/** `-[TYPE]->` or `<-[TYPE]-`, as Cypher writes the direction. */
export function arrow(n: Pick<Neighbor, 'type' | 'direction'>): string {
  return n.direction === 'out' ? `-[${n.type}]->` : `<-[${n.type}]-`;
}

/** The label chips of a node. */
export function labelChips(labels: readonly string[] = []): HTMLElement[] {
  return labels.map((l) => h('span', { class: 'label-chip' }, l));
}

/** A property value as text: strings as they are, lists of plain values comma-separated, the rest as JSON. */
function show(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object')) return v.map(String).join(', ');
  return JSON.stringify(v);
}

function renderDetails(d: NodeDetails): HTMLElement[] {
  const props = h('dl', { class: 'props' });
  for (const [k, v] of Object.entries(d.properties)) append(props, h('dt', {}, k), h('dd', {}, show(v)));
  const omitted = d.omitted_properties.length ? h('p', { class: 'muted' }, `Left out: ${d.omitted_properties.join(', ')}`) : null;
  const neighbors = h('ul', { class: 'neighbors' });
  for (const n of d.neighbors) {
    append(
      neighbors,
      h(
        'li',
        {},
        h('code', {}, arrow(n)),
        ' ',
        n.displayName || '(unnamed)',
        ' ',
        h('span', { class: 'source-id' }, `ID ${n.dbId}`),
        ...labelChips(n.labels),
      ),
    );
  }
  const shown = d.neighbors.length < d.degree ? `${d.neighbors.length} of ${d.degree}` : `${d.degree}`;
  const parts: Array<HTMLElement | null> = [
    h('h3', {}, 'Properties'),
    Object.keys(d.properties).length ? props : h('p', { class: 'muted' }, 'No properties.'),
    omitted,
    h('h3', {}, `Neighbours (${shown})`),
    d.neighbors.length ? neighbors : h('p', { class: 'muted' }, 'No relationships.'),
  ];
  return parts.filter((e): e is HTMLElement => e !== null);
}

async function load(id: number, body: HTMLElement): Promise<void> {
  body.replaceChildren(h('p', { class: 'muted', role: 'status' }, 'Loading the node…'));
  try {
    const d = await request<NodeDetails>('GET', `/graph/node?id=${encodeURIComponent(String(id))}`);
    body.replaceChildren(...renderDetails(d));
  } catch (err) {
    const why =
      err instanceof ApiError && err.kind === 'not-found'
        ? 'This node is no longer in the graph.'
        : `The node could not be loaded: ${err instanceof Error ? err.message : String(err)}`;
    const retry = h('button', { type: 'button' }, 'Try again');
    retry.addEventListener('click', () => void load(id, body));
    body.replaceChildren(h('p', { class: 'error', role: 'alert' }, why, ' ', retry));
  }
}

/** One source as a list item: the card, then a snippet of its text. */
export function sourceCard(s: SourceNode): HTMLLIElement {
  const body = h('div', { class: 'source-details' });
  const details = h(
    'details',
    { class: 'source-card' },
    h(
      'summary',
      {},
      h('span', { class: 'source-name' }, s.displayName || '(unnamed)'),
      ' ',
      h('span', { class: 'source-id' }, `ID ${s.dbId}`),
      ' ',
      ...labelChips(s.labels),
      typeof s.score === 'number' ? h('span', { class: 'source-score' }, `score ${s.score.toFixed(3)}`) : null,
    ),
    body,
  );
  let loaded = false;
  details.addEventListener('toggle', () => {
    if (!details.open || loaded) return;
    loaded = true;
    void load(s.dbId, body);
  });
  return h('li', { class: 'source' }, details, h('p', { class: 'snippet' }, cutText(s.text ?? '', 240)));
}
