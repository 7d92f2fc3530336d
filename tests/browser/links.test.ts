// The link directory in real Chromium, on a site built under a sub-path from a copy of content/
// with one hostile record added: /links/ lists every record without JavaScript, filters by tag
// with the URL as state (back and forward work), escapes what contributors wrote; a tag page
// shows its "Documentation links"; /api/links.json publishes the records as they are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildSite } from '../helpers/build.ts';
import { projectRoot } from '../helpers/cli.ts';
import { serveStatic, type StaticHost } from '../../src/cli/static-server.ts';
import { launchChromium } from '../helpers/browser.ts';
import type { LinkRecord } from '../../src/content/links.ts';
import { TAG_LINKS_SHOWN } from '../../src/model/link-records.ts';

const BASE = '/community';
const hostile: LinkRecord = {
  name: '<img src=x onerror="window.__pwned=1">Evil & Co',
  description: '</li></ol><script>window.__pwned=2</script> "quoted" text',
  tags: ['api', 'x"y <z>'],
  link: 'https://evil.example/docs?a=1&b=%22%3E%3Cscript%3E',
  timestamp: '2025-04-01',
  credit: '<b>mallory</b>@evil.example',
};

/** Invented records carrying 'api', after the hostile one. */
const moreApi: LinkRecord[] = Array.from({ length: TAG_LINKS_SHOWN }, (_, i) => ({
  name: `Quillmark Reference ${i + 1}`,
  description: `Chapter ${i + 1} of the Quillmark request reference`,
  tags: ['api'],
  link: `https://quillmark.example/reference/${i + 1}`,
  timestamp: '2025-05-01',
  credit: 'ottilie@quillmark.example',
}));

let scratch: string;
let records: LinkRecord[];
let linksText: string;
let browser: Browser;
let site: StaticHost;
let page: Page;
let noScript: BrowserContext;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'tagsite-links-browser-'));
  const content = join(scratch, 'content');
  cpSync(join(projectRoot, 'content'), content, { recursive: true });
  // More records carry 'api' than a tag page shows (TAG_LINKS_SHOWN), the hostile one among those shown.
  records = [...(JSON.parse(readFileSync(join(content, 'links.json'), 'utf8')) as LinkRecord[]), hostile, ...moreApi];
  linksText = `${JSON.stringify(records, null, 2)}\n`;
  writeFileSync(join(content, 'links.json'), linksText);
  const { outDir } = await buildSite(content, { TAGSITE_BASE: BASE });
  site = await serveStatic(outDir, BASE);
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('dialog', (dialog) => void dialog.dismiss());
  noScript = await browser.newContext({ javaScriptEnabled: false });
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const withTag = (tag: string) => records.filter((record) => record.tags.includes(tag));

/** The links of the records shown (not hidden) on the page, in page order. */
function shownLinks(p: Page, scope = '[data-link-records]'): Promise<string[]> {
  return p.$$eval(`${scope} [data-link-record]`, (items) =>
    items.filter((item) => (item as HTMLElement).offsetParent !== null).map((item) => item.getAttribute('data-link')!),
  );
}

const tagOfUrl = (p: Page) => new URL(p.url()).searchParams.get('tag');

