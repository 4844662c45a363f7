/**
 * The setup panel's text plan table against the real service: a graph with a label whose text
 * is discovered (a name, prose, and properties left out for several reasons, one of them named
 * like markup) and a label with no text, `INDEX_LABELS` naming just these two and no index yet,
 * so the panel shows what a build would index. The table has a row per label with its cells,
 * the reasons are folded under a count and open on a click, a redraw keeps them open, graph
 * names stay text, axe finds nothing, and a phone width scrolls the table inside its box. Screenshots go to
 * test-output/screenshots/setup-plan-*.png.
 */
import { randomUUID } from 'node:crypto';
import neo4j, { type Driver } from 'neo4j-driver';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, launchBrowser, screenshot } from './browser.js';
import { startE2eServer, type E2eServer } from './server.js';

const tag = randomUUID().slice(0, 8);
const LABEL = `E2ePlan_${tag}`;
const EMPTY = `E2ePlanNone_${tag}`;
/** A property name that is markup: it must show as text. */
const HOSTILE = '<img src=x onerror="window.__xss=1">';
const NODES = 12;

let driver: Driver;
let server: E2eServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  driver = neo4j.driver(`bolt://127.0.0.1:${process.env.TEST_GRAPHDB_PORT ?? '1234'}`);
  const rows = Array.from({ length: NODES }, (_, i) => ({
    name: `Gadget ${['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot', 'Golf', 'Hotel', 'India', 'Juliet', 'Kilo', 'Lima'][i]}`,
    description: `A hand-made gadget number ${i} that folds paper ${i + 2} times and hums a tune while it works.`,
    note: `Kept on shelf ${i} beside the ${i % 2 ? 'window' : 'door'}, dusted every ${i + 1} days by the owner.`,
    sku: `SKU-${1000 + i}`,
    released: 1990 + i,
    homepage: `https://example.org/gadgets/${i}`,
    category: i % 2 ? 'kitchen' : 'garden',
  }));
  await driver.executeQuery(
    `UNWIND $rows AS r
     CREATE (n:${LABEL}) SET n.name = r.name, n.description = r.description, n.\`${HOSTILE}\` = r.note,
       n.sku = r.sku, n.released = toInteger(r.released), n.homepage = r.homepage, n.category = r.category`,
    { rows },
  );
  await driver.executeQuery(`UNWIND range(1, 3) AS i CREATE (:${EMPTY} {code: 'AB' + toString(i)})`);
  server = await startE2eServer({ INDEX_LABELS: `${LABEL},${EMPTY}`, VECTOR_INDEX_NAME: `e2e_plan_${tag}` });
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1200, height: 900 } })).newPage();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await driver?.executeQuery(`MATCH (n) WHERE n:${LABEL} OR n:${EMPTY} DETACH DELETE n`);
  await driver?.close();
});

/** Opens the page until the panel has the plan (a slow first preview serves the next report). */
async function openPanel(): Promise<void> {
  await page.goto(server.uiUrl);
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForSelector('#setup:not([hidden])');
  for (let i = 0; i < 20 && !(await page.$('#setup-plan')); i++) {
    await page.click('#setup-recheck');
    await page.waitForTimeout(500);
  }
  await page.waitForSelector('#setup-plan');
}

const cells = (label: string) => page.locator(`#setup-plan tr[data-label="${label}"] > *`).allTextContents();

