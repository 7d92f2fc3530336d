/**
 * Feeds and discovery on built sites: RSS 2.0 for the site and each tag (read back with a real XML
 * parser), hostile titles kept as text, sitemap and robots.txt, canonical / Open Graph / Twitter meta.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { SyntaxValidator } from 'fast-xml-validator';
import type { HTMLElement } from 'node-html-parser';
import { buildSampleSite, buildSite } from '../helpers/build.ts';
import { copyFixture } from './fixture-copies.ts';
import { fileForPath, readPage, textOf } from './built-site.ts';

const SITE = 'https://flowsmiths.example';

interface Item {
  title?: string;
  link: string;
  guid: { '#text': string; '@_isPermaLink': string };
  description?: string;
  pubDate: string;
  'dc:creator'?: string;
  category?: string[];
}
interface Channel {
  title: string;
  link: string;
  description: string;
  language: string;
  'atom:link': { '@_href': string; '@_rel': string; '@_type': string };
  item?: Item[];
}

const parser = new XMLParser({
  ignoreAttributes: false,
  parseTagValue: false,
  trimValues: false,
  isArray: (name) => name === 'item' || name === 'category' || name === 'url' || name === 'sitemap',
});

/** A feed file read as RSS 2.0: well-formed XML, `<rss version="2.0">`, a channel with its required elements. */
function readFeed(outDir: string, sitePath: string): Channel {
  const file = fileForPath(outDir, sitePath);
  expect(file, `${sitePath} exists`).toBeDefined();
  const xml = readFileSync(file!, 'utf8');
  expect(() => SyntaxValidator.validate(xml), `${sitePath} is well-formed XML`).not.toThrow();
  const doc = parser.parse(xml) as { rss: { '@_version': string; channel: Channel } };
  expect(doc.rss['@_version']).toBe('2.0');
  const channel = doc.rss.channel;
  for (const field of ['title', 'link', 'description'] as const) expect(channel[field], `channel ${field}`).toBeTruthy();
  expect(channel['atom:link']).toMatchObject({ '@_href': new URL(sitePath, SITE).href, '@_rel': 'self', '@_type': 'application/rss+xml' });
  for (const item of channel.item ?? []) {
    expect(item.link).toMatch(/^https:\/\/flowsmiths\.example\/topics\/[a-z0-9-]+\/$/);
    expect(item.guid).toEqual({ '#text': item.link, '@_isPermaLink': 'true' });
    expect(Number.isNaN(Date.parse(item.pubDate)), `pubDate ${item.pubDate}`).toBe(false);
  }
  return channel;
}

const slugOf = (item: Item) => item.link.split('/').at(-2)!;
const sitePathOf = (url: string) => decodeURIComponent(new URL(url).pathname);

/** Every HTML page of a built site with its site path (`tags/c/index.html` → `/tags/c/`). */
function htmlPaths(outDir: string): string[] {
  return readdirSync(outDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => `/${join(entry.parentPath, entry.name).slice(outDir.length + 1)}`.replace(/index\.html$/, ''));
}

const meta = (page: HTMLElement, key: string) =>
  page.querySelector(`head meta[property="${key}"]`)?.getAttribute('content') ?? page.querySelector(`head meta[name="${key}"]`)?.getAttribute('content');

