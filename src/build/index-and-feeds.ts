/**
 * The search index and the tag feeds, built and written into the new site by a worker thread
 * while Astro renders the pages (./pipeline.ts): work that needs nothing Astro makes, off the
 * thread that renders. In a rebuild, a file the same as the previous output's (same key) is
 * hard-linked from it instead of written. The feeds and the per-tag index files are keyed by what
 * they are made from (./tag-files.ts), so the ones kept are not even made, and the words of topics
 * whose records are unchanged are copied from the word memory (./word-memory.ts), read beside the content.
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { emitSearchIndex, type IndexReuse } from '../search/index-build.ts';
import { wordPostings, type SortedWords } from '../search/sorted-words.ts';
import { readWordMemory, wordsAtWork, type RememberedTable, type WordMemoryFile } from './word-memory.ts';
import { WORDS_FILE, type CoreFile } from '../search/index-format.ts';
import { digest as sha1 } from '../content/digest.ts';
import { sortForListing } from '../model/listing.ts';
import { tagFileKeys, topicDigests } from './tag-files.ts';
import { writeFeeds } from './feed-writing.ts';
import { threadFiles, type TakenFile, type ThreadFiles } from './thread-files.ts';
import { authorCounts, memberRecords } from '../outputs/member-index.ts';
import { raiseFlag, releaseFreedHeap, sharedFlag, THREAD_LIMITS } from './threads.ts';
import type { RememberedFile } from './cache.ts';
import type { RouteFiles } from './store.ts';
import type { SiteContent } from '../content/load.ts';
import type { RenderedPost, Topic } from '../content/topics.ts';
import { sentTexts as textsOf } from './chunk-posts.ts';
import { keepWhatWordsRead, textsToSend, topicsToSend, withSentTexts, workData, type ReadDigests, type SentTexts, type WorkData } from './index-thread-data.ts';
import { shareNames } from '../content/shared-names.ts';

export type IndexedContent = Pick<SiteContent, 'topics' | 'members'> & { contentTypes: SiteContent['contentTypes']['list']; canonicalOf?: ReadonlyMap<string, string> };

/**
 * Hands every file under /search-index/ to `emit` as it is made: the topic index and members.json
 * (`topics` in any order). With `reuse`, `postings` and `listing`, see emitSearchIndex (with
 * `listing`, members.json is not made either).
 */
function emitSearchIndexFiles(content: IndexedContent, emit: (path: string, text: string, key?: string) => void, reuse?: IndexReuse, { postings, listing, listingMade, wordsMade }: { postings?: (topics: readonly Topic[]) => SortedWords; listing?: CoreFile; listingMade?: () => void; wordsMade?: () => void } = {}): void {
  const topics = sortForListing(content.topics);
  emitSearchIndex(topics, content.contentTypes, content.canonicalOf ?? new Map(), emit, reuse, { ...(postings ? { postings } : {}), ...(listing ? { listing } : {}), ...(listingMade ? { listingMade } : {}), ...(wordsMade ? { wordsMade } : {}) });
  if (!listing) emit('members.json', JSON.stringify(memberRecords(content.members, authorCounts(topics))));
}

/** Every file under /search-index/: the topic index and members.json. `topics` in any order. */
export function searchIndexFiles(content: IndexedContent): Map<string, string> {
  const files = new Map<string, string>();
  emitSearchIndexFiles(content, (path, text) => files.set(path, text));
  return files;
}

