/**
 * tagsite and Pagefind measured side by side in one Chromium, on one static host: the same
 * searches, each system in turn, query by query (which one goes first alternates), each shared
 * link in a fresh browser context so nothing is cached.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import type { StaticHost } from '../../src/cli/static-server.ts';
import type { CoreFile, DisplayRow } from '../../src/search/index-format.ts';
import { openAtFirstResult, submit, waitForResults } from './measure.ts';
import type { SiteContent } from '../../src/content/load.ts';
import { topicPath } from '../../src/model/urls.ts';
import { bytesOf, type Bytes, type PagefindComparison, type SystemFigures } from './compare-report.ts';
import { folderSize, pagefindUrls, type PagefindIndexFigures } from './pagefind.ts';
import { comparedParams, type ComparedQuery } from './queries.ts';
import { corpusWords, FIRST_RESULTS, outcomeOf, relevantTopics, wordsOf } from './relevance.ts';

/** What a page showed after a search: its total, its rows (tagsite: slugs; Pagefind: addresses), and every result id (Pagefind). */
export interface Shown {
  total: number;
  first: string[];
  ids: string[];
}

interface System {
  name: 'tagsite' | 'pagefind';
  /** The search page, without a query. */
  page: string;
  /** One later search on an open page: ms from asking for it to its results laid out. */
  search: (page: Page, params: string) => Promise<number>;
  shown: (page: Page) => Promise<Shown>;
}

/**
 * A later search on the Pagefind page, timed as tagsite's form submit is (measure.ts submitInPage):
 * started after the last results were painted, ended with the new rows laid out.
 */
async function pagefindSearchInPage(params: string): Promise<number> {
  await new Promise((painted) => requestAnimationFrame(() => setTimeout(painted, 0)));
  const start = performance.now();
  await (window as unknown as { benchSearch: (query: string) => Promise<void> }).benchSearch(params);
  void document.body.offsetHeight;
  return performance.now() - start;
}

const TAGSITE: System = {
  name: 'tagsite',
  page: '/search/',
  search: async (page, params) => (await submit(page, params)).wall,
  shown: (page) =>
    page.evaluate(() => ({
      total: Number(/\d+/.exec(document.querySelector('[data-result-count]')?.textContent ?? '')?.[0] ?? -1),
      first: Array.from(document.querySelectorAll('[data-results] [data-result]'), (entry) => entry.getAttribute('data-topic') ?? ''),
      ids: [],
    })),
};

const PAGEFIND: System = {
  name: 'pagefind',
  page: '/__bench/pagefind.html',
  search: (page, params) => page.evaluate(pagefindSearchInPage, params),
  shown: (page) =>
    page.evaluate(() => {
      const last = (window as unknown as { benchLast: { total: number; ids: string[] } }).benchLast;
      const first = Array.from(document.querySelectorAll('[data-results] a'), (link) => link.getAttribute('href') ?? '');
      return { total: last.total, first, ids: last.ids };
    }),
};

/** A shared link opened by a fresh visitor: ms from navigation to the first results shown, the bytes requested before then, and what was shown. */
async function sharedLink(browser: Browser, host: StaticHost, system: System, params: string): Promise<{ ms: number; bytes: Bytes; shown: Shown }> {
  const context = await browser.newContext();
  try {
    host.reset();
    const { page, shownAt, navigationStart } = await openAtFirstResult(context, `${host.url}${system.page}?${params}`);
    return { ms: shownAt - navigationStart, bytes: bytesOf(host.served.filter((response) => response.at <= shownAt)), shown: await system.shown(page) };
  } finally {
    await context.close();
  }
}

/**
 * One visitor on the plain search page: opened, loaded and settled (network idle), then `list`
 * searched in order. With `visit`, 2 s idle follow and the bytes of the whole visit are counted.
 */
