/**
 * Pagefind beside tagsite: the same topics indexed with Pagefind's Node API (one custom record per
 * topic page), written into the built site's `pagefind/` folder as `npx pagefind --site dist`
 * would, and a bare search page for it at /__bench/pagefind.html.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import * as pagefind from 'pagefind';
import type { CustomRecord, PagefindServiceConfig } from 'pagefind';
import type { SiteContent } from '../../src/content/load.ts';
import { topicPath } from '../../src/model/urls.ts';

type Topic = SiteContent['topics'][number];

/** Records sent to Pagefind's service at once: one at a time is slow, all at once floods its pipe. */
const BATCH = 200;

/**
 * A topic as one Pagefind record: its page's address, title and post text as content, and the
 * fields the comparison filters and sorts by. The content type carries its forum ancestors too, so
 * a filter by a forum finds its sub-forums' topics as tagsite's `type` does.
 */
export function pagefindRecord(topic: Topic, typePath: readonly string[]): CustomRecord {
  return {
    url: topicPath(topic.slug),
    content: `${topic.title}\n${topic.text}`,
    language: 'en',
    meta: { title: topic.title },
    filters: { tags: topic.tags, author: [topic.author], type: [...typePath] },
    sort: { replies: String(topic.replies) },
  };
}

export interface PagefindIndexFigures {
  seconds: number;
  files: number;
  bytes: number;
}

/** Files and bytes under a folder. */
export function folderSize(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    files++;
    bytes += statSync(join(entry.parentPath, entry.name)).size;
  }
  return { files, bytes };
}

/** Throws Pagefind's own messages when a call reports errors. */
function check(step: string, errors: readonly string[]): void {
  if (errors.length > 0) throw new Error(`Pagefind ${step}: ${errors.slice(0, 3).join('; ')}`);
}

/** Indexes every topic with Pagefind (its default settings, unless `config` says otherwise) and writes the bundle to `<siteDir>/pagefind/`. */
export async function writePagefindIndex(content: SiteContent, siteDir: string, config: PagefindServiceConfig = {}): Promise<PagefindIndexFigures> {
  const started = performance.now();
  try {
    const created = await pagefind.createIndex({ forceLanguage: 'en', ...config });
    check('createIndex', created.errors);
    const index = created.index!;
    const { topics } = content;
    for (let start = 0; start < topics.length; start += BATCH) {
      const added = await Promise.all(
        topics.slice(start, start + BATCH).map((topic) => index.addCustomRecord(pagefindRecord(topic, content.contentTypes.byId.get(topic.contentType)?.path ?? [topic.contentType]))),
      );
      for (const { errors } of added) check('addCustomRecord', errors);
    }
    check('writeFiles', (await index.writeFiles({ outputPath: join(siteDir, 'pagefind') })).errors);
  } finally {
    await pagefind.close();
  }
  return { seconds: (performance.now() - started) / 1000, ...folderSize(join(siteDir, 'pagefind')) };
}

/**
 * Result id → page address, read from the written fragments (gzip, then a signature, then JSON),
 * so every result of a search can be named without the browser loading each one's fragment. A
 * fragment file that bundles several pages (Pagefind's maxFragments) is a JSON object of them.
 */
export function pagefindUrls(siteDir: string): Map<string, string> {
  const dir = join(siteDir, 'pagefind', 'fragment');
  const urls = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const text = gunzipSync(readFileSync(join(dir, name))).toString('utf8');
    const json = JSON.parse(text.slice(text.indexOf('{'))) as Record<string, unknown>;
    const id = name.replace(/\.pf_fragment$/, '');
    if (typeof json.url === 'string') urls.set(id, json.url);
    else for (const [key, page] of Object.entries(json as Record<string, { url?: string }>)) if (page?.url) urls.set(key, page.url);
  }
  return urls;
}

/**
 * The bare Pagefind search page. It reads `q`, `tags` and `author` from its address, searches,
 * loads the first 25 results' data and shows them as rows, then sets `data-search-state="done"` on
 * `[data-search-root]` as tagsite's /search/ does (so the harness waits the same way).
 * `window.benchSearch(query string)` runs a later search in the same page; `window.benchLast`
 * holds the last search's total and result ids (for recall, read after the timing).
 * Without `q` it loads Pagefind (init) right away, as a search page does for its visitors.
 */
export const PAGEFIND_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pagefind search (benchmark)</title>
<style>body{font:16px/1.4 system-ui,sans-serif;margin:1rem auto;max-width:50rem}li{margin:.5rem 0}</style></head>
<body><main data-search-root data-search-state="loading"><p data-result-count></p><ol data-results></ol></main>
<script type="module">
const root = document.querySelector('[data-search-root]');
const list = root.querySelector('[data-results]');
const pagefind = await import('/pagefind/pagefind.js');
function row(data) {
  const item = document.createElement('li');
  const link = document.createElement('a');
  link.href = data.url;
  link.textContent = data.meta.title;
  const excerpt = document.createElement('p');
  excerpt.innerHTML = data.excerpt;
  item.append(link, excerpt);
  return item;
}
async function run(params) {
  root.dataset.searchState = 'busy';
  const filters = {};
  for (const key of ['tags', 'author']) if (params.get(key)) filters[key] = params.get(key);
  const search = await pagefind.search(params.get('q') ?? '', { filters });
  const rows = await Promise.all(search.results.slice(0, 25).map((result) => result.data()));
  list.replaceChildren(...rows.map(row));
  root.querySelector('[data-result-count]').textContent = search.results.length + ' results';
  window.benchLast = { total: search.results.length, ids: search.results.map((result) => result.id) };
  root.dataset.searchState = 'done';
}
window.benchSearch = (query) => run(new URLSearchParams(query));
const params = new URLSearchParams(location.search);
if (params.get('q')) await run(params);
else {
  await pagefind.init();
  root.dataset.searchState = 'done';
}
</script></body></html>
`;

/** Writes the search page into the bench's own folder (served at /__bench/). */
export function writePagefindPage(benchDir: string): void {
  writeFileSync(join(benchDir, 'pagefind.html'), PAGEFIND_PAGE);
}
