/**
 * RSS 2.0 feeds: one for the whole site (/rss.xml), one per tag (/tags/<tag>/rss.xml), in the
 * manner of Hugo's feed per taxonomy term, and one per intersection page. This module decides what
 * goes in, and writes the XML itself (rssXml): the document @astrojs/rss writes, element for
 * element, without its cost. A site has thousands of feeds, and @astrojs/rss validated each with
 * zod and parsed its raw XML parts again: 1.3 ms a feed, 3.9 s of the 8.9 s the index thread
 * worked at 10,000 topics. It also read an author back as XML, so `007` became 7.
 */
import type { Topic } from '../content/topics.ts';
import { absoluteUrl, feedPath, intersectionFeedPath, intersectionPath, tagPath, topicUrl } from '../model/urls.ts';
import { escapeXml } from './xml.ts';
import { excerptOf } from '../model/listing.ts';

/** Items a feed carries: the newest topics only, as feed readers poll the whole file each time. */
export const FEED_ITEMS = 50;

/** A feed's order: the newest topics first (by `created`: a feed announces new topics), ties by slug A→Z. */
export function compareFeed(a: Topic, b: Topic): number {
  return b.createdMs - a.createdMs || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);
}

/** The topics a feed carries: in feed order (compareFeed), at most `limit`. */
export function feedTopics(topics: readonly Topic[], limit = FEED_ITEMS): Topic[] {
  return [...topics].sort(compareFeed).slice(0, limit);
}

/** A topic as a feed item: its `<item>` element, made once however many feeds carry it. */
export type FeedItem = string;

/** A topic as a feed item: its title, absolute link, creation date, excerpt, tags, and its author as `dc:creator` (RSS's own `author` must be an e-mail address). */
export function feedItem(topic: Topic, siteRoot: string): FeedItem {
  const link = escapeXml(topicUrl(siteRoot, topic.slug));
  return [
    '<item>',
    optional('title', topic.title),
    `<link>${link}</link><guid isPermaLink="true">${link}</guid>`,
    optional('description', excerptOf(topic)),
    element('pubDate', new Date(topic.createdMs).toUTCString()),
    element('dc:creator', topic.author),
    ...topic.tags.map((tag) => element('category', tag)),
    '</item>',
  ].join('');
}

export interface FeedOptions {
  /** The site's title (the `title` option). */
  siteTitle: string;
  /** The site's absolute root URL (Astro `site` + `base`). */
  siteRoot: string;
  /** The feed of one tag; the whole site's when undefined (and no `pair`). */
  tag?: string;
  /** The feed of the topics carrying both tags (an intersection page's). */
  pair?: readonly [string, string];
}

/** A feed's channel without its items: title, description, link (absolute) and self link. */
export interface FeedHead {
  title: string;
  description: string;
  link: string;
  self: string;
}

/** The channel of a feed: title, description, link and self link. */
export function feedHead({ siteTitle, siteRoot, tag, pair }: FeedOptions): FeedHead {
  const which = pair ? `tagged both '${pair[0]}' and '${pair[1]}'` : tag === undefined ? undefined : `tagged '${tag}'`;
  return {
    title: which === undefined ? siteTitle : `${siteTitle}: topics ${which}`,
    description: which === undefined ? `The newest topics of ${siteTitle}.` : `The newest topics ${which} on ${siteTitle}.`,
    link: pair ? absoluteUrl(siteRoot, intersectionPath(...pair)) : tag === undefined ? siteRoot : absoluteUrl(siteRoot, tagPath(tag)),
    self: absoluteUrl(siteRoot, pair ? intersectionFeedPath(...pair) : feedPath(tag)),
  };
}

/** The RSS 2.0 document of a feed: its channel, then its items (feedItem) as they are. */
export function rssXml(head: FeedHead, items: readonly FeedItem[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>',
    element('title', head.title),
    element('description', head.description),
    element('link', head.link),
    '<language>en</language>',
    `<atom:link href="${escapeXml(head.self)}" rel="self" type="application/rss+xml"/>`,
    ...items,
    '</channel></rss>',
  ].join('');
}

/** The RSS 2.0 document of one feed: the newest of `topics`. */
export function feedXml(topics: readonly Topic[], options: FeedOptions): string {
  return rssXml(feedHead(options), feedTopics(topics).map((topic) => feedItem(topic, options.siteRoot)));
}

/** An element holding `text`, escaped; `<name/>` when it has none. */
function element(name: string, text: string): string {
  const escaped = escapeXml(text);
  return escaped === '' ? `<${name}/>` : `<${name}>${escaped}</${name}>`;
}

/** An element holding `text`, escaped; left out when there is none (an item's title and description, as RSS allows). */
function optional(name: string, text: string): string {
  const escaped = escapeXml(text);
  return escaped === '' ? '' : `<${name}>${escaped}</${name}>`;
}