describe('feeds of a fixture with hostile titles', () => {
  let outDir: string;
  beforeAll(async () => {
    ({ outDir } = await buildSite(copyFixture('feeds')));
  });

  it('lists every topic in the site feed, newest created first, ties by slug', () => {
    const channel = readFeed(outDir, '/rss.xml');
    expect(channel.link).toBe(`${SITE}/`);
    expect(channel.language).toBe('en');
    // oldest.md was updated last: a feed announces topics by creation, not by the listing's `updated`.
    expect(channel.item!.map(slugOf)).toEqual(['untagged', 'script-in-title', 'control-characters', 'same-day-b', 'oldest']);
    const dates = channel.item!.map((item) => Date.parse(item.pubDate));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    expect(new Date(dates[0]!).toISOString()).toBe('2024-04-01T00:00:00.000Z');
  });

  it('reads hostile titles, authors, tags and excerpts back as the same text', () => {
    const item = readFeed(outDir, '/rss.xml').item!.find((entry) => slugOf(entry) === 'script-in-title')!;
    expect(item.title).toBe(`</title><script>alert(1)</script> & <![CDATA[ ]]> "quoted" 'single'`);
    expect(item['dc:creator']).toBe('<img src=x onerror=alert(1)> & co');
    expect(item.category).toEqual(['<b>bold</b>', 'c++', 'a & b', 'api']);
    expect(item.description).toBe('Body with and an ampersand & a ]]> end-of-CDATA marker.');
    // Escaped in the file itself: no markup of the title survives as markup.
    const xml = readFileSync(join(outDir, 'rss.xml'), 'utf8');
    expect(xml).not.toContain('<script');
    expect(xml).not.toContain('<img');
    expect(xml).not.toContain('<![CDATA[ ]]>');
  });

  it('drops characters XML 1.0 cannot carry, keeping the rest of the title', () => {
    const item = readFeed(outDir, '/rss.xml').item!.find((entry) => slugOf(entry) === 'control-characters')!;
    expect(item.title).toBe('Bell and form feed in a title');
  });

  it('writes one feed per tag with exactly its topics, at the tag page URL + rss.xml', () => {
    const expected: Record<string, [string, string[]]> = {
      '/tags/api/rss.xml': ['api', ['script-in-title', 'control-characters', 'oldest']],
      '/tags/c~2b~2b/rss.xml': ['c++', ['script-in-title', 'oldest']],
      '/tags/a_~26_b/rss.xml': ['a & b', ['script-in-title']],
      '/tags/~3cb~3ebold~3c~2fb~3e/rss.xml': ['<b>bold</b>', ['script-in-title']],
      [`/tags/${encodeURIComponent('日本語')}/rss.xml`]: ['日本語', ['same-day-b']],
    };
    for (const [path, [tag, slugs]] of Object.entries(expected)) {
      const channel = readFeed(outDir, path);
      expect(channel.title).toBe(`Flowsmiths Community: topics tagged '${tag}'`);
      expect(channel.link).toBe(new URL(path.replace(/rss\.xml$/, ''), SITE).href);
      expect(channel.item!.map(slugOf), path).toEqual(slugs);
    }
    const feeds = readdirSync(join(outDir, 'tags'), { recursive: true }).filter((name) => String(name).endsWith('rss.xml'));
    expect(feeds).toHaveLength(Object.keys(expected).length);
  });

  it('links each page to the site feed, and a tag page to its own feed, with the title as text', () => {
    const page = readPage(outDir, '/tags/~3cb~3ebold~3c~2fb~3e/');
    const feeds = page.querySelectorAll('head link[rel="alternate"][type="application/rss+xml"]');
    expect(feeds.map((link) => link.getAttribute('href'))).toEqual(['/rss.xml', '/tags/~3cb~3ebold~3c~2fb~3e/rss.xml']);
    expect(feeds[1]!.getAttribute('title')).toBe("Topics tagged '<b>bold</b>'");
    expect(page.querySelectorAll('b')).toHaveLength(0);
    const topic = readPage(outDir, '/topics/script-in-title/');
    expect(meta(topic, 'og:title')).toBe(`</title><script>alert(1)</script> & <![CDATA[ ]]> "quoted" 'single'`);
    expect(topic.querySelectorAll('script')).toHaveLength(0);
  });
});

