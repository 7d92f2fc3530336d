import type Fuse from 'fuse.js';
import { deltaDecode, type PositionsFile, type PostingsFile, type VocabFile, type VocabularyFile } from './index-format.ts';
import { firstWordFiles, MAX_EXPANSIONS, positionsPath, postingsPath, postingsShard, PREFIX_MIN_CHARS, queryPhrases, queryWords, vocabKey, vocabPath } from './words.ts';
import { EXACT_IN_TITLE, EXACT_WORD, type WordMatches } from './relevance.ts';

const NO_SCORES = new Float64Array(0);

/** Reads one index file (a path under /search-index/); the browser fetches, tests read from disk. */
export type IndexReader = <T>(path: string) => Promise<T>;

interface VocabShard {
  file: VocabFile;
}

/** Fuse.js's typo tolerance: a term matches when some part of it is within 34% of the word's length in edits. */
const FUSE_OPTIONS = { includeScore: true, threshold: 0.34, ignoreLocation: true, minMatchCharLength: 2 };

/**
 * A word held as typed by at least this many topics is taken as meant: it matches its prefixes but
 * no typos (`form` finds `forms`, not `fork`). A rarer word, or one no topic holds, is
 * matched a typo away too. Fuse.js is then loaded (most words of a big site never need it).
 */
export const TYPOS_BELOW = 25;

let fuseModule: Promise<typeof Fuse> | undefined;
const loadFuse = () => (fuseModule ??= import('fuse.js').then((module) => module.default));

/** The looser tolerance of a close word offered when a word matched nothing (see closeTerm). */
const CLOSE_THRESHOLD = 0.5;

/**
 * The terms Fuse.js could match `word` in (indices into `terms`) at `threshold`. A match within k
 * edits leaves one of k + 1 pieces of the word intact (pigeonhole), so a term holding none of them
 * cannot match: Fuse.js then scores a few dozen terms instead of the whole shard, with the same result.
 */
export function typoCandidates(terms: readonly string[], word: string, threshold = FUSE_OPTIONS.threshold): number[] {
  const length = word.length;
  // Fuse.js accepts errors / length <= threshold (the epsilon only guards the float product).
  const edits = Math.floor(threshold * length + 1e-9);
  const all = () => terms.map((_, i) => i);
  // Fuse.js splits words over 32 characters into chunks scored apart: no filter for those.
  if (length > 32 || edits + 1 > length) return all();
  const pieces: string[] = [];
  for (let p = 0; p <= edits; p++) pieces.push(word.slice(Math.floor((p * length) / (edits + 1)), Math.floor(((p + 1) * length) / (edits + 1))));
  const out: number[] = [];
  for (let i = 0; i < terms.length; i++) {
    const term = terms[i]!;
    for (const piece of pieces) {
      if (term.includes(piece)) {
        out.push(i);
        break;
      }
    }
  }
  return out;
}

/** How a term was matched to a query word, as a weight: typos and prefixes count less than the word itself. */
const EXACT = 1;
const PREFIX = 0.75;
const TYPO = 0.6;

/**
 * Finds the topics matching each word of a query (SPEC 4.2 `q`): every topic containing the word
 * itself, plus those containing a term that starts with it or, for a word few topics hold
 * (TYPOS_BELOW), is a typo away from it (Fuse.js over the vocabulary shard of the word's first
 * character). Only the shards a query needs are read.
 */
export class WordMatcher {
  /** Index files asked for, by path: each is read once. */
  private readonly files = new Map<string, Promise<unknown>>();
  private readonly read: IndexReader;
  private readonly vocabKeys: Set<string>;
  private readonly bounds: readonly string[];
  private readonly topicCount: number;

  constructor(read: IndexReader, info: { vocabKeys: string[]; postingBounds: string[]; count: number }) {
    this.read = read;
    this.vocabKeys = new Set(info.vocabKeys);
    this.bounds = info.postingBounds;
    this.topicCount = info.count;
  }

  private file<T>(path: string): Promise<T> {
    let file = this.files.get(path);
    if (!file) this.files.set(path, (file = this.read<T>(path)));
    return file as Promise<T>;
  }

  private vocabShard(key: string): Promise<VocabShard | undefined> {
    return this.vocabKeys.has(key) ? this.file<VocabFile>(vocabPath(key)).then((file) => ({ file })) : Promise.resolve(undefined);
  }

