/**
 * Value notices without a database: the comparisons read from Cypher, and the checks against
 * hand-made samples (Northwind's strings for numbers and dates, movies' integers, countries).
 */
import { describe, expect, it, vi } from 'vitest';
import { readComparisons } from '../../../../src/graph/cypher/cypher-comparisons.js';
import {
  temporalHint,
  looksEmpty,
  missingStrings,
  notFound,
  stringKind,
  typeMismatch,
  valueDistance,
  valueNotices,
} from '../../../../src/graph/cypher/value-notices.js';
import type { SampledValue, ValueSample, ValueSampler } from '../../../../src/graph/cypher/value-samples.js';

const s = (type: string, ...values: Array<string | number>): ValueSample => ({
  items: values.length,
  complete: true,
  distinct: values.length,
  values: values.map((value): SampledValue => ({ value, type, count: 1 })),
});
const one = (cypher: string, params = {}) => {
  const all = readComparisons(cypher, params);
  expect(all).toHaveLength(1);
  return all[0]!;
};

describe('readComparisons', () => {
  it('reads map patterns of nodes and relationships, with and without a variable', () => {
    expect(readComparisons("MATCH (c:Customer {country: 'United Kingdom', city: $city}) RETURN c", { city: 'London' })).toEqual([
      expect.objectContaining({
        owner: { labels: ['Customer'] },
        variable: 'c',
        property: 'country',
        operator: '=',
        value: { kind: 'string', value: 'United Kingdom' },
      }),
      expect.objectContaining({ property: 'city', value: { kind: 'string', value: 'London' } }),
    ]);
    expect(one("MATCH (:Movie {released: '1999'}) RETURN 1")).toMatchObject({
      owner: { labels: ['Movie'] },
      property: 'released',
      subject: 'movie.released',
    });
    expect(one('MATCH ()-[r:ORDERS {discount: 0}]->() RETURN r')).toMatchObject({
      owner: { type: 'ORDERS' },
      value: { kind: 'number', value: 0 },
    });
  });

  it('reads WHERE comparisons both ways, wrapped properties, temporal values, lists and parameters', () => {
    expect(one('MATCH (o:Order) WHERE o.freight > 100 RETURN count(o)')).toMatchObject({
      property: 'freight',
      operator: '>',
      value: { kind: 'number', value: 100 },
    });
    expect(one('MATCH (o:Order) WHERE 100 < o.freight RETURN o')).toMatchObject({ operator: '>', subject: 'o.freight' });
    expect(one("MATCH (p:Person) WHERE toLower(p.name) = 'keanu reeves' RETURN p")).toMatchObject({
      wrapper: 'tolower',
      subject: 'toLower(p.name)',
    });
    expect(one("MATCH (o:Order) WHERE date(o.orderDate) > date('1997-01-01') RETURN o")).toMatchObject({
      wrapper: 'date',
      value: { kind: 'temporal', fn: 'date', text: '1997-01-01' },
    });
    expect(one("MATCH (m:Movie) WHERE m.title IN ['A', $b] RETURN m", { b: 'B' }).value).toEqual({
      kind: 'list',
      items: [
        { kind: 'string', value: 'A' },
        { kind: 'string', value: 'B' },
      ],
    });
    expect(one('MATCH (p:Person) WHERE p.name = $x RETURN p', {}).value).toEqual({ kind: 'unknown' });
    expect(one("MATCH (p:Person) WHERE p.name STARTS WITH 'tom' RETURN p").operator).toBe('STARTS WITH');
    // Labels from another pattern; a relationship variable's type.
    expect(one("MATCH (p:Person) MATCH (p)-[r:REVIEWED]->(m) WHERE r.rating > '50' RETURN p")).toMatchObject({
      owner: { type: 'REVIEWED' },
    });
  });

  it('leaves out what it cannot read: unlabelled nodes, expressions, property-to-property', () => {
    expect(readComparisons("MATCH (n) WHERE n.name = 'x' RETURN n")).toEqual([]);
    expect(readComparisons('MATCH (a:A), (b:B) WHERE a.x = b.y RETURN a')).toEqual([]);
    expect(readComparisons("MATCH (a:A) WHERE a.x =~ '(?i)x' RETURN a")).toEqual([]);
    expect(readComparisons("MATCH (a:A) // a.x = 'no'\nRETURN a.name = 'it\\'s'")).toEqual([expect.objectContaining({ property: 'name' })]);
  });
});

