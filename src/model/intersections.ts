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

/** The sorted pair of two tags. */
export function sortedPair(x: string, y: string): TagPair {
  return x < y ? [x, y] : [y, x];
}

/** Most shared topics first; ties by the first tag A→Z, then the second (code units): the same order every build. */
export function comparePairs(p: PairCount, q: PairCount): number {
  return q.count - p.count || (p.pair[0] < q.pair[0] ? -1 : p.pair[0] > q.pair[0] ? 1 : p.pair[1] < q.pair[1] ? -1 : p.pair[1] > q.pair[1] ? 1 : 0);
}

/** More tags than any site has: two tags' numbers make one safe integer key, (lower × this) + higher. */
const TAG_NUMBERS = 2 ** 26;

/**
 * Every pair of tags that some topic carries together, with how many topics carry both (topics'
 * tags are distinct), in the order the pairs are first met. Each tag is numbered as it is first
 * met, and a pair is counted under a number made of its tags' (a string key for each of the
 * millions of pairs a big site's topics carry took most of the time).
 */
export function pairCounts(topics: Iterable<{ tags: readonly string[] }>): PairCount[] {
  const numbers = new Map<string, number>();
  const numberOf = (tag: string) => {
    let n = numbers.get(tag);
    if (n === undefined) numbers.set(tag, (n = numbers.size));
    return n;
  };
  const counts = new Map<number, PairCount>();
  for (const { tags } of topics) {
    const ns = tags.map(numberOf);
    for (let i = 0; i < tags.length; i++) {
      for (let j = i + 1; j < tags.length; j++) {
        const key = ns[i]! < ns[j]! ? ns[i]! * TAG_NUMBERS + ns[j]! : ns[j]! * TAG_NUMBERS + ns[i]!;
        const known = counts.get(key);
        if (known) known.count++;
        else counts.set(key, { pair: sortedPair(tags[i]!, tags[j]!), count: 1 });
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

/** Each tag's related tags: the `limit` it shares most topics with, most first, ties A→Z. */
export function relatedTags(pairs: readonly PairCount[], limit = RELATED_TAGS_SHOWN): Map<string, RelatedTag[]> {
  const related = new Map<string, RelatedTag[]>();
  const add = (tag: string, other: string, count: number) => {
    let list = related.get(tag);
    if (!list) related.set(tag, (list = []));
    list.push({ tag: other, count });
  };
  for (const { pair: [a, b], count } of pairs) {
    add(a, b, count);
    add(b, a, count);
  }
  for (const [tag, list] of related) {
    list.sort((x, y) => y.count - x.count || (x.tag < y.tag ? -1 : x.tag > y.tag ? 1 : 0));
    related.set(tag, list.slice(0, limit));
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

/** The topics of each built pair, in the order given (listing order): one pass over the topics' pairs. */
export function intersectionTopics<T extends { tags: readonly string[] }>(topics: readonly T[], built: readonly PairCount[]): Map<string, T[]> {
  const lists = new Map<string, T[]>(built.map(({ pair }) => [pairKey(pair[0], pair[1]), []]));
  if (lists.size === 0) return lists;
  for (const topic of topics) {
    const { tags } = topic;
    for (let i = 0; i < tags.length; i++) {
      for (let j = i + 1; j < tags.length; j++) lists.get(pairKey(tags[i]!, tags[j]!))?.push(topic);
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
