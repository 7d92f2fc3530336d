/**
 * SPEC 4.1 on a built site: the listing hooks of tag pages, their order and pagination, one
 * distinct round-tripping URL per tag, and a site built under a sub-path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parse, type HTMLElement } from 'node-html-parser';
import { buildSite } from '../helpers/build.ts';
import { fixturesDir, tempConfig } from './fixture-copies.ts';
import { fileForPath, readPage, textOf } from './built-site.ts';

/** valid-small as its files say it (the oracle): what each topic's listing entry must show. */
const TOPICS: Record<string, { title: string; created: string; updated?: string; tags: string[]; replies: number; excerpt?: string }> = {
  'csharp-http-client': {
    title: 'Calling a JSON API from C#',
    created: '2024-02-01',
    updated: '2024-05-01',
    tags: ['c#', 'api', 'http', 'json', 'web search'],
    replies: 3,
    excerpt: 'How do I call a JSON API from C# with HttpClient? See the docs for the basics. I get a timeout after 100 seconds.',
  },
  'pointers-in-c': { title: 'Pointers in C and C++', created: '2024-01-10', updated: '2024-03-01', tags: ['c', 'c++', 'memory'], replies: 1 },
  'cpp-templates': { title: 'Templates in C++ scripts', created: '2023-11-20', tags: ['c++'], replies: 0 },
  'search-the-web': {
    title: 'Search the web from a workflow',
    created: '2024-02-15',
    tags: ['web search', 'api'],
    replies: 0,
    excerpt: 'This guide shows how to send a query to a web search API and keep the first ten results.',
  },
  'api-basics': { title: 'API basics', created: '2024-02-15', tags: ['api'], replies: 0 },
  'japanese-text': { title: '日本語のテキストを扱う', created: '2023-12-01T01:00:00Z', updated: '2024-06-01T08:00:00Z', tags: ['日本語', 'c', 'api'], replies: 2 },
  'workflow-share': { title: 'Clipboard cleaner workflow', created: '2024-01-05', updated: '2024-05-01', tags: ['api', 'clipboard'], replies: 5 },
};
const TAGS = [...new Set(Object.values(TOPICS).flatMap((topic) => topic.tags))];

/** SPEC 4.1's order, worked out here from the table: updated desc, created desc, slug A→Z. */
function expectedOrder(tag: string): string[] {
  const time = (s: string) => Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s);
  return Object.entries(TOPICS)
    .filter(([, topic]) => topic.tags.includes(tag))
    .sort(([a, x], [b, y]) => time(y.updated ?? y.created) - time(x.updated ?? x.created) || time(y.created) - time(x.created) || (a < b ? -1 : 1))
    .map(([slug]) => slug);
}

/** The page's rendered content: <template> markup (the browser search's blueprint) is not part of it. */
function rendered(page: HTMLElement): HTMLElement {
  for (const template of page.querySelectorAll('template')) template.remove();
  return page;
}

const entriesOf = (page: HTMLElement) => page.querySelectorAll('[data-results] > [data-result]');
const slugsOf = (page: HTMLElement) => entriesOf(page).map((entry) => entry.getAttribute('data-topic'));
const heading = (tag: string) => `Showing results for tags '${tag}'`;

/** Every HTML file of a built site with its site path (`tags/c/index.html` → `/tags/c/`). */
function htmlPages(outDir: string): Array<{ path: string; page: HTMLElement }> {
  return readdirSync(outDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => {
      const file = join(entry.parentPath, entry.name);
      const path = `/${relative(outDir, file).split('\\').join('/')}`.replace(/index\.html$/, '');
      return { path, page: rendered(parse(readFileSync(file, 'utf8'))) };
    });
}

const cleanUp: string[] = [];
afterAll(() => {
  for (const dir of cleanUp) rmSync(dirname(dir), { recursive: true, force: true });
});

