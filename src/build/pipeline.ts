/**
 * The build, top to bottom: load → validate → records → pages (Astro) + search index and feeds
 * (worker thread) → write → swap. The tagsite integration runs `prepareBuild` when Astro starts a
 * build and `finishBuild` when Astro has rendered the pages, so `astro build` (what hosts' Astro
 * presets run) and `npm run build` are one build; a rebuild of changed content with the page code
 * the last build kept runs the same two steps around its rendering (./kept-renderer.ts).
 *
 * Pages are rendered into a fresh folder in the project's work folder and swapped in whole: a
 * build that stops on a problem, fails or is killed leaves the output folder as it was. A content
 * rebuild of an output still as the last build left it writes only what changed into that folder,
 * and then updates the output in place (./in-place.ts). Builds of one output take turns in
 * changing it.
 */
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { loadContentInParallel, withoutPosts } from '../content/load.ts';
import { ContentProblemsError, type Problem } from '../content/problems.ts';
import { keepValidatorCode } from '../content/schema-validation.ts';
import type { Limits } from '../content/limits.ts';
import { writeSecurityHeaders, writeWorkflowHeaders } from '../outputs/headers.ts';
import { tagRedirects, writeRedirects } from '../outputs/redirects.ts';
import { oldAddressRedirects } from '../outputs/old-addresses.ts';
import { siteRootUrl } from '../model/urls.ts';
import { siteProblems } from '../integration/options.ts';
import { hostLimitWarnings, measureSite, redirectRulesWarning, sizeLine } from './host-limits.ts';
import { folderListing, withFolder } from './folder-files.ts';
import { carryOver, codeDigest, forgetPages, keysOf, listedAsRemembered, noteSource, pruneCaches, rememberedOutput, rememberPages, shapeKey, tagsKey, unchangedFiles, type RememberedFile } from './cache.ts';
import { rememberedPosts, rememberPosts } from './post-memory.ts';
import { forgetSpill, spillFolder } from '../content/post-spill.ts';
import { dataMemory } from './data-memory.ts';
import { FEED_FILES, INDEX_FOLDER, indexAndFeedsThread, LISTING_FILES } from './index-and-feeds.ts';
import { wordMemoryFile } from './word-memory.ts';
import { buildStore, routesToRemember, type BuildOutcome, type ContentSource, type PageReuse } from './store.ts';
import { removeDeadWorkFolders, removeWorkFolder, swapIn, workFolder } from './swap.ts';
import { outputLock, updateInPlace } from './in-place.ts';
import { takeLock, withLock } from '../cli/lock.ts';
import type { FolderListing } from './folder-files.ts';
import { noteThreadFiles, writeSitemap } from './write-files.ts';
import { pageDates } from './page-dates.ts';
import { finishSearchPage, restamped } from './search-page.ts';
import { buildProgress, pagesRendered, type Progress } from './progress.ts';
import { buildPhases, phasesLine, type BuildMarks } from './phases.ts';
import { sampleSiteWarning } from '../integration/host.ts';
import { releaseFreedHeap } from './threads.ts';

export interface BuildSettings {
  /** The project root. */
  root: string;
  /** Where the finished site goes (Astro's `outDir`). */
  outDir: string;
  contentDir: string;
  /** Forget the caches: render every page and post. */
  clean: boolean;
  siteTitle: string;
  excerptLength: number;
  /** The site's `limits.*` (SPEC 7). */
  limits: Limits;
  /** The `intersections` option: which pairs of tags get a page. */
  intersections: { minTopics: number; maxPages: number };
  /** Astro's `site` and `base`. */
  site: string | undefined;
  base: string;
  /** Site paths of the workflow list's copies, and their cache lifetime (`_headers`). */
  workflowLists: { paths: string[]; cacheSeconds: number };
  /** The headers every page is sent with (`_headers`): Content-Security-Policy and the like. */
  securityHeaders: Record<string, string>;
  /** The problems of the options, found by the integration. */
  problems: Problem[];
  /** Everything in the config that shapes pages (options, `site`, `base`): part of the cache key. */
  configDigest: string;
}

/** A build under way: what `finishBuild` needs from `prepareBuild`. */
export interface Build {
  settings: BuildSettings;
  /** The site's absolute root URL (`site` + `base`). */
  siteRoot: string;
  started: number;
  /** The folder Astro renders the pages into. */
  fresh: string;
  /** The build's caches: Astro's, the first posts' renderings, the last output's page keys. */
  cacheDir: string;
  code: string;
  reuse: PageReuse;
  /** Resolves once the index thread has written the feeds (see IndexAndFeedsRun). */
  feedsWritten: Promise<void>;
  progress: Progress;
  /** The output as the last build left it, when this build updates it in place (./in-place.ts). */
  previous?: FolderListing;
  /** Files of the output kept as they are besides the pages, feeds and index files (a rebuild's browser files). */
  keep: Set<string>;
  /** When each phase began (performance.now()), for the phases line (./phases.ts). */
  marks: BuildMarks;
}

