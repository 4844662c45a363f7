/** Router output parsing and the routing rules; lookup Markdown; SSE framing helpers. */
import { describe, expect, it } from 'vitest';
import { formatLookup, formatNeighbors, NO_RESULTS } from '../../../src/chat/lookup.js';
import { decide, parseDecision } from '../../../src/chat/router.js';
import { parseLastEventId } from '../../../src/chat/sse.js';
import { sseFrame } from '../../../src/lib/sse.js';

describe('parseDecision', () => {
  it('reads plain, fenced and chatty JSON', () => {
    expect(parseDecision('{"route":"lookup","confidence":0.8,"reasoning":"r"}')).toEqual({
      route: 'lookup',
      confidence: 0.8,
      reasoning: 'r',
    });
    expect(parseDecision('Here:\n```json\n{"route": "AGENT", "confidence": "0.6"}\n```')).toEqual({
      route: 'agent',
      confidence: 0.6,
      reasoning: '',
    });
  });

  it('reads the route and confidence of JSON cut off in its reasoning (max_tokens)', () => {
    expect(parseDecision('{ "route": "agent", "confidence": 0.7, "reasoning": "The user asks about many thin')).toEqual({
      route: 'agent',
      confidence: 0.7,
      reasoning: 'The user asks about many thin…',
    });
    expect(parseDecision('{ "route": "agent", "confid')).toBeNull();
  });

  it('clamps confidence to 0..1', () => {
    expect(parseDecision('{"route":"lookup","confidence":7}')!.confidence).toBe(1);
  });

  it('rejects what it cannot read', () => {
    for (const t of [
      null,
      '',
      'lookup',
      '{"route":"search","confidence":1}',
      '{"route":"lookup"}',
      '{"route":"lookup","confidence":"high"}',
      '{oops}',
    ]) {
      expect(parseDecision(t)).toBeNull();
    }
  });
});

describe('decide', () => {
  const usage = { input_tokens: 1, output_tokens: 2 };
  it('keeps lookup at or above the threshold', () => {
    expect(decide({ route: 'lookup', confidence: 0.75, reasoning: 'r' }, 0.75, usage)).toEqual({
      route: 'lookup',
      confidence: 0.75,
      reasoning: 'r',
      token_usage: usage,
    });
  });
  it('turns lookup below the threshold into agent, keeping the confidence', () => {
    const d = decide({ route: 'lookup', confidence: 0.7499, reasoning: 'r' }, 0.75, usage);
    expect(d.route).toBe('agent');
    expect(d.confidence).toBe(0.7499);
    expect(d.reasoning).toMatch(/below 0.75/);
  });
  it('keeps agent at any confidence and sends unparseable output to agent', () => {
    expect(decide({ route: 'agent', confidence: 0.1, reasoning: '' }, 0.75, null).route).toBe('agent');
    expect(decide(null, 0.75, usage)).toMatchObject({ route: 'agent', confidence: 0, token_usage: usage });
  });
});

describe('formatLookup', () => {
  it('renders a ### heading, node ID, labels and text per node', () => {
    const md = formatLookup([
      { dbId: 1, displayName: 'Alpha\nBeta', text: ' first text ', score: 1, labels: ['A', 'B'] },
      { dbId: 2, displayName: '', text: 'second', score: 0.5, labels: [] },
    ]);
    expect(md).toBe(
      '### Alpha Beta\n\n- **Node ID:** 1\n- **Labels:** A, B\n\nfirst text\n\n### Node 2\n\n- **Node ID:** 2\n- **Labels:** (none)\n\nsecond',
    );
    expect(formatLookup([])).toBe(NO_RESULTS);
  });

  it('adds one Related line with direction, escaped names and how many relationships are left out', () => {
    const node = {
      dbId: 3,
      displayName: 'P',
      text: 't',
      score: 1,
      labels: ['Pathway'],
      degree: 21,
      neighbors: [
        { type: 'HAS_PART', direction: 'out' as const, dbId: 4, displayName: 'TP53', labels: ['Gene'] },
        { type: 'CITES', direction: 'in' as const, dbId: 5, displayName: 'A [paper](http://x) <b>', labels: [] },
      ],
    };
    const related = 'HAS_PART → TP53 (Gene); ← CITES A \\[paper\\](http://x) \\<b\\>; … and 19 more';
    expect(formatNeighbors(node)).toBe(related);
    expect(formatLookup([node])).toBe(`### P\n\n- **Node ID:** 3\n- **Labels:** Pathway\n- **Related:** ${related}\n\nt`);
    expect(formatNeighbors({ neighbors: [] })).toBeNull();
    expect(formatNeighbors({ neighbors: node.neighbors, degree: 2 })).not.toContain('more');
  });
});

describe('SSE helpers', () => {
  it('frames an event as id, event and one data line of JSON', () => {
    expect(sseFrame({ seq: 4, event: { type: 'tool_result', data: { tool: 't', summary: 'a\nb' } } })).toBe(
      'id: 4\nevent: tool_result\ndata: {"tool":"t","summary":"a\\nb"}\n\n',
    );
  });
  it('reads Last-Event-ID leniently', () => {
    expect(parseLastEventId('7')).toBe(7);
    expect(parseLastEventId(' 3 ')).toBe(3);
    for (const v of [undefined, null, '', '-1', 'abc', '1.5']) expect(parseLastEventId(v)).toBe(0);
  });
});
