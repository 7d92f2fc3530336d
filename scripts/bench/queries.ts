/**
 * The searches the benchmark runs, made from the corpus's own index (its tags, authors, types,
 * dates and counts) with a seed: structured filters alone, and words (with typos) plus filters.
 * Each search is the query string a visitor's form would produce.
 */
import { deltaDecode, type CoreFile } from '../../src/search/index-format.ts';
import { Random } from './random.ts';
import { GENERAL, TECHNICAL } from './vocabulary.ts';

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** What the query makers draw from: a topic's tags and author, so filters hit real data. */
class Picker {
  readonly random: Random;
  private readonly core: CoreFile;
  private readonly updatedMs: Float64Array;

  constructor(core: CoreFile, seed: string) {
    this.core = core;
    this.random = new Random(seed);
    this.updatedMs = deltaDecode(core.updated).map((seconds) => seconds * 1000);
  }

  private topic(): number {
    return this.random.int(0, this.core.count - 1);
  }

  /** A tag, as often as topics carry it (popular tags more often). */
  tag(): string {
    for (;;) {
      const tags = this.core.tags[this.topic()]!;
      if (tags.length > 0) return this.core.tagNames[this.random.pick(tags)]!;
    }
  }

  /** A rarely used tag. */
  rareTag(): string {
    const { tagNames } = this.core;
    return tagNames[this.random.int(Math.floor(tagNames.length / 2), tagNames.length - 1)]!;
  }

  /** Two tags that occur together on some topic. */
  tagPair(): string[] {
    for (;;) {
      const tags = this.core.tags[this.topic()]!;
      if (tags.length >= 2) return this.random.shuffled(tags).slice(0, 2).map((id) => this.core.tagNames[id]!);
    }
  }

  author(): string {
    return this.core.authorNames[this.core.author[this.topic()]!]!;
  }

  /** A content type with sub-forums half of the time (the filter then includes them). */
  type(): string {
    const parents = this.core.types.filter((_, i) => this.core.types.some((child) => child.parent === i));
    return this.random.chance(0.5) && parents.length > 0 ? this.random.pick(parents).id : this.random.pick(this.core.types).id;
  }

  /** A custom range of about a year somewhere in the corpus's span. */
  range(): [string, string] {
    const oldest = Math.min(...this.updatedMs.slice(-50));
    const newest = this.updatedMs[0]!;
    const from = oldest + this.random.next() * Math.max(0, newest - oldest - 365 * DAY_MS);
    return [isoDay(from), isoDay(from + this.random.int(60, 420) * DAY_MS)];
  }

  word(): string {
    return this.random.chance(0.65) ? this.random.pick(TECHNICAL) : this.random.pick(GENERAL.filter((word) => word.length >= 4));
  }

  /** A word with one typo (a letter dropped, doubled, swapped or replaced), as people type them. */
  typo(): string {
    return this.misspelt(this.typoWord());
  }

  /** A word long enough to misspell. */
  typoWord(): string {
    return this.random.pick(TECHNICAL.filter((w) => w.length >= 5));
  }

  /** `word` with one typo; it may come out as the word itself (a letter swapped with its twin). */
  misspelt(word: string): string {
    const i = this.random.int(1, word.length - 2);
    switch (this.random.int(0, 3)) {
      case 0: return word.slice(0, i) + word.slice(i + 1);
      case 1: return word.slice(0, i) + word[i] + word.slice(i);
      case 2: return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
      default: return word.slice(0, i) + 'aeiou'[this.random.int(0, 4)] + word.slice(i + 1);
    }
  }
}

type Maker = (p: Picker) => Record<string, string>;

/** Structured filters only: tags any/all, author, type, dates, minimum replies/views, sorts. */
const STRUCTURED: Maker[] = [
  (p) => ({ tags: p.tag() }),
  (p) => ({ tags: [p.tag(), p.tag(), p.rareTag()].join(','), match: 'any' }),
  (p) => ({ tags: p.tagPair().join(','), match: 'all' }),
  (p) => ({ author: p.author() }),
  (p) => ({ tags: p.tag(), author: p.author() }),
  (p) => ({ type: p.type() }),
  (p) => ({ type: p.type(), tags: p.tag() }),
  (p) => {
    const [from, to] = p.range();
    return { created: 'custom', created_from: from, created_to: to, tags: p.tag() };
  },
  (p) => ({ updated: p.random.pick(['month', 'six_months', 'year']), type: p.type() }),
  (p) => ({ min_replies: String(p.random.pick([1, 5, 10, 20])), tags: p.tag() }),
  (p) => ({ min_views: String(p.random.pick([200, 1000, 5000])), sort: 'views' }),
  (p) => ({ tags: p.tag(), min_replies: '3', min_views: '300', sort: 'replies' }),
  (p) => ({ created: 'year', author: p.author(), sort: 'newest' }),
  (p) => ({ tags: [p.tag(), p.tag()].join(','), match: 'any', type: p.type(), updated: 'six_months' }),
];

