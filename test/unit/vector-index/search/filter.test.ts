/** The filter language's pure parts: schema bounds, the compiled Cypher, close names and candidate growth. */
import { describe, expect, it } from 'vitest';
import { SearchFilterSchema, temporalKind } from '../../../../src/contract/search-filter.js';
import { compileFilter } from '../../../../src/graph/filters/filter-cypher.js';
import { closeNames, editDistance } from '../../../../src/lib/close-names.js';
import { indexNamesIn, MAX_FILTER_CANDIDATES, nextCandidateCount, unknownFilterNames } from '../../../../src/vector-index/search/filter.js';

describe('compileFilter', () => {
  it('is null without labels or where, so the unfiltered query runs unchanged', () => {
    expect(compileFilter(undefined, undefined)).toBeNull();
    expect(compileFilter([], undefined)).toBeNull();
  });

  it('puts names and values in parameters only, never in the text', () => {
    const evil = 'x` OR true //';
    const c = compileFilter([evil], {
      and: [
        { property: evil, op: '=', value: evil },
        {
          or: [
            { property: 'year', op: '>=', value: 2000 },
            { property: evil, op: 'exists' },
          ],
        },
      ],
    })!;
    expect(c.cypher).not.toContain(evil);
    expect(c.cypher).not.toContain('2000');
    expect(c.params).toEqual({ flt_labels: [evil], flt_k0: evil, flt_v0: evil, flt_k1: 'year', flt_v1: 2000, flt_k2: evil });
    expect(c.cypher).toMatch(
      /^any\(l IN labels\(n\) WHERE l IN \$flt_labels\) AND \(\(.*\) AND \(\(.*\) OR \(n\[\$flt_k2\] IS NOT NULL\)\)\)$/s,
    );
  });

  it('compares ISO date strings as dates and date-times as instants', () => {
    expect(compileFilter(undefined, { property: 'd', op: '<', value: '2000-01-31' })!.cypher).toContain('date($flt_v0)');
    expect(compileFilter(undefined, { property: 'd', op: '<', value: '2000-01-31T10:00Z' })!.cypher).toContain('datetime($flt_v0)');
    expect(compileFilter(undefined, { property: 'd', op: '<', value: 5 })!.cypher).toBe('(n[$flt_k0] < $flt_v0)');
  });
});

describe('SearchFilterSchema', () => {
  it('accepts a condition, a group and a group of groups; refuses deeper nesting and bad values', () => {
    const ok = (v: unknown) => SearchFilterSchema.safeParse(v).success;
    expect(ok({ property: 'a', op: 'exists' })).toBe(true);
    expect(ok({ or: [{ property: 'a', op: 'in', value: [1, 'x', true] }, { and: [{ property: 'b', op: '<>', value: 'x' }] }] })).toBe(true);
    expect(ok({ and: [{ or: [{ and: [{ property: 'a', op: 'exists' }] }] }] })).toBe(false);
    expect(ok({ property: 'a', op: '>', value: true })).toBe(false);
    expect(ok({ property: 'a', op: 'in', value: [] })).toBe(false);
    expect(ok({ property: '', op: 'exists' })).toBe(false);
    expect(ok({ and: [] })).toBe(false);
  });

  it('knows real calendar days and date-times', () => {
    expect(['2000-02-29', '2001-02-29', '2000-01-01T23:59:59.5+02:00', '2000-01-01T24:00', 'x'].map(temporalKind)).toEqual([
      'date',
      null,
      'datetime',
      null,
      null,
    ]);
  });

  it('takes years 0000-0099 and zone offsets up to ±18:00, as Neo4j does, and no further', () => {
    const kinds = ['0099-01-01', '0000-02-29', '0001-02-29', '0050-06-30T12:00Z', '2000-01-01T00:00+18:00', '2000-01-01T00:00-1800'];
    expect(kinds.map(temporalKind)).toEqual(['date', 'date', null, 'datetime', 'datetime', 'datetime']);
    expect(['2000-01-01T00:00+18:30', '2000-01-01T00:00-19:00', '2000-01-01T00:00+2359'].map(temporalKind)).toEqual([null, null, null]);
  });

  /** The one message a refused filter gets. */
  const why = (v: unknown) => SearchFilterSchema.safeParse(v).error?.issues.map((i) => [i.path.join('.'), i.message]);
  const cond = { property: 'year', op: '=', value: 1 };

  it('names the limit, the operator list or the rule a refused filter breaks', () => {
    expect(why({ and: Array(21).fill(cond) })).toEqual([['', 'and: at most 20 conditions in all (got 21 items)']]);
    expect(why({ and: [{ or: Array(11).fill(cond) }, { or: Array(10).fill(cond) }] })).toEqual([
      ['', 'at most 20 conditions in all (got 21)'],
    ]);
    expect(why({ property: 'year', op: 'in', value: Array.from({ length: 101 }, (_, i) => i) })).toEqual([
      ['', 'value: op "in" takes 1..100 values (got 101)'],
    ]);
    expect(why({ or: [cond, { property: 'name', op: '=~', value: 'A.*' }] })).toEqual([
      ['', 'or.1.op: must be one of "=", "<>", "<", "<=", ">", ">=", "in", "exists" (got "=~")'],
    ]);
    expect(why({ property: 'year', op: '=', value: null })?.[0]?.[1]).toMatch(/^value: must be a string, number or boolean, not null/);
    expect(why({ property: 'd', op: '<', value: '2000-01-01T00:00+18:30' })).toEqual([
      ['value', 'zone offset +18:30 is beyond ±18:00, the largest a date-time may have'],
    ]);
    expect(why({ and: [{ or: [{ and: [cond] }] }] })).toEqual([
      ['', 'and.0.or.0: groups nest two levels at most: a group, then groups of conditions'],
    ]);
    expect(why({ and: [cond], or: [cond] })).toEqual([['', 'a group has one key, "and" or "or", and nothing else']]);
    expect(why(42)?.[0]?.[1]).toMatch(/^expected a condition .* \(got number\)$/);
  });
});