describe('/links/', () => {
  it('lists every record, with its fields, without JavaScript', async () => {
    const plain = await noScript.newPage();
    await plain.goto(`${site.url}/links/?tag=api`);
    // Without the script the query cannot filter: everything is listed.
    expect(await shownLinks(plain)).toEqual(records.map((record) => record.link));
    expect(await plain.textContent('[data-link-count]')).toBe(`${records.length} link records`);
    const first = records[0]!;
    const item = plain.locator('[data-link-record]').first();
    expect(await item.locator('[data-link-name]').textContent()).toBe(first.name);
    expect(await item.locator('[data-link-name]').getAttribute('href')).toBe(first.link);
    expect(await item.locator('[data-link-name]').getAttribute('rel')).toBe('noopener nofollow');
    expect(await item.locator('[data-link-description]').textContent()).toBe(first.description);
    expect(await item.locator('[data-link-tag]').allTextContents()).toEqual(first.tags);
    expect(await item.locator('[data-link-date]').getAttribute('datetime')).toBe(first.timestamp);
    expect(await item.locator('[data-link-credit]').textContent()).toBe(first.credit);
    // The site navigation leads here, under the base path.
    expect(await plain.locator('header nav a', { hasText: 'Links' }).getAttribute('href')).toBe(`${BASE}/links/`);
    await plain.close();
  });

  it('shows what contributors wrote as text, never as markup', async () => {
    await page.goto(`${site.url}/links/`);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    const item = page.locator(`[data-link-record][data-link="${hostile.link}"]`);
    expect(await item.count()).toBe(1);
    expect(await item.locator('[data-link-name]').textContent()).toBe(hostile.name);
    expect(await item.locator('[data-link-name]').getAttribute('href')).toBe(hostile.link);
    expect(await item.locator('[data-link-description]').textContent()).toBe(hostile.description);
    expect(await item.locator('[data-link-credit]').textContent()).toBe(hostile.credit);
    expect(await item.locator('[data-link-tag]').allTextContents()).toEqual(hostile.tags);
    expect(await page.locator('[data-link-records] img, [data-link-records] script, [data-link-records] b').count()).toBe(0);
    expect(await page.locator('[data-link-records] > li').count()).toBe(records.length);
  });

  it('filters by tag with the URL as state; back and forward restore each filter', async () => {
    await page.goto(`${site.url}/links/`);
    expect(await shownLinks(page)).toEqual(records.map((r) => r.link));

    await page.click('[data-link-filter] [data-link-filter-tag="api"]');
    await page.waitForURL((url) => url.searchParams.get('tag') === 'api');
    expect(new URL(page.url()).pathname).toBe(`${BASE}/links/`);
    expect(await shownLinks(page)).toEqual(withTag('api').map((r) => r.link));
    expect(await page.textContent('[data-link-count]')).toBe(`${withTag('api').length} link records tagged 'api', of ${records.length}`);
    expect(await page.getAttribute('[data-link-filter-tag="api"]', 'aria-current')).toBe('true');
    expect(await page.getAttribute('[data-link-filter-tag=""]', 'aria-current')).toBeNull();

    // A tag on a record filters the same way.
    await page.locator('[data-link-record]:visible [data-link-tag="json"]').first().click();
    await page.waitForURL((url) => url.searchParams.get('tag') === 'json');
    expect(await shownLinks(page)).toEqual(withTag('json').map((r) => r.link));

    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('tag') === 'api');
    expect(await shownLinks(page)).toEqual(withTag('api').map((r) => r.link));
    await page.goBack();
    await page.waitForURL((url) => !url.searchParams.has('tag'));
    expect(await shownLinks(page)).toEqual(records.map((r) => r.link));
    expect(await page.textContent('[data-link-count]')).toBe(`${records.length} link records`);
    await page.goForward();
    await page.waitForURL((url) => url.searchParams.get('tag') === 'api');
    expect(await shownLinks(page)).toEqual(withTag('api').map((r) => r.link));

    await page.click('[data-link-filter-tag=""]');
    await page.waitForURL((url) => !url.searchParams.has('tag'));
    expect(await shownLinks(page)).toEqual(records.map((r) => r.link));
  });

  it('opens filtered from a shared URL, telling similar tags apart', async () => {
    for (const tag of ['c++', 'c', 'x"y <z>']) {
      await page.goto(`${site.url}/links/?tag=${encodeURIComponent(tag)}`);
      expect(tagOfUrl(page)).toBe(tag);
      expect(withTag(tag).length, tag).toBeGreaterThan(0);
      expect(await shownLinks(page), tag).toEqual(withTag(tag).map((r) => r.link));
    }
    // An untidy tag in the URL is read as its normal form; an unknown one says so.
    await page.goto(`${site.url}/links/?tag=%20API%20`);
    expect(await shownLinks(page)).toEqual(withTag('api').map((r) => r.link));
    await page.goto(`${site.url}/links/?tag=no-such-tag`);
    expect(await shownLinks(page)).toEqual([]);
    expect(await page.textContent('[data-link-count]')).toBe("No link records are tagged 'no-such-tag'.");
  });
});

describe('a tag page', () => {
  it('has a "Documentation links" section with the first records carrying the tag, and a link to all', async () => {
    const plain = await noScript.newPage();
    await plain.goto(`${site.url}/tags/api/`);
    const section = plain.locator('[data-tag-links]');
    expect(await section.locator('h2').textContent()).toBe('Documentation links');
    const carrying = withTag('api');
    expect(carrying.length).toBeGreaterThan(TAG_LINKS_SHOWN);
    expect(carrying.slice(0, TAG_LINKS_SHOWN)).toContain(hostile);
    expect(await shownLinks(plain, '[data-tag-links]')).toEqual(carrying.slice(0, TAG_LINKS_SHOWN).map((r) => r.link));
    const names = await section.locator('[data-link-name]').allTextContents();
    expect(names).toEqual(carrying.slice(0, TAG_LINKS_SHOWN).map((r) => r.name));
    expect(await section.locator(`a[href="${BASE}/links/?tag=api"]`).last().textContent()).toBe(`All ${carrying.length} documentation links tagged 'api'`);
    expect(await section.locator('img, script, b').count()).toBe(0);
    // Its links lead to the directory filtered by the tag, under the base path.
    const more = section.locator(`a[href="${BASE}/links/?tag=api"]`);
    expect(await more.count()).toBeGreaterThan(0);
    await more.last().click();
    await plain.waitForURL((url) => url.pathname === `${BASE}/links/`);
    expect(tagOfUrl(plain)).toBe('api');
    // The listing itself is unchanged by the section.
    await plain.goto(`${site.url}/tags/api/`);
    expect(await plain.textContent('[data-result-count]')).toBe('Found 17 results');
    await plain.close();
  });

  it('says so when no record carries the tag', async () => {
    await page.goto(`${site.url}/tags/`);
    const tags = await page.$$eval('[data-tag-list] [data-tag]', (links) => links.map((link) => ({ tag: link.getAttribute('data-tag')!, href: link.getAttribute('href')! })));
    const linkTags = new Set(records.flatMap((record) => record.tags));
    const bare = tags.find(({ tag }) => !linkTags.has(tag));
    expect(bare).toBeDefined();
    await page.goto(`${site.url.replace(BASE, '')}${bare!.href}`);
    expect(await page.locator('[data-tag-links] [data-link-record]').count()).toBe(0);
    expect(await page.textContent('[data-tag-links]')).toContain('No documentation links carry this tag yet.');
  });
});

describe('/api/links.json', () => {
  it('publishes the records exactly as links.json has them', async () => {
    const response = await fetch(`${site.url}/api/links.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.text()).toBe(linksText);
  });
});