describe('valid-small with the default options', () => {
  let outDir: string;
  beforeAll(async () => {
    ({ outDir } = await buildSite(join(fixturesDir, 'valid-small')));
    cleanUp.push(outDir);
  });
  const tagPage = (href: string) => rendered(readPage(outDir, href));
  const hrefOfTag = (tag: string) =>
    htmlPages(outDir)
      .flatMap(({ page }) => page.querySelectorAll('a[data-tag]'))
      .find((a) => a.getAttribute('data-tag') === tag)
      ?.getAttribute('href');

  it('gives each tag page the heading, the total and one entry per topic in SPEC order', () => {
    expect(expectedOrder('api')).toEqual(['japanese-text', 'csharp-http-client', 'workflow-share', 'api-basics', 'search-the-web']);
    for (const tag of TAGS) {
      const href = hrefOfTag(tag);
      expect(href, `a link to the page of '${tag}'`).toBeDefined();
      const page = tagPage(href!);
      const order = expectedOrder(tag);
      expect(textOf(page.querySelector('[data-search-heading]'))).toBe(heading(tag));
      expect(textOf(page.querySelector('[data-result-count]'))).toBe(`Found ${order.length} result${order.length === 1 ? '' : 's'}`);
      expect(slugsOf(page), `order of '${tag}'`).toEqual(order);
      // One page only: no page links.
      expect(page.querySelectorAll('[data-pagination] a')).toHaveLength(0);
    }
  });

  it('shows per entry the title link, the excerpt, and replies and tags only for topics with replies', () => {
    const page = tagPage('/tags/api/');
    for (const entry of entriesOf(page)) {
      const slug = entry.getAttribute('data-topic')!;
      const topic = TOPICS[slug]!;
      const title = entry.querySelector('[data-title]')!;
      expect(textOf(title)).toBe(topic.title);
      expect(title.getAttribute('href')).toBe(`/topics/${slug}/`);
      expect(textOf(rendered(readPage(outDir, title.getAttribute('href')!)).querySelector('h1'))).toBe(topic.title);

      // Every entry is dated by its last update (the listing's order), the same for every visitor.
      const date = entry.querySelector('[data-date]')!;
      expect(date.getAttribute('datetime'), slug).toBe((topic.updated ?? topic.created).slice(0, 10));
      expect(textOf(date)).toMatch(/^\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}$/);
      expect(entry.querySelector('[data-author]'), 'no author unless showAuthor').toBeNull();

      const excerpt = entry.querySelector('[data-excerpt]')!;
      expect(excerpt.querySelectorAll('*'), 'an excerpt is plain text').toHaveLength(0);
      expect(textOf(excerpt).length).toBeGreaterThan(0);
      if (topic.excerpt) expect(textOf(excerpt)).toBe(topic.excerpt);

      if (topic.replies === 0) {
        expect(entry.querySelector('[data-replies]'), slug).toBeNull();
        expect(entry.querySelector('[data-tags]'), slug).toBeNull();
        continue;
      }
      expect(textOf(entry.querySelector('[data-replies]'))).toBe(`${topic.replies} ${topic.replies === 1 ? 'reply' : 'replies'}`);
      const tags = entry.querySelectorAll('[data-tags] [data-tag]');
      expect(tags.map((a) => a.getAttribute('data-tag'))).toEqual(topic.tags.slice(0, 2));
      expect(tags.map(textOf)).toEqual(topic.tags.slice(0, 2));
      const more = entry.querySelector('[data-more-tags]');
      if (topic.tags.length > 2) expect(textOf(more)).toBe(`and ${topic.tags.length - 2} more`);
      else expect(more).toBeNull();
    }
    // The singular, on the page of a topic with one reply.
    const c = entriesOf(tagPage('/tags/c/')).find((entry) => entry.getAttribute('data-topic') === 'pointers-in-c')!;
    expect(textOf(c.querySelector('[data-replies]'))).toBe('1 reply');
    // Tags as written in the file (`API`) are shown normalised.
    expect(entriesOf(tagPage('/tags/api/'))[1]!.querySelectorAll('[data-tag]').map(textOf)).toEqual(['c#', 'api']);
  });

  it('gives c, c++, c#, web search and 日本語 distinct pages, each naming its tag', () => {
    const tags = ['c', 'c++', 'c#', 'web search', '日本語'];
    const hrefs = tags.map((tag) => hrefOfTag(tag)!);
    expect(new Set(hrefs).size).toBe(tags.length);
    const files = hrefs.map((href) => fileForPath(outDir, href));
    expect(new Set(files).size).toBe(tags.length);
    hrefs.forEach((href, i) => expect(textOf(tagPage(href).querySelector('[data-search-heading]'))).toBe(heading(tags[i]!)));
  });

  it('makes every tag link on every page round-trip to the page of that tag', () => {
    let links = 0;
    for (const { path, page } of htmlPages(outDir)) {
      for (const a of page.querySelectorAll('a[data-tag]')) {
        const tag = a.getAttribute('data-tag')!;
        const href = a.getAttribute('href')!;
        links++;
        expect(textOf(a), `link text on ${path}`).toBe(tag);
        expect(fileForPath(outDir, href), `${href} (linked from ${path}) exists`).toBeDefined();
        expect(textOf(tagPage(href).querySelector('[data-search-heading]')), `${href} from ${path}`).toBe(heading(tag));
      }
    }
    expect(links).toBeGreaterThan(TAGS.length);
  });

  it('lists every tag on /tags/ with its count', () => {
    const page = tagPage('/tags/');
    for (const tag of TAGS) {
      const link = page.querySelectorAll('[data-tag-list] a[data-tag]').find((a) => a.getAttribute('data-tag') === tag);
      expect(link, tag).toBeDefined();
      expect(textOf(link!.nextElementSibling)).toBe(`(${expectedOrder(tag).length})`);
    }
  });
});

