import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { existsSync } from 'node:fs';

/** Debian's Chromium (installed by .ci/run); CHROMIUM_PATH overrides. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Launches the real, headless Chromium with the flags this closed network needs (Playwright gives it
 * a fresh profile), and `extra` flags (`--force-effective-connection-type=3G`: a slow connection,
 * in pages and workers alike).
 */
export async function launchChromium(extra: string[] = []): Promise<Browser> {
  if (!existsSync(chromiumPath)) throw new Error(`Chromium not found at ${chromiumPath}: run .ci/run or apt-get install chromium`);
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...extra,
    ],
  });
}

/**
 * True in a page once its search shows the address's own answer: results painted (SPEC 4.1
 * `data-search-state`) and first-paint.js's hold on the static listing dropped. A string, so it
 * runs as it is in the page.
 */
export const SEARCH_SHOWN = `document.querySelector('[data-search-root]')?.dataset.searchState === 'done' && !document.documentElement.hasAttribute('data-address-filters')`;

/** Opens `url` in a new page of `context` with the page's clock fixed at `now`, once its search is shown. */
export async function openSearch(context: BrowserContext, url: string, now: Date): Promise<Page> {
  const page = await context.newPage();
  await page.clock.setFixedTime(now);
  await page.goto(url);
  await page.waitForFunction(SEARCH_SHOWN);
  return page;
}

/**
 * Sets a text field's value without an input event, and presses Enter: one search and one history
 * entry. (Filled by typing, a search field also searches when typing pauses for 180 ms; on a slow
 * machine that search came before the Enter, with a history entry and an address of its own.)
 */
export async function enterValue(page: Page, selector: string, value: string): Promise<void> {
  await page.$eval(selector, (field, text) => void ((field as HTMLInputElement).value = text), value);
  await page.press(selector, 'Enter');
}
