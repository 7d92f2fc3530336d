/**
 * The search index and the tag feeds, built and written into the new site by a worker thread
 * while Astro renders the pages (./pipeline.ts): work that needs nothing Astro makes, off the
 * thread that renders. In a rebuild, a file the same as the previous output's (same key) is
 * hard-linked from it instead of written: most of the index and feeds, after one topic changed.
 * The feeds and the per-tag index files are keyed by what they are made from, so the ones kept are
 * not even made.
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { join } from 'node:path';
import { emitSearchIndex, indexedTypes, type TagFileReuse } from '../search/index-build.ts';
import { readPostings, termPostings, type TermPostings } from '../search/word-postings.ts';
import { rememberedWords, rememberWords, type WordMemoryFile } from './word-memory.ts';
import { WORDS_FILE } from '../search/index-format.ts';
import { digest as sha1 } from '../content/digest.ts';
import { sortForListing, topicsByTag } from '../model/listing.ts';
import { feedHead, feedItem, feedTopics, rssXml, type FeedHead, type FeedItem } from '../outputs/feeds.ts';
import { feedPath, intersectionFeedPath } from '../model/urls.ts';
import { intersectionReport, intersectionTopics, pairCounts, pairKey, planIntersections } from '../model/intersections.ts';
import { memberRecords } from '../outputs/member-index.ts';
import { writer } from './write-files.ts';
import { THREAD_LIMITS } from './threads.ts';
import { sameFile } from './folder-files.ts';
import type { RememberedFile } from './cache.ts';
import type { SiteContent, TopicKeys } from '../content/load.ts';
import type { Topic } from '../content/topics.ts';

type IndexedContent = Pick<SiteContent, 'topics' | 'members'> & { contentTypes: SiteContent['contentTypes']['list']; canonicalOf?: ReadonlyMap<string, string> };

/**
 * Hands every file under /search-index/ to `emit` as it is made: the topic index and members.json
 * (`topics` in any order). With `reuse` and `postings`, see emitSearchIndex.
 */
function emitSearchIndexFiles(content: IndexedContent, emit: (path: string, text: string, key?: string) => void, reuse?: TagFileReuse, postings?: (topics: readonly Topic[]) => Iterable<TermPostings>): void {
  const topics = sortForListing(content.topics);
  emitSearchIndex(topics, content.contentTypes, content.canonicalOf ?? new Map(), emit, reuse, postings);
  emit('members.json', JSON.stringify(memberRecords(content.members, topics)));
}

/** Every file under /search-index/: the topic index and members.json. `topics` in any order. */
export function searchIndexFiles(content: IndexedContent): Map<string, string> {
  const files = new Map<string, string>();
  emitSearchIndexFiles(content, (path, text) => files.set(path, text));
  return files;
}


/**
 * A topic's digest, made once a topic: of everything a tag feed and a tag's own search-index file
 * take from it. A file made from the same topics' digests, by the same code, is the same file.
 * `known`: digests the build's reading of the content already made, of each whole record
 * (src/content/load.ts TopicKeys), which cover all of that and more; they are taken as they are.
 */
export function topicDigests(known?: ReadonlyMap<Topic, string>): (topic: Topic) => string {
  const digests = new Map<Topic, string>();
  return (topic) => {
    let digest = known?.get(topic) ?? digests.get(topic);
    if (digest === undefined) {
      const { slug, title, excerpt, author, createdMs, updatedMs, replies, views, contentType, tags } = topic;
      digests.set(topic, (digest = sha1(JSON.stringify([slug, title, excerpt, author, createdMs, updatedMs, replies, views, contentType, tags]))));
    }
    return digest;
  };
}

/**
 * The key of a tag's own search-index file (TagFileReuse): the content types, the tag and its
 * topics' digests. The file holds its topics in listing order, not their ordinals: a topic bumped
 * to the top of the site moves every ordinal, yet only its own tags' files change.
 */
