// The browser search (SPEC 4.2) in real Chromium, on the sample content built with a small page
// size: every control of /search/'s form, combined filters, the URL as the state (back/forward,
// shared links, the forum's aliases, malformed values), results in the static listing's markup
// with facet counts, the tag page's panel loading only its tag's file, and the no-JS fallback.
// Expected results come from the brute-force reference (tests/search-oracle.ts) run on the
// content itself; with words, from the search engine run in Node on the built index, which must
// also find every exact match the reference finds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildSite, copyOfSampleContent } from '../helpers/build.ts';
import { projectRoot } from '../helpers/cli.ts';
import { serveStatic, type StaticHost } from '../../src/cli/static-server.ts';
import { enterValue, launchChromium } from '../helpers/browser.ts';
import { tempConfig } from '../build/fixture-copies.ts';
import { loadContent, type SiteContent } from '../../src/content/load.ts';
import { parseSearchParams, type SearchQuery } from '../../src/search/query.ts';
import { decodeIndex, runSearch } from '../../src/search/engine.ts';
import type { CoreFile, DisplayRow } from '../../src/search/index-format.ts';
import { WordMatcher } from '../../src/search/word-match.ts';
import type { Topic } from '../../src/content/topics.ts';
import { containsWords, oracleSearch, passesStructured, type OracleResult } from '../oracles/search.ts';

// Small pages, so /search/ and tag pages have several; the visitor's clock is fixed for date presets.
const PAGE_SIZE = 7;
const TAGS_SHOWN = 2;
const NOW = new Date('2026-11-20T12:00:00Z');

let content: SiteContent;
let outDir: string;
let browser: Browser;
let withJs: BrowserContext;
let noJs: BrowserContext;
let site: StaticHost;

