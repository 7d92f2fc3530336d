/**
 * The feeds a build writes (writeFeeds), and what it keeps of them for the next.
 *
 * A rebuild's feeds after edits that leave every topic with the tags it had: a title, a post, a
 * date. The topics then carry the same tags in the same order as the
 * last build's (its tags digest), so each tag and each pair of tags is carried by as many topics
 * as then, and the same pairs get a feed. A tag's feed can then only differ when a topic carrying
 * it now has another record: had one of its topics left it, another would have come (a changed
 * topic). So only the feeds of the tags and pairs of changed topics are keyed and made; every
 * other feed is the previous output's, by the key it had there, without finding its topics
 * (after one edit at 10,000 topics, 21 of some 2,700 feeds).
 *
 * The changed topics are those whose record key the last build's topics did not have. Their keys
 * come from the word memory (./word-memory.ts), written by the index thread: the feeds' memory
 * notes a digest of the keys of the build that made it, and the two are used together only when
 * that digest matches (a build stopped between writing the one and the other leaves them apart).
 */
import { digest as sha1 } from '../content/digest.ts';
import { carriedTagsAndPairs, pairKey, type IntersectionPlan } from '../model/intersections.ts';
import { feedPath, intersectionFeedPath } from '../model/urls.ts';
import { feedFile, synonymsByTag, tagFeedFiles, type FeedFile, type FeedOptions } from './tag-files.ts';
import type { Topic } from '../content/topics.ts';
import type { ThreadFiles } from './thread-files.ts';
import type { FeedSettings, IndexAndFeeds, PreviousFiles } from './index-and-feeds.ts';

/** A digest of a build's topics' record keys, whatever their order ('' for a topic read without one). */
export function keysDigest(keys: readonly string[]): string {
  return sha1([...keys].sort().join('\n'));
}

/** What the feeds are made from, besides the topics: the previous build's feeds and its topics' keys. */
export interface EarlierFeeds {
  /** The previous build's feed files, in the order it made them. */
  files: readonly string[];
  /** Its pairs of tags: those of these topics, which carry the same tags. */
  plan: IntersectionPlan;
  /** The record keys of its topics. */
  keys: readonly string[];
}

/**
 * The feeds of `topics` as tagFeedFiles makes them with `options` (the same files and keys, in its
 * order), each made only for a tag or pair of a topic whose key (`keyOf`) is not among `earlier`'s,
 * with those tags (the changed topics'); undefined, before any feed is made, when a feed to keep is
 * not as the previous build left it. `topics` must carry the same tags in the same order as the
 * previous build's, under the same options.
 */
export function changedFeeds(topics: readonly Topic[], keyOf: (topic: Topic) => string | undefined, earlier: EarlierFeeds, options: FeedOptions, files: Pick<ThreadFiles, 'keyOf' | 'keep'>, digestOf: (topic: Topic) => string): { feeds: FeedFile[]; tags: ReadonlySet<string> } | undefined {
  const before = new Set(earlier.keys);
  const changed = topics.filter((topic) => {
    const key = keyOf(topic);
    return key === undefined || key === '' || !before.has(key);
  });
  const { tags, pairs } = carriedTagsAndPairs(changed);
  const built = earlier.plan.built.filter(({ pair }) => pairs.has(pairKey(...pair)));
  // The feeds of the tags and pairs of no changed topic are the previous output's, as it left them.
  const synonymsOf = synonymsByTag(options.canonicalOf);
  const toMake = new Set([...[...tags].flatMap((tag) => [tag, ...(synonymsOf.get(tag) ?? [])].map((shown) => feedFile(feedPath(shown)))), ...built.map(({ pair }) => feedFile(intersectionFeedPath(...pair)))]);
  const kept = new Map<string, string>();
  for (const file of earlier.files) {
    if (toMake.has(file)) continue;
    const key = files.keyOf(file);
    if (key === undefined || !files.keep(file, key)) return undefined;
    kept.set(file, key);
  }
  // Every topic carrying a changed tag (and so every topic of a changed pair): what their feeds are made from.
  const tagged = topics.filter((topic) => topic.tags.some((tag) => tags.has(tag)));
  const made = new Map(tagFeedFiles(tagged, { ...options, plan: { built, leftOut: [] }, only: tags }, files.keep, digestOf).feeds.map((feed) => [feed.file, feed]));
  return { feeds: earlier.files.map((file) => made.get(file) ?? { file, key: kept.get(file)! }), tags };
}