export function tagFileKeys(contentTypes: IndexedContent['contentTypes'], digestOf: (topic: Topic) => string): TagFileReuse['key'] {
  const types = JSON.stringify(indexedTypes(contentTypes));
  return (tag, topics) => sha1(JSON.stringify([types, tag, topics.map(digestOf)]));
}

/**
 * A tag's feed as written into the site: its file, the key it is reused by, and its XML, which is
 * none when the feed was kept from the previous output or handed to `write` as it was made.
 */
export interface FeedFile {
  file: string;
  key: string;
  xml?: string;
  /** Handed to tagFeedFiles' `write`. */
  written?: true;
}

/** Puts the previous output's `file` into the new site if its key was `key`; says whether it did. */
export type KeepFile = (file: string, key: string) => boolean;

/** What the tag and intersection feeds are written from besides the topics. */
export interface FeedOptions {
  siteTitle: string;
  siteRoot: string;
  /** tags.json's synonyms: each synonym's old feed address carries its canonical tag's feed. */
  canonicalOf?: ReadonlyMap<string, string>;
  /** The `intersections` option: which pairs of tags get a page, and so a feed. */
  intersections?: { minTopics: number; maxPages: number };
  /**
   * Takes each feed's XML as soon as it is made, instead of the list (a big site's feeds are
   * hundreds of megabytes, which a thread that holds them all keeps the room for till it ends).
   */
  write?: (file: string, xml: string) => void;
}

/**
 * Every tag's feed, each synonym's old feed (a copy of its canonical tag's, whose self link names
 * the canonical address) and every intersection page's feed (`topics` in any order); the key is a
 * digest of what the feed is written from: its channel, and its topics by `digestOf`. A feed that
 * `keep` takes from the previous output is not made again: no XML. Also says which intersection
 * pages the build makes.
 */
export function tagFeedFiles(topics: readonly Topic[], options: FeedOptions, keep?: KeepFile, digestOf = topicDigests()): { feeds: FeedFile[]; intersections: string } {
  const { siteTitle, siteRoot } = options;
  const feeds: FeedFile[] = [];
  // A topic is an item of each of its tags' and pairs' feeds: its item is made once, and only for a feed that is written.
  const items = new Map<Topic, FeedItem>();
  const itemOf = (topic: Topic) => {
    let item = items.get(topic);
    if (!item) items.set(topic, (item = feedItem(topic, siteRoot)));
    return item;
  };
  const add = (path: string, head: FeedHead, newest: readonly Topic[]) => {
    // The feed's address is percent-encoded (`/tags/%E6%97%A5…/rss.xml`); its file is not.
    const file = decodeURI(path).slice(1);
    const key = sha1(JSON.stringify({ ...head, items: newest.map(digestOf) }));
    if (keep?.(file, key)) return void feeds.push({ file, key });
    const xml = rssXml(head, newest.map(itemOf));
    if (!options.write) return void feeds.push({ file, key, xml });
    options.write(file, xml);
    feeds.push({ file, key, written: true });
  };
  const byTag = topicsByTag(topics);
  const synonymsOf = new Map<string, string[]>();
  for (const [synonym, canonical] of options.canonicalOf ?? []) synonymsOf.set(canonical, [...(synonymsOf.get(canonical) ?? []), synonym]);
  for (const [tag, tagged] of byTag) {
    const head = feedHead({ siteTitle, siteRoot, tag });
    const newest = feedTopics(tagged);
    add(feedPath(tag), head, newest);
    for (const synonym of synonymsOf.get(tag) ?? []) add(feedPath(synonym), head, newest);
  }
  const listed = sortForListing(topics);
  const plan = planIntersections(pairCounts(listed), options.intersections ?? { minTopics: 5, maxPages: 0 });
  const topicsOf = intersectionTopics(listed, plan.built);
  for (const { pair } of plan.built) add(intersectionFeedPath(...pair), feedHead({ siteTitle, siteRoot, pair }), feedTopics(topicsOf.get(pairKey(...pair))!));
  return { feeds, intersections: intersectionReport(plan) };
}

