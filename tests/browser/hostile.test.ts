// Topic content is untrusted. tests/fixtures/hostile holds topics whose bodies, titles, authors,
// tags and content-type names are XSS attempts; the built site is opened in real Chromium WITH
// JavaScript, and nothing may run, load, overlay the page or leave the post.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildSite } from '../helpers/build.ts';
import { projectRoot } from '../helpers/cli.ts';
import { serveStatic, type StaticHost } from '../../src/cli/static-server.ts';
import { launchChromium } from '../helpers/browser.ts';
import { loadContent, type SiteContent } from '../../src/content/load.ts';
import { tagPath, topicPath } from '../../src/model/urls.ts';

const fixture = join(projectRoot, 'tests/fixtures/hostile');
// As written in hostile-front-matter.md.
const TITLE = '</title><script>window.__pwned=1</script>';
const AUTHOR = '<img src=x onerror="window.__pwned=1">';

let content: SiteContent;
let browser: Browser;
let context: BrowserContext;
let host: StaticHost;
const dialogs: string[] = [];
const outside: string[] = [];

beforeAll(async () => {
  const loaded = loadContent({ root: projectRoot, contentDir: fixture, excerptLength: 200 });
  expect(loaded.problems).toEqual([]);
  content = loaded.content;
  const { outDir } = await buildSite(fixture);
  host = await serveStatic(outDir);
  browser = await launchChromium();
  context = await browser.newContext({ javaScriptEnabled: true });
  const origin = new URL(host.url).origin;
  // Nothing leaves the machine: other addresses get a blank page, and are noted.
  await context.route(
    (url) => url.origin !== origin,
    (route) => {
      outside.push(`${route.request().resourceType()} ${route.request().url()}`);
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<p>outside</p>' });
    },
  );
  context.on('page', (page) =>
    page.on('dialog', (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss();
    }),
  );
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
});

/**
 * Runs in the page: every sign that hostile markup got through. Empty means clean.
 * Browsers drop whitespace and control characters from URLs, so `java\tscript:` counts.
 */
function audit(): string[] {
  const problems: string[] = [];
  const show = (el: Element) => el.outerHTML.slice(0, 160);
  const urlAttributes = new Set(['href', 'src', 'action', 'formaction', 'data', 'xlink:href', 'poster', 'background', 'cite', 'ping', 'srcset']);
  for (const el of document.querySelectorAll('*')) {
    for (const attr of el.attributes) {
      const name = attr.name.toLowerCase();
      if (name.startsWith('on')) problems.push(`event handler ${name}: ${show(el)}`);
      if (name === 'srcdoc') problems.push(`srcdoc: ${show(el)}`);
      const url = attr.value.replace(/[\u0000-\u0020]/g, '').toLowerCase();
      if (urlAttributes.has(name) && /^(?:javascript|vbscript):/.test(url)) problems.push(`script URL in ${name}: ${show(el)}`);
    }
  }
  for (const script of document.querySelectorAll('script')) {
    const data = /json/i.test(script.type);
    if ((!data && script.textContent?.includes('__pwned')) || script.src.includes('__pwned')) problems.push(`script: ${show(script)}`);
  }
  for (const meta of document.querySelectorAll('meta[http-equiv]')) problems.push(`meta http-equiv: ${show(meta)}`);
  for (const post of document.querySelectorAll('[data-post]')) {
    const forbidden = 'script, iframe, frame, object, embed, style, form, meta, link, base, template, button, textarea, select, input:not([type="checkbox"]), [style]';
    for (const el of post.querySelectorAll(forbidden)) problems.push(`in the post: ${show(el)}`);
    if (!post.checkVisibility()) problems.push('the post is hidden');
    if (!post.closest('main article')) problems.push('the post left its article');
    for (const el of post.querySelectorAll('header, footer, nav, main, [data-post]')) problems.push(`page parts swallowed by the post: ${show(el)}`);
  }
  // A link opened in a post and never closed would swallow the rest of the page.
  for (const link of document.querySelectorAll('a[href*="evil.example"]')) {
    if (!link.closest('[data-post]')) problems.push(`a post link outside the post: ${show(link)}`);
  }
  if (document.querySelector('footer')?.closest('a')) problems.push('the footer is inside a link');
  if (getComputedStyle(document.body).display === 'none') problems.push('the page is hidden');
  if ((window as { __pwned?: unknown }).__pwned !== undefined) problems.push('window.__pwned is set');
  return problems;
}

