/**
 * Cypher feedback without a database: the ranking of suggested names, the reading of a query's
 * patterns, and the notices built from an EXPLAIN summary and a schema (a movies graph).
 */
import type { GqlStatusObject } from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import { readPatterns } from '../../../../src/graph/cypher/cypher-patterns.js';
import { closeNames, editDistance, nameDistance } from '../../../../src/lib/close-names.js';
import { emptyReason, noticeLine, queryNotices } from '../../../../src/graph/cypher/query-notices.js';
import type { PropertyInfo } from '../../../../src/graph/shape/schema.js';
import type { SkeletonData } from '../../../../src/graph/shape/skeleton.js';

const prop = (name: string): PropertyInfo => ({ name, types: ['STRING'], fill: 1, example: null });

const MOVIES: SkeletonData = {
  database: 'neo4j',
  labels: [
    { label: 'Person', count: 133 },
    { label: 'Movie', count: 38 },
  ],
  patterns: [
    { from: 'Person', type: 'ACTED_IN', to: 'Movie', count: 172, estimated: false },
    { from: 'Person', type: 'DIRECTED', to: 'Movie', count: 44, estimated: false },
    { from: 'Person', type: 'FOLLOWS', to: 'Person', count: 3, estimated: false },
  ],
  relationshipCount: 219,
  types: ['ACTED_IN', 'DIRECTED', 'FOLLOWS'],
  propertyKeys: ['name', 'born', 'title', 'released', 'tagline', 'roles'],
  properties: new Map([
    ['Person', [prop('name'), prop('born')]],
    ['Movie', [prop('title'), prop('released'), prop('tagline')]],
  ]),
};

/** A GQL status object as the driver gives it for an EXPLAIN warning. */
const gql = (gqlStatus: string, statusDescription: string) => ({ gqlStatus, statusDescription }) as GqlStatusObject;

describe('name suggestions', () => {
  it('measures edits, with swaps as one', () => {
    expect(editDistance('titel', 'title')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('abc', 'abc')).toBe(0);
    expect(editDistance('a', 'abcdefgh', 3)).toBe(4);
  });

  it('ranks case and separator differences first, then plurals, then edits', () => {
    expect(nameDistance('movie', 'Movie')).toBeLessThan(nameDistance('Movies', 'Movie'));
    expect(nameDistance('Movies', 'Movie')).toBeLessThan(nameDistance('Mvie', 'Movie'));
    expect(nameDistance('actedIn', 'ACTED_IN')).toBeLessThan(0.5);
  });

  it.each([
    ['movie', ['Person', 'Movie'], 'Movie'],
    ['Movies', ['Person', 'Movie'], 'Movie'],
    ['Persons', ['Person', 'Movie'], 'Person'],
    ['ACTED', ['ACTED_IN', 'DIRECTED', 'FOLLOWS'], 'ACTED_IN'],
    ['acted_in', ['ACTED_IN', 'DIRECTED'], 'ACTED_IN'],
    ['DIRECTS', ['ACTED_IN', 'DIRECTED'], 'DIRECTED'],
    ['titel', ['name', 'title', 'tagline'], 'title'],
    ['Categories', ['Category', 'Cat'], 'Category'],
  ])('suggests %s → %s', (wanted, candidates, best) => {
    expect(closeNames(wanted, candidates)[0]).toBe(best);
  });

  it('suggests nothing far away, and never the name itself', () => {
    expect(closeNames('Film', ['Person', 'Movie'])).toEqual([]);
    expect(closeNames('Movie', ['Movie'])).toEqual([]);
  });
});

describe('readPatterns', () => {
  it('reads hops with labels from anywhere in the query and the written direction', () => {
    const p = readPatterns('MATCH (m:Movie {title: "x"}) MATCH (m)<-[:ACTED_IN]-(p) WHERE p:Person RETURN p.name');
    expect(p.hops).toEqual([expect.objectContaining({ left: ['Movie'], right: ['Person'], types: ['ACTED_IN'], direction: 'in' })]);
  });

  it('reads chains hop by hop, once each', () => {
    const p = readPatterns('MATCH (a:Person)-[:ACTED_IN]->(m:Movie)<-[:DIRECTED|ACTED_IN]-(d:Person) RETURN a');
    expect(p.hops.map((h) => [h.left, h.types, h.direction, h.right])).toEqual([
      [['Person'], ['ACTED_IN'], 'out', ['Movie']],
      [['Movie'], ['DIRECTED', 'ACTED_IN'], 'in', ['Person']],
    ]);
  });

  it('leaves out what it cannot read plainly, and ignores strings and comments', () => {
    expect(readPatterns('MATCH (a:Person|Movie)-[:ACTED_IN]->(b) RETURN a').hops).toEqual([]);
    expect(readPatterns("RETURN '(a:Movie)-[:ACTED_IN]->(b:Person)' // (x:Movie)-[:DIRECTED]->(y:Person)").hops).toEqual([]);
  });

  it('finds variable-length patterns without an upper bound', () => {
    expect(readPatterns('MATCH (a)-[*]->(b), (c)-[:T*1..3]->(d), (e)-[:U*2..]->(f) RETURN a').unbounded).toEqual(['-[*]->', '-[:U*2..]->']);
  });
});