describe('a tag with more topics than pageSize (pageSize: 2)', () => {
  let outDir: string;
  beforeAll(async () => {
    const config = tempConfig('{ pageSize: 2 }');
    try {
      ({ outDir } = await buildSite(join(fixturesDir, 'valid-small'), config.env));
      cleanUp.push(outDir);
    } finally {
      config.remove();
    }
  });

  it('splits the listing into /tags/api/, /tags/api/2/, /tags/api/3/ with the total on every page', () => {
    const urls = ['/tags/api/', '/tags/api/2/', '/tags/api/3/'];
    const pages = urls.map((url) => rendered(readPage(outDir, url)));
    const order = expectedOrder('api');
    expect(pages.map(slugsOf)).toEqual([order.slice(0, 2), order.slice(2, 4), order.slice(4)]);
    for (const page of pages) {
      expect(textOf(page.querySelector('[data-search-heading]'))).toBe(heading('api'));
      expect(textOf(page.querySelector('[data-result-count]'))).toBe('Found 5 results');
    }
    const rel = (page: HTMLElement, name: string) => page.querySelector(`[data-pagination] a[rel="${name}"]`)?.getAttribute('href');
    expect([rel(pages[0]!, 'prev'), rel(pages[0]!, 'next')]).toEqual([undefined, '/tags/api/2/']);
    expect([rel(pages[1]!, 'prev'), rel(pages[1]!, 'next')]).toEqual(['/tags/api/', '/tags/api/3/']);
    expect([rel(pages[2]!, 'prev'), rel(pages[2]!, 'next')]).toEqual(['/tags/api/2/', undefined]);
    expect(fileForPath(outDir, '/tags/api/4/')).toBeUndefined();
  });

  it('paginates the tags whose names need escaping too, and keeps one-page tags unpaginated', () => {
    const first = rendered(readPage(outDir, '/tags/c~2b~2b/'));
    expect(slugsOf(first)).toEqual(expectedOrder('c++'));
    expect(first.querySelectorAll('[data-pagination] a')).toHaveLength(0);
    expect(fileForPath(outDir, '/tags/c~2b~2b/2/')).toBeUndefined();
  });
});

describe('a site built under a sub-path (TAGSITE_BASE=/sub/path)', () => {
  let outDir: string;
  beforeAll(async () => {
    ({ outDir } = await buildSite(join(fixturesDir, 'valid-small'), { TAGSITE_BASE: '/sub/path' }));
    cleanUp.push(outDir);
  });

  it('starts every internal address with /sub/path/, and every link resolves', () => {
    let checked = 0;
    for (const { path, page } of htmlPages(outDir)) {
      for (const element of page.querySelectorAll('[href], [src], [action]')) {
        for (const name of ['href', 'src', 'action']) {
          const value = element.getAttribute(name);
          if (!value || !value.startsWith('/') || value.startsWith('//')) continue;
          checked++;
          expect(value, `${name} on ${path}`).toMatch(/^\/sub\/path\//);
          if (element.tagName === 'A') expect(fileForPath(outDir, value.slice('/sub/path'.length)), `${value} on ${path}`).toBeDefined();
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
    const tags = rendered(readPage(outDir, '/tags/'));
    expect(tags.querySelectorAll('a[data-tag]').map((a) => a.getAttribute('href'))).toContain('/sub/path/tags/c~2b~2b/');
  });
});
