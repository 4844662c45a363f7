/**
 * Source cards and the graph view in headless Chromium, against the scripted API
 * (fixture-api.ts) plus a scripted `GET /graph/node`, behind the real UI server and proxy:
 * a card opens with the keyboard or the mouse and shows the node's properties and neighbours
 * (or its error inline); the Graph button opens a dialog that draws the answer's sources and
 * its tool results' graph with Cytoscape.js (loaded only then) above a text list of the same,
 * closes on Escape or Close and gives focus back. At 1280 and 390 px, with screenshots, and
 * no axe-core (WCAG 2.1 A/AA) violation with a card or the graph view open.
 */
import { Hono } from 'hono';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditStates, axeViolations, launchBrowser, screenshot } from './browser.js';
import { createFixtureApi, type FixtureApi, type FixtureJob } from './fixture-api.js';
import { serveUi, type ServedUi } from './fixture-ui.js';

const OUT = 'test-output/e2e-graph-public';
const ANON = 'fixture-anon-id-graph-0123456789';

const ADA = {
  dbId: 7,
  displayName: 'Ada Lovelace',
  text: 'Mathematician and writer, known for her notes on the Analytical Engine.',
  score: 0.912,
  labels: ['Person'],
  neighbors: [{ type: 'KNOWS', direction: 'out', dbId: 8, displayName: 'Charles Babbage', labels: ['Person'] }],
  degree: 3,
};
const BABBAGE = { dbId: 8, displayName: 'Charles Babbage', text: 'Designer of the Analytical Engine.', score: 0.801, labels: ['Person'] };
const DETAILS = {
  dbId: 7,
  displayName: 'Ada Lovelace',
  labels: ['Person'],
  properties: { born: 1815, name: 'Ada Lovelace', notes: ['Note A', 'Note G', '… [12 more items]'] },
  omitted_properties: ['embedding'],
  degree: 3,
  neighbors: [
    { type: 'KNOWS', direction: 'out', dbId: 8, displayName: 'Charles Babbage', labels: ['Person'] },
    { type: 'WROTE_ABOUT', direction: 'out', dbId: 9, displayName: 'Analytical Engine', labels: ['Machine'] },
  ],
};
const GRAPH = {
  nodes: [
    { id: 8, labels: ['Person'], name: 'Charles Babbage' },
    { id: 9, labels: ['Machine'], name: 'Analytical Engine' },
  ],
  relationships: [{ id: 41, type: 'DESIGNED', start: 8, end: 9 }],
};

const job: FixtureJob = {
  events: [
    { type: 'routing_started', data: {} },
    { type: 'routing_done', data: { route: 'agent', confidence: 0.9, reasoning: 'graph question' } },
    { type: 'agent_step', data: { iteration: 1, model: 'qwen-agent' } },
    { type: 'tool_call', data: { tool: 'graph_query', args: { cypher_query: 'MATCH p = ()-[:DESIGNED]->() RETURN p' } } },
    { type: 'tool_result', data: { tool: 'graph_query', summary: '1 row', graph: GRAPH } },
    {
      type: 'job_done',
      data: {
        session_id: 'x',
        answer: 'Babbage designed the **Analytical Engine**.',
        route_taken: 'agent',
        token_usage: null,
        sources: [ADA, BABBAGE],
      },
    },
  ],
};

let fixture: FixtureApi;
let ui: ServedUi;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const nodeRequests: string[] = [];
/** Console errors and uncaught exceptions of the current page (a CSP refusal shows up here). */
const pageErrors: string[] = [];

beforeAll(async () => {
  fixture = createFixtureApi(ANON);
  // The scripted chat API, plus node details: 7 is known, 8 answers 503, anything else 404.
  const api = new Hono();
  api.get('/graph/node', (c) => {
    nodeRequests.push(new URL(c.req.url).search);
    const id = c.req.query('id');
    if (id === '7') return c.json(DETAILS);
    const status = id === '8' ? 503 : 404;
    const detail = status === 503 ? 'the graph database is unavailable; try again shortly' : 'no node';
    return c.json({ type: 'about:blank', title: 'error', status, detail }, status, { 'content-type': 'application/problem+json' });
  });
  api.all('*', (c) => fixture.app.fetch(c.req.raw));
  ui = await serveUi(OUT, (req) => api.fetch(req));
  browser = await launchBrowser();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  ui?.close();
});

beforeEach(() => {
  fixture.jobs.length = 0;
  fixture.jobs.push(job);
  nodeRequests.length = 0;
});

/** A fresh page of `width` px with one answered question; returns the URLs of the scripts it loaded. */
async function answered(width: number): Promise<string[]> {
  await context?.close();
  context = await browser.newContext({ viewport: { width, height: 860 } });
  page = await context.newPage();
  const scripts: string[] = [];
  pageErrors.length = 0;
  page.on('console', (m) => {
    // The scripted API has no /status (the setup panel stays hidden): that 404 is expected.
    if (m.type() === 'error' && !m.location().url.endsWith('/api/status')) pageErrors.push(`${m.text()} ${m.location().url}`);
  });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('request', (r) => {
    if (r.url().includes('/ui/') && r.url().endsWith('.js')) scripts.push(new URL(r.url()).pathname);
  });
  await page.goto(ui.url);
  await page.waitForSelector('body[data-ready="true"]');
  await page.fill('#composer-input', 'Who designed the Analytical Engine?');
  await page.press('#composer-input', 'Enter');
  await page.waitForSelector('.msg.assistant .graph-open');
  return scripts;
}

const activeClass = () => page.evaluate(() => document.activeElement?.className ?? '');
const dialogOpen = () => page.evaluate(() => (document.getElementById('graph-dialog') as HTMLDialogElement | null)?.open ?? false);

