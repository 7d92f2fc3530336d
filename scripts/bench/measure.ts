/**
 * Measurements in real Chromium: search latency through the page's own form, bytes a page
 * transfers before its first result, and the plain Fuse.js baseline.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { extname } from 'node:path';
import type { Served, StaticHost } from '../../src/cli/static-server.ts';

/** One search as the page ran it. */
export interface Timing {
  /** Worker compute time reported by the page (`data-search-ms`), index files loading included. */
  compute: number;
  /** The engine alone (`data-search-engine-ms`: runSearch, no file loading). */
  engine: number;
  /** Submit → results in the DOM and laid out. */
  wall: number;
  results: number;
}

const QUERY_TIMEOUT_MS = 120_000;

/**
 * Fills the page's search form from a query string and submits it, resolving when the page
 * reports `data-search-state="done"` again (runs inside the page). It starts once the previous
 * results are painted and the page has had a turn after that paint, as a visitor's next change
 * comes after they saw the results: what the page defers until then (the history entry of the last
 * search) is not counted in the next search.
 */
async function submitInPage({ params, timeoutMs }: { params: string; timeoutMs: number }): Promise<Timing | { error: string }> {
  await new Promise((painted) => requestAnimationFrame(() => setTimeout(painted, 0)));
  const root = document.querySelector<HTMLElement>('[data-search-root]')!;
  const form = root.querySelector<HTMLFormElement>('[data-search-form]')!;
  const values = new URLSearchParams(params);
  for (const element of Array.from(form.elements) as HTMLInputElement[]) {
    if (!element.name) continue;
    const value = values.get(element.name) ?? '';
    if (element instanceof HTMLSelectElement) element.value = value || (element.options[0]?.value ?? '');
    else element.value = value;
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ error: `no result within ${timeoutMs} ms: ${root.querySelector('[data-search-notes]')?.textContent ?? ''}` }), timeoutMs);
    const observer = new MutationObserver(() => {
      if (root.dataset.searchState !== 'done') return;
      void document.body.offsetHeight; // include style and layout of the new results
      const end = performance.now();
      observer.disconnect();
      clearTimeout(timer);
      const count = /\d+/.exec(root.querySelector('[data-result-count]')?.textContent ?? '')?.[0];
      resolve({ compute: Number(root.dataset.searchMs), engine: Number(root.dataset.searchEngineMs), wall: end - start, results: Number(count ?? -1) });
    });
    observer.observe(root, { attributes: true, attributeFilter: ['data-search-state'] });
    const start = performance.now();
    form.requestSubmit();
  });
}

export async function submit(page: Page, params: string): Promise<Timing> {
  const timing = await page.evaluate(submitInPage, { params, timeoutMs: QUERY_TIMEOUT_MS });
  if ('error' in timing) throw new Error(`search ${params}: ${timing.error}`);
  return timing;
}

export async function waitForResults(page: Page, timeoutMs = QUERY_TIMEOUT_MS): Promise<void> {
  await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-search-root]')?.dataset.searchState === 'done', undefined, { timeout: timeoutMs });
}

