/** The examples file: every line read or reported with its number, the rest used. */
import { describe, expect, it } from 'vitest';
import { exampleLine, parseExamples } from '../../../src/examples/format.js';

describe('parseExamples', () => {
  it('reads the good lines and reports each bad one with its line number', () => {
    const text = [
      '{"question": "Who directed The Matrix?", "cypher": "MATCH (p:Person)-[:DIRECTED]->(m:Movie) RETURN p.name"}',
      '',
      '{"question": "How many movies?", "cypher": "MATCH (m:Movie) RETURN count(m)", "note": "count, not collect"}',
      '{"question": "broken", "cypher": ',
      '{"question": "no query"}',
      '["a", "list"]',
      '{"question": "q", "cypher": "RETURN 1", "extra": 1}',
      '{"question": "for another graph", "cypher": "RETURN 1", "graph": "other"}',
      '{"question": "  ", "cypher": "RETURN 1"}',
    ].join('\n');
    const { examples, rejected } = parseExamples(text, 'neo4j');
    expect(examples.map((e) => [e.line, e.question, e.note])).toEqual([
      [1, 'Who directed The Matrix?', undefined],
      [3, 'How many movies?', 'count, not collect'],
    ]);
    expect(rejected.map((r) => r.line)).toEqual([4, 5, 6, 7, 9]);
    expect(rejected[0]!.reason).toMatch(/^not JSON/);
    expect(rejected[1]).toMatchObject({ question: 'no query', reason: 'field "cypher": required, a string' });
    expect(rejected[2]!.reason).toMatch(/JSON object/);
    expect(rejected[3]!.reason).toMatch(/unknown field "extra"/);
    expect(rejected[4]!.reason).toMatch(/field "question": must not be empty/);
  });

  it('takes the lines of its graph, and writes lines it reads back', () => {
    const line = exampleLine({ question: 'Q?', cypher: 'RETURN 1', note: 'n' });
    const { examples } = parseExamples(`${line}\n${JSON.stringify({ question: 'X', cypher: 'RETURN 2', graph: 'g2' })}\n`, 'g2');
    expect(examples.map((e) => e.question)).toEqual(['Q?', 'X']);
    expect(parseExamples(line, 'other').examples).toHaveLength(1);
  });
});
