/** Bounded text (DECISIONS.md 27): code points counted and never split, the cut's marker, a search row's text and a job's stored sources under the bound. */
import { describe, expect, it } from 'vitest';
import type { LabelPlan, TextPlan } from '../../../../src/graph/text/text-plan.js';
import { boundSources } from '../../../../src/chat/run-job.js';
import { loadConfig } from '../../../../src/config.js';
import { boundText, codePointLength, codePointPrefix, thousands } from '../../../../src/lib/text.js';
import { hitText, nodePath } from '../../../../src/vector-index/search/result-text.js';

const SMILE = '\u{1F600}'; // two UTF-16 units, one code point

describe('code points', () => {
  it('counts a surrogate pair as one character, a lone surrogate as one', () => {
    expect(codePointLength('abc')).toBe(3);
    expect(codePointLength(`a${SMILE}b`)).toBe(3);
    expect(codePointLength(SMILE.repeat(4))).toBe(4);
    expect(codePointLength('\uD83D')).toBe(1);
    expect(codePointLength('\uDE00\uD83D')).toBe(2);
  });

  it('keeps a prefix of whole code points', () => {
    expect(codePointPrefix(`ab${SMILE}cd`, 3)).toBe(`ab${SMILE}`);
    expect(codePointPrefix(`ab${SMILE}cd`, 2)).toBe('ab');
    expect(codePointPrefix(SMILE.repeat(3), 2)).toBe(SMILE.repeat(2));
    expect(codePointPrefix('abc', 10)).toBe('abc');
    // Long texts: with and without a pair past the cut.
    expect(codePointPrefix('x'.repeat(5000), 4000)).toBe('x'.repeat(4000));
    expect(codePointPrefix(`${'x'.repeat(3999)}${SMILE}${'x'.repeat(1000)}`, 4000)).toBe(`${'x'.repeat(3999)}${SMILE}`);
    expect(codePointLength(`${'x'.repeat(3000)}${SMILE}\uD83D${SMILE}`)).toBe(3003);
  });

  it('writes counts with commas between thousands, as en-US does', () => {
    for (const n of [0, 7, 999, 1000, 12_345, 1_234_567, -4321]) expect(thousands(n)).toBe(n.toLocaleString('en-US'));
  });
});

describe('boundText', () => {
  it('leaves a text within the bound as it is', () => {
    expect(boundText('short', 200)).toBe('short');
    expect(boundText('x'.repeat(200), 200)).toBe('x'.repeat(200));
  });

  it('cuts a longer text to the bound, marker included, saying how much is left out and where the rest is', () => {
    const text = 'y'.repeat(5_242_880);
    const cut = boundText(text, 4_000, { rest: '/graph/node?id=42' });
    expect(codePointLength(cut)).toBeLessThanOrEqual(4_000);
    expect(cut).toMatch(/^y+… \[cut: [\d,]+ more characters; the node: \/graph\/node\?id=42\]$/);
    const kept = cut.indexOf('…');
    const more = Number(/cut: ([\d,]+)/.exec(cut)![1]!.replace(/,/g, ''));
    expect(kept + more).toBe(5_242_880);
    expect(cut).toContain('5,238,9'); // thousands separated
  });

  it('never splits a surrogate pair and counts characters, not UTF-16 units', () => {
    const text = SMILE.repeat(1_000);
    const cut = boundText(text, 300);
    expect(codePointLength(cut)).toBeLessThanOrEqual(300);
    const body = cut.slice(0, cut.indexOf('…'));
    expect(body).toBe(SMILE.repeat(codePointLength(body)));
    expect(Number(/cut: ([\d,]+)/.exec(cut)![1]!.replace(/,/g, '')) + codePointLength(body)).toBe(1_000);
    // 300 emoji are 300 characters: within the bound, whole.
    expect(boundText(SMILE.repeat(300), 300)).toBe(SMILE.repeat(300));
  });

  it('marks a text the database already cut, even when it fits, and counts those characters too', () => {
    const cut = boundText('abc', 200, { omitted: 1_000 });
    expect(cut).toBe('abc… [cut: 1,000 more characters]');
  });

  it('is idempotent: bounding a bounded text changes nothing', () => {
    const once = boundText('z'.repeat(10_000), 500, { rest: '/graph/node?id=1' });
    expect(boundText(once, 500)).toBe(once);
  });
});

