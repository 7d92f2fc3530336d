// Typed filters (SPEC 10, issue 23) in real Chromium: operators typed in /search/'s words field
// move into the form and the address on submit and give the brute-force answer; one not understood
// stays as words and is named in one line under the field; the help opens; a quoted phrase finds
// only topics where its words stand together. On a private copy of the sample content with a few
// topics by 'alice' added (other tests' counts are untouched).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildSite, copyOfSampleContent } from '../helpers/build.ts';
import { projectRoot } from '../helpers/cli.ts';
import { serveStatic, type StaticHost } from '../../src/cli/static-server.ts';
import { enterValue, launchChromium, openSearch, SEARCH_SHOWN } from '../helpers/browser.ts';
import { seriousViolations } from '../helpers/axe.ts';
import { loadContent, type SiteContent } from '../../src/content/load.ts';
import { EMPTY_QUERY, parseSearchParams, type SearchQuery } from '../../src/search/query.ts';
import { containsWords, holdsPhrase, oracleSearch, passesStructured } from '../oracles/search.ts';
import { queryPhrases } from '../../src/search/words.ts';

const NOW = new Date('2026-11-20T12:00:00Z');
let content: SiteContent;
let browser: Browser;
let site: StaticHost;
let context: BrowserContext;

/** Alice's topics: around the example's edges (a tag missing, excluded, replies 2 and 3), and a phrase in two orders. */
const ADDED: Array<{ slug: string; title: string; tags: string[]; replies: number; views: number; body: string }> = [
  { slug: 'alice-api-json-five', title: 'Paging a JSON API', tags: ['api', 'json'], replies: 5, views: 300, body: 'Cursor paging for a JSON API.' },
  { slug: 'alice-api-json-three', title: 'JSON API errors', tags: ['api', 'json'], replies: 3, views: 900, body: 'Reading error bodies.' },
  { slug: 'alice-api-json-two', title: 'JSON API retries', tags: ['api', 'json'], replies: 2, views: 4000, body: 'Retrying calls.' },
  { slug: 'alice-deprecated', title: 'Old JSON API', tags: ['api', 'json', 'deprecated'], replies: 9, views: 5000, body: 'The old endpoint.' },
  { slug: 'alice-api-only', title: 'An API without JSON', tags: ['api'], replies: 12, views: 7000, body: 'Plain text answers.' },
  { slug: 'alice-phrase', title: 'Notes on tokens', tags: ['api'], replies: 0, views: 10, body: 'A bearer token refresh loop keeps sessions.' },
  { slug: 'alice-phrase-apart', title: 'More notes', tags: ['api'], replies: 0, views: 10, body: 'Refresh the token, then bearer loop again.' },
];

