import type { Topic } from '../content/topics.ts';
import { comparePopularity } from './popularity.ts';

/** The default listing order (SPEC 4.1): newest `updated` first; ties by newest `created`, then slug A→Z. */
export function compareListing(a: Topic, b: Topic): number {
  return b.updatedMs - a.updatedMs || b.createdMs - a.createdMs || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);
}

/** Topics in listing order (a new array). */
export function sortForListing(topics: readonly Topic[]): Topic[] {
  return [...topics].sort(compareListing);
}

/** Every tag with its topics in listing order; tags sorted by count (most first), then A→Z. */
export function topicsByTag(topics: readonly Topic[]): Map<string, Topic[]> {
  const byTag = new Map<string, Topic[]>();
  for (const topic of sortForListing(topics)) {
    for (const tag of topic.tags) {
      let list = byTag.get(tag);
      if (!list) byTag.set(tag, (list = []));
      list.push(topic);
    }
  }
  const order = [...byTag.keys()].map((tag) => [tag, byTag.get(tag)!.length] as const).sort(comparePopularity);
  return new Map(order.map(([tag]) => [tag, byTag.get(tag)!]));
}

/** `Found 17 results`, `Found 1 result`, `Found 0 results`. */
export function resultCountText(count: number): string {
  return `Found ${count} result${count === 1 ? '' : 's'}`;
}

/** `Showing results for tags 'api'`; several: `'api', 'json' or 'web'` (any) / `… and 'web'` (all). */
export function searchHeadingText(tags: readonly string[], match: 'any' | 'all' = 'any'): string {
  const quoted = tags.map((tag) => `'${tag}'`);
  const list = quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} ${match === 'all' ? 'and' : 'or'} ${quoted.at(-1)}`;
  return `Showing results for tags ${list}`;
}

/** The heading of a search's results: names the tags (SPEC 4.1), else the words, else all topics. */
export function searchResultsHeadingText(tags: readonly string[], match: 'any' | 'all', q: string): string {
  if (tags.length > 0) return searchHeadingText(tags, match);
  if (q) return `Showing results for '${q}'`;
  return 'Showing all topics';
}

/** `3 replies`, `1 reply`. */
export function repliesText(count: number): string {
  return `${count} ${count === 1 ? 'reply' : 'replies'}`;
}

/** The tags an entry shows: the first `tagsShown` in the topic's order, and how many more it has. */
export function entryTags(tags: readonly string[], tagsShown: number): { shown: string[]; more: number } {
  return { shown: tags.slice(0, tagsShown), more: Math.max(0, tags.length - tagsShown) };
}

/** Whether a listing entry shows its tags: only topics with replies do (as on the forum), unless `alwaysShowTags`. */
export function entryShowsTags(topic: Pick<Topic, 'replies'>, alwaysShowTags: boolean): boolean {
  return topic.replies > 0 || alwaysShowTags;
}

/** Splits a listing into pages of `pageSize`; an empty listing still has one (empty) page. */
export function paginate<T>(items: readonly T[], pageSize: number): T[][] {
  const pages: T[][] = [];
  for (let i = 0; i < items.length; i += pageSize) pages.push(items.slice(i, i + pageSize));
  return pages.length > 0 ? pages : [[]];
}
