/**
 * How a search is planned, without a database (src/vector-index/search/plan.ts): the mode that
 * runs for what the query has, the lists of the first round, the fallback, where a filter
 * applies, and when a filtered search widens or stops.
 */
import { describe, expect, it } from 'vitest';
import { compileFilter } from '../../../../src/graph/filters/filter-cypher.js';
import type { CarryPlan } from '../../../../src/vector-index/index/carry.js';
import { MAX_FILTER_CANDIDATES } from '../../../../src/vector-index/search/filter.js';
import {
  applyFilter,
  carriedFields,
  filterPath,
  firstLists,
  LIST_OVERFETCH,
  MIN_NAMES,
  NAMES_OVERFETCH,
  namesCount,
  OVERFETCH,
  planSearch,
  queryForms,
  roundSuffices,
  runnableMode,
  widen,
} from '../../../../src/vector-index/search/plan.js';

const carry: CarryPlan = { labels: ['Pathway'], properties: ['species'], lists: [], chunksPerNode: 2 };

describe('namesCount', () => {
  it("asks the names' index for topK × NAMES_OVERFETCH unfiltered, at least MIN_NAMES, never more than the texts' k", () => {
    expect(namesCount({ k: 60, kf: 40 }, 10, false)).toBe(Math.max(MIN_NAMES, 10 * NAMES_OVERFETCH));
    expect(namesCount({ k: 60, kf: 40 }, 10, false)).toBeLessThan(60);
    expect(namesCount({ k: 300, kf: 200 }, 50, false)).toBe(50 * NAMES_OVERFETCH);
    expect(namesCount({ k: 6, kf: 4 }, 1, false)).toBe(6);
  });

  it('asks it for k when filtered, so that a full names list widens the rounds as a full texts list does', () => {
    expect(namesCount({ k: 500, kf: 40 }, 10, true)).toBe(500);
  });
});

describe('queryForms', () => {
  it('a full-text query without an indexable word is searched by meaning', () => {
    expect(queryForms('?? !!', 'fulltext')).toEqual({ mode: 'vector', q: null, embed: true });
    expect(queryForms('insulin', 'fulltext')).toMatchObject({ mode: 'fulltext', embed: false });
  });
  it('vector mode makes no Lucene query; hybrid makes both', () => {
    expect(queryForms('insulin', 'vector')).toEqual({ mode: 'vector', q: null, embed: true });
    expect(queryForms('insulin', 'hybrid')).toMatchObject({ mode: 'hybrid', embed: true });
    expect(queryForms('insulin', 'hybrid').q).toContain('insulin');
  });
});

describe('runnableMode', () => {
  it('hybrid with one list is that list’s mode; a mode without its input runs nothing', () => {
    expect(runnableMode('hybrid', true, true)).toBe('hybrid');
    expect(runnableMode('hybrid', false, true)).toBe('fulltext');
    expect(runnableMode('hybrid', true, false)).toBe('vector');
    expect(runnableMode('hybrid', false, false)).toBeNull();
    expect(runnableMode('vector', false, false)).toBeNull();
    expect(runnableMode('fulltext', false, true)).toBe('fulltext');
  });
});

describe('planSearch', () => {
  const forms = queryForms('insulin signalling', 'hybrid');
  it('asks each list for top_k × the mode’s over-fetch, and falls back from hybrid to vector', () => {
    expect(planSearch({ forms, hasVector: true, topK: 5, filter: null })).toEqual({
      mode: 'hybrid',
      lists: { k: 5 * LIST_OVERFETCH, kf: 5 * LIST_OVERFETCH },
      filter: null,
      fallback: 'vector',
    });
    const vector = planSearch({ forms: queryForms('insulin', 'vector'), hasVector: true, topK: 5, filter: null });
    expect(vector).toMatchObject({ mode: 'vector', lists: { k: 5 * OVERFETCH }, fallback: null });
    expect(planSearch({ forms: queryForms('insulin', 'vector'), hasVector: true, topK: 5, overfetch: 2, filter: null }).lists.k).toBe(10);
  });
  it('a query without a vector plans the full-text list alone, or nothing', () => {
    expect(planSearch({ forms, hasVector: false, topK: 3, filter: null })).toMatchObject({ mode: 'fulltext', fallback: null });
    expect(planSearch({ forms: queryForms('x', 'vector'), hasVector: false, topK: 3, filter: null }).mode).toBeNull();
  });
  it('starts from the lists a filter needed last time, capped', () => {
    const filter = applyFilter(compileFilter(['Pathway'], undefined)!, null, ['Pathway'], undefined);
    const plan = planSearch({ forms, hasVector: true, topK: 10, filter, remembered: { k: 50, kf: 2 } });
    expect(plan.lists).toEqual({ k: 500, kf: 10 * LIST_OVERFETCH });
    const huge = planSearch({ forms, hasVector: true, topK: 10, filter, remembered: { k: 1e6, kf: 1e6 } });
    expect(huge.lists).toEqual({ k: MAX_FILTER_CANDIDATES, kf: MAX_FILTER_CANDIDATES });
  });
});

describe('filters', () => {
  it('goes into the index where the chunks carry its values, after it otherwise', () => {
    const compiled = compileFilter(['Pathway'], undefined)!;
    const post = applyFilter(compiled, null, ['Pathway'], undefined);
    expect(filterPath(post)).toBe('post');
    const inIndex = applyFilter(compiled, { carry, fields: carriedFields(carry) }, ['Pathway'], undefined);
    expect(filterPath(inIndex)).toBe('index');
    expect(inIndex.carry).toBe(carry);
    // Fewer hits suffice when the index applies the filter.
    expect(firstLists('vector', 10, OVERFETCH, carry).k).toBeLessThan(firstLists('vector', 10).k);
  });
  it('a round is the last when enough passed or the index had no more; else the lists grow to the limit', () => {
    const post = applyFilter(compileFilter(['Pathway'], undefined)!, null, ['Pathway'], undefined);
    const inIndex = applyFilter(compileFilter(['Pathway'], undefined)!, { carry, fields: carriedFields(carry) }, ['Pathway'], undefined);
    const lists = { k: 60, kf: 40 };
    expect(roundSuffices(post, 10, { lists, found: 10, chunkHits: null })).toBe(true);
    expect(roundSuffices(post, 10, { lists, found: 3, chunkHits: 12 })).toBe(false);
    expect(roundSuffices(inIndex, 10, { lists, found: 3, chunkHits: 12 })).toBe(true);
    const next = widen({ lists, found: 3, chunkHits: null }, 10, 5_000)!;
    expect(next.k).toBeGreaterThan(lists.k);
    expect(next.kf).toBeGreaterThan(lists.kf);
    expect(widen({ lists: { k: 300, kf: 300 }, found: 0, chunkHits: null }, 10, 300)).toBeNull();
  });
});
