/** One corpus size, end to end: generate, load, build, serve, measure in Chromium. */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import type { Browser } from 'playwright-core';
import { loadContent, type SiteContent } from '../../src/content/load.ts';
import { tagSlug } from '../../src/model/tags.ts';
import { sortForListing } from '../../src/model/listing.ts';
import { dateBounds, effectiveSort, parseSearchParams } from '../../src/search/query.ts';
import { typeWithDescendants } from '../../src/search/engine.ts';
import type { CoreFile } from '../../src/search/index-format.ts';
import type { ResolvedOptions } from '../../src/integration/options.ts';
import { PROBE_TAG, writeCorpus } from './corpus.ts';
import { hugoBuild, hugoVersion, writeHugoSite } from './hugo.ts';
import { indexDifferences, realBuild, replacedOutputsGone, replaceSearchIndex, runBuild, searchIndexOf, siteSize, StepTimeout, writeShellCorpus } from './site.ts';
import { serveStatic } from '../../src/cli/static-server.ts';
import { bytesToFirstResult, fuseBaseline, searchTimings, sharedLinkFirstResult, tagPageBytes, type BaselineQuery } from './measure.ts';
import { comparisonQueries, structuredQueries, wordQueries } from './queries.ts';
import { FILTERED_PAGE, medianRebuild, SHARED_LINK, WORDS_PAGE, type Rebuild, type RebuildFigures, type SizeFigures } from './report.ts';
import { writePagefindIndex, writePagefindPage, type PagefindIndexFigures } from './pagefind.ts';
import { comparePagefind } from './compare.ts';
import { readPhases } from '../../src/build/phases.ts';

export interface RunSettings {
  project: string;
  workDir: string;
  seed: string;
  /** The corpus's last day (YYYY-MM-DD). */
  end: string;
  queries: number;
  fullBuildMax: number;
  stepTimeoutMs: number;
  options: ResolvedOptions;
  browser: Browser;
  /** Index the same topics with Pagefind and compare the two side by side (--no-pagefind: false). */
  pagefind: boolean;
  /** How many rebuilds after each edit (--rebuild-runs): each after the edit made once more, the median reported. */
  rebuildRuns: number;
  log: (message: string) => void;
}

const seconds = (since: number) => (performance.now() - since) / 1000;

/**
 * The tag with the most topics but at most `max`, then the probe tag, whose 20 topics are the same
 * in every corpus (scripts/bench/corpus.ts): its page compares what the site adds as it grows.
 */