/**
 * Notes that the pages start to render now: after Astro has bundled their code (`bundled`), or
 * with the code the last build kept. The first time, the heap the content phase freed (the topics'
 * text, the validators' work) is given back before the long page phase (releaseFreedHeap).
 */
export function pagesStarting(build: Build, bundled: boolean): void {
  if (build.marks.rendering) return;
  releaseFreedHeap();
  build.marks.rendering = { at: performance.now(), bundled };
}

/** Builds of one output take turns: a build waits this long for another to finish changing it. */
const OUTPUT_LOCK = { waitMs: 60 * 60_000, staleMs: 24 * 60 * 60_000 };

/**
 * Runs `work` while this build holds the lock of `outDir`: builds of one output take turns, from
 * before one looks at what the output holds (the pages it may reuse) until its site is in place.
 */
export function withOutputLock<T>(root: string, outDir: string, work: () => T | Promise<T>): Promise<T> {
  return withLock(outputLockFile(root, outDir), work, OUTPUT_LOCK);
}

/** Takes the lock of `outDir` as withOutputLock does, for a build run by Astro's hooks; returns what releases it. */
export function holdOutputLock(root: string, outDir: string): Promise<() => void> {
  return takeLock(outputLockFile(root, outDir), OUTPUT_LOCK);
}

/** The output's lock file (./in-place.ts), its folder made first (a project's first build has none yet). */
function outputLockFile(root: string, outDir: string): string {
  const file = outputLock(root, outDir);
  mkdirSync(dirname(file), { recursive: true });
  return file;
}

/**
 * Steps 1–4: load and validate everything, hand the records to the pages, start the worker. Throws
 * every problem at once. The caller holds the output's lock (withOutputLock, holdOutputLock) until
 * finishBuild is done. With `checkedOutput` giving the output as the last build left it (checked
 * under that lock while the content is read, and waited for after), the output is updated in place.
 * `stamps` are the content files' stamps as the content's listing took them (by full path): the
 * caches are looked at, the index thread started and the topic memory read while they are taken.
 */