beforeAll(async () => {
  const contentDir = copyOfSampleContent('search');
  const loaded = loadContent({ root: projectRoot, contentDir, excerptLength: 200 });
  expect(loaded.problems).toEqual([]);
  content = loaded.content;
  const config = tempConfig(`{ pageSize: ${PAGE_SIZE}, tagsShown: ${TAGS_SHOWN} }`);
  try {
    ({ outDir } = await buildSite(contentDir, config.env));
  } finally {
    config.remove();
  }
  site = await serveStatic(outDir);
  browser = await launchChromium();
  withJs = await browser.newContext();
  noJs = await browser.newContext({ javaScriptEnabled: false });
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** The content's own answer for a search URL (tag pages: their tag, in listing order unless sorted). */
async function expected(search: string, tag?: string): Promise<{ query: SearchQuery; total: number; page: Topic[]; facets?: OracleResult['facets'] }> {
  const { query } = parseSearchParams(new URLSearchParams(search));
  if (tag) Object.assign(query, { tags: [tag], match: 'any' }, query.sort || query.q ? {} : { sort: 'updated' });
  if (!query.q) return { query, ...oracleSearch(content.topics, content.contentTypes.list, query, NOW, PAGE_SIZE) };
  return { query, ...(await withWords(query)) };
}

/** A search with words, run by the engine in Node on the built index; checked against the brute force for recall. */
async function withWords(query: SearchQuery) {
  const read = <T>(path: string) => JSON.parse(readFileSync(join(outDir, 'search-index', path), 'utf8')) as T;
  const core = read<CoreFile>('core.json');
  const index = decodeIndex(core);
  const reader = async <T>(path: string) => read<T>(path);
  {
    const words = await new WordMatcher(reader, core).match(query.q, query.in === 'titles');
    const result = runSearch(index, query, NOW, PAGE_SIZE, words);
    const all = runSearch(index, { ...query, page: 1 }, NOW, 1_000_000, words);
    const slugOf = (local: number) => read<DisplayRow[]>(`display/${Math.floor(index.global[local]! / core.displayShardSize)}.json`)[index.global[local]! % core.displayShardSize]![0];
    const found = Array.from(all.page, slugOf);
    const structured = content.topics.filter((topic) => passesStructured(topic, query, content.contentTypes.list, NOW));
    expect(found, `every exact match of '${query.q}'`).toEqual(expect.arrayContaining(structured.filter((t) => containsWords(t, query)).map((t) => t.slug)));
    expect(found.every((slug) => structured.some((topic) => topic.slug === slug))).toBe(true);
    return { total: result.total, page: Array.from(result.page, slugOf).map((slug) => content.topics.find((t) => t.slug === slug)!) };
  }
}

async function openPage(path: string, context = withJs): Promise<Page> {
  const page = await context.newPage();
  await page.clock.setFixedTime(NOW);
  const response = await page.goto(`${site.url}${path}`);
  expect(response?.status()).toBe(200);
  if (context === withJs && path.startsWith('/search/')) await settled(page, {});
  return page;
}

/** Waits until the URL carries these parameters (null: absent) and the search for it has rendered. */
async function settled(page: Page, params: Record<string, string | null>): Promise<void> {
  await page.waitForFunction((want) => {
    const url = new URL(location.href).searchParams;
    const root = document.querySelector<HTMLElement>('[data-search-root]');
    return root?.dataset.searchState === 'done' && Object.entries(want).every(([key, value]) => url.get(key) === value);
  }, params);
}

/** What the page shows: heading, count, the slugs listed, notes, and the URL's parameters. */
async function shown(page: Page) {
  return page.evaluate(() => ({
    heading: document.querySelector('[data-search-heading]')?.textContent?.trim(),
    count: document.querySelector('[data-result-count]')?.textContent?.trim(),
    slugs: [...document.querySelectorAll('[data-results] [data-result]')].map((entry) => entry.getAttribute('data-topic')),
    notes: [...document.querySelectorAll('[data-search-notes] p')].map((note) => note.textContent),
    search: location.search,
  }));
}

const countText = (n: number) => `Found ${n} result${n === 1 ? '' : 's'}`;

/** The page shows exactly what the content says for its URL. */
async function expectResults(page: Page, tag?: string) {
  const now = await shown(page);
  const want = await expected(now.search, tag);
  expect(now.count, now.search).toBe(countText(want.total));
  expect(now.slugs, now.search).toEqual(want.page.map((topic) => topic.slug));
  return { ...now, want };
}

describe('/search/: each control', () => {
  const cases: Array<[string, (page: Page) => Promise<unknown>, Record<string, string | null>]> = [
    ['tags, typed with pauses (any)', async (page) => {
      await page.locator('#search-tags').pressSequentially('API,', { delay: 20 });
      await page.waitForTimeout(400);
      await page.locator('#search-tags').pressSequentially(' json', { delay: 20 });
      // A tag searches once complete: Enter completes the one typed last.
      await page.press('#search-tags', 'Enter');
    }, { tags: 'api,json', match: null }],
    ['tags (all)', async (page) => {
      await page.fill('#search-tags', 'api, json');
      await page.press('#search-tags', 'Enter');
      await settled(page, { tags: 'api,json' });
      await page.selectOption('#search-match', 'all');
    }, { tags: 'api,json', match: 'all' }],
    ['words with a typo', (page) => page.fill('#search-q', 'workflw'), { q: 'workflw' }],
    ['any of the words', async (page) => {
      await page.fill('#search-q', 'clipboard calendar');
      await page.selectOption('#search-words', 'any');
    }, { q: 'clipboard calendar', words: 'any' }],
    ['all of the words', (page) => page.fill('#search-q', 'clipboard json'), { q: 'clipboard json', words: null }],
    ['words in titles only', async (page) => {
      await page.fill('#search-q', 'json');
      await page.selectOption('#search-in', 'titles');
    }, { q: 'json', in: 'titles' }],
    ['author, any case', (page) => page.fill('#search-author', 'GUSTAV'), { author: 'GUSTAV' }],
    ['a top forum (with its sub-forums)', (page) => page.selectOption('#search-type', 'help'), { type: 'help' }],
    ['created within a month', (page) => page.selectOption('#search-created', 'month'), { created: 'month' }],
    ['updated within six months', (page) => page.selectOption('#search-updated', 'six_months'), { updated: 'six_months' }],
    ['created between two days', async (page) => {
      await page.selectOption('#search-created', 'custom');
      await expect.poll(() => page.locator('#search-created_from').isVisible()).toBe(true);
      await page.fill('#search-created_from', '2025-06-01');
      await settled(page, { created_from: '2025-06-01' });
      await page.fill('#search-created_to', '2025-12-31');
    }, { created: 'custom', created_from: '2025-06-01', created_to: '2025-12-31' }],
    ['at least replies', async (page) => {
      await page.fill('#search-min_replies', '10');
      await page.press('#search-min_replies', 'Enter');
    }, { min_replies: '10' }],
    ['at least views', async (page) => {
      await page.fill('#search-min_views', '1500');
      await page.press('#search-min_views', 'Enter');
    }, { min_views: '1500' }],
    ['not tagged', async (page) => {
      await page.fill('#search-exclude_tags', 'API, json');
      await page.press('#search-exclude_tags', 'Enter');
    }, { exclude_tags: 'api,json' }],
    ['at most replies (none)', async (page) => {
      await page.fill('#search-max_replies', '0');
      await page.press('#search-max_replies', 'Enter');
    }, { max_replies: '0' }],
    ['at most views', async (page) => {
      await page.fill('#search-max_views', '300');
      await page.press('#search-max_views', 'Enter');
    }, { max_views: '300' }],
    ...(['newest', 'updated', 'replies', 'views'] as const).map((sort): (typeof cases)[number] => [`sorted by ${sort}`, (page) => page.selectOption('#search-sort', sort), { sort }]),
  ];

  it.each(cases)('%s', async (_name, act, params) => {
    const page = await openPage('/search/');
    await act(page);
    await settled(page, params);
    const { want, heading } = await expectResults(page);
    expect(want.total, 'a filter that finds something').toBeGreaterThan(0);
    if (want.query.tags.length) expect(heading).toBe(`Showing results for tags 'api' ${want.query.match === 'all' ? 'and' : 'or'} 'json'`);
    if (want.query.type) expect(want.page.some((topic) => topic.contentType !== 'help'), 'sub-forum topics listed').toBe(true);
    if (want.query.excludeTags.length) expect(heading).toBe("Showing topics, not tagged 'api' or 'json'");
    if (want.query.q === 'workflw') expect(want.page.some((topic) => containsWords(topic, { ...want.query, q: 'workflow' }))).toBe(true);
    await page.close();
  });

  it('pages forward and back with rel=next / rel=prev', async () => {
    const page = await openPage('/search/?sort=views');
    expect(content.topics.length).toBeGreaterThan(2 * PAGE_SIZE);
    await page.click('[data-pagination] a[rel="next"]');
    await settled(page, { page: '2', sort: 'views' });
    await expectResults(page);
    await page.click('[data-pagination] a[rel="next"]');
    await settled(page, { page: '3' });
    await page.click('[data-pagination] a[rel="prev"]');
    await settled(page, { page: '2' });
    const { slugs } = await expectResults(page);
    expect(slugs).toHaveLength(PAGE_SIZE);
    await page.close();
  });
});

/** The facet groups shown: parameter → [value, button text]. */
const shownFacets = (page: Page) =>
  page.$$eval('[data-facets] [data-facet]', (groups) =>
    groups.map((group): [string, Array<[string, string]>] => [
      group.getAttribute('data-facet') ?? '',
      [...group.querySelectorAll('[data-facet-value]')].map((button): [string, string] => [button.getAttribute('data-facet-value') ?? '', button.textContent ?? '']),
    ]),
  );

describe('/search/ before any filter', () => {
  it("lists every topic's first page and the site's counts in its HTML, and fetches the index only when the visitor filters", async () => {
    const start = site.requests.length;
    const page = await openPage('/search/');
    await page.waitForLoadState('networkidle');
    const index = () => site.requests.slice(start).filter((path) => path.startsWith('/search-index/'));
    expect(index(), 'nothing fetched for the unfiltered listing').toEqual([]);
    await page.focus('[data-results] [data-title]');
    await page.keyboard.press('Tab');
    await page.waitForLoadState('networkidle');
    expect(index(), 'nor for tabbing through it').toEqual([]);
    const { want, heading } = await expectResults(page);
    expect(heading).toBe('Showing all topics');
    expect(want.total).toBe(content.topics.length);
    const all = want.facets!;
    const facets = await shownFacets(page);
    expect(facets.map(([name]) => name)).toEqual(['tags', 'type', 'author']);
    for (const [name, values] of facets) {
      const counts = name === 'tags' ? all.tags : name === 'author' ? all.authors : undefined;
      expect(values.length, name).toBeGreaterThan(0);
      for (const [value, text] of values) {
        // A forum's count is what choosing it finds: its sub-forums' topics too.
        const count = counts ? counts.get(value) : (await expected(`?type=${value}`)).total;
        expect(text, `${name}=${value}`).toMatch(new RegExp(`\\(${count}\\)$`));
      }
      // The most frequent values are the ones shown.
      if (counts) {
        const fewest = Math.min(...values.map(([value]) => counts.get(value)!));
        expect([...counts].filter(([value, n]) => n > fewest && !values.some(([shown]) => shown === value)), name).toEqual([]);
      }
    }
    const choices = await page.$$eval('#search-type option', (options) => options.map((option) => (option as HTMLOptionElement).value));
    expect(choices, 'every content type offered before the index is loaded').toEqual(['', ...content.contentTypes.list.map((type) => type.id)]);

    const tag = facets[0]![1][0]![0];
    await page.click(`[data-facet="tags"] [data-facet-value="${tag}"]`);
    await settled(page, { tags: tag });
    await expectResults(page);
    expect(index()).toContain('/search-index/core.json');
    // Back to no filter: the listing was replaced, so the search answers it now, the same way.
    await page.goBack();
    await page.waitForFunction(() => location.search === '' && document.querySelector('[data-search-heading]')?.textContent === 'Showing all topics');
    expect((await expectResults(page)).slugs).toEqual(want.page.map((topic) => topic.slug));
    expect(await shownFacets(page)).toEqual(facets);
    await page.close();
  });

  it('keeps showing the static listing when cleared while the first search still waits for the index', async () => {
    const page = await openPage('/search/');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/search-index/core.json', async (route) => {
      await held;
      await route.continue();
    });
    await page.fill('#search-min_replies', '5');
    await page.press('#search-min_replies', 'Enter');
    await page.click('[data-clear]');
    const start = site.requests.length;
    release();
    // The index arrives and the filtered search finishes (its last step asks for the display rows in
    // the background): its results must not replace the answer shown.
    await expect.poll(() => site.requests.slice(start).some((path) => path.startsWith('/search-index/display/'))).toBe(true);
    const now = await expectResults(page);
    expect(now.search).toBe('');
    expect(now.want.total).toBe(content.topics.length);
    await page.close();
  });

  it('pages on from the static listing in the page', async () => {
    const page = await openPage('/search/');
    await page.click('[data-pagination] a[rel="next"]');
    await settled(page, { page: '2' });
    const { slugs, want } = await expectResults(page);
    expect(slugs).toHaveLength(Math.min(PAGE_SIZE, want.total - PAGE_SIZE));
    expect(page.url()).toBe(`${site.url}/search/?page=2`);
    await page.close();
  });
});