describe('typeMismatch', () => {
  const freight = s('STRING', '32.38', '11.61', '65.83');
  it('says numbers are held as strings, with the conversion', () => {
    const n = typeMismatch(one('MATCH (o:Order) WHERE o.freight > 100 RETURN count(o)'), freight)!;
    expect(n).toMatchObject({ kind: 'value-type-mismatch', suggestions: ['toFloat(o.freight) > 100'], explainsEmpty: true });
    expect(n.message).toBe('Order.freight holds numbers as STRING (e.g. "32.38"): compare toFloat(o.freight) > 100');
  });
  it('says an integer property is not a string', () => {
    const n = typeMismatch(one("MATCH (m:Movie {released: '1999'}) RETURN m"), s('INTEGER', 1999, 2003))!;
    expect(n.message).toBe('Movie.released holds INTEGER (e.g. 1999), not strings: compare m.released = 1999');
  });
  it('says dates are held as strings, with date(left(…)) and the string comparison', () => {
    const n = typeMismatch(
      one("MATCH (o:Order) WHERE o.orderDate > date('1997-01-01') RETURN o"),
      s('STRING', '1996-07-04 00:00:00.000', '1996-07-05 00:00:00.000'),
    )!;
    expect(n.suggestions).toEqual(["date(left(o.orderDate, 10)) > date('1997-01-01')"]);
    expect(n.message).toContain('or compare the strings: o.orderDate > "1997-01-01"');
  });
  it('tells a list property to use IN', () => {
    const n = typeMismatch(one("MATCH ()-[r:ACTED_IN {roles: 'Neo'}]->() RETURN r"), s('LIST<STRING>', '["Neo"]'))!;
    expect(n.suggestions).toEqual(["'Neo' IN r.roles"]);
  });
  it('says nothing when the types agree or the query converts already', () => {
    expect(typeMismatch(one('MATCH (o:Order) WHERE toFloat(o.freight) > 100 RETURN o'), freight)).toBeNull();
    expect(typeMismatch(one('MATCH (m:Movie) WHERE m.released > 1999.5 RETURN m'), s('INTEGER', 1999))).toBeNull();
    expect(typeMismatch(one("MATCH (m:Movie) WHERE m.title = 'x' RETURN m"), s('STRING', 'y'))).toBeNull();
  });
  it('knows what strings look like', () => {
    expect(stringKind(s('STRING', '1', '22', 'NULL').values)).toBe('integer');
    expect(stringKind(s('STRING', '0', '1').values)).toBe('boolean');
    expect(stringKind(s('STRING', '1996-07-04 00:00:00.000').values)).toBe('date');
    expect(stringKind(s('STRING', 'UK').values)).toBeUndefined();
  });
});

describe('value-not-found', () => {
  const countries = s('STRING', 'USA', 'Germany', 'France', 'UK', 'Brazil');
  it('names the value a country goes by, by its initials', () => {
    const c = one("MATCH (c:Customer {country: 'United Kingdom'}) RETURN c");
    const missing = missingStrings(c, countries)!;
    expect(missing).toEqual(['United Kingdom']);
    expect(notFound(c, countries, missing).message).toBe('no Customer has country "United Kingdom"; closest: "UK"');
  });
  it('names near-misses and case slips', () => {
    const people = s('STRING', 'Keanu Reeves', 'Tom Hanks', 'Tom Cruise');
    const c = one("MATCH (p:Person {name: 'Tom Hank'}) RETURN p");
    expect(notFound(c, people, missingStrings(c, people)!).suggestions?.[0]).toBe('Tom Hanks');
    const lower = one("MATCH (p:Person) WHERE p.name = 'keanu reeves' RETURN p");
    const n = notFound(lower, people, missingStrings(lower, people)!);
    expect(n.suggestions?.[0]).toBe('Keanu Reeves');
    expect(n.message).toContain("compare toLower(p.name) = 'keanu reeves'");
  });
  it('lists the common values when none is close', () => {
    const c = one("MATCH (c:Category) WHERE c.categoryName = 'Snacks' RETURN c");
    expect(notFound(c, s('STRING', 'Beverages', 'Condiments'), ['Snacks']).message).toBe(
      'no Category has categoryName "Snacks"; it holds "Beverages", "Condiments"',
    );
  });
  it('says nothing when the value is held, under the query’s own wrapper too', () => {
    const people = s('STRING', 'Keanu Reeves');
    expect(missingStrings(one("MATCH (p:Person) WHERE toLower(p.name) = 'keanu reeves' RETURN p"), people)).toBeNull();
    expect(missingStrings(one("MATCH (p:Person) WHERE p.name CONTAINS 'Keanu' RETURN p"), people)).toBeNull();
    expect(missingStrings(one("MATCH (p:Person) WHERE p.name IN ['x', 'Keanu Reeves'] RETURN p"), people)).toBeNull();
    expect(missingStrings(one("MATCH (p:Person) WHERE p.name <> 'x' RETURN p"), people)).toBeNull();
  });
  it('measures value distance by case, spelling, initials and whole words', () => {
    expect(valueDistance('beverage', 'Beverages')).toBeLessThan(1);
    expect(valueDistance('United States', 'USA')).toBeDefined();
    expect(valueDistance('Matrix', 'The Matrix')).toBeDefined();
    expect(valueDistance('Snacks', 'Beverages')).toBeUndefined();
  });
});

