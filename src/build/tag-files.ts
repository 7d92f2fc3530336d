/**
 * The files a build makes for each tag, with the keys they are reused by in a rebuild: its feed
 * (and each synonym's and intersection page's), and its own search-index file. A key is a digest
 * of what the file is made from, each topic standing for one digest, so a file whose key is the
 * previous output's is taken from there without being made (./index-and-feeds.ts).
 */
import { digest as sha1 } from '../content/digest.ts';
import { indexedTypes, type IndexReuse } from '../search/index-build.ts';
import { topicsByTag } from '../model/listing.ts';
import { compareFeed, FEED_ITEMS, feedHead, feedItem, rssXml, type FeedHead, type FeedItem } from '../outputs/feeds.ts';
import { feedPath, intersectionFeedPath } from '../model/urls.ts';
import { intersectionReport, intersectionTopics, pairCounts, pairKey, planIntersections, type IntersectionPlan } from '../model/intersections.ts';
import type { SiteContent } from '../content/load.ts';
import type { Topic } from '../content/topics.ts';

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
      const { slug, title, excerptText, excerptCut, author, createdMs, updatedMs, replies, views, contentType, tags } = topic;
      digests.set(topic, (digest = sha1(JSON.stringify([slug, title, excerptText, excerptCut, author, createdMs, updatedMs, replies, views, contentType, tags]))));
    }
    return digest;
  };
}

/**
 * The key of a tag's own search-index file (IndexReuse): the content types, the tag and its
 * topics' digests. The file holds its topics in listing order, not their ordinals or numbers: a
 * topic bumped to the top of the site moves every ordinal, yet only its own tags' files change.
 */
export function tagFileKeys(contentTypes: SiteContent['contentTypes']['list'], digestOf: (topic: Topic) => string): IndexReuse['key'] {
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

/** A feed's file in the site, from its address: percent-encoded (`/tags/%E6%97%A5…/rss.xml`), the file is not. */
export const feedFile = (path: string): string => decodeURI(path).slice(1);

/** Each canonical tag's synonyms (tags.json), whose old feed addresses carry its feed. */
export function synonymsByTag(canonicalOf: ReadonlyMap<string, string> = new Map()): Map<string, string[]> {
  const synonymsOf = new Map<string, string[]>();
  for (const [synonym, canonical] of canonicalOf) synonymsOf.set(canonical, [...(synonymsOf.get(canonical) ?? []), synonym]);
  return synonymsOf;
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
  /** Only the feeds of these tags (and their synonyms'), and of the pairs planned. */
  only?: ReadonlySet<string>;
  /** The pairs planned from the same topics' tags with the same option (as the previous build made them): not planned again. */
  plan?: IntersectionPlan;
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
 * pages the build makes, and gives their plan.
 */
export function tagFeedFiles(topics: readonly Topic[], options: FeedOptions, keep?: KeepFile, digestOf = topicDigests()): { feeds: FeedFile[]; intersections: string; plan: IntersectionPlan } {
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
    const file = feedFile(path);
    const key = sha1(JSON.stringify({ ...head, items: newest.map(digestOf) }));
    if (keep?.(file, key)) return void feeds.push({ file, key });
    const xml = rssXml(head, newest.map(itemOf));
    if (!options.write) return void feeds.push({ file, key, xml });
    options.write(file, xml);
    feeds.push({ file, key, written: true });
  };
  // Every list in feed order from one sort (topicsByTag's own sort finds them in order): each feed is
  // the first FEED_ITEMS of its list.
  const inFeedOrder = [...topics].sort(compareFeed);
  const byTag = topicsByTag(inFeedOrder, compareFeed);
  const newestOf = (tagged: readonly Topic[]) => tagged.slice(0, FEED_ITEMS);
  const synonymsOf = synonymsByTag(options.canonicalOf);
  for (const [tag, tagged] of byTag) {
    if (options.only && !options.only.has(tag)) continue;
    const head = feedHead({ siteTitle, siteRoot, tag });
    const newest = newestOf(tagged);
    add(feedPath(tag), head, newest);
    for (const synonym of synonymsOf.get(tag) ?? []) add(feedPath(synonym), head, newest);
  }
  // Which pairs are built, and in what order, does not depend on the topics' order (comparePairs).
  const plan = options.plan ?? planIntersections(pairCounts(inFeedOrder), options.intersections ?? { minTopics: 5, maxPages: 0 });
  const topicsOf = intersectionTopics(inFeedOrder, plan.built);
  for (const { pair } of plan.built) add(intersectionFeedPath(...pair), feedHead({ siteTitle, siteRoot, pair }), newestOf(topicsOf.get(pairKey(...pair))!));
  return { feeds, intersections: intersectionReport(plan), plan };
}
