/**
 * The chat page's reading and housekeeping features in headless Chromium, against the scripted
 * API (fixture-api.ts) behind the real UI server: themes (system, chosen, set before the first
 * paint), copy buttons (Clipboard API and the fallback without it), code highlighting (and that
 * it stays sanitized), the session search box, and export as Markdown and JSON.
 */
import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { agentJob } from './fixture-api.js';
import { fixtureSuite } from './fixture-ui.js';

const OUT = 'test-output/e2e-public-features';
const ANON = 'fixture-anon-id-features-0001';

const CODE_ANSWER = [
  'Run this query:',
  '',
  '```cypher',
  'MATCH (p:Person {name: "Ada"})-[:WROTE]->(n) RETURN n.title LIMIT 5',
  '```',
  '',
  '```json',
  '{"name": "Ada", "born": 1815}',
  '```',
  '',
  '```js',
  'const s = "<img src=x onerror=window.__xss=7>";',
  '```',
  '',
  '```brainfuck',
  '+[-->-[>>+>-----<<]<--<---]>-.',
  '```',
].join('\n');

let context: BrowserContext;
let page: Page;

const ui = fixtureSuite(OUT, ANON);

const newPage = async (init?: () => void) => {
  await context?.close();
  context = await ui.browser.newContext({ viewport: { width: 1200, height: 860 } });
  if (init) await context.addInitScript(init);
  page = await context.newPage();
};

beforeEach(async () => {
  await newPage();
  ui.fixture.jobs.length = 0;
  ui.fixture.jobs.push(agentJob(CODE_ANSWER));
});

const ready = async () => {
  await page.goto(ui.url);
  await page.waitForSelector('body[data-ready="true"]');
};

const ask = async (text: string) => {
  await page.fill('#composer-input', text);
  await page.press('#composer-input', 'Enter');
  await page.waitForSelector('.msg.assistant:last-child:not([aria-busy]) .answer-tools');
};

const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

describe('themes', () => {
  it('follows the system colour scheme, live, until the user chooses', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await ready();
    expect(await theme()).toBe('dark');
    expect(await background()).toBe('rgb(22, 24, 29)');
    expect(await page.inputValue('#theme-select')).toBe('system');
    await page.emulateMedia({ colorScheme: 'light' });
    // The media query's change event arrives on its own schedule.
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    expect(await background()).toBe('rgb(247, 247, 248)');
  });

  it('keeps a chosen theme across reloads, whatever the system says', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await ready();
    await page.selectOption('#theme-select', 'dark');
    expect(await theme()).toBe('dark');
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    expect(await theme()).toBe('dark');
    expect(await page.inputValue('#theme-select')).toBe('dark');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.selectOption('#theme-select', 'light');
    expect(await theme()).toBe('light');
    await page.selectOption('#theme-select', 'system');
    expect(await theme()).toBe('dark');
    expect(await page.evaluate(() => localStorage.getItem('graph-chat:theme'))).toBeNull();
  });

  it('sets the theme before the body is parsed (no flash of the light theme)', async () => {
    await newPage(() => {
      localStorage.setItem('graph-chat:theme', 'dark');
      // Records the theme at the moment the <body> element appears, before anything is painted.
      new MutationObserver((_, obs) => {
        if (!document.body) return;
        (window as unknown as { themeAtBody?: string }).themeAtBody = document.documentElement.dataset.theme ?? 'unset';
        obs.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    await ready();
    expect(await page.evaluate(() => (window as unknown as { themeAtBody?: string }).themeAtBody)).toBe('dark');
  });
});

describe('copy buttons', () => {
  it('copies the code of a block and the Markdown of the answer, from the keyboard too', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ui.url });
    await ready();
    await ask('show me code');
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    const codeBtn = page.getByRole('button', { name: 'Copy code' }).first();
    await codeBtn.click();
    expect(await clipboard()).toBe('MATCH (p:Person {name: "Ada"})-[:WROTE]->(n) RETURN n.title LIMIT 5');
    expect(await page.locator('.copy-code').first().textContent()).toBe('Copied');
    await page.waitForFunction(() => document.getElementById('live')?.textContent === 'Copied to the clipboard.');
    // Keyboard: the answer's button is a Tab stop after the last code block's, and Enter presses it.
    await page.locator('.copy-code').last().focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Copy answer');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.textContent === 'Copied');
    expect(await clipboard()).toBe(CODE_ANSWER);
    // The confirmation goes away again.
    await page.waitForFunction(() => document.querySelector('.copy-answer')?.textContent === 'Copy answer', null, { timeout: 4000 });
  });

  it('copies without the Clipboard API (an http address that is not localhost)', async () => {
    await newPage(() => {
      Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined, configurable: true });
      // What a copy command puts on the clipboard is the selected text of the field it copies from.
      document.addEventListener('copy', (e) => {
        const field = e.target as HTMLTextAreaElement;
        (window as unknown as { copied?: string }).copied = field.value.slice(field.selectionStart, field.selectionEnd);
      });
    });
    await ready();
    await ask('show me code');
    expect(await page.evaluate(() => navigator.clipboard)).toBeUndefined();
    await page.locator('.copy-code').nth(1).click();
    expect(await page.locator('.copy-code').nth(1).textContent()).toBe('Copied');
    expect(await page.evaluate(() => (window as unknown as { copied?: string }).copied)).toBe('{"name": "Ada", "born": 1815}');
    // The hidden field is gone and the focus is back on the button.
    expect(await page.locator('.copy-buffer').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.className)).toContain('copy-code');
  });
});

