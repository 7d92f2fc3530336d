/**
 * The search index and the tag feeds, built in a worker thread while Astro renders the pages
 * (./pipeline.ts): work that needs nothing Astro makes, off the thread that renders.
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { buildSearchIndex } from '../search/index-build.ts';
import { createHash } from 'node:crypto';
import { getRssString } from '@astrojs/rss';
import { sortForListing, topicsByTag } from '../model/listing.ts';
import { feedChannel } from '../outputs/feeds.ts';
import { feedPath } from '../model/urls.ts';
import { memberRecords } from '../outputs/member-index.ts';
import type { SiteContent } from '../content/load.ts';
import type { Topic } from '../content/topics.ts';

/** Every file under /search-index/: the topic index and members.json. `topics` in any order. */
export function searchIndexFiles(content: Pick<SiteContent, 'topics' | 'members'> & { contentTypes: SiteContent['contentTypes']['list'] }): Map<string, string> {
  const topics = sortForListing(content.topics);
  const files = buildSearchIndex(topics, content.contentTypes);
  files.set('members.json', JSON.stringify(memberRecords(content.members, topics)));
  return files;
}

/** A tag's feed as written into the site: its file, the key it is reused by, its XML (none when `unchanged`). */
export interface FeedFile {
  file: string;
  key: string;
  xml?: string;
}

/**
 * Every tag's feed (`topics` in any order); the key is a digest of what the feed is written from.
 * A feed whose key is the one in `previous` (the last build's) is not written again: no XML.
 */
export async function tagFeedFiles(topics: readonly Topic[], options: { siteTitle: string; siteRoot: string }, previous?: ReadonlyMap<string, string>): Promise<FeedFile[]> {
  const feeds: FeedFile[] = [];
  for (const [tag, tagged] of topicsByTag(topics)) {
    const channel = feedChannel(tagged, { ...options, tag });
    // The feed's address is percent-encoded (`/tags/%E6%97%A5…/rss.xml`); its file is not.
    const file = decodeURI(feedPath(tag)).slice(1);
    const key = createHash('sha1').update(JSON.stringify(channel)).digest('base64url');
    feeds.push(previous?.get(file) === key ? { file, key } : { file, key, xml: await getRssString(channel) });
  }
  return feeds;
}

/** What the worker makes: the search index files (path under /search-index/ → JSON) and the tag feeds. */
export interface IndexAndFeeds {
  index: Map<string, string>;
  feeds: FeedFile[];
}

export interface FeedSettings {
  siteTitle: string;
  /** The site's absolute root URL (`site` + `base`). */
  siteRoot: string;
  /** The last build's feed keys: a feed with the same key is not written again. */
  previous: ReadonlyMap<string, string>;
}

/**
 * Starts building the index and the tag feeds in a worker thread; the topics are sent without
 * their HTML, which neither uses.
 */
export function indexAndFeedsInWorker(content: SiteContent, feeds: FeedSettings): Promise<IndexAndFeeds> {
  const topics = content.topics.map(({ html: _html, ...topic }) => ({ ...topic, html: '' }) satisfies Topic);
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { topics, members: content.members, contentTypes: content.contentTypes.list, feeds } });
    worker.once('message', (files: IndexAndFeeds) => {
      resolve(files);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

async function work(data: Parameters<typeof searchIndexFiles>[0] & { feeds: FeedSettings }): Promise<IndexAndFeeds> {
  const { siteTitle, siteRoot, previous } = data.feeds;
  return { index: searchIndexFiles(data), feeds: await tagFeedFiles(data.topics, { siteTitle, siteRoot }, previous) };
}

if (!isMainThread && parentPort && (workerData as { topics?: unknown })?.topics) {
  void work(workerData as Parameters<typeof work>[0]).then((files) => parentPort!.postMessage(files));
}