/** What the worker reports once it has written the search index and the feeds. */
export interface IndexAndFeeds {
  /** Every feed and index file of the site, and whether it was written (not when linked from the previous output). */
  files: { file: string; key: string; written: boolean }[];
  /** The build's line about intersection pages: how many, and the pairs the budget left out. */
  intersections: string;
  /** The text of the index's words.json, which the search page holds too (./search-page.ts). */
  words?: string;
}

export interface FeedSettings {
  siteTitle: string;
  /** The site's absolute root URL (`site` + `base`). */
  siteRoot: string;
  /** The `intersections` option. */
  intersections: { minTopics: number; maxPages: number };
}

/** The previous output (`from`) and its feeds and index files as its build left them (./cache.ts). */
export interface PreviousFiles {
  from: string;
  files: readonly RememberedFile[];
  /** The output is updated in place (./in-place.ts): a file kept stays there, and is not linked into the new site. */
  inPlace: boolean;
}

/** The folder of the site the search index is written into. */
export const INDEX_FOLDER = 'search-index';

/** The index thread at work: the feeds are written first, then the index. */
export interface IndexAndFeedsRun {
  /** Resolves once every feed is in the new site (from then on the thread writes under INDEX_FOLDER only), or the thread failed. */
  feedsWritten: Promise<void>;
  /** Resolves once the index is written too. */
  done: Promise<IndexAndFeeds>;
}

/** The worker thread that builds the index and the tag feeds, started before there is content for it. */
export interface IndexAndFeedsThread {
  /**
   * Builds the index and the tag feeds of `content` and writes them into `outDir` (under
   * INDEX_FOLDER and tags/); the topics are sent without their HTML, which neither uses.
   */
  run(content: SiteContent, outDir: string, feeds: FeedSettings, previous: PreviousFiles, keys?: TopicKeys, words?: WordMemoryFile): IndexAndFeedsRun;
}

/** What the thread says: that the feeds are written, then what it made. */
type ThreadMessage = { feedsWritten: true } | { made: IndexAndFeeds };

/**
 * Starts the index thread: it loads its code while the build reads the content, and waits for
 * `run`. Until then it keeps no process alive (a build that stops on a problem just ends).
 */
export function indexAndFeedsThread(): IndexAndFeedsThread {
  const worker = new Worker(new URL(import.meta.url), { workerData: { indexAndFeeds: true }, resourceLimits: THREAD_LIMITS });
  worker.unref();
  let failure: Error | undefined;
  worker.once('error', (error: Error) => (failure ??= error));
  return {
    run(content, outDir, feedSettings, previous, keys, words) {
      const topics = content.topics.map(({ html: _html, ...topic }) => ({ ...topic, html: '' }) satisfies Topic);
      // The records' keys, by position: a Map keyed by records does not cross to the thread.
      const recordKeys = keys ? content.topics.map((topic) => keys.get(topic) ?? '') : [];
      worker.ref();
      let feedsAreWritten = () => {};
      const feeds = new Promise<void>((resolve) => (feedsAreWritten = resolve));
      const done = new Promise<IndexAndFeeds>((resolve, reject) => {
        if (failure) return reject(failure);
        worker.on('message', (message: ThreadMessage) => {
          if ('feedsWritten' in message) return feedsAreWritten();
          resolve(message.made);
          void worker.terminate();
        });
        worker.once('error', reject);
        worker.postMessage({ topics, recordKeys, members: content.members, contentTypes: content.contentTypes.list, canonicalOf: content.tags.canonicalOf, feeds: feedSettings, previous, outDir, ...(words ? { words } : {}) } satisfies WorkData);
      });
      // A thread that fails before the feeds are written fails the build through `done`: this only stops waiting.
      return { feedsWritten: Promise.race([feeds, done.then(() => undefined, () => undefined)]), done };
    },
  };
}

