/**
 * The chat page in headless Chromium against a scripted API (fixture-api.ts) behind the real UI
 * server and proxy: rendering and sanitizing of hostile text, steps and sources, selectors, the
 * keyboard, every failure state, and resuming a dropped stream. The same page against the real
 * server is chat-ui.test.ts.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { pageWeight, screenshot } from './browser.js';
import { agentJob } from './fixture-api.js';
import { fixtureSuite } from './fixture-ui.js';

const OUT = 'test-output/e2e-public';
const ANON = 'fixture-anon-id-0123456789';

const HOSTILE_ANSWER = [
  '## Result',
  '',
  '| name | born |',
  '|---|---|',
  '| Ada | 1815 |',
  '',
  '```js',
  'const x = 1 < 2;',
  '```',
  '',
  '<script>window.__xss = 1</script>',
  '',
  'Inline <img src=x onerror="window.__xss = 2"> tag and [a link](javascript:window.__xss=3).',
].join('\n');

let context: BrowserContext;
let page: Page;

const ui = fixtureSuite(OUT, ANON);

beforeEach(async () => {
  await context?.close();
  context = await ui.browser.newContext({ viewport: { width: 1200, height: 860 } });
  page = await context.newPage();
  ui.fixture.jobs.length = 0;
  ui.fixture.jobs.push(agentJob(HOSTILE_ANSWER));
  ui.fixture.seen.length = 0;
});

const ready = async (url = ui.url) => {
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
};

const ask = async (text: string) => {
  await page.fill('#composer-input', text);
  await page.press('#composer-input', 'Enter');
};

describe('chat page against a scripted API', () => {
  it('first visit gets the anon cookie, a strict CSP and selectors from /config', async () => {
    const res = await page.goto(ui.url);
    expect(res!.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(res!.headers()['content-security-policy']).not.toContain('unsafe-inline');
    await page.waitForSelector('body[data-ready="true"]');
    const cookie = (await context.cookies()).find((c) => c.name === 'anon_id');
    expect(cookie).toMatchObject({ value: ANON, httpOnly: true });
    expect(await page.inputValue('#agent-provider')).toBe('local');
    expect(await page.inputValue('#agent-model')).toBe('qwen-agent');
    expect(await page.inputValue('#router-model')).toBe('qwen-router');
    expect(ui.fixture.seen.some((r) => r.path === '/chat/bootstrap-anon')).toBe(true);
    // The page is still on the UI origin: the API's redirect target was not followed.
    expect(new URL(page.url()).origin).toBe(ui.url);
  });

  it('renders Markdown, keeps hostile text inert, folds the steps and lists the sources', async () => {
    await ready();
    await ask('Who was Ada?');
    await page.waitForSelector('.msg.assistant .answer table');
    const state = await page.evaluate(() => ({
      xss: (window as unknown as { __xss?: number }).__xss,
      scripts: document.querySelectorAll('#messages script').length,
      handlers: document.querySelectorAll('#messages [onerror], #messages [onmouseover]').length,
      jsLinks: [...document.querySelectorAll('#messages a')].filter((a) => /^javascript:/i.test(a.getAttribute('href') ?? '')).length,
    }));
    expect(state).toEqual({ xss: undefined, scripts: 0, handlers: 0, jsLinks: 0 });
    const answer = page.locator('.msg.assistant .answer');
    expect(await answer.locator('h2').textContent()).toBe('Result');
    expect(await answer.locator('pre code').textContent()).toContain('const x = 1 < 2;');
    // Raw HTML from the model is shown as text, not dropped silently.
    expect(await answer.textContent()).toContain('<script>window.__xss = 1</script>');
    const steps = page.locator('.msg.assistant details.steps');
    expect(await steps.getAttribute('open')).toBeNull();
    expect(await steps.locator('summary').textContent()).toBe('Steps (5)');
    await steps.locator('summary').click();
    expect(await steps.getAttribute('open')).toBe('');
    expect(await steps.locator('li').allTextContents()).toEqual([
      'Routing the question…',
      'Route: agent (confidence 0.82) — needs reasoning',
      'Step 1: asking qwen-agent',
      'Tool call: vector_search({"sentence":"Ada"})',
      'Result of vector_search: <img src=x onerror="window.__xss=4"> 1 node',
    ]);
    const source = page.locator('.sources .source').first();
    expect(await source.locator('.source-name').textContent()).toBe('<b onmouseover="window.__xss=5">Ada</b>');
    expect(await source.locator('.source-id').textContent()).toBe('ID 7');
    expect(await source.locator('.label-chip').allTextContents()).toEqual(['Person', 'E2eFixture']);
    expect(await page.locator('.msg.assistant .route-badge').textContent()).toBe('agent · 0.82');
    await screenshot(page, 'fixture-hostile-text-rendered');
  });

  it('sends the anon id and the chosen models as headers through the proxy', async () => {
    await ready();
    await page.click('#settings summary');
    await page.selectOption('#agent-provider', 'hosted');
    expect(await page.inputValue('#agent-model')).toBe('big-hosted');
    await ask('headers please');
    await page.waitForSelector('.msg.assistant .answer h2');
    const post = ui.fixture.seen.find((r) => r.method === 'POST' && r.path === '/chat/message')!;
    expect(post.headers['x-anon-id']).toBe(ANON);
    expect(post.headers['x-llm-provider']).toBe('hosted');
    expect(post.headers['x-llm-agent-model']).toBe('big-hosted');
    expect(post.headers['x-llm-router-provider']).toBeUndefined();
    expect(ui.fixture.seen.find((r) => r.path.startsWith('/chat/sessions'))!.path).toBe(`/chat/sessions?anon_id=${ANON}`);
  });

  it('offers hosted only when the server has its key, saying why not', async () => {
    ui.fixture.hostedAvailable = false;
    try {
      await ready();
      for (const select of ['#agent-provider', '#router-provider']) {
        const hosted = page.locator(`${select} option[value="hosted"]`);
        expect(await hosted.isDisabled()).toBe(true);
        expect(await hosted.textContent()).toBe('hosted (no API key on this server)');
      }
      expect(await page.inputValue('#agent-provider')).toBe('local');
    } finally {
      ui.fixture.hostedAvailable = true;
    }
  });

  it('Shift+Enter adds a line, Enter sends; the history reopens with folded steps and sources', async () => {
    await ready();
    await page.fill('#composer-input', 'first line');
    await page.press('#composer-input', 'Shift+Enter');
    await page.type('#composer-input', 'second line');
    expect(await page.inputValue('#composer-input')).toBe('first line\nsecond line');
    expect(await page.locator('.msg').count()).toBe(0);
    await page.press('#composer-input', 'Enter');
    await page.waitForSelector('.msg.assistant .answer h2');
    expect(await page.locator('.msg.user .bubble').textContent()).toBe('first line\nsecond line');
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await page.waitForSelector('.msg.assistant .answer h2');
    expect(await page.locator('.msg.assistant details.steps summary').textContent()).toBe('Steps (5)');
    expect(await page.locator('.sources .source-id').textContent()).toBe('ID 7');
    expect(await page.locator('.session.current .session-open').textContent()).toBe('first line\nsecond line');
  });

  it('resumes a dropped stream with Last-Event-ID', async () => {
    ui.fixture.jobs.splice(0, 1, agentJob('resumed **fine**', 3));
    await ready();
    await ask('drop the stream');
    await page.waitForSelector('.msg.assistant .answer strong');
    const streams = ui.fixture.seen.filter((r) => r.path.endsWith('/stream'));
    expect(streams.length).toBe(2);
    expect(streams[0]!.headers['last-event-id']).toBeUndefined();
    expect(streams[1]!.headers['last-event-id']).toBe('3');
    // Every step exactly once, although the second connection could have replayed.
    expect(await page.locator('.msg.assistant .step').count()).toBe(5);
  });

  it('shows when a rate-limited user can send again, and lets them then', async () => {
    await ready();
    ui.fixture.failNext(429, { 'retry-after': '2' });
    await ask('too many');
    await page.waitForSelector('#banner[data-kind="rate-limited"]:not([hidden])');
    expect(await page.textContent('#banner')).toMatch(/too many messages.*send again at .*\(in [12] s\)/);
    expect(await page.isDisabled('#send')).toBe(true);
    expect(await page.inputValue('#composer-input')).toBe('too many');
    expect(await page.locator('.msg').count()).toBe(0);
    await screenshot(page, 'fixture-rate-limited');
    await page.waitForSelector('#banner', { state: 'hidden', timeout: 5_000 });
    expect(await page.isDisabled('#send')).toBe(false);
  });

  it('explains a server or dependency outage with a way to retry', async () => {
    await ready();
    ui.fixture.failNext(503);
    await ask('is anyone there');
    await page.waitForSelector('#banner:not([hidden])');
    expect(await page.textContent('#banner')).toContain('one of its services is down');
    await page.click('#banner button');
    await page.waitForSelector('.msg.assistant .answer h2');
  });

  it('shows a failed job with a retry button', async () => {
    ui.fixture.jobs.splice(
      0,
      1,
      {
        events: [
          { type: 'routing_started', data: {} },
          { type: 'job_error', data: { error: 'model server unavailable' } },
        ],
      },
      agentJob(HOSTILE_ANSWER),
    );
    await ready();
    await ask('fail please');
    await page.waitForSelector('.msg.assistant .error');
    expect(await page.textContent('.msg.assistant .error')).toContain('The answer failed: model server unavailable');
    await screenshot(page, 'fixture-job-error');
    await page.click('.msg.assistant .error button');
    await page.waitForSelector('.msg.assistant .answer h2');
  });

  it('re-bootstraps when the anonymous ID is gone', async () => {
    await ready();
    await context.clearCookies();
    await ask('who am I');
    await page.waitForSelector('.msg.assistant .answer h2');
    const calls = ui.fixture.seen.map((r) => `${r.method} ${r.path.split('?')[0]}`);
    const i = calls.lastIndexOf('GET /chat/bootstrap-anon');
    expect(calls.slice(i - 1, i + 2)).toEqual(['POST /chat/message', 'GET /chat/bootstrap-anon', 'POST /chat/message']);
  });

  it('works on a narrow screen with the sidebar behind a button', async () => {
    await page.setViewportSize({ width: 390, height: 800 });
    // A table wider than the screen: it scrolls sideways instead of breaking words letter by letter.
    const wide = [
      '## Wide',
      '',
      '| pathway | organism | description | participants |',
      '|---|---|---|---|',
      '| Glycolysis | Homo sapiens | Conversion of glucose into pyruvate | hexokinase phosphofructokinase |',
    ].join('\n');
    ui.fixture.jobs.splice(0, 1, agentJob(wide));
    await ready();
    expect(await page.isVisible('#sidebar')).toBe(false);
    await ask('small screen');
    await page.waitForSelector('.msg.assistant .answer table');
    const cells = await page.evaluate(() => {
      const ctx = document.createElement('canvas').getContext('2d')!;
      return [...document.querySelectorAll('.msg.assistant .answer td, .msg.assistant .answer th')].map((td) => {
        const cs = getComputedStyle(td);
        ctx.font = cs.font;
        const longest = Math.max(...(td.textContent ?? '').split(/\s+/).map((w) => ctx.measureText(w).width));
        const inner = td.clientWidth - Number.parseFloat(cs.paddingLeft) - Number.parseFloat(cs.paddingRight);
        return { text: td.textContent, fits: inner + 1 >= longest };
      });
    });
    expect(cells.filter((c) => !c.fits)).toEqual([]);
    const table = await page.$eval('.msg.assistant .answer table', (t) => ({ scroll: t.scrollWidth, client: t.clientWidth }));
    expect(table.scroll).toBeGreaterThan(table.client);
    await screenshot(page, 'fixture-narrow-answer');
    await page.click('#sidebar-toggle');
    expect(await page.getAttribute('#sidebar-toggle', 'aria-expanded')).toBe('true');
    expect(await page.isVisible('#sidebar')).toBe(true);
    await screenshot(page, 'fixture-narrow-sidebar');
  });

  it('weighs the first load', async () => {
    const w = await pageWeight(page, ui.url);
    console.log(`page weight (first load, fixture API): ${w.total} bytes`, w.byUrl);
    expect(w.total).toBeGreaterThan(0);
    expect(w.total).toBeLessThan(200_000);
  });
});
