import { describe, expect, it } from 'vitest';
import { createCallMemory } from '../../../src/agent/repeats.js';

const ok = (text: string) => ({ text, summary: text, ok: true });

describe('createCallMemory', () => {
  it('knows a call by tool and arguments, whatever the order of their keys', () => {
    const m = createCallMemory();
    m.remember('graph_query', { cypher_query: 'RETURN 1', parameters: { a: 1, b: [2, { c: 3, d: 4 }] } }, 2, ok('[{"1":1}]'));
    expect(m.repeat('graph_query', { parameters: { b: [2, { d: 4, c: 3 }], a: 1 }, cypher_query: 'RETURN 1' })?.text).toMatch(
      /^This exact call \(graph_query with the same arguments\) already ran at step 2; not run again, its result is the same:\n\[\{"1":1\}\]\n/,
    );
    expect(m.repeat('graph_query', { cypher_query: 'RETURN 2' })).toBeUndefined();
    expect(m.repeat('vector_search', { cypher_query: 'RETURN 1' })).toBeUndefined();
    // Array order is part of the call.
    expect(m.repeat('graph_query', { cypher_query: 'RETURN 1', parameters: { a: 1, b: [{ c: 3, d: 4 }, 2] } })).toBeUndefined();
  });

  it('gives the result once, then only an error that tells the model to move on', () => {
    const m = createCallMemory();
    m.remember('get_node_labels', {}, 1, ok('Person, City'));
    const again = m.repeat('get_node_labels', {})!;
    expect(again.ok).toBe(true);
    expect(again.summary).toBe('same as step 1: Person, City');
    const third = m.repeat('get_node_labels', {})!;
    expect(third.ok).toBe(false);
    expect(third.text).toMatch(/^Tool error: .* sent again 2 times; .* write the answer now\.$/);
    expect(m.repeat('get_node_labels', {})!.text).toContain('sent again 3 times');
  });

  it('keeps a call that failed for what it asked, not one that failed for the moment', () => {
    const m = createCallMemory();
    const down = { text: 'Tool error: the graph database is unavailable', summary: '', ok: false, transient: true };
    m.remember('graph_query', { cypher_query: 'MATCH (n) RETURN n' }, 1, down);
    expect(m.repeat('graph_query', { cypher_query: 'MATCH (n) RETURN n' })).toBeUndefined();
    m.remember('graph_query', { cypher_query: 'MATCH (n RETURN n' }, 1, { text: 'Tool error: Invalid input', summary: '', ok: false });
    const again = m.repeat('graph_query', { cypher_query: 'MATCH (n RETURN n' })!;
    expect(again.ok).toBe(false);
    expect(again.text).toContain('its result is the same:\nTool error: Invalid input\n');
  });
});
