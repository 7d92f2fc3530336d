/**
 * `npm run build [-- --content <dir>] [--out <dir>] [--clean]`: validates everything first, then
 * builds the site into a fresh folder beside the output and only then swaps it in, so a failed
 * build never leaves dist/ half-written (SPEC 7). Pages whose data and code are unchanged since
 * the last build of the same content into the same output are taken from that output instead of
 * rendered again, and unchanged posts are not rendered from Markdown again; `--clean` forgets
 * both first.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { dirname, basename, join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import { loadContentInParallel } from '../src/content/load.ts';
import { handOverContent, handOverSideFiles } from '../src/build/store.ts';
import { sideFilesInWorker } from '../src/build/index-and-feeds.ts';
import { siteRootUrl } from '../src/model/urls.ts';
import { startPageReuse } from '../src/build/page-reuse.ts';
import { carryOver, codeDigest, forgetPages, noteSource, pruneCaches, rememberedPosts, rememberPages, rememberPosts, reusablePages } from '../src/build/cache.ts';
import { contentDir, parseArgs, printProblems, projectOptions, projectRoot } from '../src/cli/project.ts';

/** Old outputs of earlier builds that were still being deleted when their build ended. */
function leftovers(outDir: string): string[] {
  const prefix = `.${basename(outDir)}.building-`;
  if (!existsSync(dirname(outDir))) return [];
  return readdirSync(dirname(outDir))
    .filter((name) => name.startsWith(prefix) && name.endsWith('.previous'))
    .map((name) => join(dirname(outDir), name));
}

/** Deletes folders in a process of their own that outlives this one. */
function removeInBackground(dirs: string[]): void {
  const present = dirs.filter((dir) => existsSync(dir));
  if (present.length === 0) return;
  const script = 'for (const dir of process.argv.slice(1)) require("node:fs").rmSync(dir, { recursive: true, force: true, maxRetries: 3 });';
  spawn(process.execPath, ['-e', script, ...present], { detached: true, stdio: 'ignore' }).unref();
}

const root = projectRoot();
const started = performance.now();
// TAGSITE_TIMINGS=1 prints how long each phase took (for profiling a big site).
let last = started;
const phase = (name: string) => {
  if (!process.env.TAGSITE_TIMINGS) return;
  const now = performance.now();
  console.error(`[timings] ${((now - last) / 1000).toFixed(2).padStart(6)} s  ${name}`);
  last = now;
};
const args = parseArgs(process.argv.slice(2), { content: 'string', out: 'string', clean: 'boolean' }, 'build');
if (args.problems.length > 0) {
  printProblems(args.problems);
  process.exit(1);
}
const content = contentDir(root, args.values.content as string | undefined);
const { options, problems: optionProblems, config } = await projectOptions(root);
const outDir = resolve(root, (args.values.out as string | undefined) ?? (config.outDir as string | undefined) ?? 'dist');
// The build's caches, one folder per content folder and output: Astro's, the renderings of the
// first posts, and the keys of the pages of the last output (scripts/page-cache.ts), so that a
// build after a small change renders only what it changed. A fixture's build never reuses pages
// of the sample site's.
const cacheRoot = join(root, '.tagsite-build', 'cache');
const cacheDir = join(cacheRoot, createHash('sha1').update(`${content}\0${outDir}`).digest('hex').slice(0, 16));
if (args.values.clean) rmSync(cacheDir, { recursive: true, force: true });
// Caches of content folders that are gone (temporary ones, such as the tests') are deleted.
pruneCaches(cacheRoot);
noteSource(cacheDir, content);
const code = codeDigest(root, process.env.TAGSITE_CONFIG ?? 'astro.config.mjs');

phase('options read');
const loaded = await loadContentInParallel({ root, contentDir: content, excerptLength: options.excerptLength }, rememberedPosts(cacheDir, code));
phase('content loaded and validated');
const all = [...optionProblems, ...loaded.problems];
if (all.length > 0) {
  printProblems(all);
  console.error('The build stopped before writing anything; the output folder is unchanged.');
  process.exit(1);
}

// Astro builds inside the project (it keeps its prerender chunks under the output folder only
// when that folder is inside the working directory; elsewhere they would go to a shared ./.astro/
// and concurrent builds would overwrite each other's). The finished site then moves next to the
// output folder (same file system), and the swap is a rename.
const work = join(root, '.tagsite-build', String(process.pid));
const fresh = join(work, 'site');
const staging = join(dirname(outDir), `.${basename(outDir)}.building-${process.pid}`);
const reuse = startPageReuse(reusablePages(cacheDir, outDir, code));
const cleanUp = () => {
  rmSync(work, { recursive: true, force: true });
  rmSync(staging, { recursive: true, force: true });
};
cleanUp();
process.env.TAGSITE_CONTENT = content;
handOverContent({ contentDir: content, excerptLength: options.excerptLength, content: loaded.content });
// The search index and the tag feeds are made in a worker thread while Astro renders the pages
// (and written when those are done).
const siteRoot = siteRootUrl(config.site as string | undefined, (config.base as string | undefined) ?? '/');
const previousFeeds = new Map([...reuse.previous].filter(([file]) => file.endsWith('/rss.xml')));
const sideFiles = sideFilesInWorker(loaded.content, { siteTitle: options.title, siteRoot, previous: previousFeeds });
sideFiles.catch(() => undefined); // a failure is reported where the files are written
handOverSideFiles(sideFiles);

try {
  const { build } = await import('astro');
  await build({
    root,
    outDir: fresh,
    // The same config file the options were read from (TAGSITE_CONFIG points tests at their own).
    ...(process.env.TAGSITE_CONFIG ? { configFile: process.env.TAGSITE_CONFIG } : {}),
    cacheDir,
    logLevel: (process.env.TAGSITE_LOG_LEVEL as 'info' | undefined) ?? 'warn',
  });
  phase('Astro build (pages, then search index, feeds, sitemap)');
  rmSync(join(fresh, '.prerender'), { recursive: true, force: true });
  carryOver(reuse.reused, outDir, fresh);
  phase('unchanged pages carried over');
  mkdirSync(dirname(outDir), { recursive: true });
  try {
    renameSync(fresh, staging);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    cpSync(fresh, staging, { recursive: true });
  }
} catch (error) {
  cleanUp();
  console.error(`The build failed: ${(error as Error).message}`);
  console.error('The output folder is unchanged.');
  process.exit(1);
}

phase('moved beside the output');
// Swap: the old output moves aside before the new one takes its place, then goes: deleted by a
// detached process, as deleting tens of thousands of files took seconds here, and the new site is
// already in place. An old output left behind by an interrupted deletion goes with the next build's.
const old = `${staging}.previous`;
forgetPages(cacheDir);
if (existsSync(outDir)) renameSync(outDir, old);
renameSync(staging, outDir);
removeInBackground([old, ...leftovers(outDir)]);
phase('swapped in');
rememberPages(cacheDir, code, reuse.next);
rememberPosts(cacheDir, code, loaded.memory);
cleanUp();
phase('caches written');
const reused = reuse.reused.size > 0 ? ` (${reuse.reused.size} of ${reuse.next.size} pages and feeds unchanged, reused)` : '';
console.log(`built ${outDir} in ${((performance.now() - started) / 1000).toFixed(1)} s${reused}`);