describe('code highlighting', () => {
  it('colours known languages in both themes, leaves others plain, and stays sanitized', async () => {
    await ready();
    await ask('show me code');
    const blocks = page.locator('.msg.assistant .answer pre code');
    expect(await blocks.count()).toBe(4);
    expect(await blocks.nth(0).getAttribute('class')).toBe('hljs language-cypher');
    expect(await blocks.nth(0).locator('.hljs-keyword').allTextContents()).toEqual(expect.arrayContaining(['MATCH', 'RETURN', 'LIMIT']));
    expect(await blocks.nth(1).getAttribute('class')).toBe('hljs language-json');
    expect(await blocks.nth(1).locator('.hljs-number').textContent()).toBe('1815');
    expect(await blocks.nth(2).getAttribute('class')).toBe('hljs language-javascript');
    expect(await blocks.nth(2).locator('.hljs-string').textContent()).toBe('"<img src=x onerror=window.__xss=7>"');
    // An unknown language is shown as it is, without token classes.
    expect(await blocks.nth(3).getAttribute('class')).toBe('language-brainfuck');
    expect(await blocks.nth(3).locator('span').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.locator('#messages img').count()).toBe(0);
    const keywordColour = () =>
      blocks
        .nth(0)
        .locator('.hljs-keyword')
        .first()
        .evaluate((el) => getComputedStyle(el).color);
    const light = await keywordColour();
    await page.selectOption('#theme-select', 'dark');
    expect(await keywordColour()).not.toBe(light);
  });

  it('keeps only the highlighter’s classes: none from the Markdown itself', async () => {
    ui.fixture.jobs.splice(0, 1, agentJob('```js" class="evil\nlet a = 1;\n```\n\n<span class="hljs-keyword evil">x</span>'));
    await ready();
    await ask('classes');
    const answer = page.locator('.msg.assistant .answer');
    expect(await answer.locator('[class*="evil"]').count()).toBe(0);
    expect(await answer.textContent()).toContain('<span class="hljs-keyword evil">x</span>');
  });
});

describe('sessions', () => {
  it('the search box filters the list by name and by message text as one types', async () => {
    ui.fixture.jobs.splice(0, 1, agentJob('Ada wrote the first program.'), agentJob('The Analytical Engine was designed by Babbage.'));
    await ready();
    await ask('Who was Ada?');
    await page.click('#new-chat');
    await ask('Tell me about engines');
    await page.waitForSelector('.session-list .session:nth-child(2)');
    await page.click('.session.current .session-rename');
    await page.fill('#dialog-input', 'Machines');
    await page.press('#dialog-input', 'Enter');
    await page.waitForSelector('.session.current .session-open:text-is("Machines")');
    // Read again from the API, as after a reload: the text is searched in what the sidebar loaded.
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    const names = () => page.locator('.session-list .session-open').allTextContents();
    // The other tests' chats are listed too (same anonymous user).
    const all = await names();
    expect(all).toEqual(expect.arrayContaining(['Machines', 'Who was Ada?']));
    await page.fill('#session-search', 'babbage');
    expect(await names()).toEqual(['Machines']);
    await page.fill('#session-search', 'machines');
    expect(await names()).toEqual(['Machines']);
    await page.fill('#session-search', 'FIRST program');
    expect(await names()).toEqual(['Who was Ada?']);
    await page.fill('#session-search', 'zebra');
    expect(await names()).toEqual([]);
    expect(await page.textContent('#session-nomatch')).toBe('No chats match “zebra”.');
    await page.press('#session-search', 'Escape');
    expect(await names()).toEqual(all);
    expect(await page.isVisible('#session-nomatch')).toBe(false);
  });

  it('exports the open chat as JSON (as the API returns it) and as Markdown', async () => {
    await ready();
    expect(await page.isVisible('#export')).toBe(false);
    ui.fixture.jobs.splice(0, 1, agentJob('Ada wrote **the first program**.'));
    await ask('Who was Ada?');
    expect(await page.isVisible('#export')).toBe(true);
    const id = (await page.getAttribute('.session.current', 'data-session-id'))!;
    const save = async (button: string) => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
      return { name: download.suggestedFilename(), text: await readFile((await download.path())!, 'utf8') };
    };
    const json = await save('#export-json');
    expect(json.name).toBe('Who-was-Ada.json');
    const api = await (await page.request.get(`${ui.url}/api/chat/session/${id}`)).json();
    expect(JSON.parse(json.text)).toEqual(api);
    const md = await save('#export-md');
    expect(md.name).toBe('Who-was-Ada.md');
    expect(md.text).toBe(
      [
        '# Who was Ada?',
        '',
        '## Question 1',
        '',
        '> Who was Ada?',
        '',
        '## Answer 1',
        '',
        'Ada wrote **the first program**.',
        '',
        'Sources:',
        '',
        // Plain text stays plain text in a Markdown viewer: its HTML and Markdown characters are escaped.
        '- \\<b onmouseover="window.\\_\\_xss=5"\\>Ada\\</b\\>',
        '',
      ].join('\n'),
    );
    await page.click('#new-chat');
    expect(await page.isVisible('#export')).toBe(false);
  });
});