/** What the feeds are written from. */
export interface FeedsData {
  topics: Topic[];
  canonicalOf?: ReadonlyMap<string, string>;
  feeds: FeedSettings;
  previous: PreviousFiles;
  /** ReadDigests' (./index-and-feeds.ts), when the build's reading gave them. */
  listings?: string;
  tags?: string;
  /** Each topic's record key, by position ('' where the reading gave none). */
  recordKeys?: readonly string[];
  /** The site's content types, which each tag's own index file shows. */
  contentTypes?: unknown;
}

/**
 * What the feeds' entry among the remembered routes holds besides their files: the intersections
 * line; the plan, with a digest of what it was made from (the topics' tags and the option); and
 * digests of the feeds' settings and of the topics' record keys (./changed-feeds.ts).
 */
interface KeptFeeds {
  intersections: string;
  tags?: string;
  plan?: IntersectionPlan;
  settings?: string;
  keys?: string;
}

/**
 * Writes the feeds that changed, each as it is made; what is kept of them is their list, not their
 * XML. Feeds show the topics without their posts: when those and the feeds' settings are as the
 * previous build had them (`data.listings`), and all its feeds are still as it left them, they are
 * all kept by their previous keys without being keyed again. Which pairs of tags get a feed is
 * taken from the previous build while the topics carry the same tags (`data.tags`): after a title
 * edit or a bump, the pairs' counts are not made again, and only the feeds of the changed topics'
 * tags and pairs are (changedFeeds), given `previousKeys`, the record keys of the previous build's
 * topics (the word memory's). Then it also says which tags those are (`changedTags`): no other
 * tag's own index file can have changed either, as the content types are the same too.
 */
export function writeFeeds(data: FeedsData, files: Pick<ThreadFiles, 'keep' | 'keepGroup' | 'write' | 'keyOf'>, digestOf: (topic: Topic) => string, previousKeys?: readonly string[]): IndexAndFeeds & { changedTags?: ReadonlySet<string> } {
  const inputs = data.listings && sha1(JSON.stringify([data.listings, data.feeds, [...(data.canonicalOf ?? [])]]));
  const earlier = data.previous.feeds;
  const value = earlier?.value as Partial<KeptFeeds> | undefined;
  const keys = data.recordKeys && data.recordKeys.length === data.topics.length ? data.recordKeys : undefined;
  const kept = typeof value?.intersections === 'string' ? files.keepGroup(earlier!, inputs) : undefined;
  // Kept whole (after a post edit, say): the same feeds are those of this build's topics' keys, which the word memory now holds.
  if (kept) return { files: kept, intersections: value!.intersections!, feeds: { ...earlier!, value: { ...value, ...(keys ? { keys: keysDigest(keys) } : {}) } } };
  // The plan is made from the topics' tags and the `intersections` option.
  const plannedFrom = data.tags && sha1(JSON.stringify([data.tags, data.feeds.intersections]));
  const plan = plannedFrom !== undefined && value?.tags === plannedFrom ? value.plan : undefined;
  const settings = sha1(JSON.stringify([data.feeds, [...(data.canonicalOf ?? [])], data.contentTypes]));
  const options: FeedOptions = { ...data.feeds, canonicalOf: data.canonicalOf, write: files.write };
  const keyAt = new Map(data.topics.map((topic, i) => [topic, keys?.[i]]));
  const changed = plan && earlier && keys && previousKeys && value?.settings === settings && value.keys === keysDigest(previousKeys) ? changedFeeds(data.topics, (topic) => keyAt.get(topic), { files: earlier.files, plan, keys: previousKeys }, options, files, digestOf) : undefined;
  const made = changed ? { feeds: changed.feeds, intersections: value!.intersections!, plan: plan! } : tagFeedFiles(data.topics, { ...options, ...(plan ? { plan } : {}) }, files.keep, digestOf);
  const { feeds, intersections } = made;
  const remembered: KeptFeeds = { intersections, settings, ...(plannedFrom !== undefined ? { tags: plannedFrom, plan: made.plan } : {}), ...(keys ? { keys: keysDigest(keys) } : {}) };
  return {
    files: feeds.map(({ file, key, written }) => ({ file, key, written: written ?? false })),
    intersections,
    ...(inputs ? { feeds: { inputs, files: feeds.map(({ file }) => file), value: remembered } } : {}),
    ...(changed ? { changedTags: changed.tags } : {}),
  };
}
