// Search that says what it did (issue 16) in real Chromium on the sample content: the heading names
// every filter, matched words are marked, no results offers ways out, and the Tags field is a
// keyboard combobox that searches complete tags only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildSite, copyOfSampleContent } from '../helpers/build.ts';
import { projectRoot } from '../helpers/cli.ts';
import { serveStatic, type StaticHost } from '../../src/cli/static-server.ts';
import { launchChromium, openSearch, SEARCH_SHOWN } from '../helpers/browser.ts';
import { loadContent, type SiteContent } from '../../src/content/load.ts';
import { foldWord } from '../../src/search/words.ts';
import { excerptOf } from '../../src/model/listing.ts';

const NOW = new Date('2026-11-20T12:00:00Z');
let content: SiteContent;
let browser: Browser;
let site: StaticHost;
let context: BrowserContext;

beforeAll(async () => {
  const contentDir = copyOfSampleContent('search-help');
  content = loadContent({ root: projectRoot, contentDir, excerptLength: 200 }).content;
  site = await serveStatic((await buildSite(contentDir)).outDir);
  browser = await launchChromium();
  context = await browser.newContext();
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

const done = (page: Page) => page.waitForFunction(SEARCH_SHOWN);
const open = (path: string) => openSearch(context, `${site.url}${path}`, NOW);

const heading = (page: Page) => page.textContent('[data-search-heading]');

describe('the heading names every filter in effect', () => {
  it.each([
    ['?tags=http&q=json', "Showing results for tags 'http' matching 'json'"],
    ['?q=json&author=mira', "Showing results for 'json', by 'mira'"],
    ['?tags=api,json,web', "Showing results for tags 'api', 'json' or 'web'"],
    ['?tags=api,json,web&match=all', "Showing results for tags 'api', 'json' and 'web'"],
    ['?type=automation', "Showing topics, of type 'Automation'"],
    ['?min_replies=5&min_views=100', 'Showing topics, with at least 5 replies, with at least 100 views'],
    [
      '?tags=api,json&match=all&q=clipboard%20json&words=any&in=titles&author=mira&type=help&created=month&updated=custom&updated_from=2025-01-01&updated_to=2025-06-30&min_replies=1&min_views=1&sort=views&page=1',
      "Showing results for tags 'api' and 'json' matching any of the words 'clipboard json' in titles only, by 'mira', of type 'Help & Support', created in the last month, updated from 2025-01-01 to 2025-06-30, with at least 1 reply, with at least 1 view",
    ],
    ['?created_from=2025-01-01', 'Showing topics, created on or after 2025-01-01'],
  ])('/search/%s', async (search, text) => {
    const page = await open(`/search/${search}`);
    expect(await heading(page)).toBe(text);
    await page.close();
  });

  it("a tag page's panel names its filters after the tag", async () => {
    const page = await open('/tags/api/?q=json&min_views=10');
    expect(await heading(page)).toBe("Showing results for tags 'api' matching 'json', with at least 10 views");
    await page.close();
  });
});

describe('matched words are marked', () => {
  it('marks the words, typo matches included, in titles and excerpts, as text inside the SPEC 4.1 hooks', async () => {
    const page = await open('/search/?q=workflw');
    const entries = await page.$$eval('[data-results] [data-result]', (all) =>
      all.map((entry) => {
        const title = entry.querySelector('[data-title]')!;
        return {
          slug: entry.getAttribute('data-topic')!,
          titleTag: title.tagName,
          href: title.getAttribute('href'),
          title: title.textContent,
          excerpt: entry.querySelector('[data-excerpt]')!.textContent,
          marks: [...entry.querySelectorAll('[data-title] mark, [data-excerpt] mark')].map((mark) => mark.textContent!),
          markHtml: [...entry.querySelectorAll('mark')].every((mark) => mark.children.length === 0),
        };
      }),
    );
    expect(entries.length).toBeGreaterThan(0);
    const marked = entries.filter((entry) => entry.marks.length > 0);
    expect(marked.length, 'entries with marks').toBeGreaterThan(0);
    for (const entry of entries) {
      const topic = content.topics.find((t) => t.slug === entry.slug)!;
      expect(entry.titleTag).toBe('A');
      expect(entry.href).toBe(`/topics/${entry.slug}/`);
      expect(entry.title).toBe(topic.title);
      expect(entry.excerpt).toBe(excerptOf(topic));
      expect(entry.markHtml).toBe(true);
      // Each mark is a typo or prefix match of the word typed: `workflow`, `workflows`, …
      for (const mark of entry.marks) expect(foldWord(mark)).toMatch(/^wor?k?f?l/);
    }
    expect(marked.some((entry) => entry.marks.some((mark) => foldWord(mark).startsWith('workflow')))).toBe(true);
    // A search without words shows no marks in the same entries.
    await page.fill('#search-q', '');
    await page.waitForFunction(() => location.search === '');
    await page.selectOption('#search-sort', 'views');
    await done(page);
    expect(await page.locator('[data-results] mark').count()).toBe(0);
    await page.close();
  });
});

describe('no results helps', () => {
  it('names the filters and offers a close tag, any tag and removing each filter, each one click', async () => {
    const page = await open('/search/?tags=htp,api&match=all');
    expect(await page.textContent('[data-result-count]')).toBe('Found 0 results');
    const help = page.locator('[data-no-results]');
    expect(await help.isVisible()).toBe(true);
    expect(await help.locator('p').textContent()).toBe("No topic matches tags 'htp' and 'api'.");
    const ways = await help.locator('a').allTextContents();
    expect(ways).toEqual(expect.arrayContaining(["Tag 'http' instead of 'htp'", 'Match any tag', "Remove tag 'htp'", "Remove tag 'api'"]));
    expect(await page.textContent('[data-tag-note]')).toBe("No topic is tagged 'htp'.");
    await help.getByText("Tag 'http' instead of 'htp'").click();
    await page.waitForFunction(() => new URL(location.href).searchParams.get('tags') === 'http,api');
    await done(page);
    const total = content.topics.filter((t) => t.tags.includes('http') && t.tags.includes('api')).length;
    expect(await page.textContent('[data-result-count]')).toBe(`Found ${total} result${total === 1 ? '' : 's'}`);
    expect(await help.isVisible()).toBe(total === 0);
    await page.close();
  });

  it('offers a close word when a word matched nothing, and removing the words', async () => {
    const page = await open('/search/?q=clpbrd');
    expect(await page.textContent('[data-result-count]')).toBe('Found 0 results');
    const ways = await page.locator('[data-no-results] a').allTextContents();
    expect(ways).toContain("Remove words 'clpbrd'");
    const close = ways.find((way) => way.startsWith('Words '));
    expect(close, ways.join(' | ')).toBeDefined();
    await page.locator('[data-no-results] a', { hasText: close! }).click();
    await done(page);
    expect(await page.textContent('[data-result-count]')).not.toBe('Found 0 results');
    await page.close();
  });

  it('offers removing the author, dates and minimums, and any word for all words', async () => {
    const page = await open('/search/?q=clipboard%20zebra&author=nobody-at-all&created=day&min_views=999999');
    const ways = await page.locator('[data-no-results] a').allTextContents();
    expect(ways).toEqual(expect.arrayContaining(['Match any word', "Remove by 'nobody-at-all'", 'Remove created in the last day', 'Remove the minimum views']));
    await page.locator('[data-no-results] a', { hasText: "Remove by 'nobody-at-all'" }).click();
    await page.waitForFunction(() => !new URL(location.href).searchParams.has('author'));
    await page.close();
  });
});

describe('the Tags field', () => {
  /** Counts the searches the page starts from now on. */
  const countRuns = (page: Page) =>
    page.evaluate(() => {
      const root = document.querySelector<HTMLElement>('[data-search-root]')!;
      (window as unknown as { runs: number }).runs = 0;
      new MutationObserver(() => {
        if (root.dataset.searchState === 'running') (window as unknown as { runs: number }).runs++;
      }).observe(root, { attributes: true, attributeFilter: ['data-search-state'] });
    });
  const runs = (page: Page) => page.evaluate(() => (window as unknown as { runs: number }).runs);

  it('suggests while typing but never searches a partial tag; ArrowDown + Enter picks and searches', async () => {
    const page = await open('/search/');
    await page.focus('#search-tags');
    await page.waitForTimeout(300); // the index loads on focus
    await countRuns(page);
    await page.locator('#search-tags').pressSequentially('htt', { delay: 60 });
    await page.waitForTimeout(500);
    expect(await runs(page), 'no search for h, ht, htt').toBe(0);
    expect(new URL(page.url()).search).toBe('');
    const input = page.locator('#search-tags');
    expect(await input.getAttribute('role')).toBe('combobox');
    expect(await input.getAttribute('aria-expanded')).toBe('true');
    const options = page.locator('#search-tag-list [role=option]');
    expect(await options.allTextContents()).toContain('http');
    expect(await page.locator('#search-tag-list').getAttribute('role')).toBe('listbox');
    await page.keyboard.press('ArrowDown');
    const active = await input.getAttribute('aria-activedescendant');
    expect(await page.locator(`#${active}`).getAttribute('aria-selected')).toBe('true');
    const picked = await page.locator(`#${active}`).textContent();
    await page.keyboard.press('Enter');
    await page.waitForFunction((tag) => new URL(location.href).searchParams.get('tags') === tag, picked);
    await done(page);
    expect(await input.inputValue()).toBe(`${picked}, `);
    expect(await input.getAttribute('aria-expanded')).toBe('false');
    expect(await runs(page)).toBe(1);
    await page.close();
  });

  it('Escape closes the suggestions; a comma, Enter or leaving the field completes a tag; an unknown tag says so', async () => {
    const page = await open('/search/');
    const input = page.locator('#search-tags');
    await input.click();
    await input.pressSequentially('ap', { delay: 30 });
    await expect.poll(() => input.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Escape');
    expect(await input.getAttribute('aria-expanded')).toBe('false');
    expect(await page.locator('#search-tag-list').isVisible()).toBe(false);
    await input.pressSequentially('i,', { delay: 30 });
    await page.waitForFunction(() => new URL(location.href).searchParams.get('tags') === 'api');
    await input.pressSequentially(' nosuchtag', { delay: 30 });
    await page.waitForTimeout(400);
    expect(new URL(page.url()).searchParams.get('tags')).toBe('api');
    await page.keyboard.press('Tab');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('tags') === 'api,nosuchtag');
    await done(page);
    expect(await page.textContent('[data-tag-note]')).toBe("No topic is tagged 'nosuchtag'.");
    await input.fill('json');
    await input.press('Enter');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('tags') === 'json');
    await done(page);
    expect(await page.textContent('[data-tag-note]')).toBe('');
    await page.close();
  });
});
