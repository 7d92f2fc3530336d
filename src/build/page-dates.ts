/**
 * When each page last changed, for the sitemap's `<lastmod>`: a topic page when its topic was
 * updated, a tag's or a member's pages when the newest of their topics was, every other page when
 * the newest topic of the site was.
 */
import type { Topic } from '../content/topics.ts';
import { memberPath, tagPath, topicPath } from '../model/urls.ts';

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A page's last change (YYYY-MM-DD) by its site path (`/tags/api/2/` is dated as `/tags/api/`). */
export function pageDates(topics: readonly Topic[]): (path: string) => string | undefined {
  const newest = new Map<string, number>();
  const note = (path: string, ms: number) => {
    const key = decodeURI(path);
    if ((newest.get(key) ?? -Infinity) < ms) newest.set(key, ms);
  };
  let site = -Infinity;
  for (const topic of topics) {
    note(topicPath(topic.slug), topic.updatedMs);
    note(memberPath(topic.author), topic.updatedMs);
    for (const tag of topic.tags) note(tagPath(tag), topic.updatedMs);
    site = Math.max(site, topic.updatedMs);
  }
  return (path) => {
    const key = decodeURI(path);
    const ms = newest.get(key) ?? newest.get(key.replace(/[^/]+\/$/, '')) ?? site;
    return Number.isFinite(ms) ? day(ms) : undefined;
  };
}
