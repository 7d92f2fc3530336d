// Accessibility of the search (axe-core in real Chromium): /search/ with results, facets and an
// open custom date range, and a tag page with its filter panel open and used, have no serious or
// critical violations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { buildSampleSite } from '../helpers/build.ts';
import { serveStatic, type StaticHost } from '../helpers/static-server.ts';
import { launchChromium } from '../helpers/browser.ts';

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

/** The serious and critical violations on the page as it is now, one line each (rule: elements). */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations, passes } = await new AxeBuilder({ page }).analyze();
  expect(passes.length, 'axe ran its rules').toBeGreaterThan(10);
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

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
