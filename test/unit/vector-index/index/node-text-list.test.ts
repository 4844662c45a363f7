/**
 * A `TEXT_PROPERTY` holding a list of strings is text: joined as every list of strings is (items
 * trimmed, placeholders dropped, ', ' between), not silently passed over.
 */
import { describe, expect, it } from 'vitest';
import type { TextPlan } from '../../../../src/graph/text/text-plan.js';
import { composeNodeText, type NodeFields } from '../../../../src/vector-index/index/node-text.js';

const plan: TextPlan = {
  textProperty: 'text',
  only: null,
  labels: [{ label: 'Movie', nodes: 1, source: 'discovered', name: ['title'], body: ['tagline'], skipped: [] }],
};
const node = (text: unknown, props: Record<string, unknown> = {}): NodeFields => ({
  labels: ['Movie'],
  text,
  displayName: 'Heat',
  props: Object.entries(props),
});

describe('TEXT_PROPERTY as a list of strings', () => {
  it('is joined as lists are elsewhere', () => {
    expect(composeNodeText(plan, node([' one ', 'NULL', 'two']))).toEqual({ name: 'Heat', body: 'one, two' });
    // The same list under a discovered property reads the same.
    expect(composeNodeText(plan, node(null, { title: 'Heat', tagline: [' one ', 'NULL', 'two'] }))?.body).toBe('one, two');
  });

  it('a list with no text, or not of strings, leaves the node to its labels as before', () => {
    const props = { title: 'Heat', tagline: 'A crime saga' };
    expect(composeNodeText(plan, node([], props))?.body).toBe('A crime saga');
    expect(composeNodeText(plan, node(['N/A', ' '], props))?.body).toBe('A crime saga');
    expect(composeNodeText(plan, node(['a', 1], props))?.body).toBe('A crime saga');
    expect(composeNodeText(plan, node('a string', props))?.body).toBe('a string');
  });
});