  private postingsShard(n: number): Promise<PostingsFile> {
    return this.file<PostingsFile>(postingsPath(n));
  }

  private positionsShard(n: number): Promise<PositionsFile> {
    return this.file<PositionsFile>(positionsPath(n));
  }

  /**
   * Where a term stands in each topic holding it: global ordinal → its places in the title and in
   * the post (word numbers from 0). Read from the term's positions shard.
   */
  private async places(term: string): Promise<Map<number, { title: Float64Array; post: Float64Array }>> {
    const n = postingsShard(term, this.bounds);
    const [postings, positions] = await Promise.all([this.postingsShard(n), this.positionsShard(n)]);
    const out = new Map<number, { title: Float64Array; post: Float64Array }>();
    // A term of the query, not of the vocabulary: own keys only (`constructor` is no entry of a shard).
    if (!Object.hasOwn(postings, term) || !Object.hasOwn(positions, term)) return out;
    const entry = postings[term]!;
    const flat = positions[term]!;
    const ordinals = deltaDecode(entry[0]);
    for (let i = 0, at = 0; i < ordinals.length; i++) {
      const head = flat[at++]!;
      const titleCount = head % 2 === 1 ? flat[at++]! : 0;
      const postCount = Math.floor(head / 2);
      const title = deltaDecode(flat.slice(at, at + titleCount));
      at += titleCount;
      const post = deltaDecode(flat.slice(at, at + postCount));
      at += postCount;
      out.set(ordinals[i]!, { title, post });
    }
    return out;
  }

  /**
   * Per quoted phrase of `q` (see queryPhrases), the topics where its words stand together, in
   * order, all in the title or all in the post (in the title only, with `titlesOnly`): 1 per global
   * ordinal. Its words must be there exactly (no prefix, no typo). Only a phrase's own terms' postings
   * and positions shards are read.
   */
  async phrases(q: string, titlesOnly: boolean): Promise<Uint8Array[]> {
    return Promise.all(
      queryPhrases(q).map(async (phrase) => {
        const found = new Uint8Array(this.topicCount);
        // Terms that cannot be in the index (their vocabulary shard does not exist) find nothing, and need no file.
        if (phrase.some((term) => !this.vocabKeys.has(vocabKey(term)))) return found;
        const places = await Promise.all(phrase.map((term) => this.places(term)));
        const rarest = places.reduce((a, b) => (b.size < a.size ? b : a));
        for (const ordinal of rarest.keys()) {
          const at = places.map((map) => map.get(ordinal));
          if (at.some((where) => where === undefined)) continue;
          const fields = titlesOnly ? (['title'] as const) : (['title', 'post'] as const);
          if (fields.some((field) => standsTogether(at.map((where) => where![field])))) found[ordinal] = 1;
        }
        return found;
      }),
    );
  }

  /** The vocabulary terms a query word stands for, with their weight and document frequency. */
  async expand(word: string): Promise<Array<{ term: string; weight: number; df: number }>> {
    const shard = await this.vocabShard(vocabKey(word));
    if (!shard) return [];
    const { terms, df } = shard.file;
    const found = new Map<number, number>();
    const exact = binarySearch(terms, word);
    if (exact >= 0) found.set(exact, EXACT);
    if ([...word].length >= PREFIX_MIN_CHARS) {
      // Terms sorted: the ones starting with the word follow its insertion point.
      const prefixEnd = found.size + MAX_EXPANSIONS;
      for (let i = exact >= 0 ? exact + 1 : ~exact; i < terms.length && terms[i]!.startsWith(word) && found.size < prefixEnd; i++) found.set(i, PREFIX);
      if (exact < 0 || df[exact]! < TYPOS_BELOW) {
        const candidates = typoCandidates(terms, word);
        const Fuse = await loadFuse();
        const fuse = new Fuse(candidates.map((i) => terms[i]!), FUSE_OPTIONS);
        for (const hit of fuse.search(word, { limit: MAX_EXPANSIONS })) {
          const i = candidates[hit.refIndex]!;
          if (!found.has(i)) found.set(i, TYPO * (1 - (hit.score ?? 0)));
        }
      }
    }
    return [...found].map(([i, weight]) => ({ term: terms[i]!, weight, df: df[i]! }));
  }