export async function prepareBuild(settings: BuildSettings, checkedOutput?: Promise<FolderListing | undefined>, stamps?: Promise<ReadonlyMap<string, string>>): Promise<Build> {
  const started = performance.now();
  const { root, contentDir, outDir } = settings;
  removeDeadWorkFolders(root);
  // The validators' code is kept between builds: a rebuild that reads a changed topic loads the topic schema's, not compiles it.
  keepValidatorCode(join(root, '.tagsite-build', 'validators'));

  // One cache folder per content folder and output, so a fixture's build never reuses the sample site's pages.
  const cacheRoot = join(root, '.tagsite-build', 'cache');
  const cacheDir = join(cacheRoot, createHash('sha1').update(`${contentDir}\0${outDir}`).digest('hex').slice(0, 16));
  if (settings.clean) rmSync(cacheDir, { recursive: true, force: true });
  pruneCaches(cacheRoot);
  noteSource(cacheDir, contentDir);
  const code = codeDigest(root, settings.configDigest);

  // The index thread loads its code and its word memory while the content is read.
  const indexThread = indexAndFeedsThread(wordMemoryFile(cacheDir, code));

  // 1–2. Load and validate: every problem of options and content, before anything is written.
  const source: ContentSource = { root, contentDir, excerptLength: settings.excerptLength };
  const data = dataMemory(cacheDir, code, root, settings.limits);
  const memory = rememberedPosts(cacheDir, code);
  const loaded = await loadContentInParallel({ ...source, limits: settings.limits, dataMemory: data, spill: spillFolder(cacheDir) }, memory, await stamps);
  const previous = await checkedOutput;
  const siteRoot = siteRootUrl(settings.site, settings.base);
  const problems = [...settings.problems, ...siteProblems(settings.site, loaded.content.topics.some((topic) => topic.workflow)), ...loaded.problems];
  if (problems.length > 0 || !siteRoot) throw new ContentProblemsError(problems);
  const progress = buildProgress(loaded.content.topics.length, process.stdout, started);
  progress.phase(`content read and validated: ${loaded.content.topics.length.toLocaleString('en')} topics`);
  const warning = sampleSiteWarning(settings.site);
  if (warning) console.warn(warning);

  // 3. The search index and the tag feeds, written into the new site by a worker thread while Astro
  // renders the pages. It starts first: in a rebuild it takes longest. It checks itself which of the
  // previous output's index files and feeds are still as that build left them.
  const store = buildStore();
  const fresh = join(workFolder(root), 'site');
  rmSync(workFolder(root), { recursive: true, force: true });
  // In place, the output's check has just listed every file: the remembered files it found as their
  // build left them are reused by their keys, without looking at each again.
  const last = rememberedOutput(cacheDir, code);
  const remembered = previous ? listedAsRemembered(last.files, previous) : last.files;
  const madeByThread = ([file]: RememberedFile) => file.endsWith('/rss.xml') || file.startsWith(`${INDEX_FOLDER}/`);
  const inPlace = previous !== undefined;
  // The thread takes the topics in, without their posts, while this one remembers the renderings
  // (they describe the content as read, whatever becomes of the output): the index thread reads the
  // posts' texts from the memory's files, and this thread lets the posts go: a topic's page reads
  // its own from there (1.4 KB of the heap a topic, held otherwise).
  const threadStarted = performance.now();
  const fromTags = tagsKey(loaded.content);
  const thread = indexThread.run(loaded.content, fresh, { siteTitle: settings.siteTitle, siteRoot, intersections: settings.intersections }, { from: outDir, files: remembered.filter(madeByThread), inPlace, feeds: last.routes.get(FEED_FILES), listingFiles: last.routes.get(LISTING_FILES) }, { keys: loaded.keys, listings: loaded.listings, tags: fromTags });
  let posts: ReturnType<typeof rememberPosts>;
  try {
    posts = rememberPosts(cacheDir, code, loaded.memory);
    data.save();
    // The topics whose words the thread remembers go without their text (it has read its memory meanwhile).
    thread.texts(await indexThread.remembered, posts);
  } catch (error) {
    thread.stop();
    throw error;
  }
  Object.assign(store, { indexFinished: indexThread.finished, indexGone: indexThread.exited });
  const { content, keys } = withoutPosts(loaded.content, loaded.keys, posts);
  const marks: BuildMarks = { prepared: 0, threadStarted };

  // 4. The records, for the pages Astro renders, and the previous output's pages that may be reused.
  const pages = remembered.filter((file) => !madeByThread(file));
  const reuse: PageReuse = { previous: previous ? keysOf(pages) : unchangedFiles(outDir, pages), next: new Map(), reused: new Set(), carried: new Set(), inPlace, topicKeys: keys, listings: loaded.listings, routes: { previous: last.routes, next: new Map() }, fromShape: shapeKey(content), fromTags, postsShown: 0 };
  // The thread's files are noted with the pages' as soon as it answers, and its list of them let go:
  // it ends while the pages render, and its 53,000 records were held to the end (100,000 topics).
  store.indexAndFeeds = thread.done.then((made) => {
    marks.threadSeconds = made.seconds;
    noteThreadFiles(made, reuse);
    return { ...made, files: [] };
  });
  store.indexAndFeeds.catch(() => undefined); // a failure is reported when the build waits for it
  Object.assign(store, { source, content: { ...content, from: source }, reuse, outcome: undefined });
  progress.phase('rendering pages; the search index and feeds in a second thread');
  progress.countPages();
  marks.prepared = performance.now();
  return { settings, siteRoot, started, fresh, cacheDir, code, reuse, feedsWritten: thread.feedsWritten, progress, ...(previous ? { previous } : {}), keep: new Set(), marks };
}

