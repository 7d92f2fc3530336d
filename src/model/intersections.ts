/**
 * Tag intersections: how many topics each pair of tags shares, each tag's related tags, and which
 * pairs get a page of their own (`intersections.minTopics`, `intersections.maxPages`). One pass over
 * the topics' tags: the work grows with topics × pairs of tags per topic, never with tags².
 */

/** Two tags in sorted order (code units), as their page's address names them. */
export type TagPair = readonly [a: string, b: string];

/** A pair of tags and how many topics carry both. */
export interface PairCount {
  pair: TagPair;
  count: number;
}

/** The pair's key in maps: the two tags, sorted, joined by a character no tag holds. */
export function pairKey(x: string, y: string): string {
  return x < y ? `${x}\n${y}` : `${y}\n${x}`;
}

/** The tags `topics` carry, and each pair of tags one of them carries (by pairKey). */
export function carriedTagsAndPairs(topics: Iterable<{ tags: readonly string[] }>): { tags: Set<string>; pairs: Set<string> } {
  const tags = new Set<string>();
  const pairs = new Set<string>();
  for (const { tags: carried } of topics) {
    carried.forEach((tag, i) => {
      tags.add(tag);
      for (const other of carried.slice(i + 1)) pairs.add(pairKey(tag, other));
    });
  }
  return { tags, pairs };
}

/** The sorted pair of two tags. */
export function sortedPair(x: string, y: string): TagPair {
  return x < y ? [x, y] : [y, x];
}

/** Most shared topics first; ties by the first tag A→Z, then the second (code units): the same order every build. */
export function comparePairs(p: PairCount, q: PairCount): number {
  return q.count - p.count || (p.pair[0] < q.pair[0] ? -1 : p.pair[0] > q.pair[0] ? 1 : p.pair[1] < q.pair[1] ? -1 : p.pair[1] > q.pair[1] ? 1 : 0);
}

/**
 * Each distinct tag of `topics` numbered in the order first met, and each topic's tags as those
 * numbers (one flat list, `starts[i]` where topic i's begin).
 */
function numberTags(topics: Iterable<{ tags: readonly string[] }>): { names: string[]; flat: number[]; starts: number[] } {
  const numbers = new Map<string, number>();
  const names: string[] = [];
  const flat: number[] = [];
  const starts: number[] = [];
  for (const { tags } of topics) {
    starts.push(flat.length);
    for (const tag of tags) {
      let n = numbers.get(tag);
      if (n === undefined) {
        numbers.set(tag, (n = names.length));
        names.push(tag);
      }
      flat.push(n);
    }
  }
  starts.push(flat.length);
  return { names, flat, starts };
}

/**
 * Every pair of tags that some topic carries together, with how many topics carry both (topics'
 * tags are distinct), in the order the pairs are first met. The tags are numbered first, and a
 * pair is counted under one integer made of its tags' numbers, (lower × tags) + higher: a string
 * key for each of the millions of pairs a big site's topics carry took most of the time, and so
 * did keys past V8's small integers, which it hashes as heap numbers (these stay small below
 * 32,768 tags).
 */
export function pairCounts(topics: Iterable<{ tags: readonly string[] }>): PairCount[] {
  const { names, flat, starts } = numberTags(topics);
  const tags = names.length;
  const counts = new Map<number, PairCount>();
  for (let t = 0; t + 1 < starts.length; t++) {
    const end = starts[t + 1]!;
    for (let i = starts[t]!; i < end; i++) {
      for (let j = i + 1; j < end; j++) {
        const x = flat[i]!;
        const y = flat[j]!;
        const key = x < y ? x * tags + y : y * tags + x;
        const known = counts.get(key);
        if (known) known.count++;
        else counts.set(key, { pair: sortedPair(names[x]!, names[y]!), count: 1 });
      }
    }
  }
  return [...counts.values()];
}

/** A tag that shares topics with another, and how many. */
export interface RelatedTag {
  tag: string;
  count: number;
}

/** How many related tags a tag page lists. */
export const RELATED_TAGS_SHOWN = 10;