/**
 * `recordKeys`: each topic's record key, by position ('' where the reading gave none). `words`:
 * the word memory, which the postings of topics with unchanged records are copied from (./word-memory.ts).
 */
type WorkData = IndexedContent & { recordKeys: string[]; feeds: FeedSettings; previous: PreviousFiles; outDir: string; words?: WordMemoryFile };

/** Writes the feeds that changed, each as it is made; what is kept of them is their list, not their XML. */
function writeFeeds(data: IndexedContent & { feeds: FeedSettings }, write: (path: string, text: string) => void, keep: KeepFile, digestOf: (topic: Topic) => string): IndexAndFeeds {
  const { feeds: files, intersections } = tagFeedFiles(data.topics, { ...data.feeds, canonicalOf: data.canonicalOf, write }, keep, digestOf);
  return { files: files.map(({ file, key, written }) => ({ file, key, written: written ?? false })), intersections };
}

function work(data: WorkData, feedsWritten: () => void): IndexAndFeeds {
  const folder = writer(data.outDir);
  const { from, files, inPlace } = data.previous;
  const previous = new Map(files.map(([file, key, size, mtimeMs]) => [file, { key, size, mtimeMs }]));
  // A file is taken from the previous output when its key is the same and it is still as that build left it.
  const keep: KeepFile = (file, key) => {
    const earlier = previous.get(file);
    if (earlier?.key !== key || !sameFile(join(from, file), earlier.size, earlier.mtimeMs)) return false;
    if (inPlace) return true;
    try {
      folder.carry(file, from);
      return true;
    } catch {
      return false; // gone since the build looked: made again
    }
  };
  // The feeds and the per-tag index files are keyed by what they are made from, each topic by its
  // digest: its record's key where the build's reading made one (most topics, digested no more).
  const recordKeys = new Map(data.recordKeys.flatMap((key, i) => (key ? [[data.topics[i]!, key] as const] : [])));
  const digestOf = topicDigests(recordKeys);
  const made = writeFeeds(data, folder.write, keep, digestOf);
  feedsWritten();
  // Each file is written as it is made and let go: a big site's index is never held whole. A
  // per-tag file comes with its key, and one the previous output has is not made at all.
  const take = (path: string, key: string) => {
    const file = `${INDEX_FOLDER}/${path}`;
    if (!keep(file, key)) return false;
    made.files.push({ file, key, written: false });
    return true;
  };
  emitSearchIndexFiles(data, (path, json, inputKey) => {
    const file = `${INDEX_FOLDER}/${path}`;
    const key = inputKey ?? sha1(json);
    if (path === WORDS_FILE) made.words = json;
    const written = inputKey !== undefined || !keep(file, key);
    if (written) folder.write(file, json);
    made.files.push({ file, key, written });
  }, { key: tagFileKeys(data.contentTypes, digestOf), take }, data.words && rememberingPostings(data.words, (topic) => recordKeys.get(topic)));
  return made;
}

/** Reads the topics' postings, copying those of unchanged records from the word memory, and remembers them for the next build. */
function rememberingPostings(memory: WordMemoryFile, keyOf: (topic: Topic) => string | undefined): (topics: readonly Topic[]) => Iterable<TermPostings> {
  return (topics) => {
    const read = readPostings(topics, rememberedWords(memory, keyOf));
    rememberWords(memory, read, topics.map((topic) => keyOf(topic) ?? ''));
    return termPostings(read);
  };
}

if (!isMainThread && parentPort && (workerData as { indexAndFeeds?: boolean })?.indexAndFeeds) {
  const port = parentPort;
  port.once('message', (data: WorkData) => {
    const say = (message: ThreadMessage) => port.postMessage(message);
    say({ made: work(data, () => say({ feedsWritten: true })) });
  });
}
