// Where /search/ runs its searches, in real Chromium on a generated 300-topic site (three display
// files): a small site's structured filters in the page's own thread, words in a worker, every
// search in the worker on a site too big for the page's thread; and, after the first search, the
// display rows of a small site and the site's vocabulary fetched in the background.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { buildSite } from '../helpers/build.ts';
import { projectRoot } from '../helpers/cli.ts';
import { serveStatic, type StaticHost } from '../../src/cli/static-server.ts';
import { launchChromium } from '../helpers/browser.ts';
import { writeCorpus } from '../../scripts/bench/corpus.ts';
import { loadContent, type SiteContent } from '../../src/content/load.ts';
import { parseSearchParams } from '../../src/search/query.ts';
import { decodeIndex, runSearch } from '../../src/search/engine.ts';
import type { CoreFile, DisplayRow, VocabularyFile, WordsFile } from '../../src/search/index-format.ts';
import { firstWordFiles } from '../../src/search/words.ts';
import { WordMatcher } from '../../src/search/word-match.ts';
import { oracleSearch } from '../oracles/search.ts';

const NOW = new Date('2026-11-20T12:00:00Z');
let contentDir: string;
let content: SiteContent;
let outDir: string;
let site: StaticHost;
let browser: Browser;

beforeAll(async () => {
  contentDir = mkdtempSync(join(tmpdir(), 'tagsite-threads-'));
  writeCorpus(contentDir, { count: 300, seed: 'threads', end: '2026-11-15' });
  const loaded = loadContent({ root: projectRoot, contentDir, excerptLength: 200 });
  expect(loaded.problems).toEqual([]);
  content = loaded.content;
  ({ outDir } = await buildSite(contentDir));
  site = await serveStatic(outDir);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  rmSync(contentDir, { recursive: true, force: true });
});

/** Opens /search/ (with `topics` put in its data-topics, if given) and counts the workers it starts. */
async function openSearch(search = '', topics?: number): Promise<{ page: Page; workers: () => number }> {
  const page = await browser.newPage();
  await page.clock.setFixedTime(NOW);
  let workers = 0;
  page.on('worker', () => workers++);
  if (topics !== undefined) {
    await page.route((url) => url.pathname === '/search/', async (route) => {
      const response = await route.fetch();
      // A site that big has no core.json for <head> to ask for (search.astro).
      const html = (await response.text()).replace(/data-topics="\d+"/, `data-topics="${topics}"`).replace(/ data-core-index="[^"]*"/, '');
      expect(html).toContain(`data-topics="${topics}"`);
      expect(html).not.toContain('data-core-index');
      await route.fulfill({ response, body: html });
    });
  }
  await page.goto(`${site.url}/search/${search}`);
  await done(page);
  return { page, workers: () => workers };
}

async function done(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-search-root]')?.dataset.searchState === 'done');
}

/** Submits the form with `field` set to `value` and waits for the URL to say it and the results to show. */
async function filter(page: Page, field: string, value: string): Promise<void> {
  await page.fill(`#search-${field}`, value);
  await page.press(`#search-${field}`, 'Enter');
  await page.waitForFunction(
    ([name, want]) => new URL(location.href).searchParams.get(name!) === want && document.querySelector<HTMLElement>('[data-search-root]')?.dataset.searchState === 'done',
    [field, value],
  );
}