describe('/search/: suggestions', () => {
  const options = (page: Page, list: string) => page.$$eval(`#${list} option`, (found) => found.map((option) => (option as HTMLOptionElement).value));
  /** Names by how often they occur, the most used first, then in code-point order. */
  const byUse = (names: string[]) => {
    const counts = new Map<string, number>();
    for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([name]) => name);
  };

  it('offers, in the Tags listbox, the known tags starting with what is typed after the last comma, leaving out the tags before it', async () => {
    const page = await openPage('/search/');
    const listed = () => page.$$eval('#search-tag-list [role=option]', (found) => found.map((option) => option.textContent));
    const tags = byUse(content.topics.flatMap((topic) => topic.tags));
    const first = tags.find((tag) => tag.length > 2)!;
    await page.click('#search-tags');
    await page.locator('#search-tags').pressSequentially(first.slice(0, 2));
    const starting = tags.filter((tag) => tag.toLowerCase().startsWith(first.slice(0, 2).toLowerCase()));
    await expect.poll(listed).toEqual(starting.slice(0, 12));
    const second = tags.find((tag) => tag !== first)!;
    await page.fill('#search-tags', `${first},${second.slice(0, 1)}`);
    await expect.poll(listed).toContain(second);
    const offered = await listed();
    expect(offered).not.toContain(first);
    expect(offered.every((option) => option!.startsWith(second.slice(0, 1)))).toBe(true);
    await page.close();
  });

  it('offers the known authors starting with what is typed, the most active first', async () => {
    const page = await openPage('/search/');
    const authors = byUse(content.topics.map((topic) => topic.author));
    const typed = authors[0]!.slice(0, 1).toUpperCase();
    // The index loads when the field is focused: the suggestions follow it.
    await page.fill('#search-author', typed);
    const want = authors.filter((author) => author.toLowerCase().startsWith(typed.toLowerCase())).slice(0, 12);
    expect(want[0]).toBe(authors[0]);
    await expect.poll(() => options(page, 'search-author-list')).toEqual(want);
    await page.close();
  });
});