describe('setup panel: the text plan table', () => {
  it('has a row per label with its cells, under a caption and column headers', async () => {
    await openPanel();
    // Folded while the graph has text to index.
    expect(await page.getAttribute('#setup-plan', 'open')).toBeNull();
    expect(await page.isVisible('.plan-table')).toBe(false);
    await page.click('#setup-plan > summary');
    expect(await page.isVisible('.plan-table')).toBe(true);
    await page.locator('.plan-table').scrollIntoViewIfNeeded();

    expect(await page.textContent('.plan-table caption')).toBe('2 labels in the text plan');
    expect(await page.getAttribute('.plan-scroll', 'aria-labelledby')).toBe('setup-plan-caption');
    expect(await page.locator('.plan-table thead th[scope="col"]').allTextContents()).toEqual([
      'Label',
      'Nodes',
      'Name',
      'Text',
      'Skipped',
    ]);
    expect(await page.locator('.plan-table tbody th[scope="row"]').count()).toBe(2);
    expect(await page.locator('.plan-table tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-label')))).toEqual([
      LABEL,
      EMPTY,
    ]);

    const [label, nodes, name, text, skipped] = await cells(LABEL);
    expect(label).toBe(`${LABEL}discovered`);
    expect(nodes).toBe(String(NODES));
    expect(name).toBe('name');
    // The markup-named property reads as prose: it is text, shown as its name.
    expect(text?.split(', ').sort()).toEqual([HOSTILE, 'description'].sort());
    expect(skipped).toMatch(/^4 skipped/);

    expect(await cells(EMPTY)).toEqual([`${EMPTY}no text found`, '3', 'none', 'nothing indexed', expect.stringMatching(/^1 skipped/)]);
    await screenshot(page, 'setup-plan-table');
  });

  it('folds the reasons under the count, in words, and opens them on a click', async () => {
    const row = page.locator(`#setup-plan tr[data-label="${LABEL}"]`);
    const reasons = row.locator('.plan-skipped li');
    expect(await row.locator('.plan-skipped summary').textContent()).toBe('4 skipped');
    expect(await row.locator('.plan-skipped').getAttribute('open')).toBeNull();
    expect(await reasons.first().isVisible()).toBe(false);

    await row.locator('.plan-skipped summary').click();
    expect(await reasons.first().isVisible()).toBe(true);
    const byProperty = Object.fromEntries(
      await reasons.evaluateAll((lis) => lis.map((li) => [li.getAttribute('data-property'), li.textContent])),
    );
    expect(Object.keys(byProperty).sort()).toEqual(['category', 'homepage', 'released', 'sku']);
    expect(byProperty.released).toBe('released — holds INTEGER values');
    expect(byProperty.sku).toBe('sku — named as an identifier or code');
    expect(byProperty.homepage).toBe('homepage — named as a link, address or file path');
    expect(byProperty.category).toMatch(/^category — a category: 2 distinct values in \d+ nodes$/);
    await screenshot(page, 'setup-plan-reasons');
  });

  it('keeps what the reader opened, and the focus, when the panel redraws on a re-check', async () => {
    await page.locator('.plan-table').evaluate((t) => t.setAttribute('data-old', ''));
    await page.click('#setup-recheck');
    await page.waitForSelector('.plan-table:not([data-old])');
    expect(await page.getAttribute('#setup-plan', 'open')).toBe('');
    expect(await page.getAttribute(`#setup-plan tr[data-label="${LABEL}"] .plan-skipped`, 'open')).toBe('');
    expect(await page.getAttribute(`#setup-plan tr[data-label="${EMPTY}"] .plan-skipped`, 'open')).toBeNull();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('setup-recheck');
  });

  it('keeps graph names as text, passes axe, and scrolls inside its box on a phone', async () => {
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.locator('#setup img').count()).toBe(0);
    expect(await page.locator('#setup-plan code', { hasText: HOSTILE }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);

    await page.setViewportSize({ width: 390, height: 860 });
    const widths = await page.evaluate(() => {
      const box = document.querySelector('.plan-scroll')!;
      return { page: document.documentElement.scrollWidth, box: box.clientWidth, table: box.scrollWidth };
    });
    expect(widths.page).toBeLessThanOrEqual(390);
    expect(widths.box).toBeGreaterThan(300);
    expect(widths.table).toBeGreaterThan(widths.box);
    expect(await axeViolations(page)).toEqual([]);
    await page.locator('.plan-table').scrollIntoViewIfNeeded();
    await screenshot(page, 'setup-plan-phone');
    await page.locator('.plan-scroll').evaluate((box) => (box.scrollLeft = box.scrollWidth));
    await screenshot(page, 'setup-plan-phone-scrolled');
  });
});