/** The files a built script imports statically (minified: `import{…}from"./x.js"` or `import"./x.js"`). */
const staticImports = (path: string) => [...readFileSync(join(outDir, path), 'utf8').matchAll(/import(?:[^;()"]*?from)?\s*"\.\/([^"]+\.js)"/g)].map((match) => `/_astro/${match[1]}`);

const shownSlugs = (page: Page) => page.$$eval('[data-results] [data-result]', (entries) => entries.map((entry) => entry.getAttribute('data-topic')));
const pageSize = (page: Page) => page.$eval('[data-search-root]', (root) => Number((root as HTMLElement).dataset.pageSize));

/** What the content says the page should list for its current URL (structured filters only). */
async function oracleSlugs(page: Page): Promise<string[]> {
  const { query } = parseSearchParams(new URL(page.url()).searchParams);
  return oracleSearch(content.topics, content.contentTypes.list, query, NOW, await pageSize(page)).page.map((topic) => topic.slug);
}

/** The engine in Node on the built index, for a search with words (`size`: results a page, the page's own by default). */
async function engineSlugs(page: Page, size?: number): Promise<string[]> {
  const read = <T>(path: string) => JSON.parse(readFileSync(join(outDir, 'search-index', path), 'utf8')) as T;
  const core = read<CoreFile>('core.json');
  const index = decodeIndex(core);
  const { query } = parseSearchParams(new URL(page.url()).searchParams);
  const words = await new WordMatcher(async (path) => read(path), core).match(query.q, query.in === 'titles');
  const result = runSearch(index, query, NOW, size ?? (await pageSize(page)), words);
  return Array.from(result.page, (local) => {
    const global = index.global[local]!;
    return read<DisplayRow[]>(`display/${Math.floor(global / core.displayShardSize)}.json`)[global % core.displayShardSize]![0];
  });
}

describe('where /search/ runs its searches', () => {
  it("filters a small site in the page's own thread and starts a worker only for words", async () => {
    const start = site.served.length;
    const scripts = () => site.served.slice(start).filter((response) => response.path.endsWith('.js')).map((response) => response.path);
    const { page, workers } = await openSearch();
    await filter(page, 'min_replies', '3');
    expect(await shownSlugs(page)).toEqual(await oracleSlugs(page));
    expect(workers(), 'no worker for structured filters').toBe(0);
    // Fuse.js is not part of what the page's thread loads for structured filters (word matching is,
    // on /search/, for a shared link's words).
    const pageScripts = scripts();
    expect(pageScripts.length).toBeGreaterThan(0);
    for (const path of pageScripts) expect(readFileSync(join(outDir, path), 'utf8').includes('Fuse'), `${path} holds Fuse.js`).toBe(false);
    // The page's script and what it imports arrive in two steps at most, never a chain of imports:
    // what its imports import, it imports itself.
    const imported = staticImports(pageScripts.find((path) => path.includes('SiteSearchScript'))!);
    expect(imported.length).toBeGreaterThan(0);
    for (const path of imported) for (const next of staticImports(path)) expect(imported, `${path} imports ${next}`).toContain(next);
    const word = content.topics[0]!.title.split(' ')[0]!.toLowerCase();
    await filter(page, 'q', word);
    const found = await shownSlugs(page);
    expect(found.length).toBeGreaterThan(0);
    expect(found).toEqual(await engineSlugs(page));
    expect(workers(), 'words run in a worker, so typing never waits for them').toBe(1);
    // The worker's own file holds word matching: the first words wait for no second script.
    const workerScripts = scripts().slice(pageScripts.length);
    expect(workerScripts).toHaveLength(1);
    expect(readFileSync(join(outDir, workerScripts[0]!), 'utf8').includes('Fuse'), `${workerScripts[0]} holds Fuse.js`).toBe(true);
    await page.close();
  });

  it("shows a shared link with words alone before core.json or the worker's script has arrived, then its facet counts", async () => {
    const word = content.topics[0]!.title.split(' ')[0]!.toLowerCase();
    const page = await browser.newPage();
    let workers = 0;
    page.on('worker', () => workers++);
    await page.clock.setFixedTime(NOW);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/search-index/core.json', async (route) => {
      await held;
      await route.continue();
    });
    // The worker's own script is held too: results shown meanwhile came from the page itself.
    const workerScripts: string[] = [];
    await page.route('**/_astro/worker*.js', async (route) => {
      workerScripts.push(route.request().url());
      await held;
      await route.continue();
    });
    await page.goto(`${site.url}/search/?q=${encodeURIComponent(word)}`);
    await done(page);
    const found = await shownSlugs(page);
    expect(found.length).toBeGreaterThan(0);
    expect(found).toEqual(await engineSlugs(page));
    const count = await page.textContent('[data-result-count]');
    expect(await page.isHidden('[data-facets]'), "no counts before the index (the page's own are not this search's)").toBe(true);
    release();
    await expect.poll(() => page.isVisible('[data-facets]')).toBe(true);
    // The counts are this search's: each tag's among all its results.
    const tagCounts = await page.$$eval('[data-facet="tags"] [data-facet-value]', (buttons) => buttons.map((button) => [button.getAttribute('data-facet-value')!, button.textContent!] as const));
    expect(tagCounts.length).toBeGreaterThan(0);
    const all = new Set(await engineSlugs(page, 1_000_000));
    for (const [tag, text] of tagCounts) {
      const want = content.topics.filter((topic) => all.has(topic.slug) && topic.tags.includes(tag)).length;
      expect(text, tag).toMatch(new RegExp(`\\(${want}\\)$`));
    }
    expect(await shownSlugs(page)).toEqual(found);
    expect(await page.textContent('[data-result-count]')).toBe(count);
    expect([workers, workerScripts.length], 'the counts, and later words, are searched in the worker').toEqual([1, 1]);
    await page.close();
  });

  it("asks for plain words' first index files from <head> for a shared link with words alone, with the words.json the page holds; each once", async () => {
    const words = [...new Set(content.topics.slice(0, 2).map((topic) => topic.title.split(' ')[0]!.toLowerCase()))];
    expect(words.every((word) => /^[a-z0-9]+$/.test(word)), words.join(' ')).toBe(true);
    const page = await browser.newPage();
    await page.clock.setFixedTime(NOW);
    const fromHead = () => page.evaluate(() => Object.keys((window as { tagsiteWordFiles?: object }).tagsiteWordFiles ?? {}));
    const start = site.served.length;
    await page.goto(`${site.url}/search/?q=${encodeURIComponent(words.join(' '))}&words=any`);
    await done(page);
    const info = JSON.parse(readFileSync(join(outDir, 'search-index/words.json'), 'utf8')) as WordsFile;
    const wanted = firstWordFiles(words.join(' '), new Set(info.vocabKeys), info.postingBounds);
    expect(wanted.length).toBeGreaterThan(0);
    expect((await fromHead()).sort()).toEqual([...wanted].sort());
    // The page's own search read each of them from what <head> asked for, and words.json from the
    // page itself (the build wrote it in). The worker, started once the first results are shown,
    // fetches its own: the page's are those served before the worker's script.
    const served = site.served.slice(start).map((response) => response.path);
    const worker = served.findIndex((path) => /\/_astro\/worker[^/]*\.js$/.test(path));
    const byPage = worker < 0 ? served : served.slice(0, worker);
    for (const path of wanted) expect(byPage.filter((p) => p === `/search-index/${path}`), path).toHaveLength(1);
    expect(byPage.filter((p) => p === '/search-index/words.json'), 'words.json is in the page').toHaveLength(0);
    await page.close();
  });

  it("answers a shared link with words and a filter in the page's own thread on a small site, from what <head> asked for; each once", async () => {
    const topic = content.topics[0]!;
    const word = topic.title.split(' ')[0]!.toLowerCase();
    const page = await browser.newPage();
    await page.clock.setFixedTime(NOW);
    let workers = 0;
    page.on('worker', () => workers++);
    const start = site.served.length;
    await page.goto(`${site.url}/search/?q=${encodeURIComponent(word)}&author=${encodeURIComponent(topic.author)}`);
    await done(page);
    const found = await shownSlugs(page);
    expect(found).toContain(topic.slug);
    expect(found).toEqual(await engineSlugs(page));
    expect(workers, 'no worker starts before the first results').toBe(0);
    // A full search: its counts come with its results.
    expect(await page.isVisible('[data-facets]')).toBe(true);
    const info = JSON.parse(readFileSync(join(outDir, 'search-index/words.json'), 'utf8')) as WordsFile;
    const wanted = firstWordFiles(word, new Set(info.vocabKeys), info.postingBounds);
    const served = site.served.slice(start).map((response) => response.path);
    for (const path of ['core.json', ...wanted]) expect(served.filter((p) => p === `/search-index/${path}`), path).toHaveLength(1);
    expect(served.filter((p) => p === '/search-index/words.json'), 'words.json is in the page').toHaveLength(0);
    expect(await page.evaluate(() => ['tagsiteCoreFile', 'tagsiteWordsFile'].filter((name) => name in window)), 'both handed over').toEqual([]);
    await page.close();
  });

  it('leaves a shared link with words and a filter to the worker on a site too big for the page, which <head> asks nothing for', async () => {
    const topic = content.topics[0]!;
    const word = topic.title.split(' ')[0]!.toLowerCase();
    const { page, workers } = await openSearch(`?q=${encodeURIComponent(word)}&author=${encodeURIComponent(topic.author)}`, 1_000_000);
    expect(workers()).toBe(1);
    expect(await shownSlugs(page)).toEqual(await engineSlugs(page));
    expect(await page.evaluate(() => ['tagsiteCoreFile', 'tagsiteWordsFile', 'tagsiteWordFiles'].filter((name) => name in window))).toEqual([]);
    await page.close();
  });

  it('runs every search in the worker on a site too big for the page, with the same results', async () => {
    const { page, workers } = await openSearch('?sort=views', 1_000_000);
    expect(workers()).toBe(1);
    expect(await shownSlugs(page)).toEqual(await oracleSlugs(page));
    await filter(page, 'min_replies', '3');
    expect(await shownSlugs(page)).toEqual(await oracleSlugs(page));
    expect(workers()).toBe(1);
    await page.close();
  });
});

/**
 * Submits `field` = `value` and returns the address at the moment the results were shown (read in
 * the same task as the results) and once the search has settled.
 */
async function addressWhenShown(page: Page, field: string, value: string): Promise<{ atResults: string; settled: string }> {
  const atResults = await page.evaluate(
    ([name, value]) =>
      new Promise<string>((resolve) => {
        const root = document.querySelector<HTMLElement>('[data-search-root]')!;
        const observer = new MutationObserver(() => {
          if (root.dataset.searchState !== 'done') return;
          observer.disconnect();
          resolve(location.search);
        });
        observer.observe(root, { attributes: true, attributeFilter: ['data-search-state'] });
        const input = document.querySelector<HTMLInputElement>(`#search-${name}`)!;
        input.value = value!;
        input.form!.requestSubmit();
      }),
    [field, value],
  );
  await page.waitForFunction(([name, want]) => new URL(location.href).searchParams.get(name!) === want, [field, value]);
  return { atResults, settled: new URL(page.url()).search };
}

describe('the history entry of a search', () => {
  it('is written after its results are shown, in the page thread and in the worker alike', async () => {
    const { page, workers } = await openSearch('?min_replies=1');
    const inPage = await addressWhenShown(page, 'min_replies', '2');
    expect(workers()).toBe(0);
    expect(inPage).toEqual({ atResults: '?min_replies=1', settled: '?min_replies=2' });
    const word = content.topics[0]!.title.split(' ')[0]!.toLowerCase();
    const inWorker = await addressWhenShown(page, 'q', word);
    expect(workers()).toBe(1);
    expect(inWorker).toEqual({ atResults: '?min_replies=2', settled: `?q=${encodeURIComponent(word)}&min_replies=2` });
    await page.goBack();
    await page.waitForFunction(() => location.search === '?min_replies=2' && document.querySelector<HTMLElement>('[data-search-root]')?.dataset.searchState === 'done');
    expect(await shownSlugs(page)).toEqual(await oracleSlugs(page));
    await page.close();
  });
});

describe("a small site's display rows", () => {
  /** The display file of each topic, by slug. */
  const fileOf = () => {
    const files = new Map<string, string>();
    for (const name of readdirSync(join(outDir, 'search-index', 'display'))) {
      for (const row of JSON.parse(readFileSync(join(outDir, 'search-index', 'display', name), 'utf8')) as DisplayRow[]) files.set(row[0], `/search-index/display/${name}`);
    }
    return files;
  };
  /** The display files of page `n` of the results the page's address asks for. */
  async function filesOfPage(page: Page, n: number): Promise<Set<string>> {
    const { query } = parseSearchParams(new URL(page.url()).searchParams);
    const files = fileOf();
    return new Set(oracleSearch(content.topics, content.contentTypes.list, { ...query, page: n }, NOW, await pageSize(page)).page.map((topic) => files.get(topic.slug)!));
  }

  it('are fetched for the results shown, and all of them (in big files) only from the second search on', async () => {
    const start = site.requests.length;
    const requested = (folder: string) => new Set(site.requests.slice(start).filter((path) => path.startsWith(`/search-index/${folder}/`)));
    const { page } = await openSearch('?min_replies=1');
    const first = await filesOfPage(page, 1);
    expect(first.size).toBeGreaterThan(3);
    await page.waitForTimeout(300); // time for a background fetch, if there were one
    expect(requested('display'), 'one search fetches only what it shows').toEqual(first);
    expect(requested('display-all')).toEqual(new Set());
    await filter(page, 'min_replies', '2');
    const all = readdirSync(join(outDir, 'search-index', 'display-all')).map((name) => `/search-index/display-all/${name}`);
    expect(all.length).toBeGreaterThan(1);
    await expect.poll(() => requested('display-all').size).toBe(all.length);
    expect(requested('display-all')).toEqual(new Set(all));
    const small = requested('display').size;
    for (const value of ['3', '5']) {
      await filter(page, 'min_replies', value);
      expect(await shownSlugs(page)).toEqual(await oracleSlugs(page));
    }
    await page.click('[data-pagination] a[rel="next"]');
    // The address is written once the results are painted: the oracle reads it.
    await page.waitForFunction(() => new URL(location.href).searchParams.get('page') === '2' && document.querySelector<HTMLElement>('[data-search-root]')?.dataset.searchState === 'done');
    expect(await shownSlugs(page)).toEqual(await oracleSlugs(page));
    expect(requested('display').size, 'later results wait for no file').toBe(small);
    await page.close();
  });

  it('a search while all of them are on their way waits for them instead of asking for its small files again', async () => {
    const start = site.requests.length;
    const small = () => new Set(site.requests.slice(start).filter((path) => path.startsWith('/search-index/display/')));
    const { page } = await openSearch('?min_replies=1');
    // The big files arrive late, as on a slow link: the next searches are asked for meanwhile.
    let held = 0;
    await page.route('**/search-index/display-all/*.json', async (route) => {
      held++;
      await new Promise((later) => setTimeout(later, 700));
      await route.continue();
    });
    await filter(page, 'min_replies', '2');
    const before = small();
    await expect.poll(() => held).toBeGreaterThan(0);
    for (const value of ['4', '6']) {
      await filter(page, 'min_replies', value);
      expect(await shownSlugs(page)).toEqual(await oracleSlugs(page));
    }
    expect(small(), 'no small display file asked for while the big ones come').toEqual(before);
    await page.close();
  });

  it('are never fetched ahead under Save-Data', async () => {
    const start = site.requests.length;
    const display = () => new Set(site.requests.slice(start).filter((path) => path.startsWith('/search-index/display/')));
    const page = await browser.newPage();
    await page.addInitScript(() => Object.defineProperty(navigator, 'connection', { value: { saveData: true, effectiveType: '4g' } }));
    await page.clock.setFixedTime(NOW);
    await page.goto(`${site.url}/search/?min_replies=1`);
    await done(page);
    const wanted = await filesOfPage(page, 1);
    for (const value of ['2', '3']) {
      await filter(page, 'min_replies', value);
      for (const file of await filesOfPage(page, 1)) wanted.add(file);
    }
    await page.waitForTimeout(300);
    expect(display()).toEqual(wanted);
    expect(site.requests.slice(start).filter((path) => path.startsWith('/search-index/display-all/'))).toEqual([]);
    await page.close();
  });
});

describe("the site's vocabulary", () => {
  /** The most used term of each of three vocabulary shards: words whose vocabulary files differ. */
  const wordsOfThreeShards = () => {
    const all = JSON.parse(readFileSync(join(outDir, 'search-index', 'vocab-all.json'), 'utf8')) as VocabularyFile;
    const shards = Object.entries(all).filter(([key]) => /^[a-z]$/.test(String.fromCodePoint(parseInt(key, 16))));
    shards.sort((a, b) => b[1].terms.length - a[1].terms.length);
    return shards.slice(0, 3).map(([, { terms, df }]) => terms[df.indexOf(Math.max(...df))]!);
  };

  it('is fetched whole in one file from the second search with words on; later words then fetch no vocabulary shard', async () => {
    const [first, second, third] = wordsOfThreeShards();
    const start = site.requests.length;
    const since = (prefix: string) => site.requests.slice(start).filter((path) => path.startsWith(prefix));
    // The first search by address: typed into the form, it may be searched twice (the pause after typing, then Enter).
    const { page } = await openSearch(`?q=${first}`);
    await page.waitForTimeout(300); // time for a background fetch, if there were one
    expect(since('/search-index/vocab-all.json'), 'one search with words is often all a visit does').toEqual([]);
    await filter(page, 'q', second!);
    await expect.poll(() => since('/search-index/vocab-all.json').length).toBe(1);
    await page.waitForTimeout(300); // for the worker to read it
    const shardsBefore = since('/search-index/vocab/').length;
    await filter(page, 'q', third!);
    expect(await shownSlugs(page)).toEqual(await engineSlugs(page));
    expect(since('/search-index/vocab/').length, `'${third}' waits for no vocabulary shard`).toBe(shardsBefore);
    expect(since('/search-index/vocab-all.json')).toHaveLength(1);
    await page.close();
  });

  it('is never fetched ahead on a slow connection, nor are the display rows: the worker asks its own navigator.connection', async () => {
    // Chromium told the connection is 3G: pages and workers alike (an init script reaches only the page).
    const slow = await launchChromium(['--force-effective-connection-type=3G']);
    try {
      const start = site.requests.length;
      const page = await slow.newPage();
      await page.clock.setFixedTime(NOW);
      await page.goto(`${site.url}/search/`);
      await done(page);
      expect(await page.evaluate(() => (navigator as Navigator & { connection?: { effectiveType: string } }).connection?.effectiveType)).toBe('3g');
      for (const word of wordsOfThreeShards()) await filter(page, 'q', word);
      await page.waitForTimeout(300);
      const requested = site.requests.slice(start);
      expect(requested.filter((path) => path.startsWith('/search-index/vocab/')).length, 'the words were searched').toBeGreaterThan(0);
      expect(requested.filter((path) => path === '/search-index/vocab-all.json' || path.startsWith('/search-index/display-all/'))).toEqual([]);
    } finally {
      await slow.close();
    }
  });
});