describe('source cards', () => {
  it('show name, labels and score, and open with the keyboard to properties and neighbours', async () => {
    await answered(1280);
    const cards = page.locator('.sources .source');
    expect(await cards.count()).toBe(2);
    const ada = cards.first();
    expect(await ada.locator('summary .source-name').textContent()).toBe('Ada Lovelace');
    expect(await ada.locator('summary .label-chip').allTextContents()).toEqual(['Person']);
    expect(await ada.locator('summary .source-score').textContent()).toBe('score 0.912');
    expect(nodeRequests).toEqual([]);

    await ada.locator('summary').focus();
    await page.keyboard.press('Enter');
    await ada.locator('.props').waitFor();
    expect(nodeRequests).toEqual(['?id=7']);
    expect(await ada.locator('.props dt').allTextContents()).toEqual(['born', 'name', 'notes']);
    expect(await ada.locator('.props dd').allTextContents()).toEqual(['1815', 'Ada Lovelace', 'Note A, Note G, … [12 more items]']);
    expect(await ada.locator('.source-details').textContent()).toContain('Left out: embedding');
    expect(await ada.locator('.neighbors li').allTextContents()).toEqual([
      '-[KNOWS]-> Charles Babbage ID 8Person',
      '-[WROTE_ABOUT]-> Analytical Engine ID 9Machine',
    ]);
    expect(await ada.locator('h3').allTextContents()).toEqual(['Properties', 'Neighbours (2 of 3)']);
    // axe's default rules in both themes at 1280 and 390 px, each shot for review.
    expect(await auditStates(page, 'a11y-source-card')).toEqual({});

    // Closing and opening again does not fetch again.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    expect(nodeRequests).toEqual(['?id=7']);
  });

  it('open with the mouse and show a failure inline, with a retry', async () => {
    await answered(1280);
    const babbage = page.locator('.sources .source').nth(1);
    await babbage.locator('summary').click();
    const error = babbage.locator('.source-details .error[role="alert"]');
    await error.waitFor();
    expect(await error.textContent()).toContain('the graph database is unavailable');
    await error.locator('button').click();
    await error.waitFor();
    expect(nodeRequests).toEqual(['?id=8', '?id=8']);
  });
});

describe('graph view', () => {
  it('opens with the keyboard, draws with Cytoscape loaded on demand, lists the graph, and Escape gives focus back', async () => {
    const scripts = await answered(1280);
    const before = [...scripts];
    // Tab from the last source card reaches the Graph button.
    await page.locator('.sources .source summary').last().focus();
    await page.keyboard.press('Tab');
    expect(await activeClass()).toBe('graph-open');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#graph-dialog[open] .graph-canvas canvas');
    await page.waitForFunction(() => document.querySelector('.graph-status')?.textContent?.includes('relationships;'));
    expect(await activeClass()).toBe('graph-close');
    const loaded = scripts.filter((s) => !before.includes(s));
    expect(loaded).toHaveLength(1);
    expect(loaded[0]).toMatch(/^\/ui\/chunk-[A-Z0-9]{8}\.js$/);

    const list = page.locator('#graph-dialog .graph-lists');
    expect(await list.locator('h3').allTextContents()).toEqual(['Nodes (3)', 'Relationships (2)']);
    expect(await list.locator('.graph-node-list li').allTextContents()).toEqual([
      'Ada Lovelace ID 7Person source',
      'Charles Babbage ID 8Person source',
      'Analytical Engine ID 9Machine',
    ]);
    expect(await list.locator('.graph-rel-list li').allTextContents()).toEqual([
      'Ada Lovelace -[KNOWS]-> Charles Babbage',
      'Charles Babbage -[DESIGNED]-> Analytical Engine',
    ]);
    const drawn = await page.evaluate(() => {
      const c = document.querySelector('#graph-dialog .graph-canvas canvas') as HTMLCanvasElement;
      return { w: c.width, h: c.height };
    });
    expect(drawn.w).toBeGreaterThan(300);
    expect(await auditStates(page, 'a11y-graph-view')).toEqual({});

    await page.keyboard.press('Escape');
    expect(await dialogOpen()).toBe(false);
    expect(await activeClass()).toBe('graph-open');
    expect(pageErrors, pageErrors.join('\n')).toEqual([]);
  });

  it('opens and closes with the mouse; the library is fetched once', async () => {
    const scripts = await answered(1280);
    const before = scripts.length;
    await page.click('.graph-open');
    await page.waitForSelector('#graph-dialog[open] .graph-canvas canvas');
    await page.click('#graph-dialog .graph-close');
    expect(await dialogOpen()).toBe(false);
    expect(await activeClass()).toBe('graph-open');
    await page.click('.graph-open');
    await page.waitForSelector('#graph-dialog[open] .graph-canvas canvas');
    expect(scripts.slice(before)).toEqual([expect.stringMatching(/^\/ui\/chunk-/)]);
  });

  it('fits a 390 px screen: cards and the dialog stay inside it, Space opens both', async () => {
    await answered(390);
    const ada = page.locator('.sources .source').first();
    await ada.locator('summary').focus();
    await page.keyboard.press('Space');
    await ada.locator('.props').waitFor();
    await screenshot(page, 'graph14-source-card-390');
    expect(await axeViolations(page)).toEqual([]);

    await page.locator('.graph-open').focus();
    await page.keyboard.press('Space');
    await page.waitForSelector('#graph-dialog[open] .graph-canvas canvas');
    const box = await page.locator('#graph-dialog').boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(overflow).toBeLessThanOrEqual(390);
    await screenshot(page, 'graph14-graph-view-390');
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    expect(await activeClass()).toBe('graph-open');
  });
});