describe('valueNotices', () => {
  const notices = async (...args: Parameters<typeof valueNotices>) => (await valueNotices(...args)).notices;
  const sampler = (samples: Record<string, ValueSample>, exists = false): ValueSampler => ({
    sample: async (_db, _owner, property) => samples[property] ?? s('STRING'),
    exists: async () => exists,
  });
  it('checks each comparison and tells only the missing ones', async () => {
    const { notices } = await valueNotices(
      "MATCH (c:Customer {country: 'United Kingdom', city: 'London'}) RETURN c",
      {},
      { sampler: sampler({ country: s('STRING', 'UK'), city: s('STRING', 'London') }), database: 'neo4j', timeoutMs: 1_000 },
    );
    expect(notices.map((n) => n.name)).toEqual(['c.country']);
  });
  it('asks the database before calling a value missing (a sample may be incomplete or old)', async () => {
    const complete = s('STRING', 'Tom Hanks');
    const old = "MATCH (p:Person {name: 'Keanu Reeves'}) RETURN p";
    expect(await notices(old, {}, { sampler: sampler({ name: complete }, true), database: 'neo4j', timeoutMs: 1_000 })).toEqual([]);
    const partial = { ...s('STRING', 'Tom Hanks'), complete: false };
    const q = "MATCH (p:Person {name: 'Keanu Reeves'}) RETURN p";
    expect(await notices(q, {}, { sampler: sampler({ name: partial }, true), database: 'neo4j', timeoutMs: 1_000 })).toEqual([]);
    expect(await notices(q, {}, { sampler: sampler({ name: partial }, false), database: 'neo4j', timeoutMs: 1_000 })).toHaveLength(1);
  });
  it('leaves comparisons on names the graph lacks to the name notices', async () => {
    const q = "MATCH (c:Customer {country: 'United Kingdom'}) RETURN c";
    const known = { labels: ['Customer'], types: [], keys: ['country'] };
    const opts = { sampler: sampler({ country: s('STRING', 'UK') }), database: 'neo4j', timeoutMs: 1_000 };
    expect(await notices(q, {}, { ...opts, known })).toHaveLength(1);
    expect(await notices(q, {}, { ...opts, known: { ...known, labels: ['Client'] } })).toEqual([]);
    expect(await notices(q, {}, { ...opts, known: { ...known, keys: ['land'] } })).toEqual([]);
  });
  it('gives up at the timeout without a notice', async () => {
    const slow: ValueSampler = { sample: () => new Promise(() => {}), exists: async () => true };
    expect(await notices("MATCH (p:Person {name: 'x'}) RETURN p", {}, { sampler: slow, database: 'neo4j', timeoutMs: 20 })).toEqual([]);
  });
  it('counts the comparisons the time did not reach', async () => {
    const slow: ValueSampler = { sample: () => new Promise(() => {}), exists: async () => true };
    const q = "MATCH (p:Person {name: 'x'}) WHERE p.born = 'y' RETURN p";
    expect(await valueNotices(q, {}, { sampler: slow, database: 'neo4j', timeoutMs: 200 })).toEqual({ notices: [], unchecked: 2 });
  });
  it('counts a comparison its time-out cut as unchecked when its timer fires before the clock says the time is up', async () => {
    const slow: ValueSampler = { sample: () => new Promise(() => {}), exists: async () => true };
    const q = "MATCH (p:Person {name: 'x'}) WHERE p.born = 'y' RETURN p";
    const realSetTimeout = globalThis.setTimeout;
    // Timers firing 5 ms before the clock says the time is up.
    const early = vi
      .spyOn(globalThis, 'setTimeout')
      .mockImplementation(((fn: () => void, ms?: number) => realSetTimeout(fn, Math.max(0, (ms ?? 0) - 5))) as typeof setTimeout);
    try {
      expect(await valueNotices(q, {}, { sampler: slow, database: 'neo4j', timeoutMs: 50 })).toEqual({ notices: [], unchecked: 2 });
    } finally {
      early.mockRestore();
    }
  });
  it('checks one comparison at a time, each with one lookup for all its values, and at most four', async () => {
    let open = 0;
    let most = 0;
    const lookups: unknown[][] = [];
    const counting: ValueSampler = {
      sample: async () => {
        most = Math.max(most, ++open);
        await new Promise((r) => setTimeout(r, 5));
        open--;
        return { ...s('STRING', 'A1', 'A2'), complete: false };
      },
      exists: async (_db, _owner, _property, _wrapper, _op, values) => {
        lookups.push([...values]);
        return false;
      },
    };
    const wanted = Array.from({ length: 10 }, (_, i) => `'nope${i}'`).join(', ');
    const q = `MATCH (a:A) WHERE a.code IN [${wanted}] AND a.b = 'x' AND a.c = 'x' AND a.d = 'x' AND a.e = 'x' RETURN count(a)`;
    const { notices } = await valueNotices(q, {}, { sampler: counting, database: 'neo4j', timeoutMs: 1_000 });
    expect(most).toBe(1);
    expect(lookups).toHaveLength(4);
    expect(lookups[0]).toHaveLength(10);
    expect(notices[0]!.message).toContain('(10 in all)');
    // A list longer than one lookup takes is not called missing (and costs no lookup).
    lookups.length = 0;
    const many = Array.from({ length: 100 }, (_, i) => `'nope${i}'`).join(', ');
    const long = await valueNotices(
      `MATCH (a:A) WHERE a.code IN [${many}] RETURN count(a)`,
      {},
      { sampler: counting, database: 'neo4j', timeoutMs: 1_000 },
    );
    expect(long.notices).toEqual([]);
    expect(lookups).toEqual([]);
  });
  it('never repeats a long literal whole, nor offers a cut value as one the graph holds', async () => {
    const literal = 'x'.repeat(300_000);
    const held: ValueSample = {
      ...s('STRING', 'short'),
      values: [
        { value: 'y'.repeat(200), type: 'STRING', count: 9, cut: true },
        { value: 'short', type: 'STRING', count: 1 },
      ],
    };
    const sampler: ValueSampler = { sample: async () => held, exists: async () => false };
    const { notices } = await valueNotices(
      `MATCH (p:Person {name: '${literal}'}) RETURN p`,
      {},
      { sampler, database: 'neo4j', timeoutMs: 1_000 },
    );
    expect(notices).toHaveLength(1);
    expect(notices[0]!.message.length).toBeLessThan(600);
    expect(notices[0]!.suggestions).toEqual(['short']);
  });
  it('reads a result of zeros and nulls as empty', () => {
    expect(looksEmpty([])).toBe(true);
    expect(looksEmpty([{ n: 0, avg: null }])).toBe(true);
    expect(looksEmpty([{ n: 3 }])).toBe(false);
    expect(looksEmpty([{ name: 'x', n: 0 }])).toBe(false);
  });
});

describe('temporalHint', () => {
  const sampler = (v: string): ValueSampler => ({ sample: async () => s('STRING', v), exists: async () => true });
  const q = "MATCH (o:Order) WHERE date(o.orderDate) > date('1997-01-01') RETURN count(o)";
  it('says what the strings look like and what parses them', async () => {
    expect(await temporalHint(q, {}, { sampler: sampler('1996-07-04 00:00:00.000'), database: 'neo4j', timeoutMs: 1_000 })).toBe(
      'Order.orderDate holds strings like "1996-07-04 00:00:00.000": use date(left(o.orderDate, 10))',
    );
  });
  it('says nothing when the strings are plain dates (the error is elsewhere)', async () => {
    expect(await temporalHint(q, {}, { sampler: sampler('1996-07-04'), database: 'neo4j', timeoutMs: 1_000 })).toBeUndefined();
  });
});
