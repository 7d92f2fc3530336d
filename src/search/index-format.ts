/**
 * The static search index: files written at build time under /search-index/ and read by the
 * browser. Topics are numbered by their place in the default listing order (their ordinal).
 * Only core.json is needed for structured filters; display shards, vocabulary and postings are
 * fetched as a query needs them.
 */

export const INDEX_VERSION = 4;

/**
 * Sites up to this many topics are small: the page filters them in its own thread (a few
 * milliseconds, no thread hops) and fetches all their display rows after the first search. Bigger
 * sites filter in a Web Worker and fetch display rows as each page of results needs them.
 */
export const SMALL_SITE_MAX_TOPICS = 20_000;

/**
 * Topics per display shard. A small site's shards are all fetched anyway, so they are big (128
 * topics, ~14 KB gzip: fewer requests). A big site fetches the shards of each page of results, whose
 * topics are often spread over the whole site (sorted by views, or a tag's topics over the years),
 * so smaller shards carry fewer rows it does not show.
 */
export function displayShardSize(topics: number): number {
  return topics <= SMALL_SITE_MAX_TOPICS ? 128 : 32;
}

/** One content type in the index; `parent` is the index of the parent forum or -1. */
export interface IndexedType {
  id: string;
  name: string;
  group: 'forum' | 'category' | 'featureCategory';
  parent: number;
}

/** Columns of the structured fields, one entry per topic (ordinal). */
export interface Columns {
  /** Seconds since the epoch of `updated`, delta-coded: first value, then differences. */
  updated: number[];
  /** `updated` − `created`, in seconds. */
  age: number[];
  replies: number[];
  views: number[];
  author: number[];
  type: number[];
  /** Tag ids of each topic, in the topic's own order. */
  tags: number[][];
}

/** What structured filters need for the whole site: names, content types and every topic's columns. */
export interface StructuredCore extends Columns {
  count: number;
  /** Tag names by id: the most used first, then A→Z. */
  tagNames: string[];
  /** Author names by id, A→Z. */
  authorNames: string[];
  types: IndexedType[];
}

/** core.json: everything structured filters need, for the whole site, and where the rest is. */
export interface CoreFile extends StructuredCore {
  version: number;
  /** Topics per display shard (display/<n>.json). */
  displayShardSize: number;
  /** First term of each postings shard (postings/<n>.json); see PostingsFile. */
  postingBounds: string[];
  /** Vocabulary shard keys present (vocab/<key>.json). */
  vocabKeys: string[];
}

/** What a listing entry shows beyond the structured fields: [slug, title, excerpt]. */
export type DisplayRow = [slug: string, title: string, excerpt: string];

/**
 * tags/<slug>.json: one tag's topics, self-contained for structured filters, so a tag page loads
 * only its own data, and nothing in it grows with the site.
 */
export interface TagFile extends Columns {
  version: number;
  tag: string;
  tagNames: string[];
  authorNames: string[];
  types: IndexedType[];
  display: DisplayRow[];
}

/**
 * words.json: what word search needs to find a word's files, for the whole site. A tag page
 * fetches it only when words are typed, so its own file does not grow with the site (core.json,
 * site-wide anyway, carries the same fields).
 */
export interface WordsFile {
  /** Topics in the whole site (word weights are relative to it). */
  count: number;
  postingBounds: string[];
  vocabKeys: string[];
}

/**
 * tag-ordinals/<slug>.json: the global ordinal of each of the tag's topics, ascending and
 * delta-coded. Word postings name topics by global ordinal, so a tag page fetches it with words.json,
 * only when words are typed (its numbers grow with the site).
 */
export type TagOrdinalsFile = number[];

/** vocab/<key>.json: the terms starting with one character and their document frequency. */
export interface VocabFile {
  terms: string[];
  df: number[];
}

/**
 * postings/<n>.json: term → [ordinals of topics containing it, ordinals with it in the title], each
 * delta-coded. Shards hold consecutive runs of the sorted terms, so a word, the terms it is a prefix
 * of and most of its typos share one file, and the word alone says which (postingBounds).
 */
export type PostingsFile = Record<string, [number[], number[]]>;

/** Delta-codes an ascending list of integers. */
export function deltaEncode(values: ArrayLike<number>): number[] {
  const out = new Array<number>(values.length);
  let previous = 0;
  for (let i = 0; i < values.length; i++) {
    out[i] = values[i]! - previous;
    previous = values[i]!;
  }
  return out;
}

/** Undoes deltaEncode. */
export function deltaDecode(deltas: ArrayLike<number>): Float64Array {
  const out = new Float64Array(deltas.length);
  let value = 0;
  for (let i = 0; i < deltas.length; i++) out[i] = value += deltas[i]!;
  return out;
}
