/**
 * The files the build writes straight into the site instead of rendering them through Astro's
 * router one by one (routing cost about a millisecond a file): the sitemap here, the search index
 * and one feed per tag from their worker (./index-and-feeds.ts). In `astro dev` routes serve the
 * same files from the same functions (src/integration/routes/).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sitemapFiles } from '../outputs/sitemap.ts';
import type { IndexAndFeeds } from './index-and-feeds.ts';
import type { PageReuse } from './store.ts';

/** Writes files into one folder, making each sub-folder once. */
export function writer(outDir: string): (path: string, content: string | Uint8Array) => void {
  const made = new Set<string>();
  return (path, content) => {
    const file = join(outDir, path);
    const dir = dirname(file);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    writeFileSync(file, content);
  };
}

/**
 * Writes the sitemap into `outDir`, and notes the feeds the worker wrote or left for reuse.
 * `pages` are the site paths of the pages Astro rendered (`/`, `/tags/api/` …); the reused ones
 * are in `reuse`; `lastModified` dates them; `redirected` are old addresses (redirect pages),
 * left out of the sitemap.
 */
export function writeSiteFiles(
  outDir: string,
  { feeds }: IndexAndFeeds,
  { siteRoot, pages, reuse, lastModified, redirected = [] }: { siteRoot: string; pages: readonly string[]; reuse: PageReuse; lastModified: (path: string) => string | undefined; redirected?: readonly string[] },
): void {
  const write = writer(outDir);
  for (const { file, key, written } of feeds) {
    // A feed unchanged since the previous build was not written: it is reused like a page.
    reuse.next.set(file, key);
    if (!written) reuse.reused.add(file);
  }
  // Pages only (their paths end in `/`): not feeds, data files or the "not found" page.
  // Pages reused from the previous build were not rendered, so Astro does not list them.
  const reused = [...reuse.reused].filter((file) => file.endsWith('/index.html')).map((file) => `/${file.slice(0, -'index.html'.length)}`);
  // Old addresses that lead elsewhere are no pages of their own.
  const moved = new Set(redirected.map((path) => decodeURI(path)));
  const listed = [...pages, ...reused].filter((path) => path.endsWith('/') && path !== '/404/' && !moved.has(decodeURI(path)));
  for (const [name, xml] of sitemapFiles(siteRoot, listed, lastModified)) write(name, xml);
}
