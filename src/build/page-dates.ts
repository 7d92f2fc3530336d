/**
 * When each page last changed, for the sitemap's `<lastmod>`: a topic page when its topic was
 * updated, a tag's or a member's pages when the newest of their topics was, every other page when
 * the newest topic of the site was.
 */
import type { Topic } from '../content/topics.ts';
import { memberPath, tagPath, topicPath } from '../model/urls.ts';

const DAY_MS = 86_400_000;

/** A path as the dates are looked up by: decoded (most paths have nothing to decode). */
const keyOf = (path: string) => (path.includes('%') ? decodeURI(path) : path);

/** A page's last change (YYYY-MM-DD) by its site path (`/tags/api/2/` is dated as `/tags/api/`). */
export function pageDates(topics: readonly Topic[]): (path: string) => string | undefined {
  /** Keeps `ms` as `name`'s time in `map` when it is newer than the one there. */
  const newestBy = (map: Map<string, number>, name: string, ms: number) => {
    if ((map.get(name) ?? -Infinity) < ms) map.set(name, ms);
  };
  const newest = new Map<string, number>();
  const note = (path: string, ms: number) => newestBy(newest, keyOf(path), ms);
  // Each tag's and member's newest topic first, then their paths: a path for each of them, not for
  // each of their topics (at 10,000 topics 2,500 such paths instead of 60,000, and 25–40 ms instead of 40–65).
  const byTag = new Map<string, number>();
  const byAuthor = new Map<string, number>();
  let site = -Infinity;
  for (const topic of topics) {
    note(topicPath(topic.slug), topic.updatedMs);
    newestBy(byAuthor, topic.author, topic.updatedMs);
    for (const tag of topic.tags) newestBy(byTag, tag, topic.updatedMs);
    site = Math.max(site, topic.updatedMs);
  }
  for (const [author, ms] of byAuthor) note(memberPath(author), ms);
  for (const [tag, ms] of byTag) note(tagPath(tag), ms);
  // Each day written once: a site's 16,000 pages fall on a few hundred days.
  const days = new Map<number, string>();
  const day = (ms: number) => {
    const number = Math.floor(ms / DAY_MS);
    let text = days.get(number);
    if (text === undefined) days.set(number, (text = new Date(number * DAY_MS).toISOString().slice(0, 10)));
    return text;
  };
  return (path) => {
    const key = keyOf(path);
    const ms = newest.get(key) ?? newest.get(key.replace(/[^/]+\/$/, '')) ?? site;
    return Number.isFinite(ms) ? day(ms) : undefined;
  };
}