/** Whether `x` comes before `y` among a tag's related tags: more shared topics first, ties A→Z. */
const relatedBefore = (x: RelatedTag, y: RelatedTag) => x.count > y.count || (x.count === y.count && x.tag < y.tag);

/**
 * Each tag's related tags: the `limit` it shares most topics with, most first, ties A→Z. Each
 * tag's list is kept in that order and at most `limit` long as the pairs come (a pair that does
 * not make a full list is dropped at one comparison), rather than sorting every tag a tag shares
 * a topic with.
 */
export function relatedTags(pairs: readonly PairCount[], limit = RELATED_TAGS_SHOWN): Map<string, RelatedTag[]> {
  const related = new Map<string, RelatedTag[]>();
  const add = (tag: string, other: string, count: number) => {
    let list = related.get(tag);
    if (!list) related.set(tag, (list = []));
    const entry = { tag: other, count };
    if (list.length === limit && (limit === 0 || !relatedBefore(entry, list[limit - 1]!))) return;
    let at = list.length === limit ? limit - 1 : list.length;
    while (at > 0 && relatedBefore(entry, list[at - 1]!)) {
      list[at] = list[at - 1]!;
      at--;
    }
    list[at] = entry;
  };
  for (const { pair: [a, b], count } of pairs) {
    add(a, b, count);
    add(b, a, count);
  }
  return related;
}

/** The pairs that get a page and the frequent pairs the page budget leaves out, both most shared first. */
export interface IntersectionPlan {
  built: PairCount[];
  leftOut: PairCount[];
}

/** Pairs sharing at least `minTopics` topics get a page, the most shared first, `maxPages` at most. */
export function planIntersections(pairs: readonly PairCount[], { minTopics, maxPages }: { minTopics: number; maxPages: number }): IntersectionPlan {
  const frequent = pairs.filter(({ count }) => count >= minTopics).sort(comparePairs);
  return { built: frequent.slice(0, maxPages), leftOut: frequent.slice(maxPages) };
}

/**
 * The topics of each built pair, in the order given (listing order): one pass over the topics'
 * pairs, each looked up by its tags' numbers (only the built pairs' tags are numbered).
 */
export function intersectionTopics<T extends { tags: readonly string[] }>(topics: readonly T[], built: readonly PairCount[]): Map<string, T[]> {
  const lists = new Map<string, T[]>(built.map(({ pair }) => [pairKey(pair[0], pair[1]), []]));
  if (lists.size === 0) return lists;
  const numbers = new Map<string, number>();
  for (const { pair } of built) for (const tag of pair) if (!numbers.has(tag)) numbers.set(tag, numbers.size);
  const tags = numbers.size;
  const keyOf = (x: number, y: number) => (x < y ? x * tags + y : y * tags + x);
  const byKey = new Map<number, T[]>(built.map(({ pair: [a, b] }) => [keyOf(numbers.get(a)!, numbers.get(b)!), lists.get(pairKey(a, b))!]));
  const ns: number[] = [];
  for (const topic of topics) {
    ns.length = 0;
    for (const tag of topic.tags) {
      const n = numbers.get(tag);
      if (n !== undefined) ns.push(n);
    }
    for (let i = 0; i < ns.length; i++) {
      for (let j = i + 1; j < ns.length; j++) byKey.get(keyOf(ns[i]!, ns[j]!))?.push(topic);
    }
  }
  return lists;
}

/** The build's line about intersections: how many pages, and the pairs the budget left out (the first few). */
export function intersectionReport({ built, leftOut }: IntersectionPlan, shown = 5): string {
  const made = `${built.length.toLocaleString('en')} tag intersection page${built.length === 1 ? '' : 's'}`;
  if (leftOut.length === 0) return made;
  const named = leftOut.slice(0, shown).map(({ pair: [a, b], count }) => `'${a}' + '${b}' (${count})`).join(', ');
  const more = leftOut.length > shown ? `, and ${(leftOut.length - shown).toLocaleString('en')} more` : '';
  return `${made}; intersections.maxPages left out ${leftOut.length.toLocaleString('en')} pair${leftOut.length === 1 ? '' : 's'}: ${named}${more}`;
}