describe('/search/: the URL is the state', () => {
  it('combines filters, restores each step with back and forward, and reproduces them from a shared URL', async () => {
    const page = await openPage('/search/');
    const steps: Array<Awaited<ReturnType<typeof shown>>> = [await shown(page)];
    await enterValue(page, '#search-tags', 'api, json, http');
    await settled(page, { tags: 'api,json,http' });
    steps.push(await shown(page));
    await page.fill('#search-min_views', '500');
    await page.press('#search-min_views', 'Enter');
    await settled(page, { tags: 'api,json,http', min_views: '500' });
    steps.push(await shown(page));
    await page.selectOption('#search-updated', 'year');
    await settled(page, { tags: 'api,json,http', min_views: '500', updated: 'year' });
    steps.push(await shown(page));
    await page.selectOption('#search-sort', 'replies');
    await settled(page, { tags: 'api,json,http', min_views: '500', updated: 'year', sort: 'replies' });
    await expectResults(page);
    steps.push(await shown(page));
    expect(new Set(steps.map((step) => step.count)).size, 'the filters change the results').toBeGreaterThan(2);
    expect(new Set(steps.map((step) => step.slugs.join())).size, 'each step changes what is listed').toBe(steps.length);

    for (let i = steps.length - 2; i >= 0; i--) {
      await page.goBack();
      await page.waitForFunction((search) => location.search === search && document.querySelector<HTMLElement>('[data-search-root]')?.dataset.searchState === 'done', steps[i]!.search);
      expect((await shown(page)).slugs).toEqual(steps[i]!.slugs);
    }
    await page.goForward();
    await page.waitForFunction((search) => location.search === search, steps[1]!.search);
    await settled(page, { tags: 'api,json,http' });
    expect((await shown(page)).slugs).toEqual(steps[1]!.slugs);

    const shared = await openPage(`/search/${steps.at(-1)!.search}`);
    expect((await shown(shared)).slugs).toEqual(steps.at(-1)!.slugs);
    expect(await shared.inputValue('#search-tags')).toBe('api,json,http');
    expect(await shared.inputValue('#search-sort')).toBe('replies');
    await page.close();
    await shared.close();
  });

  it("reads the forum's alias parameters and shows them in the form", async () => {
    const page = await openPage('/search/?sortby=views&search_min_replies=3&start_after=2025-01-01&start_before=2026-06-30&updated_after=2025-06-01');
    const { want } = await expectResults(page);
    expect(want.query).toMatchObject({ sort: 'views', minReplies: 3, created: { kind: 'custom', from: '2025-01-01', to: '2026-06-30' } });
    expect(want.total).toBeGreaterThan(0);
    expect(await page.inputValue('#search-sort')).toBe('views');
    expect(await page.inputValue('#search-min_replies')).toBe('3');
    expect(await page.inputValue('#search-created')).toBe('custom');
    expect(await page.inputValue('#search-created_from')).toBe('2025-01-01');
    await page.goto(`${site.url}/search/?q=json%20clipboard&search_and_or=or&search_in=titles`);
    await settled(page, {});
    const words = await expectResults(page);
    expect(words.want.query).toMatchObject({ words: 'any', in: 'titles' });
    await page.close();
  });

  it('ignores a malformed parameter with a visible note and still shows results', async () => {
    const page = await openPage('/search/?tags=api&min_replies=abc&created_from=2025-02-30');
    const { notes, want } = await expectResults(page);
    expect(notes).toHaveLength(2);
    expect(notes.join(' ')).toMatch(/min_replies=.*abc/);
    expect(notes.join(' ')).toMatch(/created_from=.*2025-02-30/);
    expect(await page.locator('[data-search-notes]').isVisible()).toBe(true);
    expect(want.total).toBe(content.topics.filter((topic) => topic.tags.includes('api')).length);
    await page.close();
  });
});