describe('feeds, sitemap and meta of the sample site', () => {
  let outDir: string;
  let pages: string[];
  beforeAll(async () => {
    outDir = await buildSampleSite('feeds');
    pages = htmlPaths(outDir).filter((path) => path !== '/404.html');
  });

  it('gives each tag a feed holding the topics of its listing pages (api: 17)', () => {
    const tagPages = pages.filter((path) => /^\/tags\/[^/]+\/$/.test(path));
    expect(tagPages.length).toBeGreaterThan(20);
    for (const path of tagPages) {
      const listed: string[] = [];
      for (let n = 1, at: string | undefined = path; at; n++, at = fileForPath(outDir, `${path}${n + 1}/`) ? `${path}${n + 1}/` : undefined) {
        listed.push(...readPage(outDir, at).querySelectorAll('[data-results] > [data-result]').map((entry) => entry.getAttribute('data-topic')!));
      }
      const items = readFeed(outDir, `${path}rss.xml`).item ?? [];
      expect(items.map(slugOf).sort(), path).toEqual(listed.slice(0, 50).sort());
      for (const item of items) expect(fileForPath(outDir, sitePathOf(item.link)), item.link).toBeDefined();
    }
    expect(readFeed(outDir, '/tags/api/rss.xml').item).toHaveLength(17);
    expect(readFeed(outDir, '/rss.xml').item).toHaveLength(46);
  });

  it('puts canonical, Open Graph and Twitter meta on every page', () => {
    for (const path of pages) {
      const page = readPage(outDir, path);
      const canonical = page.querySelector('head link[rel="canonical"]')?.getAttribute('href');
      expect(canonical && sitePathOf(canonical), path).toBe(path);
      expect(canonical!.startsWith(`${SITE}/`)).toBe(true);
      expect(meta(page, 'og:url'), path).toBe(canonical);
      expect(meta(page, 'og:title'), path).toBeTruthy();
      expect(meta(page, 'og:description'), path).toBeTruthy();
      expect(meta(page, 'og:site_name')).toBe('Flowsmiths Community');
      expect(meta(page, 'twitter:card')).toBe('summary');
      expect(meta(page, 'twitter:title')).toBe(meta(page, 'og:title'));
      expect(page.querySelector('head link[rel="alternate"][type="application/rss+xml"]')?.getAttribute('href'), path).toBe('/rss.xml');
      // The site image, as an absolute address, and the icon, both files of the site.
      expect(meta(page, 'og:image'), path).toBe(`${SITE}/og-image.png`);
      expect(page.querySelector('head link[rel="icon"]')?.getAttribute('href'), path).toBe('/favicon.svg');
    }
    for (const file of ['og-image.png', 'favicon.svg']) expect(fileForPath(outDir, `/${file}`), file).toBeDefined();
    const notFound = readPage(outDir, '/404.html');
    expect(notFound.querySelector('link[rel="canonical"]')).toBeNull();
    expect(meta(notFound, 'robots')).toBe('noindex');
  });

  it("describes a topic page by its excerpt, as its listing entry shows it", () => {
    const entry = readPage(outDir, '/tags/api/').querySelector('[data-result]')!;
    const topic = readPage(outDir, `/topics/${entry.getAttribute('data-topic')}/`);
    expect(meta(topic, 'og:type')).toBe('article');
    expect(meta(topic, 'og:title')).toBe(textOf(topic.querySelector('[data-topic-title]')));
    expect(meta(topic, 'og:description')).toBe(textOf(entry.querySelector('[data-excerpt]')));
    expect(meta(topic, 'description')).toBe(meta(topic, 'og:description'));
  });

  it('lists every page in the sitemap, and only pages that exist; robots.txt points at it', () => {
    const robots = readFileSync(join(outDir, 'robots.txt'), 'utf8');
    expect(robots).toMatch(/^User-agent: \*$/m);
    expect(robots).toMatch(/^Sitemap: https:\/\/flowsmiths\.example\/sitemap-index\.xml$/m);
    const index = parser.parse(readFileSync(join(outDir, 'sitemap-index.xml'), 'utf8')) as { sitemapindex: { sitemap: Array<{ loc: string }> } };
    const urls: string[] = [];
    for (const { loc } of index.sitemapindex.sitemap) {
      const file = fileForPath(outDir, sitePathOf(loc));
      expect(file, loc).toBeDefined();
      const xml = readFileSync(file!, 'utf8');
      expect(() => SyntaxValidator.validate(xml)).not.toThrow();
      urls.push(...(parser.parse(xml) as { urlset: { url: Array<{ loc: string }> } }).urlset.url.map((url) => url.loc));
    }
    const listed = urls.map(sitePathOf).sort();
    expect(listed).toEqual([...pages].sort());
    expect(existsSync(join(outDir, 'rss.xml'))).toBe(true);
  });
});
