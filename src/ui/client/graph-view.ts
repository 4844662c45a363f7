/**
 * The graph view of an answer: a "Graph" button opens a modal `<dialog>` that draws the
 * answer's graph (graph-model.ts) with Cytoscape.js and lists the same nodes and relationships
 * as text beneath, since a canvas says nothing to a screen reader. Cytoscape is loaded only
 * when a view first opens (a separate chunk of the bundle). Escape or Close shuts the dialog
 * and focus returns to the button. Colours come from the page's CSS custom properties, so a
 * theme that redefines them recolours the drawing too.
 */
import type { Core, ElementDefinition, StylesheetJson } from 'cytoscape';
import type { ResultGraph } from '../../contract/graph.js';
import type { SourceNode } from '../../contract/search.js';
import { append, h } from './dom.js';
import { answerGraph, type AnswerGraph } from './graph-model.js';
import { arrow, labelChips } from './source-card.js';

interface GraphDialog {
  dialog: HTMLDialogElement;
  close: HTMLButtonElement;
  canvas: HTMLElement;
  status: HTMLElement;
  lists: HTMLElement;
}

let view: GraphDialog | null = null;
let cy: Core | null = null;
let opener: HTMLElement | null = null;

/** Builds the dialog once, at the end of the page. */
function graphDialog(): GraphDialog {
  if (view) return view;
  // The canvas cannot use CSS variables: a theme switched while the view is open restyles it.
  new MutationObserver(() => cy?.style(style())).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  // A rotated phone or a resized window keeps the whole drawing in view.
  window.addEventListener('resize', () => {
    cy?.resize();
    cy?.fit(undefined, 24);
  });
  const close = h('button', { type: 'button', class: 'graph-close' }, 'Close');
  const canvas = h('div', { class: 'graph-canvas', role: 'img', 'aria-label': 'Drawing of the graph; the lists below hold the same' });
  const status = h('p', { class: 'graph-status muted', role: 'status' });
  const lists = h('div', { class: 'graph-lists' });
  const dialog = h(
    'dialog',
    { id: 'graph-dialog', class: 'graph-dialog', 'aria-labelledby': 'graph-title' },
    h('div', { class: 'graph-head' }, h('h2', { id: 'graph-title' }, 'Graph of this answer'), close),
    canvas,
    status,
    lists,
  );
  close.addEventListener('click', () => dialog.close());
  // Cytoscape inserts a <style> (position: relative on its container, which app.css already
  // sets) unless an element of this id exists; the page's CSP refuses inline styles.
  document.body.appendChild(h('template', { id: '__________cytoscape_stylesheet' }));
  dialog.addEventListener('close', () => {
    cy?.destroy();
    cy = null;
    opener?.focus();
  });
  document.body.appendChild(dialog);
  view = { dialog, close, canvas, status, lists };
  return view;
}

const nameOf = (g: AnswerGraph) => new Map(g.nodes.map((n) => [n.id, n.name || `#${n.id}`]));

function renderLists(g: AnswerGraph): HTMLElement[] {
  const names = nameOf(g);
  const nodes = h('ul', { class: 'graph-node-list' });
  for (const n of g.nodes) {
    append(
      nodes,
      h(
        'li',
        {},
        n.name || '(unnamed)',
        ' ',
        h('span', { class: 'source-id' }, `ID ${n.id}`),
        ...labelChips(n.labels),
        n.source ? h('span', { class: 'graph-source-mark' }, ' source') : null,
      ),
    );
  }
  const rels = h('ul', { class: 'graph-rel-list' });
  for (const e of g.edges) {
    append(rels, h('li', {}, names.get(e.start), ' ', h('code', {}, arrow({ type: e.type, direction: 'out' })), ' ', names.get(e.end)));
  }
  const parts: Array<HTMLElement | null> = [
    h('h3', {}, `Nodes (${g.nodes.length})`),
    nodes,
    h('h3', {}, `Relationships (${g.edges.length})`),
    g.edges.length ? rels : h('p', { class: 'muted' }, 'None among these nodes.'),
    g.truncated ? h('p', { class: 'muted' }, 'The graph was larger; only part of it is shown.') : null,
  ];
  return parts.filter((e): e is HTMLElement => e !== null);
}