describe('/search/: results like the static listing', () => {
  it("renders each entry exactly as the tag page's static HTML does, on a new page and after other results", async () => {
    const tagPage = await openPage('/tags/api/', noJs);
    const entries = (page: Page) =>
      page.$$eval('[data-results] [data-result]', (all) => all.map((entry): [string, string] => [entry.getAttribute('data-topic') ?? '', entry.outerHTML]));
    const staticEntries = new Map(await entries(tagPage));
    const expectStatic = async (page: Page) => {
      const found = await entries(page);
      expect(found.map(([slug]) => slug)).toEqual([...staticEntries.keys()]);
      for (const [slug, html] of found) expect(html.replace(/>\s+</g, '><'), slug).toBe(staticEntries.get(slug)?.replace(/>\s+</g, '><'));
    };
    const fresh = await openPage('/search/?tags=api&sort=updated');
    await expectStatic(fresh);
    await fresh.close();
    // Other results first (entries with and without replies, tags and `and N more`), then the tag's:
    // entries are reused for the new results.
    const search = await openPage('/search/?sort=views&page=2');
    await search.fill('#search-tags', 'api');
    await search.selectOption('#search-sort', 'updated');
    await settled(search, { tags: 'api', sort: 'updated', page: null });
    await expectStatic(search);
    const api = content.topics.filter((topic) => topic.tags.includes('api'));
    expect(api.slice(0, PAGE_SIZE).some((topic) => topic.replies > 0 && topic.tags.length > TAGS_SHOWN), 'an entry with `and N more`').toBe(true);
    await search.close();
    await tagPage.close();
  });

  it('shows counts per tag, content type and author within the results; a click on one filters by it', async () => {
    const page = await openPage('/search/?tags=api');
    const facets = await page.$$eval('[data-facets] [data-facet]', (groups) =>
      groups.map((group) => [group.getAttribute('data-facet'), [...group.querySelectorAll('[data-facet-value]')].map((b) => [b.getAttribute('data-facet-value'), b.textContent])]),
    );
    const { facets: want } = await expected('?tags=api');
    const counts: Record<string, Map<string, number>> = { tags: want!.tags, type: want!.types, author: want!.authors };
    expect(facets.map(([name]) => name)).toEqual(['tags', 'type', 'author']);
    for (const [name, values] of facets as Array<[string, Array<[string, string]>]>) {
      expect(values.length).toBeGreaterThan(0);
      for (const [value, text] of values) {
        // A content type's count is what choosing it finds: a forum includes its sub-forums.
        const count = name === 'type' ? (await expected(`?tags=api&type=${value}`)).total : counts[name]!.get(value);
        expect(text, `${name}=${value}`).toMatch(new RegExp(`\\(${count}\\)$`));
      }
    }
    const author = (facets[2]![1] as Array<[string, string]>)[0]![0];
    await page.click(`[data-facet="author"] [data-facet-value="${author}"]`);
    await settled(page, { tags: 'api', author });
    expect((await expectResults(page)).want.total).toBe(counts.author!.get(author));
    await page.close();
  });
});