function chooseTags(content: SiteContent, max: number): Array<{ tag: string; topics: number }> {
  const counts = new Map<string, number>();
  for (const topic of content.topics) for (const tag of topic.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  const byCount = [...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
  const biggest = byCount.find(([tag, n]) => n <= max && tag !== PROBE_TAG);
  const probe = counts.has(PROBE_TAG) ? ([PROBE_TAG, counts.get(PROBE_TAG)!] as const) : undefined;
  return [biggest, probe].filter((entry) => entry !== undefined).map(([tag, topics]) => ({ tag, topics }));
}

/** The plain Fuse.js page: every record with all its searchable fields, and Fuse.js itself. */
function writeBaselineFiles(dir: string, content: SiteContent, project: string): void {
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(project, 'node_modules/fuse.js/dist/fuse.mjs'), join(dir, 'fuse.mjs'));
  writeFileSync(join(dir, 'fuse.html'), '<!doctype html><meta charset="utf-8"><title>plain Fuse.js baseline</title>\n');
  const records = content.topics.map((topic) => ({
    title: topic.title,
    body: topic.text,
    tags: topic.tags,
    author: topic.author,
    type: topic.contentType,
    created: topic.createdMs,
    updated: topic.updatedMs,
    replies: topic.replies,
    views: topic.views,
  }));
  writeFileSync(join(dir, 'records.json'), JSON.stringify(records));
}

/** A query string as the baseline applies it: the same parsing and date bounds as the page. */
function baselineQuery(params: string, core: CoreFile, pageSize: number): BaselineQuery {
  const { query } = parseSearchParams(new URLSearchParams(params));
  const now = new Date();
  const bounds = (filter: typeof query.created): [number, number] => {
    const { from, to } = dateBounds(filter, now);
    return [from, to];
  };
  return {
    q: query.q,
    tags: query.tags,
    match: query.match,
    author: query.author,
    types: query.type ? typeWithDescendants(core.types, query.type).map((i) => core.types[i]!.id) : null,
    created: bounds(query.created),
    updated: bounds(query.updated),
    minReplies: query.minReplies,
    minViews: query.minViews,
    sort: effectiveSort(query),
    pageSize,
  };
}

/** The phases a build said it spent its time in (src/build/phases.ts), when it said them. */
function phasesOf(output: string) {
  const phases = readPhases(output);
  return phases ? { phases } : {};
}

type Topic = SiteContent['topics'][number];

/** The topic's page as the built site has it. */
const topicPage = (siteDir: string, topic: Topic) => readFileSync(join(siteDir, 'topics', topic.slug, 'index.html'), 'utf8');

/**
 * The edits the rebuild is measured after, one after the other, each as an author or a forum makes
 * it: a paragraph added to the post (what listings show stays the same), the title changed (every
 * listing showing it changes), and its activity date moved to the corpus's last day, as a reply
 * does (the file gets an `updated` line if it had none), which takes it to the top of every
 * listing. `seen` says whether the built site shows the edit.
 */
const EDITS: Array<{ name: keyof RebuildFigures; edit: (text: string, day: string, run: number) => string; seen: (siteDir: string, topic: Topic) => boolean }> = [
  {
    name: 'post',
    edit: (text, _day, run) => `${text.trimEnd()}\n\nEdited (${run + 1}): one more paragraph, added for the rebuild benchmark.\n`,
    seen: (siteDir, topic) => topicPage(siteDir, topic).includes('added for the rebuild benchmark'),
  },
  {
    name: 'title',
    edit: (text, _day, run) => text.replace(/^title: .*$/m, `title: "Renamed for the rebuild benchmark (${run + 1})"`),
    seen: (siteDir, topic) => topicPage(siteDir, topic).includes('Renamed for the rebuild benchmark'),
  },
  {
    name: 'bumped',
    // Each run a minute later on that day: still the newest activity, and a change.
    edit: (text, day, run) => {
      const updated = `updated: ${day}T12:${String(run % 60).padStart(2, '0')}:00Z`;
      return /^updated: /m.test(text) ? text.replace(/^updated: .*$/m, updated) : text.replace(/^created: .*$/m, (line) => `${line}\n${updated}`);
    },
    // The home page lists the newest topics.
    seen: (siteDir, topic) => readFileSync(join(siteDir, 'index.html'), 'utf8').includes(`/topics/${topic.slug}/`),
  },
];

/**
 * Hugo's clean build of the same topic files right after tagsite's, when `hugo` is installed. Its
 * site is deleted with the bench's folder, at the end: deleted here, its files would be deleted
 * right before the rebuilds, which some file systems answer by making new files slowly for a
 * while: ext4 without a journal (this machine's) passes over every inode freed in the last one to
 * six minutes, one by one, each time it makes a file or folder.
 */
async function hugoFigures(figures: SizeFigures, corpusDir: string, hugoDir: string, settings: RunSettings): Promise<void> {
  const version = hugoVersion();
  if (!version) {
    figures.notes.push('hugo is not installed (Debian: apt-get install hugo): no Hugo build beside tagsite');
    return;
  }
  settings.log(`${figures.size}: Hugo's clean build of the same topics (${version})`);
  writeHugoSite(hugoDir, corpusDir);
  const run = await hugoBuild(hugoDir, settings.stepTimeoutMs);
  figures.hugo = { version, seconds: run.seconds, cpuSeconds: run.cpuSeconds, systemSeconds: run.systemSeconds, peakRss: run.peakRss, files: siteSize(join(hugoDir, 'public')).files };
}

/**
 * After the clean build: the rebuild time after each edit of one topic (EDITS, into the same output
 * folder, as a user runs it), a build with nothing changed, then a broken file among all the
 * others: the build must stop, name the file and field, and leave the site as it was.
 */
async function rebuildFigures(figures: SizeFigures, content: SiteContent, corpusDir: string, siteDir: string, settings: RunSettings): Promise<void> {
  // A topic from the middle of the listing: moved to its top, it moves half the topics down one place.
  const topic = sortForListing(content.topics)[content.topics.length >> 1]!;
  const file = join(corpusDir, topic.file);
  const original = readFileSync(file, 'utf8');
  figures.rebuilds = {};
  for (const { name, edit, seen } of EDITS) {
    settings.log(`${figures.size}: rebuild after editing ${topic.file} (${name}${settings.rebuildRuns > 1 ? `, ${settings.rebuildRuns} times` : ''})`);
    const runs: Rebuild[] = [];
    for (let run = 0; run < settings.rebuildRuns; run++) {
      writeFileSync(file, edit(readFileSync(file, 'utf8'), settings.end, run));
      const rebuild = await realBuild(settings.project, corpusDir, siteDir, settings.stepTimeoutMs);
      runs.push({ seconds: rebuild.seconds, peakRss: rebuild.peakRss, ...phasesOf(rebuild.output) });
      if (!seen(siteDir, topic)) figures.notes.push(`the rebuild after the ${name} edit does not show it`);
      if (!(await replacedOutputsGone(siteDir, settings.stepTimeoutMs))) figures.notes.push('the output the rebuild replaced was still being deleted during the next steps');
    }
    figures.rebuilds[name] = medianRebuild(runs);
  }

  settings.log(`${figures.size}: build again with nothing changed`);
  const again = await realBuild(settings.project, corpusDir, siteDir, settings.stepTimeoutMs);
  figures.unchanged = { seconds: again.seconds, peakRss: again.peakRss };
  if (!/^nothing changed since the last build/m.test(again.output)) figures.notes.push('the build with nothing changed built the site again');

  settings.log(`${figures.size}: a broken topic among ${content.topics.length.toLocaleString('en')}`);
  const broken = content.topics[content.topics.length - 1]!;
  const brokenFile = join(corpusDir, broken.file);
  const brokenOriginal = readFileSync(brokenFile, 'utf8');
  writeFileSync(brokenFile, brokenOriginal.replace(/^created: .*$/m, 'created: 2023-02-30'));
  const before = readFileSync(join(siteDir, 'index.html'), 'utf8');
  const failed = await runBuild(settings.project, corpusDir, siteDir, settings.stepTimeoutMs, false);
  // The problem line names the file (relative to the project) and the field: `<file>:<line>: created: …`.
  const reported = failed.output.split('\n').find((line) => line.includes(broken.file.split('/').pop()!));
  figures.broken = {
    seconds: failed.seconds,
    reported: failed.code === 1 && reported !== undefined && /: created: /.test(reported),
    line: reported ?? failed.output.trim().split('\n').slice(-3).join(' | '),
    siteKept: readFileSync(join(siteDir, 'index.html'), 'utf8') === before,
  };
  if (!figures.broken.reported) figures.notes.push(`the broken file was not reported by file and field: ${figures.broken.line}`);
  writeFileSync(brokenFile, brokenOriginal);
  writeFileSync(file, original);
}

export async function runSize(size: number, settings: RunSettings): Promise<SizeFigures> {
  const { log } = settings;
  const figures: SizeFigures = { size, notes: [] };
  const dir = join(settings.workDir, String(size));
  const corpusDir = join(dir, 'content');
  const siteDir = join(dir, 'site');

  let started = performance.now();
  log(`${size}: generating the corpus`);
  writeCorpus(corpusDir, { count: size, seed: settings.seed, end: settings.end });
  figures.generateSeconds = seconds(started);

  started = performance.now();
  log(`${size}: loading and validating it (loadContent)`);
  const { content, problems } = loadContent({ root: corpusDir, contentDir: corpusDir, excerptLength: settings.options.excerptLength });
  figures.loadSeconds = seconds(started);
  if (problems.length > 0) {
    figures.notes.push(`the generated corpus has ${problems.length} problems (first: ${problems[0]!.file}: ${problems[0]!.message}); skipped`);
    return figures;
  }
  figures.tags = new Set(content.topics.flatMap((topic) => topic.tags)).size;
  figures.authors = new Set(content.topics.map((topic) => topic.author)).size;
  const chosen = chooseTags(content, 50);

  started = performance.now();
  try {
    if (size <= settings.fullBuildMax) {
      log(`${size}: full build (npm run build -- --content … --out …)`);
      const clean = await realBuild(settings.project, corpusDir, siteDir, settings.stepTimeoutMs, true);
      figures.build = { seconds: clean.seconds, cpuSeconds: clean.cpuSeconds, systemSeconds: clean.systemSeconds, peakRss: clean.peakRss, ...siteSize(siteDir), ...phasesOf(clean.output) };
      await hugoFigures(figures, corpusDir, join(dir, 'hugo'), settings);
      const took = clean.seconds;
      const differ = indexDifferences(siteDir, searchIndexOf(content));
      figures.site = `full build, ${took.toFixed(0)} s`;
      await rebuildFigures(figures, content, corpusDir, siteDir, settings);
      figures.notes.push(`full build; buildSearchIndex on loadContent's records ${differ === 0 ? 'matches the built /search-index/ exactly' : `differs from the built index in ${differ} files`}`);
    } else {
      log(`${size}: shell build + the full corpus's search index (full build skipped above ${settings.fullBuildMax})`);
      const shellDir = join(dir, 'shell-content');
      const shellTopics = writeShellCorpus(corpusDir, content, chosen.map((c) => c.tag), shellDir);
      const { seconds: took } = await realBuild(settings.project, shellDir, siteDir, settings.stepTimeoutMs);
      const indexStarted = performance.now();
      replaceSearchIndex(siteDir, searchIndexOf(content));
      figures.site = `index swap, ${(took + seconds(indexStarted)).toFixed(0)} s`;
      figures.notes.push(
        `index swap: real build of a ${shellTopics}-topic shell (the measured tags' topics, the same data files), then its /search-index/ replaced by buildSearchIndex over all ${size.toLocaleString('en')} records (${seconds(indexStarted).toFixed(0)} s); /search/ and its JS do not depend on the corpus`,
      );
    }
  } catch (error) {
    figures.notes.push(error instanceof StepTimeout ? `site step stopped: ${error.message} (time box)` : `site step failed: ${(error as Error).message}`);
    return figures;
  }
  log(`${size}: site ready in ${seconds(started).toFixed(0)} s`);

  writeBaselineFiles(join(dir, 'baseline'), content, settings.project);
  const pagefindIndex = settings.pagefind ? await pagefindFiles(figures, content, siteDir, join(dir, 'baseline'), settings) : undefined;
  const core = JSON.parse(readFileSync(join(siteDir, 'search-index/core.json'), 'utf8')) as CoreFile;
  // What /search/ (and Pagefind's page) fetch as they search is ready compressed (a tag page's own file is measured in bytes, not time).
  const host = await serveStatic(siteDir, '/', {
    mounts: { '/__bench/': join(dir, 'baseline') },
    gzip: true,
    precompressed: ['search-index/core.json', 'search-index/words.json', 'search-index/display', 'search-index/display-all', 'search-index/postings', 'search-index/vocab', 'search-index/vocab-all.json', ...(pagefindIndex ? ['pagefind'] : [])],
  });
  const { browser } = settings;
  const loadAtStart = loadavg()[0]!;
  try {
    log(`${size}: bytes before the first result`);
    figures.search = await bytesToFirstResult(browser, host, '/search/');
    figures.searchFiltered = await bytesToFirstResult(browser, host, FILTERED_PAGE);
    figures.searchWords = await bytesToFirstResult(browser, host, WORDS_PAGE);
    figures.sharedLink = await sharedLinkFirstResult(browser, host, SHARED_LINK);
    figures.tagPages = [];
    for (const { tag, topics } of chosen) {
      const { load, panel, eager } = await tagPageBytes(browser, host, tagSlug(tag));
      figures.tagPages.push({ tag, topics, load, panel });
      if (eager.length > 0) figures.notes.push(`tag page '${tag}' fetched ${eager.join(', ')} right after load, before its filter panel was used`);
    }

    const warmUp = [...structuredQueries(core, `${settings.seed}/warm-up`, 5), ...wordQueries(core, `${settings.seed}/warm-up`, 5)];
    const structured = structuredQueries(core, settings.seed, settings.queries);
    const words = wordQueries(core, settings.seed, settings.queries);
    log(`${size}: ${structured.length} structured searches`);
    figures.structured = await searchTimings(browser, host, warmUp, structured);
    log(`${size}: ${words.length} word searches, twice`);
    figures.words = await searchTimings(browser, host, warmUp, words);
    figures.wordsAgain = await searchTimings(browser, host, words, words);

    log(`${size}: plain Fuse.js baseline`);
    const baseline = words.map((params) => baselineQuery(params, core, settings.options.pageSize));
    const warm = warmUp.slice(5).map((params) => baselineQuery(params, core, settings.options.pageSize)).slice(0, 2);
    const fuse = await fuseBaseline(browser, host, warm, baseline, settings.stepTimeoutMs / 2);
    figures.fuse = { ms: fuse.timings.map((t) => t.ms), loadMs: fuse.loadMs, indexMs: fuse.indexMs, planned: baseline.length };
    if (fuse.timings.length < baseline.length) figures.notes.push(`plain Fuse.js stopped after ${fuse.timings.length} of ${baseline.length} queries (time box)`);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;
    figures.notes.push(
      `median results per search: structured ${median(figures.structured.map((t) => t.results))}, words ${median(figures.words.map((t) => t.results))}, plain Fuse.js ${median(fuse.timings.map((t) => t.results))}`,
    );
  } catch (error) {
    figures.notes.push(`browser step failed: ${(error as Error).message.split('\n')[0]}`);
  }
  try {
    if (pagefindIndex) {
      log(`${size}: tagsite beside Pagefind`);
      const queries = comparisonQueries(core, settings.seed, settings.queries);
      const input = { browser, host, project: settings.project, siteDir, content, queries, pageSize: settings.options.pageSize, pagefind: pagefindIndex };
      figures.pagefind = await comparePagefind({ ...input, log: (message) => log(`${size}: ${message}`) });
    }
  } catch (error) {
    figures.notes.push(`the Pagefind comparison failed: ${(error as Error).message.split('\n')[0]}`);
  } finally {
    figures.loadAverage = [loadAtStart, loadavg()[0]!];
    await host.close();
  }
  return figures;
}

/** The same topics indexed by Pagefind into the site's pagefind/ folder, and its search page; undefined (and a note) if Pagefind failed. */
async function pagefindFiles(figures: SizeFigures, content: SiteContent, siteDir: string, benchDir: string, settings: RunSettings): Promise<PagefindIndexFigures | undefined> {
  settings.log(`${figures.size}: indexing the same topics with Pagefind`);
  try {
    const index = await writePagefindIndex(content, siteDir);
    writePagefindPage(benchDir);
    return index;
  } catch (error) {
    figures.notes.push(`Pagefind could not index the topics: ${(error as Error).message.split('\n')[0]}`);
    return undefined;
  }
}