/** Opens /search/, waits for its first results, runs `warmUp` unmeasured, then times `queries` in order. */
export async function searchTimings(browser: Browser, host: StaticHost, warmUp: string[], queries: string[]): Promise<Timing[]> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${host.url}/search/`);
    await waitForResults(page);
    for (const params of warmUp) await submit(page, params);
    const timings: Timing[] = [];
    for (const params of queries) timings.push(await submit(page, params));
    return timings;
  } finally {
    await context.close();
  }
}

/** Sums gzip bytes of responses, with a breakdown by kind (html, css, js, json). */
export function transferred(responses: readonly Served[]): { total: number; byKind: Record<string, number>; files: number } {
  const byKind: Record<string, number> = {};
  let total = 0;
  for (const response of responses) {
    const ext = extname(response.path) || (response.path.endsWith('/') ? '.html' : '');
    const kind = ext === '.mjs' ? 'js' : ext.slice(1) || 'other';
    const bytes = response.gzipBytes ?? response.bytes;
    byKind[kind] = (byKind[kind] ?? 0) + bytes;
    total += bytes;
  }
  return { total, byKind, files: responses.length };
}

export type Transfer = ReturnType<typeof transferred>;

/**
 * Watches the page, from before any of its own scripts run, for its first results shown, and tells
 * the harness when (epoch ms, as the host stamps requests) through the binding openAtFirstResult
 * exposes.
 */
function markFirstResult(): void {
  const observer = new MutationObserver(() => {
    if (document.querySelector<HTMLElement>('[data-search-root]')?.dataset.searchState !== 'done') return;
    observer.disconnect();
    (window as unknown as { tagsiteBenchFirstResult: (at: number) => void }).tagsiteBenchFirstResult(performance.timeOrigin + performance.now());
  });
  observer.observe(document, { subtree: true, attributes: true, attributeFilter: ['data-search-state'] });
}

/**
 * Opens `url` in a new page of `context` (a fresh one) and resolves once its first results are
 * shown: when (epoch ms) and when its navigation started. The page reports the moment itself
 * (markFirstResult, through a binding), so nothing of the harness runs in the page while it loads
 * and searches: waiting with waitForFunction instead has Playwright inject its own script into the
 * page after its load event, 10-20 ms of the page's main thread in the middle of a search.
 */
export async function openAtFirstResult(context: BrowserContext, url: string, timeoutMs = QUERY_TIMEOUT_MS): Promise<{ page: Page; shownAt: number; navigationStart: number }> {
  let reported: (at: number) => void = () => undefined;
  const shown = new Promise<number>((resolve) => (reported = resolve));
  await context.exposeBinding('tagsiteBenchFirstResult', (_source, at: number) => reported(at));
  await context.addInitScript(markFirstResult);
  const page = await context.newPage();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no results within ${timeoutMs} ms: ${url}`)), timeoutMs);
  });
  try {
    await page.goto(url, { waitUntil: 'commit' });
    const shownAt = await Promise.race([shown, late]);
    return { page, shownAt, navigationStart: await page.evaluate(() => performance.timeOrigin) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A shared link opened by a fresh visitor: gzip bytes of every response whose request reached the
 * host before the first results were shown (never the static answer to no filters), and
 * milliseconds from the start of the navigation until then. What the page fetches after that (a
 * small site's display rows, in the background) is not part of it, however soon the harness gets
 * to read the count.
 */
export async function sharedLinkFirstResult(browser: Browser, host: StaticHost, path: string): Promise<{ transfer: Transfer; ms: number }> {
  const context = await browser.newContext();
  try {
    host.reset();
    const { shownAt, navigationStart } = await openAtFirstResult(context, `${host.url}${path}`);
    return { transfer: transferred(host.served.filter((response) => response.at <= shownAt)), ms: shownAt - navigationStart };
  } finally {
    await context.close();
  }
}

/** Gzip bytes a fresh visitor's browser fetches for `path` until its first search result (see sharedLinkFirstResult). */
export async function bytesToFirstResult(browser: Browser, host: StaticHost, path: string): Promise<Transfer> {
  return (await sharedLinkFirstResult(browser, host, path)).transfer;
}

/**
 * A tag page: gzip bytes until `load`, then everything fetched after it until a filter in its
 * panel has shown results (the panel's data, whenever the page chose to fetch it). `eager` lists
 * the index files fetched before the panel was touched.
 */
export async function tagPageBytes(browser: Browser, host: StaticHost, slug: string): Promise<{ load: Transfer; panel: Transfer; eager: string[] }> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    host.reset();
    await page.goto(`${host.url}/tags/${slug}/`, { waitUntil: 'load' });
    const atLoad = host.served.length;
    const load = transferred(host.served);
    await page.waitForLoadState('networkidle');
    const eager = host.served.slice(atLoad).map((response) => response.path).filter((path) => path.includes('/search-index/'));
    await page.locator('[data-search-root] details > summary').first().click();
    await submit(page, 'min_replies=1');
    return { load, panel: transferred(host.served.slice(atLoad)), eager };
  } finally {
    await context.close();
  }
}

/** What the baseline page needs to apply a query's structured filters by brute force. */
export interface BaselineQuery {
  q: string;
  tags: string[];
  match: 'any' | 'all';
  author: string;
  types: string[] | null;
  created: [number, number];
  updated: [number, number];
  minReplies: number;
  minViews: number;
  sort: string;
  pageSize: number;
}

/**
 * Plain Fuse.js in the same browser: every record (title, body text, tags, author) in one Fuse
 * index, `search(q)` over all of them, then the structured filters, sort and page in plain JS.
 * Stops after `budgetMs` of queries (reported as fewer timings).
 */
export async function fuseBaseline(browser: Browser, host: StaticHost, warmUp: BaselineQuery[], queries: BaselineQuery[], budgetMs: number) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${host.url}/__bench/fuse.html`);
    const setup = await page.evaluate(async () => {
      const started = performance.now();
      const { default: Fuse } = await import('/__bench/fuse.mjs' as string);
      const records = await (await fetch('/__bench/records.json')).json();
      const loaded = performance.now();
      const fuse = new Fuse(records, { keys: ['title', 'body', 'tags', 'author'], ignoreLocation: true, threshold: 0.34, includeScore: true });
      Object.assign(window, { benchFuse: fuse });
      return { loadMs: loaded - started, indexMs: performance.now() - loaded, records: records.length };
    });
    const run = (query: BaselineQuery) =>
      page.evaluate((query) => {
        type Rec = { title: string; tags: string[]; author: string; type: string; created: number; updated: number; replies: number; views: number };
        const fuse = (window as unknown as { benchFuse: { search: (q: string) => Array<{ item: Rec; refIndex: number }> } }).benchFuse;
        const start = performance.now();
        const author = query.author.toLowerCase();
        const hits = fuse.search(query.q).filter(({ item }) =>
          (query.tags.length === 0 || (query.match === 'all' ? query.tags.every((t) => item.tags.includes(t)) : query.tags.some((t) => item.tags.includes(t)))) &&
          (!author || item.author.toLowerCase() === author) &&
          (!query.types || query.types.includes(item.type)) &&
          item.created >= query.created[0] && item.created < query.created[1] &&
          item.updated >= query.updated[0] && item.updated < query.updated[1] &&
          item.replies >= query.minReplies && item.views >= query.minViews);
        const key = query.sort === 'replies' ? 'replies' : query.sort === 'views' ? 'views' : query.sort === 'newest' ? 'created' : query.sort === 'updated' ? 'updated' : '';
        if (key) hits.sort((a, b) => (b.item[key as keyof Rec] as number) - (a.item[key as keyof Rec] as number) || a.refIndex - b.refIndex);
        const page = hits.slice(0, query.pageSize).map((hit) => hit.item.title);
        return { ms: performance.now() - start, results: hits.length, shown: page.length };
      }, query);
    for (const query of warmUp) await run(query);
    const timings: Array<{ ms: number; results: number }> = [];
    const started = performance.now();
    for (const query of queries) {
      if (performance.now() - started > budgetMs) break;
      timings.push(await run(query));
    }
    return { ...setup, timings };
  } finally {
    await context.close();
  }
}
