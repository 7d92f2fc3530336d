// Words' relevancy: how the word matches of a query (found by WordMatcher) filter and rank topics.
import { effectiveSort, type SearchQuery } from './query.ts';
import { queryWords } from './words.ts';
import type { SearchIndex, SearchResult } from './engine.ts';

/** In a word's `exact` flags: the topic holds the word itself (in the fields searched). */
export const EXACT_WORD = 1;
/** In a word's `exact` flags: the topic's title holds the word itself. */
export const EXACT_IN_TITLE = 2;

/**
 * Word matches for a query, found by the caller (vocabulary + postings): per query word, a score
 * for every topic number (0: the topic does not contain the word, not even a prefix or typo of
 * it) and flags saying where it holds the word itself. Then, per quoted phrase, an entry marked
 * `phrase` whose `exact` is 1 where the phrase's words stand together: every topic found must hold
 * every phrase, whether all or any of the words are asked for; phrases add nothing to the score.
 */
export type WordMatches = Array<{ scores: Float64Array; exact: Uint8Array; phrase?: true }>;

/**
 * Relevancy ranks by what a topic holds exactly before how well it scores: more query words held
 * exactly first (so every topic holding all of them ranks above any that matches through a prefix
 * or a typo), then more of them in the title, then the score. Scores stay far below these steps.
 */
const EXACT_WORD_RANK = 1e6;
const TITLE_WORD_RANK = 1e4;

/**
 * How topic number `number` matches the words: how many of them it holds (exactly or not), its
 * relevancy (see EXACT_WORD_RANK), and whether it holds every phrase.
 */
function wordScore(words: WordMatches, number: number): { hits: number; total: number; phrases: boolean } {
  let total = 0;
  let hits = 0;
  for (let w = 0; w < words.length; w++) {
    const { scores, exact, phrase } = words[w]!;
    if (phrase) {
      if (!exact[number]) return { hits: 0, total: 0, phrases: false };
      continue;
    }
    const s = scores[number]!;
    if (s <= 0) continue;
    hits++;
    const flags = exact[number]!;
    total += s + (flags & EXACT_WORD ? EXACT_WORD_RANK : 0) + (flags & EXACT_IN_TITLE ? TITLE_WORD_RANK : 0);
  }
  return { hits, total, phrases: true };
}

/** How many of the matches are words (not phrases): what `all` asks a topic to hold. */
const wordCount = (words: WordMatches) => words.filter((word) => !word.phrase).length;

/** Whether a topic's word score (wordScore) passes: all `held` words (or any of them), and every phrase. */
function matches({ hits, phrases }: { hits: number; phrases: boolean }, held: number, mode: 'all' | 'any'): boolean {
  if (!phrases) return false;
  return mode === 'all' ? hits === held && hits > 0 : hits > 0;
}

/** Keeps the candidates that match the words (`all` or `any` of them); their relevancy is indexed by local ordinal. */
export function wordFilter(index: SearchIndex, candidates: Uint32Array, words: WordMatches, mode: 'all' | 'any'): { ordinals: Uint32Array; score: Float64Array } {
  const { global } = index;
  if (!global) throw new Error("words need the tag's topic numbers (withGlobalOrdinals)");
  const score = new Float64Array(index.count);
  const kept = new Uint32Array(candidates.length);
  let size = 0;
  const held = wordCount(words);
  for (let c = 0; c < candidates.length; c++) {
    const local = candidates[c]!;
    const scored = wordScore(words, global[local]!);
    if (matches(scored, held, mode)) {
      kept[size++] = local;
      score[local] = scored.total;
    }
  }
  return { ordinals: kept.slice(0, size), score };
}

/**
 * Whether a query has words and nothing else that needs core.json: no structured filter, relevancy
 * order. A `q` without words (`?!`) lists every topic in the listing order, which core.json gives.
 */
export function onlyWords(query: SearchQuery): boolean {
  return (
    queryWords(query.q).length > 0 && query.tags.length === 0 && query.excludeTags.length === 0 && !query.author && !query.type &&
    query.created.kind === 'any' && query.updated.kind === 'any' && query.minReplies === 0 && query.minViews === 0 &&
    query.maxReplies === undefined && query.maxViews === undefined && effectiveSort(query) === 'relevancy'
  );
}