  /**
   * A vocabulary term close to a word that matched nothing (a looser typo tolerance than matching
   * uses, within the word's own vocabulary shard): a way out of no results. Undefined when none is.
   */
  async closeTerm(word: string): Promise<string | undefined> {
    const shard = await this.vocabShard(vocabKey(word));
    if (!shard || [...word].length < 2) return undefined;
    const { terms } = shard.file;
    const candidates = typoCandidates(terms, word, CLOSE_THRESHOLD);
    const Fuse = await loadFuse();
    const hit = new Fuse(candidates.map((i) => terms[i]!), { ...FUSE_OPTIONS, threshold: CLOSE_THRESHOLD }).search(word, { limit: 1 })[0];
    return hit && hit.item !== word ? hit.item : undefined;
  }

  /**
   * The whole vocabulary, fetched ahead in one file (vocab-all.json): a later word's typos and
   * prefixes are then found without waiting for its vocabulary shard, and only its postings are read.
   * A shard already asked for is kept.
   */
  addVocabulary(all: VocabularyFile): void {
    for (const key of this.vocabKeys) {
      const path = vocabPath(key);
      if (Object.hasOwn(all, key) && !this.files.has(path)) this.files.set(path, Promise.resolve(all[key]));
    }
  }

  /** Starts fetching what `q`'s words will need (see firstWordFiles), e.g. while they are typed. */
  prefetch(q: string): void {
    for (const path of firstWordFiles(q, this.vocabKeys, this.bounds)) void this.file(path).catch(() => undefined);
  }

  /**
   * Per query word, a score per global ordinal (idf × match weight, doubled for a title hit; 0: no
   * match) and where the word itself (not a prefix or typo of it) is (EXACT_WORD, EXACT_IN_TITLE);
   * then per quoted phrase, where its words stand together (`phrase`, see phrases()).
   * `seen`, when given, receives the terms each word was matched in (typos included), so results
   * can mark them, and the words no term matched.
   */
  async match(q: string, titlesOnly: boolean, seen?: { terms: Set<string>; unmatched: string[] }): Promise<WordMatches> {
    const [words, phrases] = await Promise.all([this.words(q, titlesOnly, seen), this.phrases(q, titlesOnly)]);
    // A phrase is one more requirement (relevance.ts): its words are matched as words too.
    return [...words, ...phrases.map((exact) => ({ scores: NO_SCORES, exact, phrase: true as const }))];
  }

  private words(q: string, titlesOnly: boolean, seen?: { terms: Set<string>; unmatched: string[] }): Promise<WordMatches> {
    return Promise.all(
      queryWords(q).map(async (word) => {
        const scores = new Float64Array(this.topicCount);
        const exact = new Uint8Array(this.topicCount);
        this.prefetch(word); // its vocabulary and own postings at once (firstWordFiles)
        const expansions = await this.expand(word);
        if (seen) {
          for (const { term } of expansions) seen.terms.add(term);
          if (expansions.length === 0) seen.unmatched.push(word);
        }
        const shards = await Promise.all(expansions.map(({ term }) => this.postingsShard(postingsShard(term, this.bounds))));
        expansions.forEach(({ term, weight, df }, e) => {
          const entry = shards[e]![term];
          if (!entry) return;
          const idf = Math.log(1 + this.topicCount / df);
          const title = deltaDecode(entry[1]);
          const all = titlesOnly ? title : deltaDecode(entry[0]);
          // Both lists ascend: walk the title list alongside to know which hits are in the title.
          for (let i = 0, t = 0; i < all.length; i++) {
            const ordinal = all[i]!;
            while (t < title.length && title[t]! < ordinal) t++;
            const inTitle = title[t] === ordinal;
            const score = weight * idf * (inTitle ? 2 : 1);
            if (score > scores[ordinal]!) scores[ordinal] = score;
            if (term === word) exact[ordinal] = inTitle ? EXACT_WORD | EXACT_IN_TITLE : EXACT_WORD;
          }
        });
        return { scores, exact };
      }),
    );
  }
}

/** Whether, for some place p of the first term, term i stands at p + i for every i (each list ascending). */
function standsTogether(places: readonly Float64Array[]): boolean {
  const sets = places.slice(1).map((list) => new Set(list));
  return places[0]!.some((start) => sets.every((set, i) => set.has(start + i + 1)));
}

function binarySearch(sorted: readonly string[], value: string): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const here = sorted[mid]!;
    if (here === value) return mid;
    if (here < value) low = mid + 1;
    else high = mid - 1;
  }
  return ~low;
}