async function session(browser: Browser, host: StaticHost, system: System, list: string[], visit: boolean): Promise<{ ms: number[]; bytes?: number }> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    host.reset();
    await page.goto(`${host.url}${system.page}`, { waitUntil: 'load' });
    await waitForResults(page);
    await page.waitForLoadState('networkidle');
    const ms: number[] = [];
    for (const params of list) ms.push(await system.search(page, params));
    if (!visit) return { ms };
    await page.waitForTimeout(2000);
    return { ms, bytes: bytesOf(host.served).total };
  } finally {
    await context.close();
  }
}

/** Searches per session: the 1st is "first search on a loaded page", the 4th "warm"; a visit has 5. */
const WARM = 4;
const VISIT = 5;

export interface Measured {
  figures: Omit<SystemFigures, 'outcomes'>;
  /** What each shared link showed, by query. */
  shown: Shown[];
}

const empty = (): Measured => ({ figures: { sharedMs: [], sharedBytes: [], firstMs: [], warmMs: [], visitBytes: [] }, shown: [] });

/** Every measurement of both systems, alternating which goes first query by query. */
export async function measureBoth(browser: Browser, host: StaticHost, queries: readonly ComparedQuery[], log: (message: string) => void): Promise<Record<System['name'], Measured>> {
  const out = { tagsite: empty(), pagefind: empty() };
  const params = queries.map(comparedParams);
  const turns = (i: number) => (i % 2 === 0 ? [TAGSITE, PAGEFIND] : [PAGEFIND, TAGSITE]);
  // Unmeasured: Chromium's first look at each page (its code compiled, its process warm).
  for (const system of [TAGSITE, PAGEFIND]) await sharedLink(browser, host, system, params[0]!);

  log(`shared links: ${params.length} searches, each system in turn`);
  for (let i = 0; i < params.length; i++) {
    for (const system of turns(i)) {
      const { ms, bytes, shown } = await sharedLink(browser, host, system, params[i]!);
      const { figures } = out[system.name];
      figures.sharedMs.push(ms);
      figures.sharedBytes.push(bytes);
      out[system.name].shown.push(shown);
    }
  }

  log(`searches on a loaded page: ${params.length} sessions of ${WARM} searches each system, every 5th a whole visit`);
  for (let k = 0; k < params.length; k++) {
    const visit = k % VISIT === 0;
    const list = Array.from({ length: visit ? VISIT : WARM }, (_, j) => params[(k + j) % params.length]!);
    for (const system of turns(k)) {
      const { ms, bytes } = await session(browser, host, system, list, visit);
      const { figures } = out[system.name];
      figures.firstMs.push(ms[0]!);
      figures.warmMs.push(ms[WARM - 1]!);
      if (bytes !== undefined) figures.visitBytes.push(bytes);
    }
  }
  return out;
}

/**
 * tagsite's whole result list for a query string, by its own engine in Node on the built index
 * (as tests/browser/search-threads.test.ts checks the page against it): the engine's modules are
 * loaded from the project snapshot the site was built from, so they are the code the page ran.
 */
export async function tagsiteEngine(project: string, siteDir: string): Promise<(params: string) => Promise<string[]>> {
  const load = (path: string) => import(pathToFileURL(join(project, path)).href);
  const engine: typeof import('../../src/search/engine.ts') = await load('src/search/engine.ts');
  const { WordMatcher }: typeof import('../../src/search/word-match.ts') = await load('src/search/word-match.ts');
  const { parseSearchParams }: typeof import('../../src/search/query.ts') = await load('src/search/query.ts');
  const read = <T>(path: string) => JSON.parse(readFileSync(join(siteDir, 'search-index', path), 'utf8')) as T;
  const core = read<CoreFile>('core.json');
  const index = engine.decodeIndex(core);
  const slugs: string[] = [];
  for (let n = 0; n * core.displayShardSize < core.count; n++) for (const row of read<DisplayRow[]>(`display/${n}.json`)) slugs.push(row[0]);
  const matcher = new WordMatcher(async (path) => read(path), core);
  return async (params) => {
    const { query } = parseSearchParams(new URLSearchParams(params));
    const words = await matcher.match(query.q, query.in === 'titles');
    const result = engine.runSearch(index, query, new Date(), Math.max(1, index.count), words);
    return Array.from(result.page, (local) => slugs[index.global[local]!]!);
  };
}

