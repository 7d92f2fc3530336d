/**
 * What the build sends the index thread (./index-and-feeds.ts), in two messages. The topics go
 * first, without their posts, as soon as the content is read: the thread takes them in and writes
 * the feeds while the build remembers the posts (./post-memory.ts), a tenth of a second and more
 * at 10,000 topics. The posts' texts, which only the search index's words are read from, follow
 * once they are remembered: as their places in the memory's chunk files, and only for the topics
 * whose words the thread does not remember already.
 */
import { postOf, withoutPost } from '../content/kept-posts.ts';
import type { SiteContent, TopicKeys } from '../content/load.ts';
import type { RenderedPost, Topic } from '../content/topics.ts';
import { placesToSend, postPlace, type SentPlaces } from './chunk-posts.ts';
import type { FeedSettings, IndexedContent, PreviousFiles } from './index-and-feeds.ts';

/**
 * What the build's reading of the content digested, for the thread to know what is as the previous
 * build had it: each topic's record key (`keys`), the topics without their posts (`listings`, see
 * src/content/load.ts), and which tags the topics carry (`tags`, ./cache.ts tagsKey).
 */
export interface ReadDigests {
  keys?: TopicKeys;
  listings?: string;
  tags?: string;
}

/**
 * The first message: the topics without their posts and without their source files (`file` is
 * '': nothing the thread makes names one, and 100,000 paths were 8.6 MB of its heap), and each
 * one's record key by position ('' where the reading gave none).
 */
export interface SentTopics {
  topics: Topic[];
  recordKeys: string[];
}

/** The second message: the texts the thread reads words from, by the topics' positions. */
export interface SentTexts {
  /** Posts in a chunk file of the topic memory, by their places there. */
  places: SentPlaces;
  /** Posts in none (a chunk that could not be written), by their text. */
  texts: Array<[position: number, text: string]>;
}

/** The topics of `content` as the thread takes them (SentTopics); a Map keyed by records does not cross to a thread. */
export function topicsToSend(content: SiteContent, keys: TopicKeys | undefined): SentTopics {
  return {
    topics: content.topics.map((topic) => ({ ...withoutPost(topic), file: '' })),
    recordKeys: keys ? content.topics.map((topic) => keys.get(topic) ?? '') : [],
  };
}

/** What IndexAndFeedsThread.run sends the thread first (see there). */
export function workData({ topics, recordKeys }: SentTopics, content: SiteContent, outDir: string, feeds: FeedSettings, previous: PreviousFiles, { listings, tags }: ReadDigests): WorkData {
  return { topics, recordKeys, members: content.members, contentTypes: content.contentTypes.list, canonicalOf: content.tags.canonicalOf, feeds, previous, outDir, ...(listings ? { listings } : {}), ...(tags ? { tags } : {}) };
}

/** The topics without their posts (SentTopics); `listings` and `tags`: ReadDigests', when the reading gave them. */
export type WorkData = IndexedContent & SentTopics & { feeds: FeedSettings; previous: PreviousFiles; outDir: string; listings?: string; tags?: string };

/**
 * The texts to send for the topics of `content` (in the order topicsToSend sent them, with their
 * `recordKeys`) whose record key the thread does not `know` the words of: a post that `posts` (by
 * file) has in a chunk file goes as its place there, which the thread reads the text from as it
 * reads its words.
 */
export function textsToSend(content: SiteContent, recordKeys: readonly string[], known: ReadonlySet<string>, posts: ReadonlyMap<string, RenderedPost>): SentTexts {
  const places = placesToSend();
  const texts: SentTexts['texts'] = [];
  content.topics.forEach((topic, i) => {
    if (known.has(recordKeys[i] ?? '')) return;
    const place = postPlace(posts.get(topic.file));
    // The text of a post in no chunk file: the record's, or the one the build kept out of it (SiteContent.keptPosts).
    if (place) places.note(i, place);
    else texts.push([i, postOf(content, topic).text]);
  });
  return { places: places.sent, texts };
}

/** Puts the texts sent by their text into the thread's records (sent without their posts, so each is a record of its own). */
export function withSentTexts(topics: Topic[], { texts }: SentTexts): void {
  for (const [position, text] of texts) topics[position] = { ...topics[position]!, text };
}

const NO_TAGS: string[] = [];

/**
 * Lets go of what the thread's topics hold for the feeds and the listing files, once those are
 * made: the words are read from the titles (and the texts), and members.json counts the authors.
 * At 1,000,000 topics this, with the thread's topics sent without `file` and MADE_FOLDERS, took the
 * build's peak RSS from 6.72 to 6.62 GB (one build each; the words are read beside the topic pages).
 */
export function keepWhatWordsRead(topics: Topic[]): void {
  for (const topic of topics) {
    topic.excerptText = '';
    topic.slug = '';
    topic.tags = NO_TAGS;
  }
}