describe('queryNotices', () => {
  it('names the closest existing label, type and property for each unknown one', () => {
    const cypher = 'MATCH (p:Persons)-[:ACTED]->(m:Movie) RETURN m.titel';
    const notices = queryNotices(
      cypher,
      {
        gqlStatusObjects: [
          gql('01N50', 'warn: label does not exist. The label `Persons` does not exist. Verify that the spelling is correct.'),
          gql('01N51', 'warn: relationship type does not exist. The relationship type `ACTED` does not exist.'),
          gql('01N52', 'warn: property key does not exist. The property `titel` does not exist.'),
          gql('00001', 'note: successful completion - omitted result'),
        ],
      },
      MOVIES,
    );
    expect(notices.map((n) => [n.kind, n.code, n.suggestions?.[0]])).toEqual([
      ['unknown-label', '01N50', 'Person'],
      ['unknown-relationship-type', '01N51', 'ACTED_IN'],
      ['unknown-property', '01N52', 'Movie.title'],
    ]);
    expect(notices[2]!.message).toBe('property key titel does not exist in this graph; did you mean Movie.title?');
    expect(emptyReason(notices)).toMatch(/^0 rows, probably because label :Persons does not exist/);
  });

  it('reads the old notification texts too', () => {
    const [n] = queryNotices(
      'MATCH (f:Film) RETURN f',
      {
        notifications: [
          {
            code: 'Neo.ClientNotification.Statement.UnknownLabelWarning',
            description: 'One of the labels in your query is not available in the database (the missing label name is: Film)',
          } as never,
        ],
      },
      MOVIES,
    );
    expect(n).toMatchObject({ kind: 'unknown-label', name: 'Film', suggestions: [] });
    expect(n!.message).toContain('its labels are :Person, :Movie');
  });

  it('says when a relationship is walked against its direction, naming the pattern that exists', () => {
    const [n, ...rest] = queryNotices('MATCH (m:Movie)-[:ACTED_IN]->(p:Person) RETURN count(*)', {}, MOVIES);
    expect(rest).toEqual([]);
    expect(n).toMatchObject({ kind: 'reversed-direction', suggestions: ['(:Person)-[:ACTED_IN]->(:Movie)'] });
    expect(n!.message).toContain('(:Movie)-[:ACTED_IN]->(:Person) does not occur');
    expect(n!.message).toContain('(:Person)-[:ACTED_IN]->(:Movie) (172)');
  });

  it('says when a pattern never occurs either way', () => {
    const [n] = queryNotices('MATCH (a:Movie)-[:DIRECTED]-(b:Movie) RETURN a', {}, MOVIES);
    expect(n).toMatchObject({ kind: 'pattern-not-found' });
    expect(n!.message).toContain(':DIRECTED connects (:Person)-[:DIRECTED]->(:Movie) (44)');
  });

  it('says when a label has no such property though the key exists elsewhere', () => {
    const [n] = queryNotices('MATCH (m:Movie) WHERE m.name = $n RETURN m', {}, MOVIES);
    expect(n).toMatchObject({ kind: 'property-not-on-label', name: 'm.name' });
  });

  it('has nothing to say about a correct query', () => {
    const ok = [
      'MATCH (p:Person)-[:ACTED_IN]->(m:Movie) WHERE m.title = $t RETURN p.name, m.released',
      'MATCH (m:Movie)<-[:DIRECTED]-(p:Person) RETURN p.name',
      'MATCH (a:Person)-[:FOLLOWS]-(b:Person) RETURN a.born',
      'MATCH (p:Person)-[r]->(m:Movie) RETURN type(r)',
    ];
    for (const cypher of ok) expect(queryNotices(cypher, {}, MOVIES)).toEqual([]);
    expect(noticeLine([], 0)).toBeUndefined();
  });

  it('passes on a cartesian product as a note that does not explain an empty result', () => {
    const notices = queryNotices(
      'MATCH (a:Person), (b:Movie) RETURN a, b',
      {
        gqlStatusObjects: [
          gql('03N90', "info: cartesian product. The disconnected pattern '(a:Person), (b:Movie)' builds a cartesian product."),
        ],
      },
      MOVIES,
    );
    expect(notices).toEqual([expect.objectContaining({ kind: 'cartesian-product', name: '(a:Person), (b:Movie)', explainsEmpty: false })]);
    expect(emptyReason(notices)).toBeUndefined();
    expect(noticeLine(notices, 0)).toMatch(/^Note: the query pairs every row/);
  });

  it('checks nothing against a schema it does not have, but still passes the warnings on', () => {
    expect(queryNotices('MATCH (m:Movie)-[:ACTED_IN]->(p:Person) RETURN p', {}, null)).toEqual([]);
    const [n] = queryNotices('MATCH (f:Film) RETURN f', { gqlStatusObjects: [gql('01N50', 'The label `Film` does not exist.')] }, null);
    expect(n!.message).toBe('label :Film does not exist in this graph');
  });
});
