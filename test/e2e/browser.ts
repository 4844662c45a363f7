/**
 * Headless Chromium for end-to-end tests: Debian's `chromium` (scripts/test/install-chromium.sh)
 * driven by playwright-core, since Playwright's own browser download is not available here.
 */
import axe from 'axe-core';
import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Where the screenshots of the main states go (reviewed by hand). */
export const SCREENSHOTS = 'test-output/screenshots';

/** Launches the browser; `CHROMIUM_PATH` overrides `/usr/bin/chromium`. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Saves a full-page screenshot as `test-output/screenshots/<name>.png`. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = `${SCREENSHOTS}/${name}.png`;
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Bytes a page load transferred (headers + encoded bodies), per URL and in total. */
export async function pageWeight(page: Page, url: string): Promise<{ total: number; byUrl: Record<string, number> }> {
  const byUrl: Record<string, number> = {};
  const pending: Promise<void>[] = [];
  page.on('requestfinished', (req) => {
    pending.push(
      req.sizes().then((s) => {
        byUrl[req.url()] = (byUrl[req.url()] ?? 0) + s.responseBodySize + s.responseHeadersSize;
      }),
    );
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await Promise.all(pending);
  return { total: Object.values(byUrl).reduce((a, b) => a + b, 0), byUrl };
}

/** A rule axe found broken, with where (CSS selectors) and why. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string; summary: string }>;
}

/**
 * Runs axe-core's default rules (WCAG A/AA and best practices, colour contrast included) on the
 * page as it is now, and returns the violations. The source goes in through `evaluate`, which
 * the page's Content-Security-Policy (no inline script) does not apply to.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const run = (window as unknown as { axe: typeof axe }).axe.run;
    const res = await run(document, { resultTypes: ['violations'] });
    return res.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary ?? '' })),
    }));
  });
}

/** The two themes and the two widths every main state is checked and shot in. */
export const THEMES = ['light', 'dark'] as const;
export const WIDTHS = [1280, 390] as const;

/**
 * Checks the page's current state in both themes at both widths: zero axe violations in each, and
 * a screenshot `<name>-<theme>-<width>.png` of each. The theme is set on the root element
 * directly (a modal dialog makes the header's selector unreachable); the viewport and theme the
 * page had are restored afterwards. Returns the violations found, keyed by combination (and
 * `themes` when both themes paint the same page background: the dark one is not applied).
 */
export async function auditStates(page: Page, name: string): Promise<Record<string, AxeViolation[]>> {
  const before = page.viewportSize() ?? { width: 1280, height: 860 };
  const theme = await page.evaluate(() => document.documentElement.dataset.theme ?? 'light');
  const found: Record<string, AxeViolation[]> = {};
  const backgrounds = new Set<string>();
  try {
    for (const t of THEMES) {
      await page.evaluate((v) => (document.documentElement.dataset.theme = v), t);
      backgrounds.add(await page.evaluate(() => getComputedStyle(document.body).backgroundColor));
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: before.height });
        const v = await axeViolations(page);
        if (v.length) found[`${t}-${width}`] = v;
        await screenshot(page, `${name}-${t}-${width}`);
      }
    }
  } finally {
    await page.setViewportSize(before);
    await page.evaluate((v) => (document.documentElement.dataset.theme = v), theme);
  }
  // Two passes in one theme would check nothing new: the themes must look different.
  if (backgrounds.size < THEMES.length)
    found.themes = [{ id: 'theme-not-applied', impact: null, help: 'both themes paint the same background', nodes: [] }];
  return found;
}
