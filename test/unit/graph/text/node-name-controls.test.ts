/**
 * A node's name never holds a control character: NUL, C1 controls and the invisible direction
 * controls (overrides, isolates, marks) are dropped, line breaks and tabs become spaces, and
 * letters of every script, right-to-left ones included, stay.
 */
import { describe, expect, it } from 'vitest';
import { displayName, nodeName } from '../../../../src/graph/text/node-name.js';
import { joinName, nameValue } from '../../../../src/graph/text/text-rules.js';
import { dropControls } from '../../../../src/lib/invisible.js';
import { composeNodeText } from '../../../../src/vector-index/index/node-text.js';

const f = (props: Record<string, unknown>) => Object.entries(props);
const CONTROLS = /[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

describe('names without controls', () => {
  it('dropControls drops NUL, C1 and direction controls, and makes breaks spaces', () => {
    expect(dropControls('a\u0000b\u0085c\u009Bd\u007Fe')).toBe('ab cde');
    expect(dropControls('evil\u202Etxt\u202C.exe \u2066x\u2069 \u200Ey\u200F \u061Cz')).toBe('eviltxt.exe x y z');
    expect(dropControls('line\none\ttab\r\nend\u2028sep')).toBe('line one tab  end sep');
    expect(dropControls('שלום عالم Émile 東京')).toBe('שלום عالم Émile 東京');
  });

  it('nameValue and joinName give names without them', () => {
    expect(nameValue('nul\u0000byte')).toBe('nulbyte');
    expect(nameValue('שלום \u200F\u202Eeman')).toBe('שלום eman');
    expect(nameValue('\u202E\u0000 ')).toBeNull();
    expect(nameValue('\u202EN/A')).toBeNull();
    expect(nameValue('two\nlines')).toBe('two lines');
    expect(joinName(['Ada\u202E', '\u2066Lovelace'])).toBe('Ada Lovelace');
  });

  it('a displayed name holds none, by any rule or fallback', () => {
    const shown = [
      displayName([], ['Person'], f({ name: 'Ada\u0000 \u202ELovelace' }), 1),
      displayName([{ label: 'Person', keys: ['given', 'family'] }], ['Person'], f({ given: 'Ada\u200F', family: 'Byron\u0085' }), 1),
      displayName([], ['Order\u202E'], f({ orderID: '10248\u2066' }), 2),
      displayName([], ['Thing\u0000'], f({}), 3),
      displayName([], ['\u202E'], f({}), 4),
      nodeName([], ['Movie'], f({ title: 'Heat\u202E\u0000' })),
    ];
    expect(shown).toEqual(['Ada Lovelace', 'Ada Byron', 'Order 10248', 'Thing #3', 'Node #4', 'Heat']);
    for (const name of shown) expect(CONTROLS.test(name)).toBe(false);
  });

  it("the chunks' header name holds none", () => {
    const plan = {
      textProperty: 'text',
      only: null,
      labels: [{ label: 'Doc', nodes: 1, source: 'discovered' as const, name: ['title'], body: ['summary'], skipped: [] }],
    };
    const node = { labels: ['Doc'], text: null, displayName: '', props: f({ title: 'Report\u202E\u0000 2024', summary: 'about it' }) };
    expect(composeNodeText(plan, node)?.name).toBe('Report 2024');
  });
});