describe('hitText', () => {
  const label = (l: Partial<LabelPlan> & Pick<LabelPlan, 'label' | 'source'>): LabelPlan => ({
    nodes: 1,
    name: [],
    body: [],
    skipped: [],
    ...l,
  });
  const plan: TextPlan = {
    textProperty: 'text',
    only: null,
    labels: [label({ label: 'Doc', source: 'explicit', name: ['title'], body: ['summary', 'notes', 'tags'] })],
  };
  const row = (cols: Record<string, unknown>) => (k: string) =>
    ({ labels: ['Doc'], dbId: 7, nameFields: [['title', 'shown']], text: null, textSize: null, props: [], ...cols })[k];

  it('returns a short text whole', () => {
    const get = row({
      props: [
        ['title', 'T', 1],
        ['summary', 'A short summary.', 16],
      ],
    });
    expect(hitText(plan, get, 200, nodePath(7, 'neo4j', 'neo4j'))).toBe('A short summary.');
  });

  it('counts what the database left out of the values the text holds', () => {
    // `summary` arrived cut to 300 of 5,000,000 characters; `notes` is whole.
    const get = row({
      props: [
        ['title', 'T', 1],
        ['summary', 's'.repeat(300), 5_000_000],
        ['notes', 'n'.repeat(50), 50],
      ],
    });
    const cut = hitText(plan, get, 300, nodePath(7, 'neo4j', 'neo4j'));
    expect(codePointLength(cut)).toBeLessThanOrEqual(300);
    const kept = cut.indexOf('…');
    const more = Number(/cut: ([\d,]+)/.exec(cut)![1]!.replace(/,/g, ''));
    // The whole text: 5,000,000 + '\n' + 50.
    expect(kept + more).toBe(5_000_051);
    expect(cut).toMatch(/the node: \/graph\/node\?id=7\]$/);
  });

  it('counts a cut list of strings as joined, and the seed property when the text is it', () => {
    const list = row({
      props: [
        ['title', 'T', 1],
        ['tags', ['a'.repeat(150), 'b'.repeat(150)], 10_000],
      ],
    });
    const cut = hitText(plan, list, 250, '/graph/node?id=1');
    expect(cut.indexOf('…') + Number(/cut: ([\d,]+)/.exec(cut)![1]!.replace(/,/g, ''))).toBe(10_000);
    const seed: TextPlan = { textProperty: 'text', only: null, labels: [] };
    const own = row({ labels: ['Other'], text: 'q'.repeat(250), textSize: 1_000_000 });
    const cutSeed = hitText(seed, own, 250, '/graph/node?id=1');
    expect(cutSeed.indexOf('…') + Number(/cut: ([\d,]+)/.exec(cutSeed)![1]!.replace(/,/g, ''))).toBe(1_000_000);
  });

  it('ignores a cut value the text does not use', () => {
    // The seed property is huge, but an explicit plan reads other properties: nothing is cut.
    const get = row({
      text: 'q'.repeat(250),
      textSize: 1_000_000,
      props: [
        ['title', 'T', 1],
        ['summary', 'Whole.', 6],
      ],
    });
    expect(hitText(plan, get, 250, '/graph/node?id=1')).toBe('Whole.');
  });

  it('names the graph in the path when it is not the default', () => {
    expect(nodePath(3, 'neo4j', 'neo4j')).toBe('/graph/node?id=3');
    expect(nodePath(3, 'other db', 'neo4j')).toBe('/graph/node?graph_name=other%20db&id=3');
  });
});

describe('boundSources', () => {
  const source = (text: string) => ({ dbId: 1, displayName: 'n', text, score: 1, labels: ['L'] });

  it("cuts a handler's over-long source and keeps bounded ones as they are", () => {
    const short = source('short');
    const searched = source(boundText('s'.repeat(9_000), 300, { rest: '/graph/node?id=1' }));
    const [a, b, c] = boundSources([short, searched, source('x'.repeat(1_000_000))], 300);
    expect(a).toBe(short);
    expect(b).toBe(searched);
    expect(codePointLength(c!.text)).toBeLessThanOrEqual(300);
    expect(c!.text).toMatch(/… \[cut: [\d,]+ more characters\]$/);
  });
});

describe('SEARCH_TEXT_MAX_CHARS', () => {
  it('defaults to 4,000 and refuses a bound with no room for text and marker, or none at all', () => {
    expect(loadConfig({}).SEARCH_TEXT_MAX_CHARS).toBe(4_000);
    expect(loadConfig({ SEARCH_TEXT_MAX_CHARS: '200' }).SEARCH_TEXT_MAX_CHARS).toBe(200);
    for (const bad of ['199', '100001', '4k', '-1'])
      expect(() => loadConfig({ SEARCH_TEXT_MAX_CHARS: bad })).toThrow(/SEARCH_TEXT_MAX_CHARS/);
  });
});
