/** The question-set reader of `eval`: CSV (quotes, commas and newlines inside fields) and JSONL, with errors naming line and field. */
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../../src/cli/eval/csv.js';
import { parseQuestions } from '../../../../src/cli/eval/questions.js';

describe('parseCsv', () => {
  it('reads quoted fields with commas, doubled quotes and newlines, CRLF and a BOM', () => {
    const text = '\uFEFFa,b,c\r\n"x, y","say ""hi""","two\nlines"\r\n\r\nplain,,last\n';
    expect(parseCsv(text)).toEqual([
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 2, fields: ['x, y', 'say "hi"', 'two\nlines'] },
      { line: 5, fields: ['plain', '', 'last'] },
    ]);
  });

  it('keeps a last record without a final newline, and an empty last field', () => {
    expect(parseCsv('a,b\n1,')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['1', ''] },
    ]);
  });

  it('names the line of a quote never closed, and of text after a closing quote', () => {
    expect(() => parseCsv('a\n"open\nstill open')).toThrow(/^line 2: a quoted field is never closed/);
    expect(() => parseCsv('a,b\n1,"x"y')).toThrow(/^line 2: text after a closing quote/);
  });
});

describe('parseQuestions', () => {
  it('reads a CSV set: lists split on ; or |, route normalised, ids by position', () => {
    const qs = parseQuestions(
      [
        'question,expected_nodes,expected_answer_contains,expected_route,session',
        '"Who flew Apollo 11, and when?",Neil Armstrong; 102 | Apollo 11,1969,Agent,s1',
        'And after that?,,,,s1',
      ].join('\n'),
      'set.csv',
    );
    expect(qs).toEqual([
      {
        id: 'q1',
        line: 2,
        question: 'Who flew Apollo 11, and when?',
        expectedNodes: ['Neil Armstrong', '102', 'Apollo 11'],
        expectedAnswerContains: ['1969'],
        expectedRoute: 'agent',
        session: 's1',
      },
      { id: 'q2', line: 3, question: 'And after that?', expectedNodes: [], expectedAnswerContains: [], session: 's1' },
    ]);
  });

  it('reads JSONL: arrays, numbers as dbIds, a string as one item, blank lines skipped', () => {
    const text = [
      '{"id":"mars","question":"What is Mars?","expected_nodes":[44,"Mars"],"expected_answer_contains":"planet; red"}',
      '',
      '{"question":"NASA?","expected_route":"lookup"}',
    ].join('\n');
    const qs = parseQuestions(text, 'set.jsonl');
    expect(qs[0]).toMatchObject({ id: 'mars', line: 1, expectedNodes: ['44', 'Mars'], expectedAnswerContains: ['planet; red'] });
    expect(qs[1]).toMatchObject({ id: 'q2', line: 3, expectedRoute: 'lookup' });
    // Without a telling extension the first character decides.
    expect(parseQuestions(text, 'set.txt')).toEqual(qs);
  });

  it.each([
    ['question,expected_route\nHi,maybe\n', 'line 2: field "expected_route": must be lookup or agent'],
    ['question,expected_nodes\n"Hi\nthere",x\n   ,y\n', 'line 4: field "question": must not be empty'],
    ['question,expected_node\nHi,x\n', 'line 1: unknown column "expected_node"'],
    ['expected_nodes\nx\n', 'line 1: the header has no "question" column'],
    ['question,session\nHi,a,extra\n', 'line 2: 3 fields, but the header has 2'],
    ['question,id\nA,x\nB,x\n', 'line 3: field "id": "x" is already used on line 2'],
    ['question\n', 'the file holds no questions'],
    ['', 'line 1: the file is empty'],
  ])('CSV error: %j', (text, message) => {
    expect(() => parseQuestions(text, 'set.csv')).toThrow(message);
  });

  it.each([
    ['{"question":"ok"}\n{"question":"a",}\n', /^line 2: not JSON/],
    ['{"question":"ok"}\n\n{"question":""}\n', /^line 3: field "question": must not be empty/],
    ['{"question":"ok","expected_nodes":{"a":1}}', /^line 1: field "expected_nodes"/],
    ['{"question":"ok","expected_rout":"agent"}', /^line 1: unknown field "expected_rout"/],
    ['{"expected_route":"agent"}', /^line 1: field "question": required/],
    ['["question"]', /^line 1: expected a JSON object/],
  ])('JSONL error: %j', (text, message) => {
    expect(() => parseQuestions(text, 'set.jsonl')).toThrow(message);
  });
});

describe('the example set (examples/eval/sample-questions.csv)', () => {
  it('parses, and every expected node is a node of the sample graph', async () => {
    const { readFile } = await import('node:fs/promises');
    const { default: data } = await import('../../../../src/graph/access/sample-data.json', { with: { type: 'json' } });
    const qs = parseQuestions(await readFile('examples/eval/sample-questions.csv', 'utf8'), 'sample-questions.csv');
    expect(qs).toHaveLength(20);
    const known = new Set(data.nodes.flatMap((n) => [n.properties.displayName, String(n.properties.dbId)]));
    expect(qs.flatMap((q) => q.expectedNodes).filter((n) => !known.has(n))).toEqual([]);
    expect(qs.every((q) => q.expectedNodes.length > 0 && q.expectedRoute)).toBe(true);
  });
});