describe('the filter panel of a tag page', () => {
  it("narrows the tag's topics and loads only that tag's index file", async () => {
    const start = site.requests.length;
    const page = await openPage('/tags/api/');
    await page.waitForLoadState('networkidle');
    const before = site.requests.length;
    expect(site.requests.slice(start).filter((path) => path.startsWith('/search-index/')), 'nothing loaded before the panel is used').toEqual([]);
    await page.click('details.filter-panel summary');
    await page.fill('#search-min_replies', '5');
    await page.press('#search-min_replies', 'Enter');
    await settled(page, { min_replies: '5' });
    const narrowed = await expectResults(page, 'api');
    expect(narrowed.heading).toBe("Showing results for tags 'api', with at least 5 replies");
    expect(narrowed.want.total).toBeLessThan(content.topics.filter((topic) => topic.tags.includes('api')).length);
    await page.selectOption('#search-type', 'help');
    await settled(page, { min_replies: '5', type: 'help' });
    await expectResults(page, 'api');
    const index = site.requests.slice(before).filter((path) => path.startsWith('/search-index/'));
    expect(index, 'only its own tag file: never core.json').toEqual(['/search-index/tags/api.json']);
    await page.close();
  });

  it("searches words within the tag, fetching the site-wide words.json and the tag's ordinals only once words are typed", async () => {
    const page = await openPage('/tags/api/');
    const start = site.requests.length;
    await page.click('details.filter-panel summary');
    await page.fill('#search-q', 'json');
    await page.press('#search-q', 'Enter');
    await settled(page, { q: 'json' });
    const found = await expectResults(page, 'api');
    expect(found.want.total).toBeGreaterThan(0);
    await page.fill('#search-q', 'clipboard');
    await page.press('#search-q', 'Enter');
    await settled(page, { q: 'clipboard' });
    await expectResults(page, 'api');
    const index = site.requests.slice(start).filter((path) => path.startsWith('/search-index/'));
    const fetched = (path: string) => index.filter((request) => request === path).length;
    expect(fetched('/search-index/words.json'), 'once, for both searches').toBe(1);
    expect(fetched('/search-index/tag-ordinals/api.json'), "the tag's global ordinals come with words, not with its file").toBe(1);
    expect(index).not.toContain('/search-index/core.json');
    await page.close();
  });
});

