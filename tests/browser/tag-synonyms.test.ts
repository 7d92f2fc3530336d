// Tag synonyms and intersections in real Chromium on a static server (tests/fixtures/tag-synonyms):
// a synonym's old tag address lands on its tag's page without script; an intersection page lists
// and paginates its topics with JavaScript off; `tags=<synonym>` on /search/ finds the tag's topics.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildSite } from '../helpers/build.ts';
import { launchChromium, SEARCH_SHOWN } from '../helpers/browser.ts';
import { fixturesDir, tempConfig } from '../build/fixture-copies.ts';
import { serveStatic, type StaticHost } from '../../src/cli/static-server.ts';

let browser: Browser;
let site: StaticHost;
let noScript: BrowserContext;
let config: ReturnType<typeof tempConfig>;

beforeAll(async () => {
  config = tempConfig('{ pageSize: 5, intersections: { minTopics: 3, maxPages: 2 } }');
  const { outDir } = await buildSite(join(fixturesDir, 'tag-synonyms'), config.env);
  site = await serveStatic(outDir);
  browser = await launchChromium();
  noScript = await browser.newContext({ javaScriptEnabled: false });
});

afterAll(async () => {
  config?.remove();
  await browser?.close();
  await site?.close();
});

const shownSlugs = (page: Page) => page.$$eval('[data-results] [data-result]', (entries) => entries.map((entry) => entry.getAttribute('data-topic')));

it('a synonym’s old tag address lands on the canonical tag page, with JavaScript off', async () => {
  const page = await noScript.newPage();
  await page.goto(`${site.url}/tags/js/`);
  await page.waitForURL(`${site.url}/tags/javascript/`, { timeout: 10_000 });
  await expect(page.locator('[data-search-heading]').textContent()).resolves.toBe("Showing results for tags 'javascript'");
  await expect(page.locator('[data-result-count]').textContent()).resolves.toBe('Found 7 results');
  await expect(page.locator('[data-tag-description]').textContent()).resolves.toContain('Scripts in JavaScript');
  await page.close();
});

it('an intersection page lists and paginates its topics with JavaScript off', async () => {
  const page = await noScript.newPage();
  await page.goto(`${site.url}/tags/javascript/`);
  await page.click('[data-related-tag="json"]');
  await page.waitForURL(`${site.url}/tags/intersection/javascript/json/`);
  await expect(page.locator('[data-search-heading]').textContent()).resolves.toBe("Showing results for tags 'javascript' and 'json'");
  await expect(page.locator('[data-result-count]').textContent()).resolves.toBe('Found 7 results');
  await expect(page.locator('[data-results] [data-result]').first().isVisible()).resolves.toBe(true);
  expect(await shownSlugs(page)).toEqual(['json-diff', 'fetch-json-api', 'json-to-csv', 'both-spellings', 'pretty-print-json']);
  await page.click('[data-pagination] a[rel="next"]');
  await page.waitForURL(`${site.url}/tags/intersection/javascript/json/2/`);
  expect(await shownSlugs(page)).toEqual(['json-schema-check', 'parse-json-in-js']);
  await page.close();
});

it('tags=<synonym> on /search/ finds the canonical tag’s topics', async () => {
  const page = await browser.newPage();
  await page.goto(`${site.url}/search/?tags=js`);
  await page.waitForFunction(SEARCH_SHOWN);
  await expect(page.locator('[data-result-count]').textContent()).resolves.toBe('Found 7 results');
  expect((await shownSlugs(page)).length).toBe(5);
  await expect(page.locator('[data-tag-note]').textContent()).resolves.toBe('');
  // Shown and addressed as the canonical tag, in place of the synonym's address (no extra history entry).
  expect(new URL(page.url()).search).toBe('?tags=javascript');
  await expect(page.locator('[data-search-heading]').textContent()).resolves.toBe("Showing results for tags 'javascript'");
  await expect(page.inputValue('#search-tags')).resolves.toBe('javascript');
  const plain = await browser.newPage();
  await plain.goto(`${site.url}/search/?tags=javascript`);
  expect(await page.evaluate(() => history.length)).toBe(await plain.evaluate(() => history.length));
  await plain.close();
  await page.close();
});
