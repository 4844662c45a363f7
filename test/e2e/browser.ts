/**
 * Headless Chromium for end-to-end tests: Debian's `chromium` (scripts/install-chromium.sh)
 * driven by playwright-core, since Playwright's own browser download is not available here.
 */
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
