import { deltaDecode, type Columns, type CoreFile, type IndexedType, type StructuredCore, type TagFile, type TagOrdinalsFile } from './index-format.ts';
import { dateBounds, effectiveSort, type SearchQuery } from './query.ts';
import { memberKey } from '../model/members.ts';
import { paged, pagedByScore, wordFilter, type WordMatches } from './relevance.ts';

/** The structured fields of a set of topics, decoded for fast filtering. Local ordinal = position here. */
export interface SearchIndex {
  count: number;
  /**
   * The topic number of each local topic (see CoreFile.numbers): what word postings and display
   * files name. A tag's index has none until given its tag-ordinals file (withGlobalOrdinals).
   */
  global?: Uint32Array;
  createdMs: Float64Array;
  updatedMs: Float64Array;
  replies: Uint32Array;
  views: Uint32Array;
  author: Int32Array;
  type: Int32Array;
  tagNames: string[];
  authorNames: string[];
  types: IndexedType[];
  /** Each topic's tag ids, in its own order. */
  topicTags: number[][];
  /** Precomputed: tag id → local ordinals (ascending). */
  tagPostings: Uint32Array[];
  /** Precomputed: author id → local ordinals. */
  authorPostings: Uint32Array[];
  /** Precomputed: tag → id; after the tag names, the site's synonyms → their canonical tag's id. */
  tagId: Map<string, number>;
  /** Precomputed: member key → author ids (`Mira` and `mira` are two names but one member). */
  authorIds: Map<string, number[]>;
  /** Precomputed: content-type index → local ordinals. */
  typePostings: Uint32Array[];
  /** Sort orders as permutations of local ordinals, computed on first use. */
  orders: Map<string, Uint32Array>;
}

function postingsBy(count: number, groups: number, keysOf: (ordinal: number) => ArrayLike<number>): Uint32Array[] {
  const sizes = new Uint32Array(groups);
  for (let i = 0; i < count; i++) {
    const keys = keysOf(i);
    for (let k = 0; k < keys.length; k++) if (keys[k]! >= 0) sizes[keys[k]!]!++;
  }
  const lists = Array.from(sizes, (size) => new Uint32Array(size));
  const fill = new Uint32Array(groups);
  for (let i = 0; i < count; i++) {
    const keys = keysOf(i);
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k]!;
      if (key >= 0) lists[key]![fill[key]!++] = i;
    }
  }
  return lists;
}

/** An index whose topics' numbers are known: the site's, or a tag's given its tag-ordinals file. */
export type OrdinalIndex = SearchIndex & { global: Uint32Array };

/** Gives a tag's index the numbers of its topics (its tag-ordinals file), for words. */
export function withGlobalOrdinals(index: SearchIndex, ordinals: TagOrdinalsFile): OrdinalIndex {
  const global = Uint32Array.from(deltaDecode(ordinals));
  if (global.length !== index.count) throw new Error(`the tag's numbers name ${global.length} topics, its index has ${index.count}`);
  return Object.assign(index, { global });
}

/** Decodes core.json or a tag file into a SearchIndex, precomputing the postings filters start from. */
export function decodeIndex(file: CoreFile): OrdinalIndex;
export function decodeIndex(file: TagFile): SearchIndex;
export function decodeIndex(file: StructuredCore | TagFile): SearchIndex;
export function decodeIndex(file: (StructuredCore | TagFile) & Columns): SearchIndex {
  const count = file.replies.length;
  const updatedSeconds = deltaDecode(file.updated);
  const updatedMs = new Float64Array(count);
  const createdMs = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    updatedMs[i] = updatedSeconds[i]! * 1000;
    createdMs[i] = (updatedSeconds[i]! - file.age[i]!) * 1000;
  }
  const { numbers } = file as Partial<CoreFile>;
  const global = numbers ? Uint32Array.from(numbers) : undefined;
  const author = Int32Array.from(file.author);
  const type = Int32Array.from(file.type);
  return {
    count,
    global,
    createdMs,
    updatedMs,
    replies: Uint32Array.from(file.replies),
    views: Uint32Array.from(file.views),
    author,
    type,
    tagNames: file.tagNames,
    authorNames: file.authorNames,
    types: file.types,
    topicTags: file.tags,
    tagPostings: postingsBy(count, file.tagNames.length, (i) => file.tags[i]!),
    authorPostings: postingsBy(count, file.authorNames.length, (i) => [author[i]!]),
    typePostings: postingsBy(count, file.types.length, (i) => [type[i]!]),
    // tags.json's synonyms (core.json only) name their canonical tag's id: `tags=<synonym>` finds its topics.
    tagId: new Map([...file.tagNames.map((tag, i) => [tag, i] as const), ...((file as Partial<CoreFile>).tagSynonyms ?? [])]),
    authorIds: file.authorNames.reduce((ids, name, i) => ids.set(memberKey(name), [...(ids.get(memberKey(name)) ?? []), i]), new Map<string, number[]>()),
    orders: new Map(),
  };
}

