// The /workflows/ searching client in real Chromium (SPEC 5): primary → backup on an HTTP error,
// invalid JSON or a timeout; the 360-second browser cache (no request while fresh, a controlled
// clock past it); a stale cache with a notice, or a message, when both addresses fail; search;
// and a hostile list that must stay text.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { buildSite } from '../helpers/build.ts';
import { projectRoot } from '../helpers/cli.ts';
import { serveStatic, type StaticHost } from '../../src/cli/static-server.ts';
import { launchChromium } from '../helpers/browser.ts';
import { projectOptions } from '../../src/cli/project.ts';
import type { ResolvedOptions } from '../../src/integration/options.ts';
import type { WorkflowListItem } from '../../src/model/workflow-list.ts';

const PRIMARY = '**/api/workflows.json';
const BACKUP = '**/api/workflows-backup.json';
const T0 = new Date('2026-03-01T12:00:00Z').getTime();

let options: ResolvedOptions;
let browser: Browser;
let site: StaticHost;
let published: WorkflowListItem[];
let context: BrowserContext | undefined;

beforeAll(async () => {
  ({ options } = await projectOptions(projectRoot));
  // Without Vitest's own BASE_URL/MODE variables, which Astro would otherwise inherit.
  const env = { BASE_URL: undefined, MODE: undefined, DEV: undefined, PROD: undefined, SSR: undefined } as unknown as Record<string, string>;
  const { outDir } = await buildSite(join(projectRoot, 'tests/fixtures/workflows'), env);
  published = JSON.parse(readFileSync(join(outDir, 'api/workflows.json'), 'utf8')) as WorkflowListItem[];
  site = await serveStatic(outDir);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

afterEach(async () => {
  await context?.close();
  context = undefined;
});

type Answer = 'serve' | 'error' | 'invalid' | 'hang';

/** A page whose list addresses answer as told (changeable between loads); counts the requests to each. */
async function openClient(answers: { primary: Answer; backup: Answer }) {
  context ??= await browser.newContext();
  const page = await context.newPage();
  const asked = { primary: 0, backup: 0 };
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  let primaryAsked!: () => void;
  const firstPrimary = new Promise<void>((resolve) => (primaryAsked = resolve));
  const answer = (which: 'primary' | 'backup') => async (route: Route) => {
    asked[which]++;
    if (which === 'primary') primaryAsked();
    const how = answers[which];
    if (how === 'serve') await route.continue();
    else if (how === 'error') await route.fulfill({ status: 500, body: 'Internal Server Error' });
    else if (how === 'invalid') await route.fulfill({ status: 200, contentType: 'application/json', body: '[{"workflow-name": "cut off' });
    // 'hang': never answered.
  };
  await page.route(PRIMARY, answer('primary'));
  await page.route(BACKUP, answer('backup'));
  return { page, asked, answers, errors, firstPrimary };
}

async function settled(page: Page): Promise<string> {
  await page.waitForSelector('[data-workflow-client]:not([data-state="loading"])');
  return (await page.getAttribute('[data-workflow-client]', 'data-state'))!;
}

const source = (page: Page) => page.locator('[data-workflow-source]').textContent();
const names = (page: Page) => page.locator('[data-workflow] [data-workflow-name]').allTextContents();
const notice = (page: Page) => page.locator('[data-workflow-notice]');

describe('where the list comes from', () => {
  it('the primary address when it answers; every item shows its fields and both downloads', async () => {
    const { page, asked, errors } = await openClient({ primary: 'serve', backup: 'serve' });
    await page.goto(`${site.url}/workflows/`);
    expect(await settled(page)).toBe('ready');
    expect(await source(page)).toBe('primary');
    expect(asked).toEqual({ primary: 1, backup: 0 });
    await expect(notice(page).isHidden()).resolves.toBe(true);
    const entries = page.locator('[data-workflow]');
    expect(await entries.count()).toBe(published.length);
    for (const item of published) {
      const entry = page.locator(`[data-workflow="${item['workflow-file'].replace(/["\\]/g, '\\$&')}"]`);
      expect(await entry.locator('[data-workflow-name]').textContent()).toBe(item['workflow-name']);
      expect(await entry.locator('[data-workflow-author]').textContent()).toBe(item['workflow-author-name']);
      if (item['workflow-version']) expect(await entry.locator('[data-workflow-version]').textContent()).toBe(item['workflow-version']);
      if (item['workflow-description-small'])
        expect(await entry.locator('[data-workflow-description]').textContent()).toBe(item['workflow-description-small']);
      expect(await entry.locator('a[data-download]').getAttribute('href')).toBe(item['workflow-download-link']);
      const backup = (await entry.locator('a[data-backup-download]').getAttribute('href'))!;
      expect(backup.startsWith(options.workflows.backupDownloadBase)).toBe(true);
      expect(decodeURIComponent(backup.slice(options.workflows.backupDownloadBase.length))).toBe(item['workflow-file']);
    }
    expect(errors).toEqual([]);
  });

  it('primary HTTP 500 → the backup', async () => {
    const { page, asked } = await openClient({ primary: 'error', backup: 'serve' });
    await page.goto(`${site.url}/workflows/`);
    expect(await settled(page)).toBe('ready');
    expect(await source(page)).toBe('backup');
    expect(asked).toEqual({ primary: 1, backup: 1 });
    expect(await page.locator('[data-workflow]').count()).toBe(published.length);
  });

  it('primary answers invalid JSON → the backup', async () => {
    const { page } = await openClient({ primary: 'invalid', backup: 'serve' });
    await page.goto(`${site.url}/workflows/`);
    expect(await settled(page)).toBe('ready');
    expect(await source(page)).toBe('backup');
  });

  it('primary hangs → the backup once the timeout (the option, 10 s by default) has passed', async () => {
    const { page, asked, firstPrimary } = await openClient({ primary: 'hang', backup: 'serve' });
    expect(options.workflows.timeoutSeconds).toBe(10);
    // A paused clock: timers fire only when the test moves time on.
    await page.clock.install({ time: T0 });
    await page.clock.pauseAt(T0 + 1000);
    await page.goto(`${site.url}/workflows/`);
    await firstPrimary;
    await page.clock.runFor(9_000);
    expect(await page.getAttribute('[data-workflow-client]', 'data-state')).toBe('loading');
    expect(asked.backup).toBe(0);
    await page.clock.runFor(1_500);
    expect(await settled(page)).toBe('ready');
    expect(await source(page)).toBe('backup');
    expect(asked).toEqual({ primary: 1, backup: 1 });
  });
});

describe('the browser cache (cacheSeconds = 360)', () => {
  it('a reload within 360 s makes no request; after 360 s the list is fetched again', async () => {
    expect(options.workflows.cacheSeconds).toBe(360);
    const { page, asked } = await openClient({ primary: 'serve', backup: 'serve' });
    await page.clock.install({ time: T0 });
    await page.goto(`${site.url}/workflows/`);
    await settled(page);
    expect(await source(page)).toBe('primary');
    expect(asked).toEqual({ primary: 1, backup: 0 });

    await page.clock.fastForward(300_000);
    await page.reload();
    expect(await settled(page)).toBe('ready');
    expect(await source(page)).toBe('cache');
    expect(await page.locator('[data-workflow]').count()).toBe(published.length);
    expect(asked).toEqual({ primary: 1, backup: 0 });

    await page.clock.fastForward(61_000);
    await page.reload();
    await settled(page);
    expect(await source(page)).toBe('primary');
    expect(asked).toEqual({ primary: 2, backup: 0 });
  });

  it('both addresses fail with a warm (stale) cache → the cached list and a visible notice', async () => {
    const client = await openClient({ primary: 'serve', backup: 'serve' });
    const { page, asked } = client;
    await page.clock.install({ time: T0 });
    await page.goto(`${site.url}/workflows/`);
    await settled(page);

    client.answers.primary = 'error';
    client.answers.backup = 'invalid';
    await page.clock.fastForward(3_600_000);
    await page.reload();
    expect(await settled(page)).toBe('ready');
    expect(await source(page)).toBe('cache');
    expect(asked).toEqual({ primary: 2, backup: 1 });
    expect(await names(page)).toHaveLength(published.length);
    await expect(notice(page).isVisible()).resolves.toBe(true);
    const text = (await notice(page).textContent())!;
    expect(text).toContain('could not be loaded');
    expect(text).toContain('primary address: HTTP 500');
    expect(text).toContain('backup address: the answer is not valid JSON');
    expect(text).toContain('may be out of date');
  });

  it('both addresses fail with no cache → a clear message and no list', async () => {
    const { page, asked } = await openClient({ primary: 'error', backup: 'error' });
    await page.goto(`${site.url}/workflows/`);
    expect(await settled(page)).toBe('failed');
    expect(asked).toEqual({ primary: 1, backup: 1 });
    expect(await page.locator('[data-workflow]').count()).toBe(0);
    await expect(notice(page).isVisible()).resolves.toBe(true);
    expect(await notice(page).textContent()).toMatch(/^The workflow list could not be loaded right now \(primary address: HTTP 500; backup address: HTTP 500\)/);
    expect(await source(page)).toBe('');
  });
});

describe('search', () => {
  const search = async (page: Page, query: string) => {
    await page.fill('[data-workflow-search]', query);
    return names(page);
  };

  it('by name, description and author; case-insensitive; with typos; the URL keeps the query', async () => {
    const { page } = await openClient({ primary: 'serve', backup: 'serve' });
    await page.goto(`${site.url}/workflows/`);
    await settled(page);
    expect(await search(page, 'weather')).toEqual(['Weather Menubar']);
    expect(await search(page, 'WEATHER')).toEqual(['Weather Menubar']);
    expect(await search(page, 'popover')).toEqual(['Übersetzer']);
    expect(await search(page, 'haruka')).toEqual(['スクショOCR']);
    expect(await search(page, 'kenji')).toEqual(['Report #1? 100% done']);
    // Typos: a letter missing, two letters swapped.
    expect(await search(page, 'clipbord')).toEqual(['Clipboard Cleaner']);
    expect(await search(page, 'tempreature')).toEqual(['Weather Menubar']);
    // Every word must match some field: a description word and an author.
    expect(await search(page, 'menubar quietfox')).toEqual(['Weather Menubar']);
    expect(await search(page, 'menubar haruka')).toEqual([]);
    expect(await page.locator('[data-workflow-count]').textContent()).toContain('Found 0 workflows');
    await search(page, 'clipboard');
    expect(new URL(page.url()).searchParams.get('q')).toBe('clipboard');
    expect((await search(page, '')).sort()).toEqual(published.map((item) => item['workflow-name']).sort());
  });

  it('a query in the address is searched on arrival', async () => {
    const { page } = await openClient({ primary: 'serve', backup: 'serve' });
    await page.goto(`${site.url}/workflows/?q=${encodeURIComponent('übersetzer')}`);
    await settled(page);
    expect(await names(page)).toEqual(['Übersetzer']);
    expect(await page.inputValue('[data-workflow-search]')).toBe('übersetzer');
  });
});

describe('an untrusted list', () => {
  it('stays text: markup is not parsed and only http(s) addresses become links', async () => {
    const { page, errors } = await openClient({ primary: 'serve', backup: 'serve' });
    const hostile = {
      'workflow-name': '<img src=x onerror="window.__owned=1">Evil',
      'workflow-version': '<b>1</b>',
      'workflow-description-small': '<script>window.__owned=2</script>',
      'workflow-type': '',
      'workflow-language': '',
      'workflow-release-page': 'javascript:window.__owned=3',
      'workflow-download-link': 'javascript:window.__owned=4',
      'workflow-author-name': '"><svg onload=window.__owned=5>',
      'workflow-author-site': 'data:text/html,<script>1</script>',
      'workflow-file': '../../evil?.flowsmith',
      'workflow-screenshot': '',
    };
    await page.unroute(PRIMARY);
    await page.route(PRIMARY, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify([hostile, 'not an item', null]) }));
    await page.goto(`${site.url}/workflows/`);
    await settled(page);
    expect(await page.locator('[data-workflow]').count()).toBe(1);
    const entry = page.locator('[data-workflow]');
    expect(await entry.locator('[data-workflow-name]').textContent()).toBe(hostile['workflow-name']);
    expect(await entry.locator('[data-workflow-description]').textContent()).toBe(hostile['workflow-description-small']);
    expect(await entry.locator('img, script, svg, b').count()).toBe(0);
    // A download that is not http(s) is no download: the entry offers the backup download only.
    expect(await entry.locator('a[data-download]').count()).toBe(0);
    expect(await entry.locator('a[href^="javascript:"], a[href^="data:"]').count()).toBe(0);
    const backup = (await entry.locator('a[data-backup-download]').getAttribute('href'))!;
    expect(backup).toBe(`${options.workflows.backupDownloadBase}..%2F..%2Fevil%3F.flowsmith`);
    await entry.locator('[data-workflow-name]').click();
    expect(await page.evaluate(() => (window as unknown as { __owned?: number }).__owned)).toBeUndefined();
    expect(errors).toEqual([]);
  });
});