/** What the worker reports once it has written the search index and the feeds. */
export interface IndexAndFeeds {
  /** Every feed and index file of the site, and whether it was written (not when linked from the previous output). */
  files: { file: string; key: string; written: boolean }[];
  /** The build's line about intersection pages: how many, and the pairs the budget left out. */
  intersections: string;
  /** The text of the index's words.json, which the search page holds too (./search-page.ts). */
  words?: string;
  /** The feeds' files and what they were made from, with the intersections line and plan as their `value` (KeptFeeds), for the next build to keep them all by. */
  feeds?: RouteFiles;
  /** The index files made from the topics without their posts, and members.json, with what they were made from. */
  listingFiles?: RouteFiles;
  /**
   * The thread's time from the content's arrival to its last file, by its own clock: the main
   * thread hears of the end only when it next looks at its messages, seconds later while it renders pages.
   */
  seconds?: number;
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
  /** In place, only those the output's check found as their build left them. */
  files: readonly RememberedFile[];
  /**
   * The output is updated in place (./in-place.ts): a file kept stays there, and is not linked into
   * the new site. The output was checked file by file under its lock, so a file is not looked at again.
   */
  inPlace: boolean;
  /** The feeds' files the previous build made, and what from (IndexAndFeeds.feeds). */
  feeds?: RouteFiles;
  /** The index files the previous build made from the topics without their posts (IndexAndFeeds.listingFiles). */
  listingFiles?: RouteFiles;
}

/** The feeds' entry among a build's remembered routes (PageReuse.routes). */
export const FEED_FILES = '(feeds)';
/** The entry of the index files made from the topics without their posts among them. */
export const LISTING_FILES = '(search index: listings)';

/** The folder of the site the search index is written into. */
export const INDEX_FOLDER = 'search-index';

/** The index thread at work: the feeds are written first, then the index, once it has the posts' texts (`texts`). */
export interface IndexAndFeedsRun {
  /** Sends the posts' texts the thread reads words from, which it makes the index with (./index-thread-data.ts textsToSend). */
  texts(remembered: ReadonlySet<string>, posts: ReadonlyMap<string, RenderedPost>): void;
  /** Ends the thread, before its texts are sent: the build stopped. */
  stop(): void;
  /** Resolves once every feed is in the new site (from then on the thread writes under INDEX_FOLDER only), or the thread failed. */
  feedsWritten: Promise<void>;
  /** Resolves once the index is written too. */
  done: Promise<IndexAndFeeds>;
}

/** The worker thread that builds the index and the tag feeds, started before there is content for it. */
export interface IndexAndFeedsThread {
  /**
   * The record keys of the topics whose words the thread has from the word memory (it reads the
   * memory while the build reads the content): their posts' text need not be sent to it.
   */
  remembered: Promise<ReadonlySet<string>>;
  /** Whether the thread has made the index and the feeds: read without waiting (./threads.ts SharedFlag). */
  finished(): boolean;
  /** Resolves once the thread has ended, and its memory is let go. */
  exited: Promise<void>;
  /**
   * Builds the index and the tag feeds of `content` and writes them into `outDir` (under
   * INDEX_FOLDER and tags/); the topics are sent now without their posts, and their texts once the
   * run is given them (IndexAndFeedsRun.texts, ./index-thread-data.ts): the thread reads a text
   * when it reads its words, and neither thread holds every post at once.
   */
  run(content: SiteContent, outDir: string, feeds: FeedSettings, previous: PreviousFiles, read?: ReadDigests): IndexAndFeedsRun;
}

/** What the thread says: which records it remembers the words of, that the feeds are written, then what it made. */
type ThreadMessage = { remembered: readonly string[] } | { feedsWritten: true } | { made: IndexAndFeeds };

/**
 * Starts the index thread: it loads its code and the word memory (`words`, ./word-memory.ts)
 * while the build reads the content, and waits for `run`. Until then it keeps no process alive (a
 * build that stops on a problem just ends).
 */
