/**
 * The index thread's feeds (./index-and-feeds.ts): every tag's, synonym's and intersection's feed
 * (./tag-files.ts), written as each is made, or kept from the previous output: all of them, or
 * each group of them, while what they are made from is the same.
 */
import { digest as sha1 } from '../content/digest.ts';
import { tagFeedFiles, type FeedGroups } from './tag-files.ts';
import type { IndexAndFeeds, WorkData } from './index-and-feeds.ts';
import type { ThreadFiles } from './thread-files.ts';
import type { RouteFiles } from './store.ts';
import type { Topic } from '../content/topics.ts';

/** The feeds' entry among a build's remembered routes (PageReuse.routes); each group's is this and its name. */
export const FEED_FILES = '(feeds)';

/**
 * Writes the feeds that changed, each as it is made; what is kept of them is their list, not their
 * XML. Feeds show the topics without their posts: when those and the feeds' settings are as the
 * previous build had them (`data.listings`), and all its feeds are still as it left them, they are
 * all kept by their previous keys without being keyed again; otherwise so is each group of them
 * (a tag's, a pair's) made from the same topics, tags and settings.
 */
export function writeFeeds(data: WorkData, files: ThreadFiles, digestOf: (topic: Topic) => string): IndexAndFeeds {
  const inputs = data.listings && sha1(JSON.stringify([data.listings, data.feeds, [...(data.canonicalOf ?? [])]]));
  const earlier = data.previous.feeds;
  const kept = typeof earlier?.value === 'string' ? files.keepGroup(earlier, inputs) : undefined;
  if (kept) return { files: kept, intersections: earlier!.value as string, feeds: earlier!, feedGroups: data.previous.feedGroups ?? [] };
  const listingKeys = data.listingKeys && new Map(data.topics.map((topic, i) => [topic, data.listingKeys![i]!]));
  const previousGroups = new Map(data.previous.feedGroups);
  const feedGroups: Array<[string, RouteFiles]> = [];
  const settings = JSON.stringify(data.feeds);
  const groups: FeedGroups | undefined = listingKeys && {
    inputsOf: (what, topics) => sha1(`${settings}\n${JSON.stringify(what)}\n${topics.map((topic) => listingKeys.get(topic)).join('\n')}`),
    keep(name, groupInputs) {
      const group = previousGroups.get(`${FEED_FILES} ${name}`);
      const taken = files.keepGroup(group, groupInputs);
      if (taken) feedGroups.push([`${FEED_FILES} ${name}`, group!]);
      return taken?.map(({ file, key }) => ({ file, key }));
    },
    made: (name, groupInputs, made) => void feedGroups.push([`${FEED_FILES} ${name}`, { inputs: groupInputs, files: made }]),
  };
  const { feeds, intersections } = tagFeedFiles(data.topics, { ...data.feeds, canonicalOf: data.canonicalOf, write: files.write }, files.keep, digestOf, groups);
  return {
    files: feeds.map(({ file, key, written }) => ({ file, key, written: written ?? false })),
    intersections,
    ...(inputs ? { feeds: { inputs, files: feeds.map(({ file }) => file), value: intersections }, feedGroups } : {}),
  };
}
