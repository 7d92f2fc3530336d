/**
 * The static search index: files written at build time under /search-index/ and read by the
 * browser. core.json and each tag's file hold their topics in the default listing order (a
 * topic's place there is its ordinal); the word postings and display files name each topic by its
 * number, which does not change when the topic moves in the listing (CoreFile.numbers). Only
 * core.json is needed for structured filters; display shards, vocabulary and postings are fetched
 * as a query needs them.
 */

export const INDEX_VERSION = 7;

/**
 * Sites up to this many topics are small: the page filters them in its own thread (a few
 * milliseconds, no thread hops). Bigger sites filter in a Web Worker.
 */
export const SMALL_SITE_MAX_TOPICS = 20_000;

/**
 * Topics per display file (display/<n>.json, rows by topic number). A page of results names
 * topics spread over the whole site (by relevance, by views, a tag's topics over the years), so
 * each row it shows usually comes from a file of its own: small files carry few rows it does not show. Four rows (about 1 KB gzip)
 * keep a page of 25 results near 25 KB while a 10,000-topic site has 2,500 such files.
 */
export const DISPLAY_ROWS_PER_FILE = 4;

/**
 * The same rows in a few big files (display-all/<n>.json), for fetching every row at once (see
 * DisplayPrefetch): DISPLAY_ALL_FILES of them, of at least DISPLAY_ALL_MIN_ROWS rows. A request
 * costs the browser more than its bytes: 10,000 topics in 40 files of 256 rows held up the searches
 * made while they came (warm searches' p95 130 ms, against 75 ms in 4 or 10 files, in one run).
 */
export const DISPLAY_ALL_FILES = 8;
export const DISPLAY_ALL_MIN_ROWS = 128;

/** Topics per display-all file of a site of `count` topics. */
export function displayAllRowsPerFile(count: number): number {
  return Math.max(DISPLAY_ALL_MIN_ROWS, Math.ceil(count / DISPLAY_ALL_FILES));
}

/** Where the display rows are: small files for a page of results, big ones for all of them. */
export interface DisplayFiles {
  /** Topics per display file (display/<n>.json). */
  displayShardSize: number;
  /** Topics per file of display-all/<n>.json. */
  displayAllSize: number;
  /** Bytes of all display-all files together (uncompressed). */
  displayAllBytes: number;
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
export interface CoreFile extends StructuredCore, DisplayFiles {
  version: number;
  /**
   * The number of each topic (by ordinal): its place when the site's topics are ordered by
   * `created`, oldest first, then slug Z→A (../search/index-build.ts). Word postings, positions and
   * display files name topics by it, so a topic bumped to the top of the listing (a reply) changes
   * none of them but its own display row, and a new topic takes the next number.
   */
  numbers: number[];
  /** First term of each postings shard (postings/<n>.json); see PostingsFile. */
  postingBounds: string[];
  /** Vocabulary shard keys present (vocab/<key>.json). */
  vocabKeys: string[];
  /** Bytes of vocab-all.json (uncompressed). */
  vocabAllBytes: number;
  /**
   * tags.json's synonyms, each with its canonical tag's id: a `tags=<synonym>` search finds the
   * canonical tag's topics. Absent on a site without synonyms.
   */
  tagSynonyms?: Array<[synonym: string, tagId: number]>;
}

/**
 * Everything a listing entry shows, so a page of results can be shown before core.json has
 * arrived: `updated` in seconds since the epoch, the author's name and the topic's tags.
 */
export type DisplayRow = [slug: string, title: string, excerpt: string, updated: number, replies: number, author: string, tags: string[]];

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

/** The path of the WordsFile in the index folder. */
export const WORDS_FILE = 'words.json';

/**
 * words.json: what word search needs to find a word's files, for the whole site. A tag page
 * fetches it only when words are typed, so its own file does not grow with the site (core.json,
 * site-wide anyway, carries the same fields).
 */
export interface WordsFile extends DisplayFiles {
  /** Topics in the whole site (word weights are relative to it). */
  count: number;
  postingBounds: string[];
  vocabKeys: string[];
  vocabAllBytes: number;
}

/**
 * tag-ordinals/<slug>.json: the number (CoreFile.numbers) of each of the tag's topics, in the
 * tag's listing order, delta-coded. Word postings name topics by number, so a tag page fetches it
 * with words.json, only when words are typed (its numbers grow with the site).
 */
export type TagOrdinalsFile = number[];

/** vocab/<key>.json: the terms starting with one character and their document frequency. */
export interface VocabFile {
  terms: string[];
  df: number[];
}

/**
 * vocab-all.json: every vocab/<key>.json in one file (key → its content), fetched ahead in one
 * request once a visitor searches words again (see VocabularyPrefetch).
 */
export type VocabularyFile = Record<string, VocabFile>;

/**
 * postings/<n>.json: term → [numbers of topics containing it, numbers of those with it in the
 * title], each ascending and delta-coded. Shards hold consecutive runs of the sorted terms, so a
 * word, the terms it is a prefix of and most of its typos share one file, and the word alone says
 * which (postingBounds).
 */
export type PostingsFile = Record<string, [number[], number[]]>;

/**
 * positions/<n>.json, beside postings/<n>.json and for the same terms: where each term stands in
 * each topic holding it, so a quoted phrase is found only where its words stand together. Per term,
 * one flat list, for each topic of its postings (in their order): a head, 2 × the places in the
 * post + 1 when the title holds it too; then, if so, the places in the title; then the title's
 * places and the post's (word numbers from 0, each delta-coded). Fetched only for a phrase.
 */
export type PositionsFile = Record<string, number[]>;

/** Delta-codes a list of integers (small numbers when it ascends). */
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