/** Ids of a content type and, for a forum, of all its sub-forums. */
export function typeWithDescendants(types: readonly IndexedType[], id: string): number[] {
  const root = types.findIndex((type) => type.id === id);
  if (root < 0) return [];
  const out = [root];
  for (let i = 0; i < out.length; i++) types.forEach((type, j) => type.parent === out[i] && out.push(j));
  return out;
}

function union(lists: Uint32Array[], count: number): Uint32Array {
  if (lists.length === 1) return lists[0]!;
  const mark = new Uint8Array(count);
  let size = 0;
  for (const list of lists) for (let i = 0; i < list.length; i++) if (!mark[list[i]!]) (mark[list[i]!] = 1), size++;
  const out = new Uint32Array(size);
  for (let i = 0, j = 0; i < count; i++) if (mark[i]) out[j++] = i;
  return out;
}

function intersect(lists: Uint32Array[], count: number): Uint32Array {
  const sorted = [...lists].sort((a, b) => a.length - b.length);
  let current = sorted[0]!;
  for (const list of sorted.slice(1)) {
    const mark = new Uint8Array(count);
    for (let i = 0; i < list.length; i++) mark[list[i]!] = 1;
    current = current.filter((ordinal) => mark[ordinal] === 1);
  }
  return current;
}

/**
 * The structured filters of SPEC 4.2 (everything but words), applied with the most selective
 * precomputed postings first and per-topic checks only on what remains. Local ordinals, ascending.
 */
export function structuredFilter(index: SearchIndex, query: SearchQuery, now: Date): Uint32Array {
  const starts: Uint32Array[] = [];
  const empty = new Uint32Array(0);
  if (query.tags.length > 0) {
    const lists = query.tags.map((tag) => index.tagPostings[index.tagId.get(tag) ?? -1] ?? empty);
    starts.push(query.match === 'all' ? intersect(lists, index.count) : union(lists, index.count));
  }
  if (query.author) {
    const ids = index.authorIds.get(memberKey(query.author)) ?? [];
    starts.push(ids.length ? union(ids.map((id) => index.authorPostings[id]!), index.count) : empty);
  }
  if (query.type) {
    const ids = typeWithDescendants(index.types, query.type);
    starts.push(ids.length ? union(ids.map((id) => index.typePostings[id]!), index.count) : empty);
  }
  let candidates = starts.length > 0 ? intersect(starts, index.count) : null;

  const created = dateBounds(query.created, now);
  const updated = dateBounds(query.updated, now);
  const checks: Array<(i: number) => boolean> = [];
  if (query.created.kind !== 'any') checks.push((i) => index.createdMs[i]! >= created.from && index.createdMs[i]! < created.to);
  if (query.updated.kind !== 'any') checks.push((i) => index.updatedMs[i]! >= updated.from && index.updatedMs[i]! < updated.to);
  if (query.minReplies > 0) checks.push((i) => index.replies[i]! >= query.minReplies);
  if (query.minViews > 0) checks.push((i) => index.views[i]! >= query.minViews);
  const { maxReplies, maxViews } = query;
  if (maxReplies !== undefined) checks.push((i) => index.replies[i]! <= maxReplies);
  if (maxViews !== undefined) checks.push((i) => index.views[i]! <= maxViews);
  const excluded = query.excludeTags.flatMap((tag) => index.tagPostings[index.tagId.get(tag) ?? -1] ?? []);
  if (excluded.length > 0) {
    const out = new Uint8Array(index.count);
    for (const list of excluded) for (let i = 0; i < list.length; i++) out[list[i]!] = 1;
    checks.push((i) => out[i] === 0);
  }
  if (checks.length === 0) {
    if (candidates) return candidates;
    const all = new Uint32Array(index.count);
    for (let i = 0; i < all.length; i++) all[i] = i;
    return all;
  }
  const keep = (i: number) => checks.every((check) => check(i));
  if (candidates) return candidates.filter(keep);
  const out: number[] = [];
  for (let i = 0; i < index.count; i++) if (keep(i)) out.push(i);
  return Uint32Array.from(out);
}

