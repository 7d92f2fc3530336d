import type { Topic } from '../content/topics.ts';
import { comparePopularity } from './popularity.ts';
import type { DateFilter, SearchQuery } from '../search/query.ts';

/** A topic's excerpt: its text, and whether that was cut from a longer one (SPEC 2.1). */
export type TopicExcerpt = Pick<Topic, 'excerptText' | 'excerptCut'>;

/** An excerpt as listings, feeds and pages show it: `…` follows a text that was cut. */
export const excerptOf = ({ excerptText, excerptCut }: TopicExcerpt): string => (excerptCut ? `${excerptText}…` : excerptText);

/** The default listing order (SPEC 4.1): newest `updated` first; ties by newest `created`, then slug A→Z. */
export function compareListing(a: Topic, b: Topic): number {
  return b.updatedMs - a.updatedMs || b.createdMs - a.createdMs || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);
}

/** Topics in listing order (a new array). */
export function sortForListing(topics: readonly Topic[]): Topic[] {
  return [...topics].sort(compareListing);
}

/** Every tag with its topics in listing order (or `compare`'s); tags sorted by count (most first), then A→Z. */
export function topicsByTag(topics: readonly Topic[], compare: (a: Topic, b: Topic) => number = compareListing): Map<string, Topic[]> {
  const byTag = new Map<string, Topic[]>();
  for (const topic of [...topics].sort(compare)) {
    for (const tag of topic.tags) {
      let list = byTag.get(tag);
      if (!list) byTag.set(tag, (list = []));
      list.push(topic);
    }
  }
  const order = [...byTag.keys()].map((tag) => [tag, byTag.get(tag)!.length] as const).sort(comparePopularity);
  return new Map(order.map(([tag]) => [tag, byTag.get(tag)!]));
}

/** How many topics carry each tag, tags in the order first met. */
export function tagCounts(topics: readonly Pick<Topic, 'tags'>[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { tags } of topics) for (const tag of tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return counts;
}

/** Counts as entries in their names' order (code units): the same whatever order the topics were counted in. */
export function countsByName(counts: ReadonlyMap<string, number>): Array<[string, number]> {
  return [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
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

/** Plain words for a date filter: `created in the last month`, `updated from 2025-01-01 to 2025-06-30`; '' for none. */
export function dateFilterText(field: string, filter: DateFilter): string {
  if (filter.kind === 'preset') return `${field} in the last ${PRESET_WORDS.get(filter.preset) ?? filter.preset}`;
  if (filter.kind !== 'custom' || (!filter.from && !filter.to)) return '';
  if (filter.from && filter.to) return filter.from === filter.to ? `${field} on ${filter.from}` : `${field} from ${filter.from} to ${filter.to}`;
  return filter.from ? `${field} on or after ${filter.from}` : `${field} on or before ${filter.to}`;
}

const PRESET_WORDS: ReadonlyMap<string, string> = new Map([['day', 'day'], ['week', 'week'], ['month', 'month'], ['six_months', 'six months'], ['year', 'year']]);

/** The words part: `'json'`; several words: `all of 'clipboard json'` / `any of …`; `in titles only`. */
export function wordsText(query: Pick<SearchQuery, 'q' | 'words' | 'in'>): string {
  if (!query.q) return '';
  const several = query.q.includes(' ');
  const words = several ? `${query.words === 'any' ? 'any' : 'all'} of the words '${query.q}'` : `'${query.q}'`;
  return query.in === 'titles' ? `${words} in titles only` : words;
}

/** One phrase per filter in effect besides tags and words, in the form's order (pages and sort are not filters). */
export function filterPhrases(query: SearchQuery, typeName: (id: string) => string = (id) => id): string[] {
  const phrases: string[] = [];
  if (query.author) phrases.push(`by '${query.author}'`);
  if (query.type) phrases.push(`of type '${typeName(query.type)}'`);
  for (const field of ['created', 'updated'] as const) {
    const text = dateFilterText(field, query[field]);
    if (text) phrases.push(text);
  }
  if (query.minReplies > 0) phrases.push(`with at least ${repliesText(query.minReplies)}`);
  if (query.minViews > 0) phrases.push(`with at least ${viewsText(query.minViews)}`);
  if (query.maxReplies !== undefined) phrases.push(`with at most ${repliesText(query.maxReplies)}`);
  if (query.maxViews !== undefined) phrases.push(`with at most ${viewsText(query.maxViews)}`);
  if (query.excludeTags.length > 0) phrases.push(`not tagged ${query.excludeTags.map((tag) => `'${tag}'`).join(' or ')}`);
  return phrases;
}

/**
 * The heading of a search's results, naming every filter in effect: the tags first (SPEC 4.1's
 * forms), then the words, then the other filters (`Showing results for tags 'http' matching
 * 'json', by 'mira', created in the last month`). No filter: `Showing all topics`.
 */
export function searchResultsHeadingText(query: SearchQuery, typeName?: (id: string) => string): string {
  const words = wordsText(query);
  const rest = filterPhrases(query, typeName);
  let head: string;
  if (query.tags.length > 0) head = `${searchHeadingText(query.tags, query.match)}${words ? ` matching ${words}` : ''}`;
  else if (words) head = `Showing results for ${words}`;
  else if (rest.length > 0) head = 'Showing topics';
  else return 'Showing all topics';
  return [head, ...rest].join(', ');
}

/** What a search asks for, in the heading's words without `Showing …` (`tags 'api', by 'mira'`); '' for nothing. */
export function filtersText(query: SearchQuery, typeName?: (id: string) => string): string {
  const heading = searchResultsHeadingText(query, typeName);
  return heading === 'Showing all topics' ? '' : heading.replace(/^Showing (results for |topics, )/, '');
}

/** The start of the no-results help: `No topic matches tags 'api' and 'web', by 'mira'.` */
export function noResultsText(query: SearchQuery, typeName?: (id: string) => string): string {
  const filters = filtersText(query, typeName);
  return filters ? `No topic matches ${filters}.` : 'There are no topics yet.';
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** An entry's date (its last update, the listing's order), the same for every visitor: `4 Mar 2026`, UTC. */
export function entryDate(ms: number): { iso: string; text: string } {
  const date = new Date(ms);
  return { iso: date.toISOString().slice(0, 10), text: `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}` };
}

/** `3 replies`, `1 reply`. */
export function repliesText(count: number): string {
  return `${count} ${count === 1 ? 'reply' : 'replies'}`;
}

/** `100 views`, `1 view`. */
function viewsText(count: number): string {
  return `${count} view${count === 1 ? '' : 's'}`;
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