/**
 * A search with words only (see onlyWords) over all `count` topics of the site, without core.json:
 * the requested page's topic numbers in relevancy order, as runSearch would give them.
 */
export function rankWords(count: number, words: WordMatches, mode: 'all' | 'any', page: number, pageSize: number): Omit<SearchResult, 'facets'> {
  const kept: number[] = [];
  const score = new Float64Array(count);
  const held = wordCount(words);
  // With all words asked for, a topic without the first one is passed over before it is scored.
  const first = mode === 'all' ? words.find((word) => !word.phrase)?.scores : undefined;
  for (let number = 0; number < count; number++) {
    if (first && !(first[number]! > 0)) continue;
    const scored = wordScore(words, number);
    if (matches(scored, held, mode)) (kept.push(number), (score[number] = scored.total));
  }
  return pagedByScore(kept, score, page, pageSize);
}

/**
 * Page `page` of `ordinals` in relevancy order (higher `score` first, then the higher topic number:
 * `numbers` gives each ordinal's, or the ordinals are the numbers), and the page after it, as
 * paged() gives them from every result sorted. Topic numbers follow `created` (index-build.ts), so
 * ties put the newest first, as the listing orders topics of the same `updated`, and answer the
 * same before core.json has arrived (rankWords) as after. Only the results up to the end of the
 * next page are put in order (kept in a heap on the way): a word held by most of a big site sorts
 * thousands of results for the 50 it shows.
 */
export function pagedByScore(ordinals: ArrayLike<number>, score: Float64Array, page: number, pageSize: number, numbers?: ArrayLike<number>): Omit<SearchResult, 'facets'> {
  const total = ordinals.length;
  const before = numbers ? (a: number, b: number) => score[b]! - score[a]! || numbers[b]! - numbers[a]! : (a: number, b: number) => score[b]! - score[a]! || b - a;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const pageNumber = Math.min(page, pages);
  const wanted = Math.min(total, (pageNumber + 1) * pageSize);
  // Ordering most of them anyway: one sort.
  if (wanted * 4 >= total) return paged(Uint32Array.from(ordinals).sort(before), page, pageSize);
  // A heap of the best `wanted` so far, the last of them (in relevancy order) at its root.
  const heap = new Uint32Array(wanted);
  let size = 0;
  const swap = (i: number, j: number) => {
    const held = heap[i]!;
    heap[i] = heap[j]!;
    heap[j] = held;
  };
  const sink = (at: number) => {
    for (;;) {
      const left = 2 * at + 1;
      if (left >= size) return;
      const right = left + 1;
      const later = right < size && before(heap[left]!, heap[right]!) < 0 ? right : left;
      if (before(heap[at]!, heap[later]!) >= 0) return;
      swap(at, later);
      at = later;
    }
  };
  for (let i = 0; i < total; i++) {
    const ordinal = ordinals[i]!;
    if (size < wanted) {
      // Rise while after the parent: the root stays the last.
      let at = size++;
      heap[at] = ordinal;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (before(heap[parent]!, heap[at]!) >= 0) break;
        swap(at, parent);
        at = parent;
      }
    } else if (before(ordinal, heap[0]!) < 0) {
      heap[0] = ordinal;
      sink(0);
    }
  }
  const first = heap.sort(before);
  const start = (pageNumber - 1) * pageSize;
  return { total, page: first.slice(start, start + pageSize), next: first.slice(start + pageSize, start + 2 * pageSize), pageNumber, pages };
}

/** Page `page` of sorted results (clamped to the last page), and the one after it. */
export function paged(sorted: Uint32Array, page: number, pageSize: number): Omit<SearchResult, 'facets'> {
  const pages = Math.max(1, Math.ceil(sorted.length / pageSize));
  const pageNumber = Math.min(page, pages);
  const start = (pageNumber - 1) * pageSize;
  return { total: sorted.length, page: sorted.slice(start, start + pageSize), next: sorted.slice(start + pageSize, start + 2 * pageSize), pageNumber, pages };
}