describe('close names', () => {
  it('finds case, plural and spelling variants, closest first', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    const known = ['Pathway', 'Pathways', 'Path', 'Species', 'Protein'];
    expect(closeNames('pathway', known)).toEqual(['Pathway', 'Pathways', 'Path']);
    expect(closeNames('specie', known)).toEqual(['Species']);
    expect(closeNames('Protien', known)).toEqual(['Protein']);
    expect(closeNames('Galaxy', known)).toEqual([]);
  });

  it('names every unknown label and property by its path', () => {
    const names = { labels: new Set(['Pathway']), propertyKeys: new Set(['year']) };
    const errors = unknownFilterNames({ labels: ['Pathway', 'pathways'], where: { and: [{ property: 'yaer', op: 'exists' }] } }, names);
    expect(errors.map((e) => e.path)).toEqual(['labels.1', 'where.and.0.property']);
    expect(errors[0]!.message).toBe('unknown label "pathways": the graph has no such label; close names: "Pathway"');
    expect(unknownFilterNames({ labels: ['Zzz'] }, names)[0]!.message).toContain('the graph\'s labels: "Pathway"');
  });

  it("refuses the index's own property names and never offers them, unless the graph's nodes hold a plain one", () => {
    const keys = [
      'year',
      'batchSize',
      'chunkText',
      'nameText',
      'embedding',
      'nodeId',
      'chunk',
      'batch',
      'label:Pathway',
      'prop:year',
      '__hidden',
    ];
    const names = { labels: new Set(['Pathway']), propertyKeys: new Set(keys) };
    const cond = (property: string) => ({ where: { property, op: 'exists' as const } });
    for (const p of ['chunkText', 'nameText', 'embedding', 'nodeId', 'chunk', 'batch', 'label:Pathway', 'prop:year', '__hidden']) {
      const [e] = unknownFilterNames(cond(p), names);
      expect(e?.message, p).toMatch(new RegExp(`^unknown property ${JSON.stringify(p)}: a property of the search index's own nodes`));
    }
    // A misspelling gets the graph's names only.
    expect(unknownFilterNames(cond('embeding'), names)[0]!.message).not.toContain('"embedding"');
    expect(unknownFilterNames(cond('chunkTxt'), names)[0]!.message).not.toContain('"chunkText"');
    expect(unknownFilterNames(cond('batchsize'), names)[0]!.message).toContain('close names: "batchSize"');
    expect(unknownFilterNames(cond('batchsize'), names)[0]!.message).not.toMatch(/"batch"/);
    // Held by the graph's own nodes: a plain name is theirs too; a reserved shape never is.
    const held = new Set(['batch', 'prop:year']);
    expect(unknownFilterNames(cond('batch'), names, held)).toEqual([]);
    expect(unknownFilterNames(cond('batchh'), names, held)[0]!.message).toContain('close names: "batch"');
    expect(unknownFilterNames(cond('prop:year'), names, held)).toHaveLength(1);
    expect(indexNamesIn({ where: { and: [cond('batch').where, cond('year').where, cond('batch').where, cond('__x').where] } })).toEqual([
      'batch',
    ]);
  });
});

describe('nextCandidateCount', () => {
  it('grows by the share that passed, ×2 to ×16, within the limit', () => {
    expect(nextCandidateCount(30, 5, 4, 1000)).toBe(60);
    expect(nextCandidateCount(30, 5, 1, 1000)).toBe(225);
    expect(nextCandidateCount(30, 5, 0, 1000)).toBe(480);
    expect(nextCandidateCount(30, 5, 0, 100)).toBe(100);
    expect(MAX_FILTER_CANDIDATES).toBeGreaterThanOrEqual(1000);
  });
});

describe('parseWhere (the agent and MCP tools)', () => {
  it('passes a valid filter through and names each bad field of an invalid one', async () => {
    const { parseWhere } = await import('../../../../src/tools/definitions.js');
    expect(parseWhere(undefined)).toBeUndefined();
    expect(parseWhere({ property: 'year', op: '>=', value: 2000 })).toEqual({ property: 'year', op: '>=', value: 2000 });
    expect(() => parseWhere({ and: [{ property: 'year', op: 'like', value: 1 }] })).toThrow(/^invalid filter: where/);
  });

  it('keeps the tool schema small: a plain object, the language in the description', async () => {
    const { whereField } = await import('../../../../src/tools/definitions.js');
    const { z } = await import('zod');
    expect(JSON.stringify(z.toJSONSchema(whereField, { io: 'input' })).length).toBeLessThan(1_500);
  });
});
