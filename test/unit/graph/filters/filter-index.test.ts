/**
 * The split of a search filter between a filtered vector index (`SEARCH … WHERE` over values
 * carried on chunks) and the post-filter: only what the index answers exactly as the post-filter
 * would goes into it, in the shapes Neo4j's `SEARCH … WHERE` takes (checked on 2026.09.0).
 */
import { describe, expect, it } from 'vitest';
import { splitFilter, type CarriedFields } from '../../../../src/graph/filters/filter-index.js';
import type { SearchFilter } from '../../../../src/contract/search-filter.js';
import { carriedValues, chooseCarry, inIndexOverfetch, MAX_CARRIED_PROPERTIES } from '../../../../src/vector-index/index/carry.js';
import type { TextPlan } from '../../../../src/graph/text/text-plan.js';

const carried: CarriedFields = {
  labels: new Map([
    ['Movie', 'label:Movie'],
    ['Person', 'label:Person'],
  ]),
  properties: new Map([
    ['year', 'prop:year'],
    ['genre', 'prop:genre'],
    ['tags', 'prop:tags'],
    ['released', 'prop:released'],
  ]),
  lists: new Set(['tags']),
};

const split = (labels: string[] | undefined, where?: unknown) => splitFilter(labels, where as SearchFilter | undefined, carried);

describe('splitFilter', () => {
  it('puts one carried label and exact values and ranges on carried properties into the index', () => {
    const s = split(['Movie'], {
      and: [
        { property: 'year', op: '>=', value: 1990 },
        { property: 'year', op: '<', value: 2000 },
        { property: 'genre', op: 'in', value: ['drama', 'comedy'] },
      ],
    });
    expect(s.index?.cypher).toBe(
      'c.`label:Movie` = true AND c.`prop:year` >= $idx_1 AND c.`prop:year` < $idx_2 AND c.`prop:genre` IN $idx_3',
    );
    expect(s.index?.params).toEqual({ idx_1: 1990, idx_2: 2000, idx_3: ['drama', 'comedy'] });
    expect(s.residual).toBeNull();
  });

  it('leaves to the post-filter what the index cannot answer exactly', () => {
    const post = (labels: string[] | undefined, where?: unknown) => {
      const s = split(labels, where);
      expect(s.index, JSON.stringify(where ?? labels)).toBeNull();
      expect(s.residual).not.toBeNull();
    };
    post(['Movie', 'Person']); // any of two labels: an OR
    post(['Studio']); // not carried
    post(undefined, { property: 'title', op: '=', value: 'x' }); // not carried
    post(undefined, { property: 'genre', op: '<>', value: 'x' }); // no <> in SEARCH
    post(undefined, { property: 'tags', op: '=', value: 'a' }); // a list somewhere: = means contains
    post(undefined, { property: 'tags', op: 'exists' });
    post(undefined, { property: 'released', op: '>=', value: '2000-01-01' }); // dates compare across types
    post(undefined, { property: 'released', op: '=', value: '2000-01-01' });
    post(undefined, {
      or: [
        { property: 'year', op: '=', value: 1 },
        { property: 'genre', op: '=', value: 'x' },
      ],
    });
  });

  it('keeps per property one exact value, or one lower and one upper bound; the rest goes after', () => {
    const s = split(undefined, {
      and: [
        { property: 'year', op: '>', value: 1 },
        { property: 'year', op: '>=', value: 2 },
        { property: 'genre', op: '=', value: 'a' },
        { property: 'genre', op: 'exists' },
        { property: 'tags', op: '<', value: 3 },
      ],
    });
    expect(s.index?.cypher).toBe('c.`prop:year` > $idx_0 AND c.`prop:genre` = $idx_1 AND c.`prop:tags` < $idx_2');
    expect(s.residual?.cypher).toContain('AND');
    expect(Object.values(s.residual?.params ?? {})).toEqual(['year', 2, 'genre']);
  });

  it('a one-item or is its item; nested groups stay after the index', () => {
    expect(split(undefined, { or: [{ property: 'year', op: '=', value: 3 }] }).residual).toBeNull();
    const s = split(undefined, { and: [{ property: 'year', op: '=', value: 3 }, { or: [{ property: 'genre', op: '=', value: 'a' }] }] });
    expect(s.index?.cypher).toBe('c.`prop:year` = $idx_0');
    expect(s.residual).not.toBeNull();
  });

  it('writes property names quoted: a backtick in a carried name cannot end the name', () => {
    const odd: CarriedFields = { labels: new Map(), properties: new Map([['a`b', 'prop:a`b']]), lists: new Set() };
    expect(splitFilter(undefined, { property: 'a`b', op: 'exists' }, odd).index?.cypher).toBe('c.`prop:a``b` IS NOT NULL');
  });
});

describe('carry', () => {
  const plan: TextPlan = {
    textProperty: 'text',
    only: null,
    labels: [
      {
        label: 'Movie',
        nodes: 38,
        source: 'discovered',
        name: ['title'],
        body: ['tagline'],
        skipped: [
          { property: 'released', reason: 'not a string', detail: '' },
          { property: 'imdbId', reason: 'identifier', detail: '' },
          { property: 'poster', reason: 'url', detail: '' },
        ],
      },
      {
        label: 'Order',
        nodes: 830,
        source: 'none',
        name: [],
        body: [],
        skipped: [
          { property: 'shipCountry', reason: 'repeats', detail: '' },
          { property: 'orderDate', reason: 'date', detail: '' },
          { property: '__x', reason: 'internal', detail: '' },
        ],
      },
    ],
  };

  it('carries what discovery left out as a category, number, date, boolean or code; not identifiers, URLs or internals', () => {
    expect(chooseCarry(plan, ['Movie', 'Person', '__Chunk_x'], null)).toEqual({
      labels: ['Movie', 'Person'],
      properties: ['released', 'shipCountry', 'orderDate'],
      lists: [],
    });
  });

  it('INDEX_FILTER_PROPERTIES replaces discovery, up to the limit', () => {
    const many = Array.from({ length: 40 }, (_, i) => `p${i}`);
    expect(chooseCarry(plan, [], ['year']).properties).toEqual(['year']);
    expect(chooseCarry(plan, [], many).properties).toHaveLength(MAX_CARRIED_PROPERTIES);
  });

  it("a node's carried values: flags for its carried labels, scalars copied, lists and long strings noted", () => {
    const lists = new Set<string>();
    const carry = { labels: ['Movie'], properties: ['year', 'tags', 'plot'], lists: [] };
    expect(
      carriedValues(
        carry,
        ['Movie', 'Other'],
        [
          ['year', 1999],
          ['tags', ['a']],
        ],
        lists,
      ),
    ).toEqual({ 'label:Movie': true, 'prop:year': 1999 });
    expect([...lists]).toEqual(['tags']);
  });

  it('asks a filtering index for 1.5 × its chunks per node per wanted node, from 2 up to the unfiltered over-fetch', () => {
    expect(inIndexOverfetch({ chunksPerNode: 1 }, 6)).toBe(2);
    expect(inIndexOverfetch({ chunksPerNode: 1.4 }, 6)).toBe(3);
    expect(inIndexOverfetch({ chunksPerNode: 13 }, 6)).toBe(6);
    expect(inIndexOverfetch({ chunksPerNode: 13 }, 4)).toBe(4);
    expect(inIndexOverfetch({}, 6)).toBe(6);
  });
});
