/**
 * The web chat's text helpers that need no browser: the session search's matching, the Markdown
 * export (escaping, sources, file names), the highlighter's language names and the classes the
 * sanitizer lets through, where the page loads its theme script, and the words of the setup
 * panel's text plan table.
 */
import { describe, expect, it } from 'vitest';
import type { ChatSessionView } from '../../../../src/contract/chat.js';
import { fileName, sessionMarkdown } from '../../../../src/ui/client/export.js';
import { highlightCode, isHighlightClass } from '../../../../src/ui/client/highlight.js';
import { countOf, sourceWords } from '../../../../src/ui/client/plan-table.js';
import { matchesSession } from '../../../../src/ui/client/session-search.js';
import { chatPage } from '../../../../src/ui/page.js';

describe('session search', () => {
  const s = { name: 'Analytical engines', messages: [{ content: 'Who was Ada?' }, { content: 'Ada wrote the first program.' }] };

  it('needs every word, in the name or any message, ignoring case and accents', () => {
    expect(matchesSession(s, '')).toBe(true);
    expect(matchesSession(s, '  ENGINES  first ')).toBe(true);
    expect(matchesSession(s, 'ADA PROGRAM')).toBe(true);
    expect(matchesSession(s, 'ada zebra')).toBe(false);
    expect(matchesSession({ name: 'Café Gödel' }, 'cafe godel')).toBe(true);
  });
});

describe('Markdown export', () => {
  const session: ChatSessionView = {
    session_id: 'x',
    name: 'Ada *and* <b>',
    created_at: 1,
    pending_job_id: null,
    messages: [
      { role: 'user', content: '# not a heading\nsecond line', route: null, confidence: null, events: [] },
      {
        role: 'assistant',
        content: 'She **did**.\n',
        route: 'lookup',
        confidence: 0.9,
        events: [
          {
            type: 'job_done',
            data: {
              session_id: 'x',
              answer: 'She **did**.',
              route_taken: 'lookup',
              token_usage: { input_tokens: 1, output_tokens: 1 },
              sources: [
                { dbId: 1, displayName: 'Ada_Lovelace', text: '', score: 1, labels: [] },
                { dbId: 2, displayName: '', text: '', score: 1, labels: [] },
              ],
            },
          },
        ],
      },
      { role: 'user', content: 'and then?', route: null, confidence: null, events: [] },
      { role: 'assistant', content: 'Nothing.', route: 'agent', confidence: 0.5, events: [] },
    ],
  };

  it('has the name, each question quoted and escaped, each answer as written, and the sources', () => {
    expect(sessionMarkdown(session)).toBe(
      [
        '# Ada \\*and\\* \\<b\\>',
        '',
        '## Question 1',
        '',
        '> \\# not a heading',
        '> second line',
        '',
        '## Answer 1',
        '',
        'She **did**.',
        '',
        'Sources:',
        '',
        '- Ada\\_Lovelace',
        '- (unnamed, ID 2)',
        '',
        '## Question 2',
        '',
        '> and then?',
        '',
        '## Answer 2',
        '',
        'Nothing.',
        '',
      ].join('\n'),
    );
  });

  it('names the file after the chat', () => {
    expect(fileName('Who was Ada?', 'md')).toBe('Who-was-Ada.md');
    expect(fileName('Gödel, Escher / Bach', 'json')).toBe('Gödel-Escher-Bach.json');
    expect(fileName('???', 'md')).toBe('chat.md');
  });
});

describe('highlighting', () => {
  it('knows the registered languages by name and alias, and nothing else', () => {
    expect(highlightCode('MATCH (n) RETURN n', 'cypher')?.language).toBe('cypher');
    expect(highlightCode('MATCH (n) RETURN n', 'CQL')?.language).toBe('cypher');
    expect(highlightCode('echo hi', 'sh')?.language).toBe('bash');
    expect(highlightCode('let a = 1', 'ts')?.language).toBe('typescript');
    expect(highlightCode('SELECT 1', 'sql')?.html).toContain('<span class="hljs-keyword">SELECT</span>');
    expect(highlightCode('x', 'brainfuck')).toBeNull();
    expect(highlightCode('x', undefined)).toBeNull();
  });

  it('escapes the code it highlights', () => {
    expect(highlightCode('"<img src=x onerror=alert(1)>"', 'json')?.html).not.toContain('<img');
  });

  it('lets through only the classes the highlighter writes', () => {
    expect(isHighlightClass('hljs language-cypher')).toBe(true);
    expect(isHighlightClass('hljs-title function_')).toBe(true);
    expect(isHighlightClass('hljs-keyword evil')).toBe(false);
    expect(isHighlightClass('skip')).toBe(false);
  });
});

describe('page', () => {
  it('loads the theme script as a blocking classic script before the stylesheet', () => {
    const html = chatPage('v1');
    const theme = html.indexOf('<script src="/ui/theme.js?v=v1"></script>');
    expect(theme).toBeGreaterThan(0);
    expect(theme).toBeLessThan(html.indexOf('<link rel="stylesheet"'));
  });
});

describe('text plan table', () => {
  it('counts with the noun in the right number and grouped digits', () => {
    expect(countOf(1, 'node')).toBe('1 node');
    expect(countOf(0, 'node')).toBe('0 nodes');
    expect(countOf(1096, 'node')).toBe('1,096 nodes');
    expect(countOf(2, 'property', 'properties')).toBe('2 properties');
  });

  it('says how each label’s text was chosen', () => {
    expect(sourceWords({ source: 'text' }, 'body')).toBe('has "body" (TEXT_PROPERTY)');
    expect(sourceWords({ source: 'discovered' }, 'text')).toBe('discovered');
    expect(sourceWords({ source: 'explicit' }, 'text')).toBe('as chosen');
    expect(sourceWords({ source: 'none' }, 'text')).toBe('no text found');
  });
});