/** How many shared links showed what tagsite's engine in Node gives: the same total, and the same first page. */
export function engineAgreement(shown: readonly Shown[], engine: readonly string[][], pageSize: number): { totals: number; firstPages: number } {
  let totals = 0;
  let firstPages = 0;
  shown.forEach((page, i) => {
    const results = engine[i]!;
    if (page.total === results.length) totals++;
    if (page.first.join('\n') === results.slice(0, pageSize).join('\n')) firstPages++;
  });
  return { totals, firstPages };
}

export interface CompareInput {
  browser: Browser;
  host: StaticHost;
  /** The project snapshot the site was built from, and the built site (holding pagefind/). */
  project: string;
  siteDir: string;
  content: SiteContent;
  queries: ComparedQuery[];
  pageSize: number;
  pagefind: PagefindIndexFigures;
  log: (message: string) => void;
}

/** The whole comparison at one size: both systems measured, then each one's results held against the brute-force answers. */
export async function comparePagefind(input: CompareInput): Promise<PagefindComparison> {
  const { content, queries, siteDir } = input;
  const measured = await measureBoth(input.browser, input.host, queries, input.log);
  input.log('recall and precision: brute force over the topics; tagsite\'s engine in Node; Pagefind\'s result ids');
  const words = corpusWords(content.topics, queries.flatMap(wordsOf));
  const relevant = queries.map((query) => relevantTopics(query, content.topics, words));
  const engine = await tagsiteEngine(input.project, siteDir);
  const tagsiteResults: string[][] = [];
  for (const query of queries) tagsiteResults.push(await engine(comparedParams(query)));
  const urls = pagefindUrls(siteDir);
  const slugOf = new Map(content.topics.map((topic) => [topicPath(topic.slug), topic.slug]));
  const pagefindResults = measured.pagefind.shown.map((shown) => shown.ids.map((id) => slugOf.get(urls.get(id) ?? '') ?? `unknown result ${id}`));
  const outcomes = (results: string[][]) => results.map((list, i) => outcomeOf(queries[i]!.kind, relevant[i]!, list));

  const agree = engineAgreement(measured.tagsite.shown, tagsiteResults, input.pageSize);
  const notes = [`tagsite's page showed the total of its engine run in Node for ${agree.totals} of ${queries.length} shared links, and the same first page for ${agree.firstPages}`];
  const named = measured.pagefind.shown.filter((shown) => shown.first.join('\n') === shown.ids.slice(0, FIRST_RESULTS).map((id) => urls.get(id)).join('\n')).length;
  notes.push(`Pagefind's page showed the pages its first ${FIRST_RESULTS} result ids name (read from the fragments) for ${named} of ${queries.length} shared links`);
  const unnamed = pagefindResults.flat().filter((slug) => slug.startsWith('unknown')).length;
  if (unnamed > 0) notes.push(`${unnamed} Pagefind results had no fragment naming a topic page`);
  const entry = JSON.parse(readFileSync(join(siteDir, 'pagefind', 'pagefind-entry.json'), 'utf8')) as { version: string };
  const count = (kind: ComparedQuery['kind']) => queries.filter((query) => query.kind === kind).length;
  return {
    pagefindVersion: entry.version,
    queries: { words: count('words'), typo: count('typo'), filtered: count('filtered') },
    vocabulary: { distinct: words.distinct, total: words.total, zipf: words.zipf },
    disk: { tagsite: folderSize(join(siteDir, 'search-index')), pagefind: { files: input.pagefind.files, bytes: input.pagefind.bytes } },
    pagefindIndexSeconds: input.pagefind.seconds,
    tagsite: { ...measured.tagsite.figures, outcomes: outcomes(tagsiteResults) },
    pagefind: { ...measured.pagefind.figures, outcomes: outcomes(pagefindResults) },
    notes,
  };
}
