/**
 * Accessibility of every page type (axe-core in real Chromium), in the light and the dark colour
 * scheme and at phone and desktop widths: no serious or critical violation, scripts finished.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { buildSampleSite } from '../helpers/build.ts';
import { serveStatic, type StaticHost } from '../../src/cli/static-server.ts';
import { launchChromium } from '../helpers/browser.ts';
import { seriousViolations } from '../helpers/axe.ts';
import { PAGE_TYPES } from './page-types.ts';


let browser: Browser;
let site: StaticHost;

beforeAll(async () => {
  site = await serveStatic(await buildSampleSite('a11y-pages'));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe.each([
  { scheme: 'light' as const, width: 1280 },
  { scheme: 'dark' as const, width: 360 },
])('axe-core, $scheme colours at $width px', ({ scheme, width }) => {
  it.each(PAGE_TYPES)('finds no serious or critical violation on the $name page', async ({ path, ready }) => {
    const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme: scheme });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const response = await page.goto(`${site.url}${path}`);
    expect(response?.status()).toBe(path.startsWith('/no/') ? 404 : 200);
    if (ready) await page.waitForSelector(ready);
    expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(scheme === 'dark');
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
