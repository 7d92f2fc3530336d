// Every parameter value is data (issue 16): hostile and odd values of every parameter of /search/,
// a tag page's panel and /members/ (and /links/'s tag) are used or ignored with a visible note,
// never an exception; the search still answers. Real Chromium on the sample content.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildSampleSite } from '../helpers/build.ts';
import { serveStatic, type StaticHost } from '../../src/cli/static-server.ts';
import { launchChromium, SEARCH_SHOWN } from '../helpers/browser.ts';
import { ODD_VALUES, SEARCH_PARAMS, MEMBER_PARAMS } from '../unit/odd-values.ts';

let browser: Browser;
let site: StaticHost;
let context: BrowserContext;

beforeAll(async () => {
  site = await serveStatic(await buildSampleSite('params'));
  browser = await launchChromium();
  context = await browser.newContext();
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** Opens `path`, failing on any script error; resolves once its answer is shown. */
async function open(path: string, done: string): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${site.url}${path}`);
  await page.waitForFunction(done, undefined, { timeout: 15_000 });
  return { page, errors };
}

const searchDone = SEARCH_SHOWN;
const membersDone = `!document.documentElement.hasAttribute('data-address-filters')`;

describe.each([
  ['/search/', SEARCH_PARAMS, searchDone],
  ['/tags/api/', SEARCH_PARAMS.filter((name) => name !== 'tags'), searchDone],
  ['/members/', MEMBER_PARAMS, membersDone],
  ['/links/', ['tag'], membersDone],
])('%s', (path, params, done) => {
  it.each(ODD_VALUES.map((value) => [JSON.stringify(value).slice(0, 40), value] as const))('every parameter = %s: used or ignored with a note, never an exception', async (_label, value) => {
    const search = new URLSearchParams(params.map((name) => [name, value]));
    const { page, errors } = await open(`${path}?${search}`, done);
    expect(errors).toEqual([]);
    expect(await page.locator('[data-result-count], [data-link-count]').first().isVisible()).toBe(true);
    const notes = await page.$$eval('[data-search-notes] p', (all) => all.map((p) => p.textContent ?? ''));
    if (path !== '/links/') {
      // A value no enumerated parameter takes is named in a visible note.
      expect(notes.some((note) => /^Ignored (sort|page)=/.test(note)), notes.join('\n')).toBe(true);
      expect(await page.locator('[data-search-notes]').isVisible()).toBe(true);
    }
    await page.close();
  });

  it('a parameter named like an Object.prototype member is ignored quietly', async () => {
    const { page, errors } = await open(`${path}?__proto__=1&constructor=x&toString=y&hasOwnProperty=z`, done);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('the issue\'s own addresses', () => {
  it.each(['/search/?sort=constructor', '/search/?sort=__proto__', '/search/?words=__proto__', '/search/?in=constructor', '/tags/api/?sort=__proto__'])('%s names the ignored value and shows results', async (path) => {
    const { page, errors } = await open(path, searchDone);
    expect(errors).toEqual([]);
    const notes = await page.$$eval('[data-search-notes] p', (all) => all.map((p) => p.textContent ?? ''));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^Ignored (sort|words|in)="(constructor|__proto__)"/);
    expect(await page.locator('[data-results] [data-result]').count()).toBeGreaterThan(0);
    await page.close();
  });

  it('?tags=api&words=__proto__ searches the tag (the bad value ignored), not every topic', async () => {
    const { page } = await open('/search/?tags=api&words=__proto__', searchDone);
    expect(await page.textContent('[data-search-heading]')).toBe("Showing results for tags 'api'");
    await page.close();
  });
});
