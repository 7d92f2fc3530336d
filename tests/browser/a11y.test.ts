// Accessibility of the search (axe-core in real Chromium): /search/ with results, facets and an
// open custom date range, and a tag page with its filter panel open and used, have no serious or
// critical violations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildSampleSite } from '../helpers/build.ts';
import { serveStatic, type StaticHost } from '../../src/cli/static-server.ts';
import { launchChromium } from '../helpers/browser.ts';
import { seriousViolations } from '../helpers/axe.ts';

let browser: Browser;
let site: StaticHost;

beforeAll(async () => {
  site = await serveStatic(await buildSampleSite('a11y'));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

const done = (page: Page) => page.waitForSelector('[data-search-root][data-search-state="done"]');

describe('axe-core', () => {
  it('finds no serious or critical violation on /search/ with results', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${site.url}/search/?tags=api,json&created=custom&created_from=2025-01-01`);
    await done(page);
    expect(await page.locator('[data-results] [data-result]').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-facets] [data-facet-value]').count()).toBeGreaterThan(0);
    expect(await page.locator('#search-created_from').isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('finds no serious or critical violation on a tag page with its filter panel open', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${site.url}/tags/api/`);
    await page.click('details.filter-panel summary');
    expect(await page.locator('details.filter-panel [data-search-form]').isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.fill('#search-min_replies', '3');
    await page.press('#search-min_replies', 'Enter');
    await done(page);
    expect(await page.locator('[data-facets] [data-facet-value]').count()).toBeGreaterThan(0);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});
