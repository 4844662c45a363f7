/**
 * Accessibility of the chat page's main states, in both themes and at a desktop and a phone width:
 * axe-core's default rules (colour contrast included) find nothing, and each combination is shot
 * to test-output/screenshots/a11y-<state>-<theme>-<width>.png for review by eye. Runs against
 * the scripted API (fixture-api.ts), which can hold an answer half-way.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditStates } from './browser.js';
import { agentJob } from './fixture-api.js';
import { fixtureSuite } from './fixture-ui.js';

const OUT = 'test-output/e2e-public-a11y';
const ANON = 'fixture-anon-id-a11y-000001';

const ANSWER = [
  '## Ada Lovelace',
  '',
  'She wrote the first published program, for [the Analytical Engine](https://example.org/engine).',
  '',
  '| name | born |',
  '|---|---|',
  '| Ada | 1815 |',
  '',
  '```cypher',
  'MATCH (p:Person {name: "Ada"}) RETURN p.born // a comment',
  '```',
  '',
  '```python',
  'def born(p): return "1815"  # a comment',
  '```',
].join('\n');

let context: BrowserContext;
let page: Page;

const ui = fixtureSuite(OUT, ANON);

beforeAll(async () => {
  context = await ui.browser.newContext({ viewport: { width: 1280, height: 860 } });
  page = await context.newPage();
});

const audit = async (state: string) => expect(await auditStates(page, `a11y-${state}`)).toEqual({});

const ask = async (text: string) => {
  await page.fill('#composer-input', text);
  await page.press('#composer-input', 'Enter');
};

describe('axe finds no violations, in both themes', () => {
  it('setup panel and empty chat', async () => {
    ui.fixture.status = {
      ready: false,
      checks: [
        {
          id: 'index',
          ok: false,
          required: true,
          title: 'Search index',
          detail: 'no index for this graph',
          fix: 'run `npm run build-index`',
        },
        { id: 'agent-model', ok: false, required: false, title: 'Agent model', detail: 'not reachable', fix: 'start the model server' },
      ],
      index_text: {
        source: 'preview',
        built_at: null,
        plan: {
          text_property: 'text',
          only_labels: null,
          labels: [
            {
              label: 'Movie',
              nodes: 38,
              source: 'discovered',
              name: ['title'],
              text: ['tagline'],
              skipped: [{ property: 'released', reason: 'not a string', detail: 'holds INTEGER values' }],
            },
            {
              label: 'Order<b>\u202Eevil',
              nodes: 1096,
              source: 'explicit',
              name: ['shipName'],
              text: ['note<img src=x onerror="window.__xss=1">'],
              skipped: Array.from({ length: 7 }, (_, i) => ({
                property: `code${i}`,
                reason: 'identifier',
                detail: 'named as an identifier or code',
              })),
            },
            { label: 'Empty', nodes: 1, source: 'none', name: [], text: [], skipped: [] },
          ],
        },
      },
    };
    await page.goto(ui.url);
    await page.waitForSelector('body[data-ready="true"]');
    await page.waitForSelector('#setup:not([hidden]) .setup-item');
    // What a build would index, per label, folded under the checks.
    expect(await page.textContent('#setup-plan summary')).toBe('What a build would index, per label');
    await page.click('#setup-plan > summary');
    const row = (label: string) => page.locator(`#setup-plan tr[data-label="${label}"] > *`).allInnerTexts();
    expect(await row('Movie')).toEqual(['Movie\ndiscovered', '38', 'title', 'tagline', '1 skipped']);
    expect(await row('Order<b>\u202Eevil')).toEqual([
      'Order<b>\u202Eevil\nas chosen',
      '1,096',
      'shipName',
      'note<img src=x onerror="window.__xss=1">',
      '7 skipped',
    ]);
    expect(await row('Empty')).toEqual(['Empty\nno text found', '1', 'none', 'nothing indexed', 'none']);
    expect(await page.locator('#setup img, #setup b').count()).toBe(0);
    await page.click('#setup-plan tr[data-label="Movie"] .plan-skipped summary');
    expect(await page.textContent('#setup-plan tr[data-label="Movie"] .plan-skipped li')).toBe('released — holds INTEGER values');
    await audit('setup');
    await page.click('#setup-hide');
    ui.fixture.status = null;
    await audit('empty');
  });

  it('an answer being written, then answered with its sources open', async () => {
    let release!: () => void;
    const until = new Promise<void>((r) => (release = r));
    // Held while the answer is being streamed: steps, then the start of the answer's text.
    const job = agentJob(ANSWER);
    job.events.splice(
      5,
      0,
      { type: 'agent_step', data: { iteration: 2, model: 'qwen-agent' } },
      { type: 'answer_delta', data: { text: '## Ada Lovelace\n\nShe wrote the first published ' } },
    );
    ui.fixture.jobs.splice(0, ui.fixture.jobs.length, { ...job, hold: { after: 7, until } });
    await ask('Who was Ada Lovelace?');
    await page.waitForSelector('.msg.assistant .answer.drafting h2');
    await audit('answering');
    release();
    await page.waitForSelector('.msg.assistant:not([aria-busy]) .answer-tools');
    await page.click('.msg.assistant details.steps summary');
    expect(await page.getAttribute('.msg.assistant details.sources', 'open')).toBe('');
    await audit('answered');
  });

  it('the rename and delete dialogs, the settings and the session search', async () => {
    await page.click('.session.current .session-rename');
    await page.waitForSelector('#dialog[open]');
    await audit('dialog-rename');
    await page.press('#dialog-input', 'Escape');
    await page.click('.session.current .session-delete');
    await page.waitForSelector('#dialog[open]');
    await audit('dialog-delete');
    await page.press('#dialog-ok', 'Escape');
    await page.click('#settings summary');
    await audit('settings');
    await page.click('#settings summary');
    await page.fill('#session-search', 'ada');
    expect(await page.locator('.session-list .session').count()).toBe(1);
    await audit('search');
    await page.fill('#session-search', 'no such chat');
    await page.waitForSelector('#session-nomatch:not([hidden])');
    await audit('search-none');
  });
});