export function indexAndFeedsThread(words?: WordMemoryFile): IndexAndFeedsThread {
  const finished = sharedFlag();
  const worker = new Worker(new URL(import.meta.url), { workerData: { indexAndFeeds: true, finished: finished.buffer, ...(words ? { words } : {}) }, resourceLimits: THREAD_LIMITS });
  worker.unref();
  let failure: Error | undefined;
  worker.once('error', (error: Error) => (failure ??= error));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const remembered = new Promise<ReadonlySet<string>>((resolve) => {
    const said = (message: ThreadMessage) => {
      if (!('remembered' in message)) return;
      worker.off('message', said);
      resolve(new Set(message.remembered));
    };
    worker.on('message', said);
    // A thread that fails is reported by `run`; the text is sent whole meanwhile.
    worker.once('error', () => resolve(new Set()));
    worker.once('exit', () => resolve(new Set()));
  });
  return {
    remembered,
    finished: finished.raised,
    exited,
    run(content, outDir, feedSettings, previous, read = {}) {
      const sent = topicsToSend(content, read.keys);
      if (!failure) worker.postMessage(workData(sent, content, outDir, feedSettings, previous, read));
      // Held until the texts are sent.
      let toSend: { content: SiteContent; recordKeys: string[] } | undefined = { content, recordKeys: sent.recordKeys };
      worker.ref();
      let feedsAreWritten = () => {};
      const feeds = new Promise<void>((resolve) => (feedsAreWritten = resolve));
      const done = new Promise<IndexAndFeeds>((resolve, reject) => {
        if (failure) return reject(failure);
        worker.on('message', (message: ThreadMessage) => {
          if ('remembered' in message) return;
          if ('feedsWritten' in message) return feedsAreWritten();
          resolve(message.made);
          void worker.terminate();
        });
        worker.once('error', reject);
      });
      // A thread that fails before the feeds are written fails the build through `done`: this only stops waiting.
      return {
        feedsWritten: Promise.race([feeds, done.then(() => undefined, () => undefined)]),
        done,
        texts: (known, posts) => {
          if (toSend && !failure) worker.postMessage(textsToSend(toSend.content, toSend.recordKeys, known, posts) satisfies SentTexts);
          toSend = undefined;
        },
        stop: () => void worker.terminate(),
      };
    },
  };
}

/** The word memory: where it is kept, and the table read from it when the thread started. */
interface WordMemory {
  file: WordMemoryFile;
  table?: RememberedTable;
}

/** The index files made from the topics without their posts, and members.json (emitSearchIndex's `listing`). */
const LISTING_FILE = new RegExp(`^${INDEX_FOLDER}/(?:(?:display|display-all|tag-ordinals|tags)/|members\\.json$)`);

/**
 * The last build's core.json, with its files made from the topics without their posts all kept,
 * when those topics, the content types, the synonyms and the members are as it had them; none otherwise.
 */
function keptListing(data: WorkData, files: ThreadFiles, inputs: string | undefined): { core: CoreFile; kept: TakenFile[] } | undefined {
  const core = `${INDEX_FOLDER}/core.json`;
  const key = files.keyOf(core);
  if (inputs === undefined || data.previous.listingFiles?.inputs !== inputs || key === undefined || !files.unchanged(core, key)) return undefined;
  let text: string;
  try {
    text = readFileSync(join(data.previous.from, core), 'utf8');
  } catch {
    return undefined; // gone since the build looked: made again
  }
  const kept = files.keepGroup(data.previous.listingFiles, inputs);
  return kept && { core: JSON.parse(text) as CoreFile, kept };
}

