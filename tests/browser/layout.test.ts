/**
 * The look, measured in real Chromium: every page type fits a 360 px phone without sideways
 * scrolling, keyboard focus is always visible, the dark scheme is applied, and nothing moves when
 * search results, member results or the workflow list arrive (no layout shift).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { buildSampleSite } from '../helpers/build.ts';
import { serveStatic, type StaticHost } from '../../src/cli/static-server.ts';
import { launchChromium } from '../helpers/browser.ts';
import { PAGE_TYPES } from './page-types.ts';

let browser: Browser;
let site: StaticHost;

beforeAll(async () => {
  site = await serveStatic(await buildSampleSite('layout'));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

async function withContext<T>(options: Parameters<Browser['newContext']>[0], use: (context: BrowserContext) => Promise<T>): Promise<T> {
  const context = await browser.newContext(options);
  try {
    return await use(context);
  } finally {
    await context.close();
  }
}

describe('at 360 px', () => {
  it.each(PAGE_TYPES)('the $name page has no sideways scrolling, light or dark', async ({ path, ready }) => {
    for (const colorScheme of ['light', 'dark'] as const) {
      await withContext({ viewport: { width: 360, height: 740 }, colorScheme }, async (context) => {
        const page = await context.newPage();
        await page.goto(`${site.url}${path}`);
        if (ready) await page.waitForSelector(ready);
        const { scrollWidth, innerWidth, wide } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          innerWidth: window.innerWidth,
          // What sticks out, to say what to fix (a code block's lines scroll inside it, not the page).
          wide: [...document.querySelectorAll('body *')]
            .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1 && !element.closest('.visually-hidden, .skip, pre'))
            .slice(0, 3)
            .map((element) => `${element.tagName.toLowerCase()}.${element.className}`),
        }));
        expect(wide, `${path} (${colorScheme})`).toEqual([]);
        expect(scrollWidth, `${path} (${colorScheme})`).toBeLessThanOrEqual(innerWidth);
      });
    }
  });
});

describe('code blocks', () => {
  it('keep their lines and indentation on a phone, scrolling sideways inside the block', async () => {
    await withContext({ viewport: { width: 360, height: 740 } }, async (context) => {
      const page = await context.newPage();
      await page.goto(`${site.url}/topics/csv-to-json-converter/`);
      const block = await page.locator('.post pre').first().evaluate((pre) => ({
        whiteSpace: getComputedStyle(pre).whiteSpace,
        overflowX: getComputedStyle(pre).overflowX,
        scrolls: pre.scrollWidth > pre.clientWidth,
        lines: pre.textContent!.split('\n').filter(Boolean).length,
        height: pre.getBoundingClientRect().height,
        lineHeight: parseFloat(getComputedStyle(pre.querySelector('code') ?? pre).lineHeight),
      }));
      expect(block.whiteSpace).toBe('pre');
      expect(block.overflowX).toBe('auto');
      expect(block.scrolls).toBe(true);
      // One row per line of code: nothing wrapped (padding and the scroll bar aside).
      expect(block.height).toBeLessThan((block.lines + 3) * block.lineHeight);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    });
  });
});

describe('colours', () => {
  it('follow prefers-color-scheme: dark background and light text in the dark', async () => {
    const colours = async (colorScheme: 'light' | 'dark') =>
      withContext({ colorScheme }, async (context) => {
        const page = await context.newPage();
        await page.goto(`${site.url}/tags/api/`);
        return page.evaluate(() => {
          const luminance = (css: string) => {
            const [r, g, b] = css.match(/\d+(\.\d+)?/g)!.map(Number);
            return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
          };
          const body = getComputedStyle(document.body);
          return { background: luminance(body.backgroundColor), text: luminance(body.color) };
        });
      });
    const light = await colours('light');
    const dark = await colours('dark');
    expect(light.background).toBeGreaterThan(200);
    expect(light.text).toBeLessThan(60);
    expect(dark.background).toBeLessThan(40);
    expect(dark.text).toBeGreaterThan(200);
  });
});

describe('keyboard focus', () => {
  it('is visible on every stop of the first tabs through a page, starting with the skip link', async () => {
    await withContext({ viewport: { width: 1280, height: 800 } }, async (context) => {
      const page = await context.newPage();
      await page.goto(`${site.url}/search/?q=json`);
      await page.waitForSelector('[data-search-root][data-search-state="done"]');
      const stops: string[] = [];
      for (let i = 0; i < 12; i++) {
        await page.keyboard.press('Tab');
        const focus = await page.evaluate(() => {
          const element = document.activeElement as HTMLElement;
          const style = getComputedStyle(element);
          const box = element.getBoundingClientRect();
          return {
            name: `${element.tagName.toLowerCase()} ${element.textContent?.trim().slice(0, 20) ?? ''}`,
            outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
            onScreen: box.width > 0 && box.height > 0 && box.left >= 0 && box.top >= 0 && box.right <= innerWidth,
          };
        });
        stops.push(focus.name);
        expect(focus.outline, `outline on ${focus.name}`).toBe(true);
        expect(focus.onScreen, `${focus.name} on screen`).toBe(true);
      }
      expect(stops[0]).toBe('a Skip to content');
      expect(stops.some((stop) => stop.startsWith('input'))).toBe(true);
    });
  });
});

describe('no layout shift when results arrive', () => {
  const CASES = [
    { path: '/search/?q=json', ready: '[data-search-root][data-search-state="done"]' },
    { path: '/search/?tags=api&sort=views', ready: '[data-search-root][data-search-state="done"]' },
    { path: '/tags/api/', ready: '[data-search-root] [data-needs-js]:not([hidden])' },
    { path: '/members/?q=o', ready: '[data-member-root][data-search-state="done"]' },
    { path: '/workflows/', ready: '[data-workflow-client][data-state="ready"]' },
  ];
  it.each(CASES.flatMap((entry) => [360, 1280].map((width) => ({ ...entry, width }))))('$path at $width px', async ({ path, ready, width }) => {
    await withContext({ viewport: { width, height: 800 } }, async (context) => {
      const page = await context.newPage();
      await page.addInitScript(() => {
        const shifts: Array<{ value: number; sources: string[] }> = [];
        (window as unknown as { shifts: typeof shifts }).shifts = shifts;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Array<{ node?: Node }> }>) {
            if (!entry.hadRecentInput) shifts.push({ value: entry.value, sources: (entry.sources ?? []).map((source) => source.node?.nodeName ?? '?') });
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await page.goto(`${site.url}${path}`);
      await page.waitForSelector(ready);
      // Let anything the results set off (facets, counts, suggestions) land too.
      await page.waitForTimeout(400);
      const shifts = await page.evaluate(() => (window as unknown as { shifts: Array<{ value: number; sources: string[] }> }).shifts);
      const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
      expect(total, JSON.stringify(shifts)).toBeLessThan(0.005);
    });
  });
});
