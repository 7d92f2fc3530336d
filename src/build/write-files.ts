/**
 * The files the build writes straight into the site instead of rendering them through Astro's
 * router one by one (routing cost about a millisecond a file): the search index, one feed per tag
 * and the sitemap. In `astro dev` routes serve the same files from the same functions
 * (src/integration/routes/).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sitemapFiles } from '../outputs/sitemap.ts';
import type { IndexAndFeeds } from './index-and-feeds.ts';
import type { PageReuse } from './store.ts';

/** Writes files into one folder, making each sub-folder once. */
function writer(outDir: string): (path: string, text: string) => void {
  const made = new Set<string>();
  return (path, text) => {
    const file = join(outDir, path);
    const dir = dirname(file);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    writeFileSync(file, text);
  };
}

/**
 * Writes the search index, the tag feeds and the sitemap into `outDir`. `pages` are the site paths
 * of the pages Astro wrote (`/`, `/tags/api/` …); the reused ones are in `reuse`; `lastModified`
 * dates them; `redirected` are old addresses (redirect pages), left out of the sitemap.
 */
export function writeSiteFiles(
  outDir: string,
  { index, feeds }: IndexAndFeeds,
  { siteRoot, pages, reuse, lastModified, redirected = [] }: { siteRoot: string; pages: readonly string[]; reuse: PageReuse; lastModified: (path: string) => string | undefined; redirected?: readonly string[] },
): void {
  const write = writer(outDir);
  for (const [path, json] of index) write(`search-index/${path}`, json);
  for (const { file, key, xml } of feeds) {
    // A feed is reused from the previous build when what it is written from is the same (it then has no XML).
    reuse.next.set(file, key);
    if (xml === undefined) reuse.reused.add(file);
    else write(file, xml);
  }
  // Pages only (their paths end in `/`): not feeds, data files or the "not found" page.
  // Pages reused from the previous build were not rendered, so Astro does not list them.
  const reused = [...reuse.reused].filter((file) => file.endsWith('/index.html')).map((file) => `/${file.slice(0, -'index.html'.length)}`);
  // Old addresses that lead elsewhere are no pages of their own.
  const moved = new Set(redirected.map((path) => decodeURI(path)));
  const listed = [...pages, ...reused].filter((path) => path.endsWith('/') && path !== '/404/' && !moved.has(decodeURI(path)));
  for (const [name, xml] of sitemapFiles(siteRoot, listed, lastModified)) write(name, xml);
}