async function work(data: WorkData, sentTexts: Promise<SentTexts>, words: WordMemory | undefined, feedsWritten: () => void): Promise<IndexAndFeeds> {
  shareNames(data.topics);
  const files = threadFiles(data.outDir, data.previous);
  // The feeds and the per-tag index files are keyed by what they are made from, each topic by its
  // digest: its record's key where the build's reading made one (most topics, digested no more).
  const recordKeys = new Map(data.recordKeys.flatMap((key, i) => (key ? [[data.topics[i]!, key] as const] : [])));
  const digestOf = topicDigests(recordKeys);
  const { changedTags, ...made } = writeFeeds(data, files, digestOf, words?.table?.keys);
  releaseFreedHeap(); // the feeds' XML and items (a third of the heap at 100,000 topics) are garbage now
  feedsWritten();
  // Each file is written as it is made and let go: a big site's index is never held whole. A
  // per-tag file comes with its key, and one the previous output has is not made at all.
  const take = (path: string, key: string) => {
    const file = `${INDEX_FOLDER}/${path}`;
    if (!files.keep(file, key)) return false;
    made.files.push({ file, key, written: false });
    return true;
  };
  // The postings shards: those the word memory says are the same as the last build's are taken
  // from the previous output (both files, or neither), the others made. Their bounds and keys are
  // remembered with the words, once the word files are made (`wordsMade`): the words are let go of
  // then. They are read after the display and tag files, from topics that hold their titles only.
  // A topic sent with its post's place reads its text from there as its words are read.
  const sent = await sentTexts;
  withSentTexts(data.topics, sent);
  const texts = textsOf(data.topics, sent.places);
  const memory = words && wordsAtWork(words, (topic) => recordKeys.get(topic), texts.textOf);
  const shards = { bounds: [] as string[], keys: [] as Array<[string, string]> };
  const shard = (n: number, first: string, next: string | undefined) => {
    shards.bounds[n] = first;
    const keys = memory?.same?.(n, first, next);
    const both = [`${INDEX_FOLDER}/postings/${n}.json`, `${INDEX_FOLDER}/positions/${n}.json`];
    if (!keys || !both.every((file, i) => files.unchanged(file, keys[i]!)) || !both.every((file, i) => files.keep(file, keys[i]!))) return false;
    shards.keys[n] = [...keys];
    for (const [i, file] of both.entries()) made.files.push({ file, key: keys[i]!, written: false });
    return true;
  };
  // The files made from the topics without their posts are kept whole while those are the same.
  const inputs = data.listings && sha1(JSON.stringify([data.listings, data.contentTypes, [...(data.canonicalOf ?? [])], data.members]));
  const listing = keptListing(data, files, inputs);
  if (listing) made.files.push(...listing.kept);
  emitSearchIndexFiles(data, (path, json, inputKey) => {
    const file = `${INDEX_FOLDER}/${path}`;
    const key = inputKey ?? sha1(json);
    if (path === WORDS_FILE) made.words = json;
    const shardFile = /^(postings|positions)\/(\d+)\.json$/.exec(path);
    if (shardFile) (shards.keys[Number(shardFile[2])] ??= ['', ''])[shardFile[1] === 'postings' ? 0 : 1] = key;
    const written = inputKey !== undefined || !files.keep(file, key);
    if (written) files.write(file, json);
    made.files.push({ file, key, written });
  }, { key: tagFileKeys(data.contentTypes, digestOf), take, shard, earlier: (path) => files.keyOf(`${INDEX_FOLDER}/${path}`), ...(changedTags ? { unchanged: (tag: string) => !changedTags.has(tag) } : {}) }, { postings: memory?.postings ?? ((topics) => wordPostings(topics, texts.textOf)), listing: listing?.core, listingMade: () => { keepWhatWordsRead(data.topics); releaseFreedHeap(); }, wordsMade: () => memory?.remember(shards) });
  texts.close();
  if (inputs) made.listingFiles = listing ? data.previous.listingFiles! : { inputs, files: made.files.flatMap(({ file }) => (LISTING_FILE.test(file) ? [file] : [])) };
  return made;
}

if (!isMainThread && parentPort && (workerData as { indexAndFeeds?: boolean })?.indexAndFeeds) {
  const port = parentPort;
  const say = (message: ThreadMessage) => port.postMessage(message);
  // The word memory is read while the build reads the content; the build then sends the topics it holds without their text.
  const file = (workerData as { words?: WordMemoryFile }).words;
  const table = file && readWordMemory(file);
  const words: WordMemory | undefined = file && (table ? { file, table } : { file });
  say({ remembered: table ? table.keys.filter(Boolean) : [] });
  port.once('message', (data: WorkData) => {
    const started = performance.now();
    const texts = new Promise<SentTexts>((resolve) => port.once('message', resolve));
    void work(data, texts, words, () => say({ feedsWritten: true })).then(
      (made) => {
        // Raised first: the page thread starts on it (./page-thread.ts), while the build may not hear of the message for a while.
        raiseFlag((workerData as { finished: SharedArrayBuffer }).finished);
        say({ made: { ...made, seconds: (performance.now() - started) / 1000 } });
      },
      (error: unknown) => setImmediate(() => { throw error; }), // the thread fails, and the build with it
    );
  });
}
