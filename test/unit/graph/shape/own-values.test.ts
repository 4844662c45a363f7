/** A node's own values as a lookup answer shows them, and its relationships counted by type (issue 49): pure rules. */
import neo4j from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import { formatCounts, formatFacts, formatLookup } from '../../../../src/chat/lookup.js';
import {
  chooseFacts,
  countRelationships,
  FACT_STRING_CHARS,
  FACTS_LINE_CHARS,
  factText,
  factValue,
  MAX_COUNTED_TYPES,
  MAX_FACTS,
} from '../../../../src/graph/shape/own-values.js';

const keys = (props: [string, unknown][], ctx = {}) => chooseFacts(props, ctx).map((f) => f.key);

describe('chooseFacts', () => {
  it("keeps a film's year and a product's price, converting the driver's integers", () => {
    expect(chooseFacts([['released', neo4j.int(1999)]])).toEqual([{ key: 'released', value: 1999 }]);
    expect(
      chooseFacts([
        ['unitPrice', 18.5],
        ['discontinued', false],
      ]),
    ).toEqual([
      { key: 'discontinued', value: false },
      { key: 'unitPrice', value: 18.5 },
    ]);
  });

  it('leaves out identifiers, codes, links, phone numbers and internals by key, whatever they hold', () => {
    const props: [string, unknown][] = [
      ['productID', '11'],
      ['dbId', neo4j.int(5)],
      ['postalCode', '12209'],
      ['homePage', 'Mayumi (on the World Wide Web)'],
      ['phone', '030-0074321'],
      ['__sig', 'x'],
      ['born', neo4j.int(1964)],
    ];
    expect(keys(props)).toEqual(['born']);
  });

  it('leaves out placeholders, blobs, URLs, identifier-like tokens, long strings, long lists and other types', () => {
    const props: [string, unknown][] = [
      ['region', 'NULL'],
      ['fax', ''],
      ['shipRegion', ' n/a '],
      ['picture', `0x${'0A1B'.repeat(40)}`],
      ['token', 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0MTIzNDU2Nzg5MA=='],
      ['site', 'https://example.com/a'],
      ['ref', 'ALFKI'],
      ['notes', 'x'.repeat(FACT_STRING_CHARS + 1)],
      ['genres', ['a', 'b', 'c', 'd', 'e', 'f']],
      ['location', new neo4j.types.Point(7203, 1, 2)],
      ['weights', [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]],
      ['nan', Number.NaN],
      ['country', 'UK'],
    ];
    expect(keys(props)).toEqual(['country']);
  });

  it('writes dates without a midnight time, temporal values as ISO text, and keeps numbers stored as strings as written', () => {
    const facts = chooseFacts([
      ['orderDate', '1996-07-04 00:00:00.000'],
      ['shippedAt', '1996-07-16 10:30:00'],
      ['hired', new neo4j.types.Date(1992, 5, 1)],
      ['freight', '32.38'],
      ['shipVia', '3'],
      ['tags', ['Drama', 'Crime']],
    ]);
    expect(facts).toEqual([
      { key: 'freight', value: '32.38' },
      { key: 'hired', value: '1992-05-01' },
      { key: 'orderDate', value: '1996-07-04' },
      { key: 'shipVia', value: '3' },
      { key: 'shippedAt', value: '1996-07-16 10:30:00' },
      { key: 'tags', value: 'Drama, Crime' },
    ]);
    expect(factValue(new neo4j.types.LocalDateTime(1996, 7, 4, 0, 0, 0, 0))).toEqual({ value: '1996-07-04', rank: 2 });
  });

  it('orders numbers, dates and flags before lists and plain strings, then by key (in code units: `shipVia` before `shippedAt`)', () => {
    expect(
      keys([
        ['city', 'Berlin'],
        ['tags', ['x']],
        ['born', 1964],
        ['active', true],
      ]),
    ).toEqual(['active', 'born', 'tags', 'city']);
  });

  it("follows the first view's order where it is given, the keys it does not list after", () => {
    const props: [string, unknown][] = [
      ['born', 1964],
      ['city', 'Berlin'],
      ['country', 'Germany'],
      ['age', 3],
    ];
    expect(keys(props, { order: ['country', 'city'] })).toEqual(['country', 'city', 'age', 'born']);
  });

  it('leaves out strings the name or the text already shows, as whole words, but never numbers', () => {
    const props: [string, unknown][] = [
      ['firstName', 'Nancy'],
      ['lastName', 'Davolio'],
      ['country', 'UK'],
      ['city', 'Seattle'],
      ['released', 1999],
      ['year', '1999'],
    ];
    const ctx = { displayName: 'Nancy Davolio', text: 'Lives in Seattle; studied in Ukraine. Born 1999.' };
    expect(keys(props, ctx)).toEqual(['released', 'year', 'country']);
  });

  it(`shows at most ${MAX_FACTS} values in at most ${FACTS_LINE_CHARS} characters, skipping one that does not fit for a shorter one`, () => {
    const many: [string, unknown][] = Array.from({ length: 20 }, (_, i) => [`n${String(i).padStart(2, '0')}`, i]);
    expect(keys(many)).toHaveLength(MAX_FACTS);
    const wide: [string, unknown][] = [
      ...Array.from({ length: 4 }, (_, i): [string, unknown] => [`s${i}`, `${'word '.repeat(11)}${i}`]),
      ['z', 'short'],
    ];
    const facts = chooseFacts(wide);
    expect(facts.map(factText).join('; ').length).toBeLessThanOrEqual(FACTS_LINE_CHARS);
    expect(facts.map((f) => f.key)).toEqual(['s0', 's1', 's2', 'z']);
  });
});

describe('countRelationships', () => {
  const groups = [
    { type: 'PART_OF', out: false, label: 'Product', count: 11 },
    { type: 'PART_OF', out: false, label: 'Item', count: 1 },
    { type: 'SUPPLIES', out: false, label: 'Supplier', count: 1 },
    { type: 'ORDERS', out: true, label: 'Product', count: 3 },
  ];

  it('sums by type and direction, most common first, labels most seen first', () => {
    expect(countRelationships(groups)).toEqual([
      { type: 'PART_OF', direction: 'in', count: 12, labels: ['Product', 'Item'] },
      { type: 'ORDERS', direction: 'out', count: 3, labels: ['Product'] },
      { type: 'SUPPLIES', direction: 'in', count: 1, labels: ['Supplier'] },
    ]);
  });

  it("takes the count store's exact counts over the scan's, adds types the scan missed and drops zeros", () => {
    const exact = new Map([
      ['<PART_OF', 12_000],
      ['>LISTED_IN', 2],
      ['<SUPPLIES', 1],
      ['>ORDERS', 3],
      ['>NEVER', 0],
    ]);
    expect(countRelationships(groups, exact).map((c) => [c.type, c.count, c.labels])).toEqual([
      ['PART_OF', 12_000, ['Product', 'Item']],
      ['ORDERS', 3, ['Product']],
      ['LISTED_IN', 2, []],
      ['SUPPLIES', 1, ['Supplier']],
    ]);
  });

  it(`keeps at most ${MAX_COUNTED_TYPES} types`, () => {
    const wide = Array.from({ length: 12 }, (_, i) => ({ type: `T${i}`, out: true, label: null, count: i + 1 }));
    const counts = countRelationships(wide);
    expect(counts).toHaveLength(MAX_COUNTED_TYPES);
    expect(counts[0]).toEqual({ type: 'T11', direction: 'out', count: 12, labels: [] });
  });
});

describe('the lookup Markdown with facts and counts', () => {
  it('adds a Facts line before Related and a line of counts after it, data escaped; none without them', () => {
    const node = {
      dbId: 7,
      displayName: 'Beverages',
      text: 'Soft drinks',
      score: 1,
      labels: ['Category'],
      facts: [
        { key: 'note', value: '*bold* <b>' },
        { key: 'active', value: true },
      ],
      neighbors: [{ type: 'PART_OF', direction: 'in' as const, dbId: 1, displayName: 'Chai', labels: ['Product'] }],
      degree: 13,
      relationshipCounts: [
        { type: 'PART_OF', direction: 'in' as const, count: 12, labels: ['Product'] },
        { type: 'LISTED_IN', direction: 'out' as const, count: 1_200, labels: [] },
      ],
    };
    expect(formatFacts(node.facts)).toBe('note: \\*bold\\* \\<b\\>; active: true');
    expect(formatCounts(node.relationshipCounts)).toBe('PART_OF ← 12 Product; LISTED_IN → 1,200');
    expect(formatLookup([node])).toBe(
      '### Beverages\n\n- **Node ID:** 7\n- **Labels:** Category\n- **Facts:** note: \\*bold\\* \\<b\\>; active: true\n' +
        '- **Related:** ← PART_OF Chai (Product); … and 12 more\n- **Relationships by type:** PART_OF ← 12 Product; LISTED_IN → 1,200\n\nSoft drinks',
    );
    expect(formatFacts([])).toBeNull();
    expect(formatCounts(undefined)).toBeNull();
  });
});