const SORT_KEYS: Record<string, (index: SearchIndex) => ArrayLike<number>> = {
  newest: (index) => index.createdMs,
  replies: (index) => index.replies,
  views: (index) => index.views,
};

/** A sort order over all local ordinals: biggest key first, ties in listing order. Cached on the index. */
export function order(index: SearchIndex, sort: string): Uint32Array {
  let perm = index.orders.get(sort);
  if (!perm) {
    const key = SORT_KEYS[sort]!(index);
    perm = Uint32Array.from({ length: index.count }, (_, i) => i).sort((a, b) => key[b]! - key[a]! || a - b);
    index.orders.set(sort, perm);
  }
  return perm;
}

export interface SearchResult {
  /** Total of the whole result set. */
  total: number;
  /** Local ordinals of the requested page, in result order. */
  page: Uint32Array;
  /** Local ordinals of the page after it (what "Next" would show). */
  next: Uint32Array;
  /** The page actually shown (clamped to the last page). */
  pageNumber: number;
  pages: number;
  /** Counts within the whole result set, indexed by tag id, content-type index and author id. */
  facets: { tags: Uint32Array; types: Uint32Array; authors: Uint32Array };
}

/** Runs a whole search: filters, words, sort, page, facets. `words` is required when the query has `q`. */
export function runSearch(index: SearchIndex, query: SearchQuery, now: Date, pageSize: number, words?: WordMatches): SearchResult {
  let results = structuredFilter(index, query, now);
  let score: Float64Array | undefined;
  // A `q` with no words in it (`?!`) filters nothing, rather than finding nothing.
  if (query.q && words && words.length > 0) ({ ordinals: results, score } = wordFilter(index, results, words, query.words));

  const sort = effectiveSort(query);
  const inOrder = (found: Uint32Array): Uint32Array => {
    if (sort === 'updated' || sort === 'relevancy') return found; // ascending ordinals are the listing order
    const mark = new Uint8Array(index.count);
    for (let i = 0; i < found.length; i++) mark[found[i]!] = 1;
    return order(index, sort).filter((ordinal) => mark[ordinal] === 1);
  };
  // By relevancy, only the pages shown are put in order.
  const shown = sort === 'relevancy' && score ? pagedByScore(results, score, query.page, pageSize, index.global) : paged(inOrder(results), query.page, pageSize);
  // Counted in typed arrays: no hashing per result.
  const tagCounts = new Uint32Array(index.tagNames.length);
  const typeCounts = new Uint32Array(index.types.length);
  const authorCounts = new Uint32Array(index.authorNames.length);
  for (let i = 0; i < results.length; i++) {
    const ordinal = results[i]!;
    const tags = index.topicTags[ordinal]!;
    for (let t = 0; t < tags.length; t++) tagCounts[tags[t]!]!++;
    if (index.type[ordinal]! >= 0) typeCounts[index.type[ordinal]!]!++;
    authorCounts[index.author[ordinal]!]!++;
  }
  const facets = { tags: tagCounts, types: typeCounts, authors: authorCounts };
  return { ...shown, facets };
}