async function pwned(page: Page): Promise<unknown[]> {
  return Promise.all(page.frames().map((frame) => frame.evaluate(() => (window as { __pwned?: unknown }).__pwned).catch(() => 'frame gone')));
}

/** Opens a page, lets its scripts, images and timers run, and audits it. */
async function openAndAudit(page: Page, url: string): Promise<string[]> {
  const response = await page.goto(url, { waitUntil: 'networkidle' });
  expect(response?.status(), url).toBe(200);
  await page.waitForTimeout(150); // autofocus, <animate> and refresh fire just after load
  expect(page.url(), 'no redirect away from the page').toBe(response?.url());
  return (await page.evaluate(audit)).map((problem) => `${url}: ${problem}`);
}

const pathOf = (url: string) => decodeURIComponent(new URL(url).pathname);

describe('hostile topics in real Chromium with JavaScript', () => {
  it('the detectors work: the same payloads, unsanitised, do run and are reported', async () => {
    const page = await context.newPage();
    await page.setContent(`<img src="x" onerror="window.__pwned=1; alert('detector')"><a href=" java\tscript:void 0">x</a><main><article><div data-post><style>p{}</style></div></article></main>`);
    await page.waitForFunction(() => (window as { __pwned?: unknown }).__pwned === 1);
    await expect.poll(() => dialogs).toEqual(['alert: detector']);
    dialogs.length = 0;
    const problems = await page.evaluate(audit);
    expect(problems.join('\n')).toMatch(/event handler onerror/);
    expect(problems.join('\n')).toMatch(/script URL in href/);
    expect(problems.join('\n')).toMatch(/in the post: <style>/);
    expect(problems.join('\n')).toMatch(/window.__pwned is set/);
    await page.close();
  });

  it('home, /tags/, every tag listing and every topic page run nothing and keep the post contained', async () => {
    const page = await context.newPage();
    const origin = new URL(host.url).origin;
    const queue = [`${host.url}/`];
    const visited = new Set<string>();
    const problems: string[] = [];
    while (queue.length > 0) {
      const url = queue.shift()!;
      if (visited.has(url)) continue;
      visited.add(url);
      expect(visited.size, 'the crawl ends').toBeLessThan(200);
      problems.push(...(await openAndAudit(page, url)));
      const links = await page.evaluate(() => [...document.querySelectorAll<HTMLAnchorElement>('a[href]')].map((a) => a.href));
      for (const link of links) {
        const next = new URL(link);
        next.hash = '';
        // Site pages only; the feeds and JSON files are not pages to audit.
        if (next.origin === origin && next.pathname.endsWith('/')) queue.push(next.href);
      }
    }
    expect(problems).toEqual([]);
    const paths = new Set([...visited].map(pathOf));
    for (const topic of content.topics) expect(paths, topic.slug).toContain(topicPath(topic.slug));
    const tags = new Set(content.topics.flatMap((topic) => topic.tags));
    expect(tags).toContain('<b>x</b>');
    for (const tag of tags) expect(paths, tag).toContain(decodeURIComponent(tagPath(tag)));
    await page.close();
  }, 300_000);

  it('search with hostile words and tags in the address runs nothing', async () => {
    const page = await context.newPage();
    const query = new URLSearchParams({ q: '<img src=x onerror="window.__pwned=1">', tags: '<b>x</b>,"><svg onload=window.__pwned=1>' });
    const response = await page.request.get(`${host.url}/search/`);
    const urls = [`${host.url}${tagPath('<b>x</b>')}?${query}`];
    if (response.status() === 200) urls.push(`${host.url}/search/?${query}`);
    for (const url of urls) expect(await openAndAudit(page, url)).toEqual([]);
    await page.close();
  });

  it('clicking every link inside every post runs nothing', async () => {
    const page = await context.newPage();
    let clicked = 0;
    for (const topic of content.topics) {
      const url = `${host.url}${topicPath(topic.slug)}`;
      await page.goto(url);
      const count = await page.locator('[data-post] a').count();
      for (let i = 0; i < count; i++) {
        if (i > 0) await page.goto(url);
        await page.locator('[data-post] a').nth(i).click();
        await page.waitForLoadState('load');
        await page.waitForTimeout(50);
        clicked++;
        expect(await pwned(page), `${topic.slug} link ${i}`).toEqual(page.frames().map(() => undefined));
        const now = new URL(page.url());
        expect(['http:', 'https:'], page.url()).toContain(now.protocol);
      }
    }
    // javascript-urls.md alone has 17 links; they are all still there, only harmless.
    expect(clicked).toBeGreaterThanOrEqual(17);
    await page.close();
  }, 300_000);

  it('titles, authors, tags and content-type names are shown as text', async () => {
    const page = await context.newPage();
    await page.goto(`${host.url}${topicPath('hostile-front-matter')}`);
    const shown = await page.evaluate(() => ({
      title: document.querySelector('[data-topic-title]')?.textContent,
      titleElements: document.querySelector('[data-topic-title]')?.children.length,
      documentTitle: document.title,
      author: document.querySelector('[data-author]')?.textContent,
      type: document.querySelector('[data-content-type]')?.textContent,
      tags: [...document.querySelectorAll('[data-tags] [data-tag]')].map((tag) => [tag.textContent, tag.getAttribute('data-tag')]),
      tagElements: document.querySelectorAll('[data-tags] [data-tag] *').length,
    }));
    expect(shown.title).toBe(TITLE);
    expect(shown.titleElements).toBe(0);
    expect(shown.documentTitle.startsWith(TITLE)).toBe(true);
    expect(shown.author).toBe(AUTHOR);
    expect(shown.type).toContain('<img src=x onerror="window.__pwned=1"> Hostile forum');
    const topic = content.topics.find((t) => t.slug === 'hostile-front-matter')!;
    expect(shown.tags).toEqual(topic.tags.map((tag) => [tag, tag]));
    expect(shown.tagElements).toBe(0);

    // The same strings in listings: the tag page of `<b>x</b>` and the home page.
    await page.goto(`${host.url}${tagPath('<b>x</b>')}`);
    const listing = await page.evaluate(() => ({
      heading: document.querySelector('[data-search-heading]')?.textContent?.trim(),
      headingElements: document.querySelector('[data-search-heading]')?.children.length,
      titles: [...document.querySelectorAll('[data-result] [data-title]')].map((a) => a.textContent),
      bold: document.querySelectorAll('main b').length,
    }));
    expect(listing.heading).toBe("Showing results for tags '<b>x</b>'");
    expect(listing.headingElements).toBe(0);
    expect(listing.titles).toContain(TITLE);
    expect(listing.bold).toBe(0);
    await page.goto(`${host.url}/`);
    expect(await page.locator('main').textContent()).toContain(TITLE);
    await page.close();
  });

  it('keeps harmless content: code shown as text, task-list checkboxes, the text around the attacks', async () => {
    const page = await context.newPage();
    await page.goto(`${host.url}${topicPath('script-tags')}`);
    expect(await page.locator('[data-post] pre code').textContent()).toContain('<script>window.__pwned=1</script>');
    expect(await page.locator('[data-post]').textContent()).toContain('Text after the scripts stays.');
    await page.goto(`${host.url}${topicPath('embedded-content')}`);
    expect(await page.locator('[data-post]').textContent()).toContain('Text after the embeds stays.');
    await page.goto(`${host.url}${topicPath('unbalanced-markup')}`);
    expect(await page.locator('[data-post] input[type="checkbox"][disabled]').count()).toBe(2);
    expect(await page.locator('[data-post] p').last().textContent()).toBe('The last line of the post.');
    await page.close();
  });

  it('nothing ran, asked, or fetched what the posts tried to load', () => {
    expect(dialogs).toEqual([]);
    expect(host.requests.filter((path) => path.includes('__pwned__'))).toEqual([]);
    // Only the clicks on the posts' (harmless) https links went elsewhere.
    expect(outside.filter((request) => !request.startsWith('document '))).toEqual([]);
  });
});