describe('without JavaScript', () => {
  it('tag pages still list and paginate', async () => {
    const total = content.topics.filter((topic) => topic.tags.includes('api')).length;
    const page = await openPage('/tags/api/', noJs);
    const seen: Array<string | null> = [];
    for (let n = 1; ; n++) {
      const now = await shown(page);
      expect(now.count).toBe(countText(total));
      seen.push(...now.slugs);
      const next = await page.$('[data-pagination] a[rel="next"]');
      if (!next) break;
      expect(n).toBeLessThan(10);
      await page.goto(new URL((await next.getAttribute('href'))!, page.url()).href);
    }
    const all = oracleSearch(content.topics, content.contentTypes.list, parseSearchParams(new URLSearchParams('tags=api&sort=updated')).query, NOW, 1000);
    expect(seen).toEqual(all.page.map((topic) => topic.slug));
    expect(total).toBeGreaterThan(PAGE_SIZE);
    expect(await page.locator('details.filter-panel').isVisible()).toBe(false);
    await page.close();
  });

  it('/search/ says search needs JavaScript and links to /tags/, listing the newest topics without pages it cannot show', async () => {
    const page = await openPage('/search/', noJs);
    const notice = page.locator('[data-no-js-notice]');
    expect(await notice.isVisible()).toBe(true);
    expect(await notice.textContent()).toMatch(/JavaScript/);
    expect(await notice.locator('a').getAttribute('href')).toBe('/tags/');
    expect(await page.locator('[data-search-form]').isVisible()).toBe(false);
    await expectResults(page);
    expect(content.topics.length).toBeGreaterThan(PAGE_SIZE);
    expect(await page.locator('[data-pagination]').isVisible(), 'no link to ?page=2, which needs the search').toBe(false);
    await page.close();
  });
});
