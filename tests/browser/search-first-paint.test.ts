// A listing's first paint (SPEC 9, issue 16) in real Chromium on the sample content: a page opened
// with filters in its address never shows another query's answer, in any frame, while its data is
// held back; without JavaScript it says the filters were not applied. On a phone the results of a
// search come first, with the form folded into "Edit filters"; the count is a polite live region.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { buildSite, copyOfSampleContent } from '../helpers/build.ts';
import { projectRoot } from '../helpers/cli.ts';
import { serveStatic, type StaticHost } from '../../src/cli/static-server.ts';
import { launchChromium } from '../helpers/browser.ts';
import { tempConfig } from '../build/fixture-copies.ts';
import { loadContent, type SiteContent } from '../../src/content/load.ts';
import type { VocabFile } from '../../src/search/index-format.ts';
import { TYPOS_BELOW } from '../../src/search/word-match.ts';

const PAGE_SIZE = 7;
let content: SiteContent;
let browser: Browser;
let site: StaticHost;
let siteDir: string;
let withJs: BrowserContext;
let noJs: BrowserContext;

beforeAll(async () => {
  const contentDir = copyOfSampleContent('first-paint');
  content = loadContent({ root: projectRoot, contentDir, excerptLength: 200 }).content;
  const config = tempConfig(`{ pageSize: ${PAGE_SIZE} }`);
  try {
    const { outDir } = await buildSite(contentDir, config.env);
    siteDir = outDir;
    site = await serveStatic(outDir);
  } finally {
    config.remove();
  }
  browser = await launchChromium();
  withJs = await browser.newContext();
  noJs = await browser.newContext({ javaScriptEnabled: false });
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** What each painted frame showed, recorded from before the page's own scripts run. */
interface Frame {
  /** Entries visible: topic slugs, member names, link record hrefs. */
  entries: string[];
  /** The count's text when visible, else null. */
  count: string | null;
  heading: string | null;
  searching: boolean;
  marked: boolean;
  /** The whole document was parsed (its footer is there). */
  parsed: boolean;
}

function recordFrames(): void {
  const frames: Frame[] = [];
  (window as unknown as { frames_: Frame[] }).frames_ = frames;
  const seen = (element: Element | null) => !!element && element.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  const tick = () => {
    const entries = [...document.querySelectorAll('[data-result], [data-member], [data-link-records] > [data-link-record]')]
      .filter(seen)
      .map((e) => e.getAttribute('data-topic') ?? e.getAttribute('data-name') ?? e.getAttribute('data-link') ?? '?');
    const count = document.querySelector('[data-result-count], [data-link-count]');
    const heading = document.querySelector('[data-search-heading]');
    frames.push({
      entries,
      count: seen(count) ? count!.textContent : null,
      heading: seen(heading) ? heading!.textContent : null,
      searching: seen(document.querySelector('[data-searching]')),
      marked: document.documentElement.hasAttribute('data-address-filters'),
      parsed: !!document.querySelector('.site-footer'),
    });
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/** Opens `path` with the requests matching `held` held back until `release()` is called. */
async function openHeld(path: string, held: string | RegExp, context = withJs): Promise<{ page: Page; release: () => Promise<void> }> {
  const page = await context.newPage();
  await page.addInitScript(recordFrames);
  const waiting: Route[] = [];
  let released = false;
  await page.route(held, (route) => (released ? route.continue() : void waiting.push(route)));
  await page.goto(`${site.url}${path}`, { waitUntil: 'commit' });
  return {
    page,
    release: async () => {
      released = true;
      await Promise.all(waiting.splice(0).map((route) => route.continue()));
    },
  };
}

const frames = (page: Page) => page.evaluate(() => (window as unknown as { frames_: Frame[] }).frames_);

describe('first paint with filters in the address', () => {
  const searches = ['/search/?q=webhook', '/search/?type=automation', '/search/?tags=api&min_replies=5&page=2', '/tags/api/?min_replies=5&sort=views'];

  it.each(searches)('%s shows a searching state, the filled-in form and no other answer until its results are ready', async (path) => {
    const { page, release } = await openHeld(path, '**/search-index/**');
    // The index is held: the page can only show that it is searching.
    await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-search-root]')?.dataset.searchState === 'running');
    await page.waitForTimeout(300);
    const all = await frames(page);
    // Frames before the whole document is parsed show less, never more: no entry may show in any.
    for (const frame of all) expect(frame).toMatchObject({ entries: [], count: null, heading: null });
    const before = all.filter((frame) => frame.parsed);
    expect(before.length, 'frames were painted').toBeGreaterThan(2);
    for (const frame of before) {
      expect(frame, 'no static entry, count or heading while searching').toMatchObject({ entries: [], count: null, heading: null, searching: true, marked: true });
    }
    const params = new URL(path, site.url).searchParams;
    if (params.get('q')) expect(await page.inputValue('#search-q')).toBe(params.get('q'));
    if (params.get('tags')) expect(await page.inputValue('#search-tags')).toBe(params.get('tags'));
    if (params.get('min_replies')) expect(await page.inputValue('#search-min_replies')).toBe(params.get('min_replies'));
    expect(await page.locator('[data-searching]').textContent()).toMatch(/^Searching/);
    await release();
    await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-search-root]')?.dataset.searchState === 'done');
    expect(await page.locator('[data-searching]').isVisible()).toBe(false);
    expect(await page.locator('[data-result-count]').isVisible()).toBe(true);
    const shownAt = (await frames(page)).findIndex((frame) => !frame.marked);
    expect(shownAt).toBeGreaterThan(0);
    await page.close();
  });

  it('keeps the static answer, with no index fetched, for the address it answers (and for parameters that change nothing)', async () => {
    for (const path of ['/search/', '/search/?q=', '/search/?page=1&utm_source=feed', '/tags/api/?sort=updated']) {
      const requests: string[] = [];
      const page = await withJs.newPage();
      await page.addInitScript(recordFrames);
      page.on('request', (request) => requests.push(new URL(request.url()).pathname));
      await page.goto(`${site.url}${path}`);
      await page.waitForLoadState('networkidle');
      expect(requests.filter((p) => p.startsWith('/search-index/')), path).toEqual([]);
      expect(await page.locator('[data-results] [data-result]').first().isVisible(), path).toBe(true);
      expect(await page.evaluate(() => document.documentElement.hasAttribute('data-address-filters'))).toBe(false);
      await page.close();
    }
    // The plain page needs no script for its answer: the first frame already lists it.
    const { page } = await openHeld('/search/', /\/_astro\/.*\.js$/);
    await page.waitForTimeout(300);
    const first = (await frames(page)).find((frame) => frame.parsed)!;
    expect(first.entries.length).toBe(PAGE_SIZE);
    expect(first.heading).toBe('Showing all topics');
    await page.close();
  });

  it('holds even before the page script has run: the head script marks the page', async () => {
    const { page, release } = await openHeld('/search/?q=webhook', /\/_astro\/.*\.js$/);
    await page.waitForTimeout(400);
    const before = (await frames(page)).filter((frame) => frame.parsed);
    expect(before.length).toBeGreaterThan(0);
    for (const frame of before) expect(frame).toMatchObject({ entries: [], count: null, heading: null, searching: true, marked: true });
    await release();
    await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-search-root]')?.dataset.searchState === 'done');
    await page.close();
  });

  it("asks for the page script's imports (and on /search/, word matching) with the script itself, before any of them has arrived", async () => {
    const asked = async (path: string) => {
      const page = await withJs.newPage();
      const held: string[] = [];
      // Nothing comes back: whatever is asked for, the page learnt from its HTML alone.
      await page.route(/\/_astro\/.*\.js$/, (route) => void held.push(new URL(route.request().url()).pathname));
      await page.goto(`${site.url}${path}`, { waitUntil: 'commit' });
      await page.waitForTimeout(400);
      const entry = await page.locator('script[type="module"]').getAttribute('src');
      await page.close();
      // The page's own script, then the others by name (`/_astro/word-match.Dx0R4b1G.js` → word-match).
      return [held.includes(entry!), held.filter((file) => file !== entry).map((file) => file.replace(/^.*\//, '').replace(/[.-][\w-]{8}\.js$/, '')).sort()];
    };
    expect(await asked('/search/?q=webhook')).toEqual([true, ['shared', 'word-match']]);
    expect(await asked('/tags/api/')).toEqual([true, ['shared']]);
  });

  it("asks for a shared link's result rows in the task that runs the page's script, once the words' files are here", async () => {
    // A word enough topics hold that no typo of it is looked for (which loads Fuse.js when needed).
    const vocab = readdirSync(join(siteDir, 'search-index', 'vocab')).map((name) => JSON.parse(readFileSync(join(siteDir, 'search-index', 'vocab', name), 'utf8')) as VocabFile);
    const word = vocab.flatMap(({ terms, df }) => terms.filter((term, i) => df[i]! >= TYPOS_BELOW && /^[a-z]{4,}$/.test(term)))[0];
    expect(word).toBeDefined();
    const page = await withJs.newPage();
    // Whether DOMContentLoaded, the task after the page's script, had come when each display file was asked for.
    await page.addInitScript(() => {
      const asked: boolean[] = [];
      let loaded = false;
      document.addEventListener('DOMContentLoaded', () => (loaded = true));
      const fetchNow = window.fetch.bind(window);
      window.fetch = (input, init) => {
        if (String(input instanceof Request ? input.url : input).includes('/search-index/display/')) asked.push(loaded);
        return fetchNow(input, init);
      };
      (window as unknown as { displayAsked: boolean[] }).displayAsked = asked;
    });
    const wordFiles: string[] = [];
    page.on('requestfinished', (request) => void (/\/search-index\/(vocab|postings)\//.test(request.url()) && wordFiles.push(request.url())));
    const held: Route[] = [];
    await page.route(/\/_astro\/SiteSearchScript[^/]*\.js$/, (route) => void held.push(route));
    await page.goto(`${site.url}/search/?q=${word}`, { waitUntil: 'commit' });
    // The page's script comes only once the word's files that first-paint.js asked for are here.
    await expect.poll(() => held.length > 0 && wordFiles.length >= 2).toBe(true);
    await page.waitForTimeout(200);
    await Promise.all(held.map((route) => route.continue()));
    await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-search-root]')?.dataset.searchState === 'done');
    const asked = await page.evaluate(() => (window as unknown as { displayAsked: boolean[] }).displayAsked);
    expect(asked.length).toBeGreaterThan(0);
    // Word matching comes with /search/'s script (src/client/search/word-match-now.ts): no `import()` to wait for.
    expect(asked[0], 'the first display file was asked for after DOMContentLoaded').toBe(false);
    await page.close();
  });

  it('/members/?group=… shows no other members while members.json is held', async () => {
    const group = 'Staff';
    const { page, release } = await openHeld(`/members/?group=${group}`, '**/search-index/members.json');
    await page.waitForTimeout(400);
    for (const frame of (await frames(page)).filter((f) => f.parsed)) expect(frame).toMatchObject({ entries: [], count: null, searching: true });
    expect(await page.isChecked(`input[name=group][value="${group}"]`)).toBe(true);
    await release();
    await page.waitForFunction(() => !document.documentElement.hasAttribute('data-address-filters'));
    const names = await page.$$eval('[data-member]', (all) => all.map((e) => e.getAttribute('data-name')));
    const staff = content.members.filter((m) => m.group === group).map((m) => m.name);
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((name) => staff.includes(name!))).toBe(true);
    await page.close();
  });

  it('/links/?tag=api never lists another tag\'s records, even before its script runs', async () => {
    const api = content.links.filter((link) => link.tags.includes('api')).map((link) => link.link);
    expect(api.length).toBeGreaterThan(0);
    expect(api.length).toBeLessThan(content.links.length);
    const { page, release } = await openHeld('/links/?tag=api', /\/_astro\/.*\.js$/);
    await page.waitForTimeout(400);
    await release();
    await page.waitForFunction(() => !document.documentElement.hasAttribute('data-address-filters'));
    await page.waitForTimeout(100);
    const all = await frames(page);
    for (const frame of all) expect(frame.entries.every((href) => api.includes(href)), JSON.stringify(frame)).toBe(true);
    expect(all.at(-1)!.entries.sort()).toEqual([...api].sort());
    await page.close();
  });
});

describe('without JavaScript', () => {
  it.each([
    ['/search/?q=webhook', /no filter in this page's address is applied/, 'Showing all topics'],
    ['/tags/api/?min_replies=5', /no filter in this page's address is applied.*tagged 'api'/, "Showing results for tags 'api'"],
    ['/members/?group=Staff', /no filter in this page's address is applied.*all \d+ members/, undefined],
    ['/links/?tag=api', /no tag in this page's address is applied.*all \d+ links/, undefined],
  ])('%s says its filters were not applied and what it lists', async (path, note, heading) => {
    const page = await noJs.newPage();
    await page.goto(`${site.url}${path}`);
    const notice = page.locator('[data-no-js-notice]');
    expect(await notice.isVisible()).toBe(true);
    expect(await notice.textContent()).toMatch(note);
    expect(await page.locator('[data-searching]').isVisible()).toBe(false);
    if (heading) expect(await page.textContent('[data-search-heading]')).toBe(heading);
    expect(await page.locator('[data-result], [data-member], [data-link-record]').first().isVisible()).toBe(true);
    await page.close();
  });
});

describe('on a phone and with a screen reader', () => {
  it('after a search the first screen shows the summary and the first results; the form folds into "Edit filters"', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(`${site.url}/search/?tags=api&min_replies=1`);
    await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-search-root]')?.dataset.searchState === 'done');
    const inView = (selector: string) =>
      page.locator(selector).first().evaluate((element) => {
        const box = element.getBoundingClientRect();
        return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
      });
    expect(await inView('[data-search-heading]')).toBe(true);
    expect(await inView('[data-result-count]')).toBe(true);
    expect(await inView('[data-results] [data-result]')).toBe(true);
    expect(await page.locator('[data-search-form]').isVisible()).toBe(false);
    const edit = page.locator('[data-edit-filters]');
    expect(await edit.textContent()).toBe('Edit filters');
    expect(await edit.getAttribute('aria-expanded')).toBe('false');
    await edit.click();
    expect(await page.locator('[data-search-form]').isVisible()).toBe(true);
    expect(await edit.getAttribute('aria-expanded')).toBe('true');
    // Searching again (Enter) folds the form away once more.
    await page.fill('#search-min_replies', '2');
    await page.press('#search-min_replies', 'Enter');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('min_replies') === '2');
    expect(await page.locator('[data-search-form]').isVisible()).toBe(false);
    expect(await inView('[data-results] [data-result]')).toBe(true);
    await context.close();
  });

  it('keeps the form open on a desktop, and the count is a polite live region', async () => {
    const page = await withJs.newPage();
    await page.goto(`${site.url}/search/?tags=api`);
    await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-search-root]')?.dataset.searchState === 'done');
    expect(await page.locator('[data-search-form]').isVisible()).toBe(true);
    expect(await page.locator('[data-edit-filters]').isVisible()).toBe(false);
    const count = page.locator('[data-result-count]');
    expect(await count.getAttribute('role')).toBe('status');
    // Only the count is announced, not every result.
    expect(await page.locator('[data-listing] [aria-live]:not([data-result-count])').count()).toBe(0);
    expect(await page.locator('[data-listing] [role=status]').count()).toBe(1);
    await page.close();
  });
});