/** Words (1–2, some with a typo), alone or with filters. */
const WORDS: Maker[] = [
  (p) => ({ q: p.word() }),
  (p) => ({ q: `${p.word()} ${p.word()}` }),
  (p) => ({ q: p.typo() }),
  (p) => ({ q: `${p.word()} ${p.typo()}` }),
  (p) => ({ q: `${p.word()} ${p.word()}`, words: 'any' }),
  (p) => ({ q: p.word(), in: 'titles' }),
  (p) => ({ q: p.word(), tags: p.tag() }),
  (p) => ({ q: p.typo(), type: p.type() }),
  (p) => ({ q: `${p.word()} ${p.word()}`, min_replies: '2', sort: 'replies' }),
  (p) => {
    const [from, to] = p.range();
    return { q: p.word(), created: 'custom', created_from: from, created_to: to };
  },
];

function make(makers: Maker[], core: CoreFile, seed: string, count: number): string[] {
  const picker = new Picker(core, seed);
  // Every maker in turn, so each kind of filter is measured about equally often.
  return Array.from({ length: count }, (_, i) => new URLSearchParams(makers[i % makers.length]!(picker)).toString());
}

export function structuredQueries(core: CoreFile, seed: string, count: number): string[] {
  return make(STRUCTURED, core, `${seed}/structured`, count);
}

export function wordQueries(core: CoreFile, seed: string, count: number): string[] {
  return make(WORDS, core, `${seed}/words`, count);
}

/** One search of the tagsite–Pagefind comparison: both systems get the same words and filter. */
export interface ComparedQuery {
  kind: 'words' | 'typo' | 'filtered';
  q: string;
  tags?: string;
  author?: string;
  /** For a misspelt word: the word meant, whose topics recall counts. */
  intended?: string;
}

/** The query string of a compared search, the same for either page (/search/ or the Pagefind page). */
export function comparedParams(query: ComparedQuery): string {
  const params = new URLSearchParams({ q: query.q });
  if (query.tags) params.set('tags', query.tags);
  if (query.author) params.set('author', query.author);
  return params.toString();
}

/** Of every ten searches: six of words, one misspelt word, three words with a tag or an author (30 / 5 / 15 of 50). */
const COMPARED_PATTERN: ReadonlyArray<ComparedQuery['kind']> = ['words', 'words', 'words', 'filtered', 'words', 'words', 'typo', 'words', 'filtered', 'filtered'];

function comparedQuery(p: Picker, kind: ComparedQuery['kind'], n: number): ComparedQuery {
  if (kind === 'typo') {
    const intended = p.typoWord();
    let q = p.misspelt(intended);
    while (q === intended) q = p.misspelt(intended);
    return { kind, q, intended };
  }
  const first = p.word();
  if (kind === 'filtered') return n % 2 === 0 ? { kind, q: first, tags: p.tag() } : { kind, q: first, author: p.author() };
  if (n % 2 === 0) return { kind, q: first };
  let second = p.word();
  while (second === first) second = p.word();
  return { kind, q: `${first} ${second}` };
}

/** The comparison's searches, the same for the same corpus and seed: 1–2 words, a misspelt word, or a word with a filter. */
export function comparisonQueries(core: CoreFile, seed: string, count: number): ComparedQuery[] {
  const picker = new Picker(core, `${seed}/compared`);
  const made = new Map<ComparedQuery['kind'], number>();
  // No search twice: a page asked again for the search it shows need not search at all.
  const seen = new Set<string>();
  return Array.from({ length: count }, (_, i) => {
    const kind = COMPARED_PATTERN[i % COMPARED_PATTERN.length]!;
    made.set(kind, (made.get(kind) ?? 0) + 1);
    let query = comparedQuery(picker, kind, made.get(kind)! - 1);
    for (let tries = 0; seen.has(comparedParams(query)) && tries < 100; tries++) query = comparedQuery(picker, kind, made.get(kind)! - 1);
    seen.add(comparedParams(query));
    return query;
  });
}
