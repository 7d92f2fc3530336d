/**
 * SPEC 4.2 by brute force, over the normalised Topic records: the reference the search engine
 * (src/search/engine.ts) is checked against. Written from the SPEC, not from the engine: it
 * looks at every topic, compares dates as UTC calendar days, and sorts with plain comparators.
 * Words are only matched exactly here (with the tokenizer of words.ts, which defines what a word
 * is, and its queryPhrases, what a quoted phrase is); the engine's fuzzy matching must find at least
 * these, and nothing where a phrase's words do not stand together.
 */
import type { Topic } from '../../src/content/topics.ts';
import type { ContentType } from '../../src/content/content-types.ts';
import type { DateFilter, SearchQuery } from '../../src/search/query.ts';
import { queryPhrases, terms } from '../../src/search/words.ts';
import { plainText } from '../../src/content/markdown.ts';

const DAY_MS = 86_400_000;

/** SPEC 4.1's default order: newest `updated` first, then newest `created`, then slug A→Z. */
export function listingOrder(a: Topic, b: Topic): number {
  if (a.updatedMs !== b.updatedMs) return b.updatedMs - a.updatedMs;
  if (a.createdMs !== b.createdMs) return b.createdMs - a.createdMs;
  return a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0;
}

/** `now` moved back by whole calendar months, the day clamped to the end of a shorter month (31 March − 1 month = 28/29 February). */
export function monthsBefore(now: Date, months: number): number {
  const total = now.getUTCFullYear() * 12 + now.getUTCMonth() - months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const daysInMonth = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month]!;
  const day = Math.min(now.getUTCDate(), daysInMonth);
  const moved = new Date(now.getTime());
  moved.setUTCFullYear(year, month, day);
  return moved.getTime();
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** The earliest instant a preset admits: the last day, week, month, six months or year before `now`. */
export function presetStart(preset: string, now: Date): number {
  switch (preset) {
    case 'day': return now.getTime() - DAY_MS;
    case 'week': return now.getTime() - 7 * DAY_MS;
    case 'month': return monthsBefore(now, 1);
    case 'six_months': return monthsBefore(now, 6);
    case 'year': return monthsBefore(now, 12);
    default: throw new Error(`unknown preset ${preset}`);
  }
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Whether an instant passes a date filter: presets reach back from `now`; custom days are UTC days, both ends inclusive. */
export function dateMatches(ms: number, filter: DateFilter, now: Date): boolean {
  if (filter.kind === 'any') return true;
  if (filter.kind === 'preset') return ms >= presetStart(filter.preset, now);
  const day = utcDay(ms);
  return (filter.from === undefined || day >= filter.from) && (filter.to === undefined || day <= filter.to);
}

/** Whether a topic's content type is `type` or lies anywhere below it in the forum tree. */
export function typeMatches(topic: Topic, type: string, contentTypes: readonly ContentType[]): boolean {
  const own = contentTypes.find((candidate) => candidate.id === topic.contentType);
  return (own?.path ?? [topic.contentType]).includes(type);
}

/** Every rule of SPEC 4.2 except words, checked on one topic. */
export function passesStructured(topic: Topic, query: SearchQuery, contentTypes: readonly ContentType[], now: Date): boolean {
  if (query.tags.length > 0) {
    const has = (tag: string) => topic.tags.includes(tag);
    if (query.match === 'all' ? !query.tags.every(has) : !query.tags.some(has)) return false;
  }
  if (query.author && topic.author.toLowerCase() !== query.author.toLowerCase()) return false;
  if (query.type && !typeMatches(topic, query.type, contentTypes)) return false;
  if (!dateMatches(topic.createdMs, query.created, now)) return false;
  if (!dateMatches(topic.updatedMs, query.updated, now)) return false;
  if (query.excludeTags.some((tag) => topic.tags.includes(tag))) return false;
  if (query.maxReplies !== undefined && topic.replies > query.maxReplies) return false;
  if (query.maxViews !== undefined && topic.views > query.maxViews) return false;
  return topic.replies >= query.minReplies && topic.views >= query.minViews;
}

/** The searchable words of a topic: of its title, and of its title and first post. */
export function topicWords(topic: Topic): { title: Set<string>; all: Set<string> } {
  const title = new Set(terms(topic.title));
  return { title, all: new Set([...title, ...terms(plainText(topic.html))]) };
}

/** Whether `phrase` (terms) occurs in `sequence` (terms, in order) with nothing between its words. */
export function standsIn(phrase: readonly string[], sequence: readonly string[]): boolean {
  for (let start = 0; start + phrase.length <= sequence.length; start++) {
    if (phrase.every((term, i) => sequence[start + i] === term)) return true;
  }
  return false;
}

/** Whether a topic holds a quoted phrase: its words together and in order, in the title or (unless titles only) in the post. */
export function holdsPhrase(topic: Topic, phrase: readonly string[], where: SearchQuery['in']): boolean {
  return standsIn(phrase, terms(topic.title)) || (where !== 'titles' && standsIn(phrase, terms(plainText(topic.html))));
}

/**
 * Whether a topic contains all (or any) of the query's words exactly, in its titles or everywhere,
 * and every quoted phrase (whether all or any words are asked for). A `q` without words (`?!`) filters nothing.
 */
export function containsWords(topic: Topic, query: SearchQuery): boolean {
  const words = [...new Set(terms(query.q))];
  if (words.length === 0) return true;
  if (!queryPhrases(query.q).every((phrase) => holdsPhrase(topic, phrase, query.in))) return false;
  const haystack = topicWords(topic)[query.in === 'titles' ? 'title' : 'all'];
  return query.words === 'any' ? words.some((word) => haystack.has(word)) : words.every((word) => haystack.has(word));
}

/**
 * Where relevancy must put a topic (SPEC 4.2): how many of the query's words it holds exactly (in
 * the fields searched), then how many its title holds exactly. Higher ranks first.
 */
export function exactRank(topic: Topic, query: SearchQuery): [held: number, inTitle: number] {
  const words = [...new Set(terms(query.q))];
  const { title, all } = topicWords(topic);
  const haystack = query.in === 'titles' ? title : all;
  return [words.filter((word) => haystack.has(word)).length, words.filter((word) => title.has(word)).length];
}

/** The sort a query asks for: relevancy only with words; newest when none is given and there are no words. */
export function sortOf(query: SearchQuery): string {
  if (!query.q) return query.sort === undefined || query.sort === 'relevancy' ? 'newest' : query.sort;
  return query.sort ?? 'relevancy';
}

/** Orders topics for a sort other than relevancy; ties keep the listing order. */
export function sortTopics(topics: readonly Topic[], sort: string): Topic[] {
  const key: Record<string, (topic: Topic) => number> = {
    newest: (topic) => topic.createdMs,
    replies: (topic) => topic.replies,
    views: (topic) => topic.views,
    updated: () => 0,
  };
  const of = key[sort];
  if (!of) throw new Error(`no brute-force order for sort ${sort}`);
  return [...topics].sort((a, b) => of(b) - of(a) || listingOrder(a, b));
}

export interface OracleResult {
  /** The whole result set, in order. */
  ordered: Topic[];
  total: number;
  pageNumber: number;
  pages: number;
  /** The topics of the page shown. */
  page: Topic[];
  /** Topics per tag, content type id and author within the whole result set. */
  facets: { tags: Map<string, number>; types: Map<string, number>; authors: Map<string, number> };
}

/** SPEC 4.2 by brute force, without words (`q` must be empty). */
export function oracleSearch(topics: readonly Topic[], contentTypes: readonly ContentType[], query: SearchQuery, now: Date, pageSize: number): OracleResult {
  if (query.q) throw new Error('the brute-force search does not score words');
  const ordered = sortTopics(topics.filter((topic) => passesStructured(topic, query, contentTypes, now)), sortOf(query));
  return paged(ordered, query.page, pageSize);
}

/** Pages and facet counts of an ordered result set. A page past the end shows the last page. */
export function paged(ordered: Topic[], page: number, pageSize: number): OracleResult {
  const pages = Math.max(1, Math.ceil(ordered.length / pageSize));
  const pageNumber = Math.min(page, pages);
  const facets = { tags: new Map<string, number>(), types: new Map<string, number>(), authors: new Map<string, number>() };
  const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const topic of ordered) {
    for (const tag of topic.tags) bump(facets.tags, tag);
    bump(facets.types, topic.contentType);
    bump(facets.authors, topic.author);
  }
  return { ordered, total: ordered.length, pageNumber, pages, page: ordered.slice((pageNumber - 1) * pageSize, pageNumber * pageSize), facets };
}
