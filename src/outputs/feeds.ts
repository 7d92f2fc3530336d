/**
 * RSS 2.0 feeds: one for the whole site (/rss.xml), one per tag (/tags/<tag>/rss.xml), in the
 * manner of Hugo's feed per taxonomy term, and one per intersection page. The XML itself is written by @astrojs/rss, which escapes
 * every text it is given; this module decides what goes in.
 */
import { getRssString } from '@astrojs/rss';
import type { Topic } from '../content/topics.ts';
import { absoluteUrl, feedPath, intersectionFeedPath, intersectionPath, tagPath, topicUrl } from '../model/urls.ts';
import { escapeXml, xmlText } from './xml.ts';

/** Items a feed carries: the newest topics only, as feed readers poll the whole file each time. */
export const FEED_ITEMS = 50;

/** The newest topics first (by `created`: a feed announces new topics), ties by slug A→Z, at most `limit`. */
export function feedTopics(topics: readonly Topic[], limit = FEED_ITEMS): Topic[] {
  return [...topics]
    .sort((a, b) => b.createdMs - a.createdMs || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0))
    .slice(0, limit);
}

export interface FeedItem {
  title: string;
  link: string;
  pubDate: Date;
  description: string;
  categories: string[];
  /** Raw XML for the item: the author as `dc:creator` (RSS's own `author` must be an e-mail address). */
  customData: string;
}

/** A topic as a feed item: its title, absolute link, creation date, excerpt, tags and author. */
export function feedItem(topic: Topic, siteRoot: string): FeedItem {
  return {
    title: xmlText(topic.title),
    link: topicUrl(siteRoot, topic.slug),
    pubDate: new Date(topic.createdMs),
    description: xmlText(topic.excerpt),
    categories: topic.tags.map(xmlText),
    customData: `<dc:creator>${escapeXml(topic.author)}</dc:creator>`,
  };
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

/** A feed's channel without its items: title, description, link and self link. */
export function feedHead({ siteTitle, siteRoot, tag, pair }: FeedOptions) {
  const self = absoluteUrl(siteRoot, pair ? intersectionFeedPath(...pair) : feedPath(tag));
  const which = pair ? `tagged both '${pair[0]}' and '${pair[1]}'` : tag === undefined ? undefined : `tagged '${tag}'`;
  return {
    title: xmlText(which === undefined ? siteTitle : `${siteTitle}: topics ${which}`),
    description: xmlText(which === undefined ? `The newest topics of ${siteTitle}.` : `The newest topics ${which} on ${siteTitle}.`),
    site: pair ? absoluteUrl(siteRoot, intersectionPath(...pair)) : tag === undefined ? siteRoot : absoluteUrl(siteRoot, tagPath(tag)),
    xmlns: { atom: 'http://www.w3.org/2005/Atom', dc: 'http://purl.org/dc/elements/1.1/' },
    customData: `<language>en</language><atom:link href="${escapeXml(self)}" rel="self" type="application/rss+xml"/>`,
  };
}

/** Everything @astrojs/rss needs for one feed: feedHead and the items of the newest topics. */
export function feedChannel(topics: readonly Topic[], options: FeedOptions) {
  return { ...feedHead(options), items: feedTopics(topics).map((topic) => feedItem(topic, options.siteRoot)) };
}

/** The RSS 2.0 document of one feed. */
export function feedXml(topics: readonly Topic[], options: FeedOptions): Promise<string> {
  return getRssString(feedChannel(topics, options));
}
