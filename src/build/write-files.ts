/**
 * The files the build writes straight into the site instead of rendering them through Astro's
 * router one by one (routing cost about a millisecond a file): the sitemap here, the search index
 * and one feed per tag from their worker (./index-and-feeds.ts). In `astro dev` routes serve the
 * same files from the same functions (src/integration/routes/).
 */
import { copyFileSync, linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sitemapFiles } from '../outputs/sitemap.ts';
import { digest as sha1 } from '../content/digest.ts';
import type { IndexAndFeeds } from './index-and-feeds.ts';
import { reuseRoute, type PageReuse } from './store.ts';

/**
 * Folders a writer remembers having made: beyond, it forgets them all and starts again. Pages come
 * folder by folder, so a folder is rarely made twice (and making one that is there is harmless);
 * remembered all, a 1,000,000-topic site's 1.3 million folders grew the writer's heap to 0.26 GB.
 */
export const MADE_FOLDERS = 4096;

/** Puts files into one folder, making each sub-folder once (nearly: see MADE_FOLDERS). */
export interface FolderWriter {
  write(path: string, content: string | Uint8Array): void;
  /** Puts the file `path` of `fromDir` (the previous output) at `path`: a hard link, or a copy across file systems. */
  carry(path: string, fromDir: string): void;
}

export function writer(outDir: string): FolderWriter {
  const made = new Set<string>();
  const place = (path: string) => {
    const file = join(outDir, path);
    const dir = dirname(file);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      if (made.size >= MADE_FOLDERS) made.clear();
      made.add(dir);
    }
    return file;
  };
  return {
    write: (path, content) => writeFileSync(place(path), content),
    carry(path, fromDir) {
      const file = place(path);
      try {
        linkSync(join(fromDir, path), file);
      } catch {
        copyFileSync(join(fromDir, path), file);
      }
    },
  };
}

/** Notes the feeds and index files the index thread wrote, or linked from the previous output (those are reused like pages). */
export function noteThreadFiles({ files: made }: IndexAndFeeds, reuse: PageReuse): void {
  for (const { file, key, written } of made) {
    reuse.next.set(file, key);
    if (written) continue;
    reuse.reused.add(file);
    reuse.carried.add(file);
  }
}

/** The sitemap's entry among a build's remembered routes (PageReuse.routes). */
const SITEMAP = '(sitemap)';

/**
 * Writes the sitemap into `outDir`. `pages` are the site paths of the pages Astro rendered (`/`,
 * `/tags/api/` …); the reused ones are in `reuse`; `dates` gives what dates them; `redirected`
 * are old addresses (redirect pages), left out of the sitemap. Its files are keyed like pages: by
 * the pages it lists and the topics' shape (PageReuse.fromShape, which holds what dates them), with
 * the site's root. When those are as the previous build had them (after a post or a title
 * changed, say), its files are reused, and the pages are not dated.
 */
export function writeSitemap(
  outDir: string,
  { siteRoot, pages, reuse, dates, redirected = [] }: { siteRoot: string; pages: readonly string[]; reuse: PageReuse; dates: () => (path: string) => string | undefined; redirected?: readonly string[] },
): void {
  const files = writer(outDir);
  // Pages only (their paths end in `/`): not feeds, data files or the "not found" page.
  // Pages reused from the previous build were not rendered, so Astro does not list them.
  const reused = [...reuse.reused].filter((file) => file === 'index.html' || file.endsWith('/index.html')).map((file) => `/${file.slice(0, -'index.html'.length)}`);
  // Old addresses that lead elsewhere are no pages of their own.
  const moved = new Set(redirected.map((path) => decodeURI(path)));
  const listed = [...pages, ...reused].filter((path) => path.endsWith('/') && path !== '/404/' && !moved.has(decodeURI(path))).sort();
  const inputs = reuse.fromShape && sha1(JSON.stringify([siteRoot, reuse.fromShape, listed]));
  if (reuseRoute(reuse, SITEMAP, inputs)) return;
  const made = sitemapFiles(siteRoot, listed, dates());
  for (const [name, xml] of made) {
    files.write(name, xml);
    if (inputs) reuse.next.set(name, `${inputs}:${name}`);
  }
  if (inputs) reuse.routes.next.set(SITEMAP, { inputs, files: [...made.keys()] });
}
