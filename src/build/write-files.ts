/**
 * Files `astro build` writes straight into the site instead of rendering them through Astro's
 * router one by one: the search index (thousands of files), one feed per tag and the sitemap.
 * Routing alone cost Astro about a millisecond a file, a tenth of a 10,000-topic build. In
 * `astro dev` the same files are served by routes (src/routes/search-index.ts, tag-feed.ts), from
 * the same functions.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { siteData } from './site-records.ts';
import { searchFiles } from './search-files.ts';
import { SITE_REQUIRED } from '../outputs/feeds.ts';
import { tagFeedFiles } from './index-and-feeds.ts';
import { handedSideFiles } from './store.ts';
import { sitemapFiles } from '../outputs/sitemap.ts';
import { ContentProblemsError } from '../content/problems.ts';
import { pageReuse } from './page-reuse.ts';

export interface BuildFileOptions {
  /** The site's absolute root URL (Astro `site` + `base`); feeds and the sitemap need it. */
  siteRoot: string | undefined;
  siteTitle: string;
  /** Site paths of the pages Astro wrote (`/`, `/tags/api/` …). */
  pages: readonly string[];
}

function write(outDir: string, path: string, text: string, made: Set<string>): void {
  const file = join(outDir, path);
  const dir = dirname(file);
  if (!made.has(dir)) {
    mkdirSync(dir, { recursive: true });
    made.add(dir);
  }
  writeFileSync(file, text);
}

/** Writes the search index, the tag feeds and the sitemap into `outDir`. */
export async function writeBuildFiles(outDir: string, { siteRoot, siteTitle, pages }: BuildFileOptions): Promise<void> {
  const made = new Set<string>();
  for (const [path, json] of await searchFiles()) write(outDir, `search-index/${path}`, json, made);
  if (!siteRoot) throw new ContentProblemsError([SITE_REQUIRED]);
  const reuse = pageReuse();
  // The build script's worker thread wrote the feeds already, for this address and title.
  const handed = (await handedSideFiles())?.feeds;
  const feeds =
    handed?.siteRoot === siteRoot && handed.siteTitle === siteTitle ? handed.files : await tagFeedFiles((await siteData()).topics, { siteTitle, siteRoot }, reuse?.previous);
  for (const { file, key, xml } of feeds) {
    // A feed is reused from the previous build when what it is written from is the same (it then has no XML).
    reuse?.next.set(file, key);
    if (xml === undefined) reuse!.reused.add(file);
    else write(outDir, file, xml, made);
  }
  // Pages only (their paths end in `/`): not feeds, data files or the "not found" page.
  // Pages reused from the previous build were not rendered, so Astro does not list them.
  const reused = [...(reuse?.reused ?? [])].filter((file) => file.endsWith('/index.html')).map((file) => `/${file.slice(0, -'index.html'.length)}`);
  const listed = [...pages, ...reused].filter((path) => path.endsWith('/') && path !== '/404/');
  for (const [name, xml] of sitemapFiles(siteRoot, listed)) write(outDir, name, xml, made);
}