beforeAll(async () => {
  const contentDir = copyOfSampleContent('typed-filters');
  mkdirSync(join(contentDir, 'topics', 'alice'), { recursive: true });
  ADDED.forEach((topic, i) => {
    const front = `---\ntitle: "${topic.title}"\nauthor: alice\ncreated: 2026-0${1 + (i % 9)}-1${i}\nforum: help\ntags: [${topic.tags.join(', ')}]\nreplies: ${topic.replies}\nviews: ${topic.views}\n---\n`;
    writeFileSync(join(contentDir, 'topics', 'alice', `${topic.slug}.md`), `${front}${topic.body}\n`);
  });
  const loaded = loadContent({ root: projectRoot, contentDir, excerptLength: 200 });
  expect(loaded.problems).toEqual([]);
  content = loaded.content;
  site = await serveStatic((await buildSite(contentDir)).outDir);
  browser = await launchChromium();
  context = await browser.newContext();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

const done = (page: Page) => page.waitForFunction(SEARCH_SHOWN);
const open = (path: string) => openSearch(context, `${site.url}${path}`, NOW);

/**
 * Puts `words` into the words field and presses Enter (enterValue: without the typing search, whose
 * address, operators not yet moved into their fields, was once the change waited for); resolves
 * once the address says the search and its results are shown.
 */
async function submitWords(page: Page, words: string): Promise<void> {
  const before = await page.evaluate(() => location.search);
  await enterValue(page, '#search-q', words);
  await page.waitForFunction((old) => location.search !== old, before);
  await done(page);
}

const shownSlugs = (page: Page) => page.$$eval('[data-results] [data-result]', (all) => all.map((entry) => entry.getAttribute('data-topic')!));
const formValues = (page: Page) =>
  page.$$eval('[data-search-form] [name]', (all) => Object.fromEntries((all as HTMLInputElement[]).filter((field) => field.value !== '' && field.name !== 'words' && field.name !== 'in').map((field) => [field.name, field.value])));

describe('typed filters on /search/', () => {
  it("issue 23's example gives the brute-force answer, with the form fields and the address showing it", async () => {
    const page = await open('/search/');
    await submitWords(page, 'tags:api+json -tags:deprecated @alice replies-min:3 order:views');
    const search = await page.evaluate(() => location.search);
    expect(search).toBe('?tags=api%2Cjson&match=all&exclude_tags=deprecated&author=alice&min_replies=3&sort=views');
    const query: SearchQuery = { ...EMPTY_QUERY, tags: ['api', 'json'], match: 'all', excludeTags: ['deprecated'], author: 'alice', minReplies: 3, sort: 'views' };
    expect(parseSearchParams(new URLSearchParams(search)).query).toEqual(query);
    const oracle = oracleSearch(content.topics, content.contentTypes.list, query, NOW, 1000);
    expect(oracle.ordered.map((topic) => topic.slug)).toEqual(['alice-api-json-three', 'alice-api-json-five']);
    expect(await shownSlugs(page)).toEqual(oracle.page.map((topic) => topic.slug));
    expect(await page.textContent('[data-result-count]')).toBe('Found 2 results');
    expect(await formValues(page)).toEqual({ tags: 'api,json', match: 'all', exclude_tags: 'deprecated', author: 'alice', min_replies: '3', sort: 'views', created: 'any', updated: 'any' });
    expect(await page.textContent('[data-typed-note]')).toBe('');
    // Back leads to the search before, as for any submit.
    await page.goBack();
    await done(page);
    expect(await page.evaluate(() => location.search)).toBe('');
    await page.close();
  });

  it('names an operator not understood in one polite line under the field, keeps it as words, and moves the rest', async () => {
    const page = await open('/search/');
    await submitWords(page, 'json categry:help replies-min:abc @alice');
    const note = page.locator('[data-typed-note]');
    expect(await note.isVisible()).toBe(true);
    expect(await note.textContent()).toBe('Not understood, so searched as words: "categry:help" (no operator categry:), "replies-min:abc" (expected a whole number >= 0).');
    expect(await note.getAttribute('aria-live')).toBe('polite');
    expect(await page.getAttribute('#search-q', 'aria-describedby')).toContain('search-q-note');
    expect(await page.inputValue('#search-q')).toBe('json categry:help replies-min:abc');
    expect(await page.inputValue('#search-author')).toBe('alice');
    const params = new URLSearchParams(await page.evaluate(() => location.search));
    expect(params.get('q')).toBe('json categry:help replies-min:abc');
    expect(params.get('author')).toBe('alice');
    // The address alone says it all: opened again, the note is there again.
    const again = await open(`/search/?${params}`);
    expect(await again.textContent('[data-typed-note]')).toBe(await note.textContent());
    // Once fixed, the note goes.
    await submitWords(page, 'json replies-min:1');
    expect(await note.textContent()).toBe('');
    expect(await note.isVisible()).toBe(false);
    await page.close();
    await again.close();
  });

  it('opens its help, which passes axe with a note showing', async () => {
    const page = await open('/search/');
    const help = page.locator('[data-operators-help]');
    expect(await help.getAttribute('open')).toBeNull();
    await page.click('[data-operators-help] summary');
    expect(await help.getAttribute('open')).toBe('');
    const text = await help.textContent();
    for (const operator of ['tags:api+json', 'tags:api,json', '-tags:beta', '@mira', 'forum:help', 'created-after:', 'updated-after:7d', 'replies-min:3', 'in:title', 'order:views', '"two words"']) expect(text).toContain(operator);
    await submitWords(page, 'json nosuch:thing');
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it('reads operators in an address (typed by hand, or the form sent without the script) and shows the address they move to', async () => {
    const page = await open(`/search/?q=${encodeURIComponent('tags:api+json @alice created-after:7d json')}`);
    expect(await page.evaluate(() => location.search)).toBe('?tags=api%2Cjson&match=all&q=json&author=alice&created=custom&created_from=2026-11-13');
    expect(await page.inputValue('#search-q')).toBe('json');
    await page.close();
  });

  it("on a tag page's panel moves the other operators and names tags: (the page's tag is fixed)", async () => {
    const page = await open('/tags/api/');
    await page.click('details.filter-panel summary');
    const before = await page.evaluate(() => location.search);
    await page.fill('details.filter-panel [name="q"]', 'tags:json @alice replies-min:3');
    await page.press('details.filter-panel [name="q"]', 'Enter');
    await page.waitForFunction((old) => location.search !== old, before);
    await done(page);
    expect(await page.evaluate(() => location.search)).toBe(`?q=${encodeURIComponent('tags:json')}&author=alice&min_replies=3`);
    expect(await page.textContent('details.filter-panel [data-typed-note]')).toBe(`Not understood, so searched as words: "tags:json" (this page lists the tag 'api' only).`);
    expect(await page.textContent('details.filter-panel [data-operators-help]')).not.toContain('tags:api+json');
    await page.close();
  });

  it('finds a quoted phrase only where its words stand together, and every such topic', async () => {
    let page = await open('/search/');
    await submitWords(page, '"token refresh loop" in:title');
    expect(await page.textContent('[data-result-count]')).toBe('Found 0 results');
    // What an operator set stays in its field: Search in is now Titles only.
    expect(await page.inputValue('#search-in')).toBe('titles');
    // A way out: the words without quotes.
    const before = await page.evaluate(() => location.search);
    await page.locator('[data-no-results] a', { hasText: "Words 'token refresh loop' without quotes" }).click();
    await page.waitForFunction((old) => location.search !== old, before);
    await done(page);
    expect(new URLSearchParams(await page.evaluate(() => location.search)).get('q')).toBe('token refresh loop');
    await page.close();
    page = await open('/search/');
    await submitWords(page, '"token refresh loop" @alice');
    expect(await page.evaluate(() => location.search)).toBe(`?q=${encodeURIComponent('"token refresh loop"').replace(/%20/g, '+')}&author=alice`);
    const query: SearchQuery = { ...EMPTY_QUERY, q: '"token refresh loop"', author: 'alice' };
    const want = content.topics.filter((topic) => passesStructured(topic, query, content.contentTypes.list, NOW) && containsWords(topic, query)).map((topic) => topic.slug);
    expect(want).toEqual(['alice-phrase']);
    expect(await shownSlugs(page)).toEqual(want);
    // Without quotes, the topic with the words apart is found too.
    await submitWords(page, 'token refresh loop @alice');
    expect((await shownSlugs(page)).sort()).toEqual(['alice-phrase', 'alice-phrase-apart']);
    const apart = content.topics.find((topic) => topic.slug === 'alice-phrase-apart')!;
    expect(holdsPhrase(apart, queryPhrases('"token refresh loop"')[0]!, 'all')).toBe(false);
    await page.close();
  });
});