/** Steps 5–6, once Astro has rendered `pages` (site paths): write the files Astro does not make, then swap the site in. */
export async function finishBuild(build: Build, pages: readonly string[]): Promise<BuildOutcome> {
  const { settings, siteRoot, fresh, reuse, progress } = build;
  const store = buildStore();
  const finishing = performance.now();
  // Time spent waiting for the index thread: what it costs the build beyond the pages.
  let waiting = 0;
  const waitFor = async <T>(promise: Promise<T>): Promise<T> => {
    const from = performance.now();
    try {
      return await promise;
    } finally {
      waiting += performance.now() - from;
    }
  };
  const byThread = store.renderedByThread ?? 0;
  progress.phase(`${pagesRendered(store.rendered ?? 0, byThread)}, ${reuse.reused.size.toLocaleString('en')} reused; writing the search index, feeds and sitemap`);

  // 5. Write: the list's cache headers, the search index, tag feeds and sitemap, and the pages reused from the last build.
  writeWorkflowHeaders(fresh, settings.workflowLists.paths, settings.base, settings.workflowLists.cacheSeconds);
  writeSecurityHeaders(fresh, settings.base, settings.securityHeaders);
  const { topics, tags, oldAddresses } = store.content!;
  const redirects = tagRedirects(tags.canonicalOf, new Set(topics.flatMap((topic) => topic.tags)));
  writeRedirects(fresh, redirects, settings.base, "Tag synonyms (content/tags.json): a synonym's tag page and feed lead to its tag's.");
  writeRedirects(fresh, oldAddressRedirects(oldAddresses), settings.base, 'Old addresses (aliases in the content): each leads to its new page. The 404 page sends those with a query string, and any address with a known id.');
  const oldPages = oldAddresses.flatMap(({ key, file }) => (file ? [key.endsWith('/') ? key : `${key}/`] : []));
  rmSync(join(fresh, '.prerender'), { recursive: true, force: true });
  writeSitemap(fresh, { siteRoot, pages, reuse, dates: () => pageDates(topics), redirected: [...redirects.map(({ from }) => from), ...oldPages] });
  // Reused pages the page writer has not linked yet (it links them while others render) and a reused
  // sitemap are linked now; the index thread links the index files and feeds it reuses itself.
  const rest = [...reuse.reused].filter((file) => !reuse.carried.has(file));
  if (!reuse.inPlace) carryOver(rest, settings.outDir, fresh);
  for (const file of rest) reuse.carried.add(file);
  // While this thread would otherwise wait for the index: once the feeds are written, the new site is listed but for its index (190,000 files at 100,000 topics).
  await waitFor(build.feedsWritten);
  let listed = build.previous ? undefined : folderListing(fresh, INDEX_FOLDER);
  const indexAndFeeds = await waitFor(store.indexAndFeeds!);
  if (indexAndFeeds.feeds) reuse.routes.next.set(FEED_FILES, indexAndFeeds.feeds);
  if (indexAndFeeds.listingFiles) reuse.routes.next.set(LISTING_FILES, indexAndFeeds.listingFiles);
  // The search page gets the index's words.json, now that it is made, and the site's stylesheet (./search-page.ts).
  const searchPage = indexAndFeeds.words === undefined ? undefined : finishSearchPage(fresh, settings.outDir, indexAndFeeds.words);
  if (searchPage && listed) listed = restamped(listed, fresh, searchPage);
  const redirectsFile = join(fresh, '_redirects');
  const redirectsWarning = existsSync(redirectsFile) ? redirectRulesWarning(readFileSync(redirectsFile, 'utf8')) : undefined;

  // 6. Swap, or update in place. The old keys are forgotten before the output changes, so a crash can never pair old keys with new files.
  let output: FolderListing;
  if (build.previous) {
    forgetPages(build.cacheDir);
    output = updateInPlace(fresh, settings.outDir, build.previous, new Set([...reuse.next.keys(), ...build.keep]));
  } else {
    forgetPages(build.cacheDir);
    output = swapIn(fresh, settings.outDir, withFolder(listed!, INDEX_FOLDER, folderListing(join(fresh, INDEX_FOLDER))));
  }
  const size = measureSite(output.files);
  const warnings = [...hostLimitWarnings(size), ...(redirectsWarning ? [redirectsWarning] : [])];
  rememberPages(build.cacheDir, build.code, reuse.next, output.files, routesToRemember(reuse.routes));
  // A new site swapped in by a copy (an output on another file system) is still in the work folder.
  removeWorkFolder(settings.root, { holdsSite: !build.previous && existsSync(fresh) });
  forgetSpill(spillFolder(build.cacheDir)); // the posts this build read are in its topic memory
  progress.done();
  // Said by `astro build` as by `npm run build`: before the site is deployed anywhere.
  console.log(indexAndFeeds.intersections);
  console.log(sizeLine(size));
  for (const warning of warnings) console.warn(warning);
  const phases = buildPhases(build, finishing, waiting);
  progress.summary(phasesLine(phases));

  const outcome: BuildOutcome = { outDir: settings.outDir, pages: reuse.next.size, reused: reuse.reused.size, seconds: (performance.now() - build.started) / 1000, inPlace: reuse.inPlace, output, size, warnings, phases, byThread };
  Object.assign(store, { content: undefined, reuse: undefined, indexAndFeeds: undefined, indexFinished: undefined, indexGone: undefined, renderedByThread: undefined, outcome });
  return outcome;
}
