/**
 * What the tagsite–Pagefind comparison counts as a right answer, by brute force over the loaded
 * topics: the topics holding every word of a query exactly (with tagsite's folding, as the test
 * oracle tests/oracles/search.ts matches them) and passing its filter; and recall and precision
 * of each system's results against them. Also the corpus's vocabulary figures.
 */
import type { Topic } from '../../src/content/topics.ts';
import { memberKey } from '../../src/model/members.ts';
import { queryWords, terms } from '../../src/search/words.ts';
import type { ComparedQuery } from './queries.ts';

/** The first results a visitor sees: precision is counted on them. */
export const FIRST_RESULTS = 25;

/** The corpus's words: who holds the words asked about, and how its vocabulary is shaped. */
export interface CorpusWords {
  /** Word → slugs of the topics holding it in their title or post, for the words asked about. */
  holders: Map<string, Set<string>>;
  /** Distinct words of all titles and posts. */
  distinct: number;
  /** Words of all titles and posts, repeats counted. */
  total: number;
  /** Zipf exponent of the word frequencies (slope of log frequency over log rank, ranks 1–1,000). */
  zipf: number;
}

/** The words a query's relevant topics must hold: the intended word of a misspelt one. */
export function wordsOf(query: ComparedQuery): string[] {
  return queryWords(query.intended ?? query.q);
}

/**
 * Least-squares slope of log(frequency) over log(rank), negated, for the `ranks` most frequent
 * words: about 1 for natural text (Zipf's law).
 */
export function zipfExponent(counts: Iterable<number>, ranks = 1000): number {
  const top = [...counts].sort((a, b) => b - a).slice(0, ranks);
  if (top.length < 2) return NaN;
  const xs = top.map((_, i) => Math.log(i + 1));
  const ys = top.map((count) => Math.log(count));
  const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
  const [mx, my] = [mean(xs), mean(ys)];
  let num = 0;
  let den = 0;
  xs.forEach((x, i) => {
    num += (x - mx) * (ys[i]! - my);
    den += (x - mx) ** 2;
  });
  return -num / den;
}

/** One pass over the topics: the holders of `wanted` words, and the vocabulary's figures. */
export function corpusWords(topics: readonly Topic[], wanted: Iterable<string>): CorpusWords {
  const holders = new Map<string, Set<string>>([...wanted].map((word) => [word, new Set<string>()]));
  const counts = new Map<string, number>();
  let total = 0;
  for (const topic of topics) {
    const words = [...terms(topic.title), ...terms(topic.text)];
    total += words.length;
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    for (const word of new Set(words)) holders.get(word)?.add(topic.slug);
  }
  return { holders, distinct: counts.size, total, zipf: zipfExponent(counts.values()) };
}

/** Whether a topic passes a compared query's filter (a tag, or an author by member key, as tagsite's engine reads it). */
function passesFilter(topic: Topic, query: ComparedQuery): boolean {
  if (query.tags && !topic.tags.includes(query.tags)) return false;
  return !query.author || memberKey(topic.author) === memberKey(query.author);
}

/** Slugs of the topics a query should find: every word held exactly, and the filter passed. */
export function relevantTopics(query: ComparedQuery, topics: readonly Topic[], words: CorpusWords): Set<string> {
  const sets = wordsOf(query).map((word) => words.holders.get(word) ?? new Set<string>());
  const out = new Set<string>();
  if (sets.length === 0) return out;
  for (const topic of topics) if (sets.every((set) => set.has(topic.slug)) && passesFilter(topic, query)) out.add(topic.slug);
  return out;
}

/** How one system answered one query, against its relevant topics. */
export interface QueryOutcome {
  kind: ComparedQuery['kind'];
  /** Topics holding every word (and passing the filter). */
  relevant: number;
  /** All results the system returned. */
  returned: number;
  /** Relevant topics among all the results. */
  found: number;
  /** Results among the first FIRST_RESULTS, and the relevant ones among them. */
  first: number;
  firstRelevant: number;
}

/** Compares a system's results (slugs, in its order) with the relevant topics. */
export function outcomeOf(kind: ComparedQuery['kind'], relevant: ReadonlySet<string>, results: readonly string[]): QueryOutcome {
  const first = results.slice(0, FIRST_RESULTS);
  return {
    kind,
    relevant: relevant.size,
    returned: results.length,
    found: new Set(results.filter((slug) => relevant.has(slug))).size,
    first: first.length,
    firstRelevant: first.filter((slug) => relevant.has(slug)).length,
  };
}

/** A mean share over some queries, its lowest, and how many queries it is over. */
export interface Share {
  mean: number;
  lowest: number;
  queries: number;
}

function share(values: number[]): Share {
  if (values.length === 0) return { mean: NaN, lowest: NaN, queries: 0 };
  return { mean: values.reduce((sum, v) => sum + v, 0) / values.length, lowest: Math.min(...values), queries: values.length };
}

export interface Quality {
  /** Recall of the word queries (with filters or not) that have a relevant topic. */
  recall: Share;
  /** Recall of the misspelt queries, counted on the topics holding the intended word. */
  typoRecall: Share;
  /** Relevant share of the first results, over word queries with at least FIRST_RESULTS relevant topics and some results. */
  precision: Share;
  /** All results of the word queries over all their relevant topics (1: exactly the topics holding every word, if recall is full). */
  perRelevant: number;
}

/** Recall, precision and result counts over all queries of one system. */
export function quality(outcomes: readonly QueryOutcome[]): Quality {
  const words = outcomes.filter((o) => o.kind !== 'typo');
  const recallOf = (list: readonly QueryOutcome[]) => share(list.filter((o) => o.relevant > 0).map((o) => o.found / o.relevant));
  const relevant = words.reduce((sum, o) => sum + o.relevant, 0);
  return {
    recall: recallOf(words),
    typoRecall: recallOf(outcomes.filter((o) => o.kind === 'typo')),
    precision: share(words.filter((o) => o.relevant >= FIRST_RESULTS && o.first > 0).map((o) => o.firstRelevant / o.first)),
    perRelevant: relevant === 0 ? NaN : words.reduce((sum, o) => sum + o.returned, 0) / relevant,
  };
}