function elements(g: AnswerGraph): ElementDefinition[] {
  return [
    ...g.nodes.map((n) => ({ data: { id: `n${n.id}`, name: n.name || `#${n.id}` }, classes: n.source ? 'source' : '' })),
    ...g.edges.map((e) => ({ data: { id: `e${e.key}`, source: `n${e.start}`, target: `n${e.end}`, type: e.type } })),
  ];
}

/** Cytoscape's style, in the page's current colours. */
function style(): StylesheetJson {
  const css = getComputedStyle(document.documentElement);
  const color = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  const text = color('--text', '#1d1f23');
  const muted = color('--muted', '#5d6470');
  const panel = color('--panel', '#ffffff');
  const label = { color: text, 'text-background-color': panel, 'text-background-opacity': 0.85, 'text-background-padding': '2px' };
  return [
    {
      selector: 'node',
      style: {
        ...label,
        label: 'data(name)',
        'font-size': 12,
        'text-valign': 'bottom',
        'text-margin-y': 4,
        'text-wrap': 'ellipsis',
        'text-max-width': '110px',
        'background-color': muted,
        width: 16,
        height: 16,
      },
    },
    { selector: 'node.source', style: { 'background-color': color('--accent', '#1f5fbf'), width: 24, height: 24 } },
    {
      selector: 'edge',
      style: {
        ...label,
        color: muted,
        label: 'data(type)',
        'font-size': 10,
        'text-rotation': 'autorotate',
        width: 1.5,
        'line-color': muted,
        'target-arrow-color': muted,
        'target-arrow-shape': 'triangle',
        'curve-style': 'bezier',
        'arrow-scale': 1.2,
      },
    },
  ];
}

async function openGraphView(g: AnswerGraph, from: HTMLElement): Promise<void> {
  const v = graphDialog();
  opener = from;
  v.lists.replaceChildren(...renderLists(g));
  v.status.textContent = 'Drawing the graph…';
  v.dialog.showModal();
  v.close.focus();
  try {
    const { default: cytoscape } = await import('cytoscape');
    if (!v.dialog.open) return;
    cy?.destroy();
    // Shorter edges on a narrow screen, so fitting the drawing does not shrink its labels.
    const edgeLength = Math.max(60, Math.min(120, v.canvas.clientWidth / 4));
    cy = cytoscape({
      container: v.canvas,
      elements: elements(g),
      style: style(),
      // Edges long enough for their type to be read along them; labels count as part of a node, so they do not overlap.
      layout: {
        name: 'cose',
        animate: false,
        padding: 24,
        idealEdgeLength: () => edgeLength,
        nodeRepulsion: () => 12_000,
        componentSpacing: 80,
        nodeDimensionsIncludeLabels: true,
      },
      // A small graph is not blown up past 1.5× (labels stay label-sized); a big one can be zoomed into.
      minZoom: 0.2,
      maxZoom: 1.5,
    });
    v.status.textContent = `${g.nodes.length} nodes and ${g.edges.length} relationships; drag to move, pinch or scroll to zoom.`;
  } catch {
    v.status.textContent = 'The drawing could not be loaded; the lists below hold the same graph.';
  }
}

/** The "Graph" button of an answer with sources or a tool-result graph. */
export function graphButton(sources: readonly SourceNode[], graphs: readonly ResultGraph[]): HTMLButtonElement {
  const btn = h('button', { type: 'button', class: 'graph-open', 'aria-haspopup': 'dialog' }, 'Graph');
  btn.addEventListener('click', () => void openGraphView(answerGraph(sources, graphs), btn));
  return btn;
}
