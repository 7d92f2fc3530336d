// The terms of the search index in code-point order, with their postings handed out a run of terms
// at a time (./index-build.ts writes them), from the topics' postings as read (./word-postings.ts).
import type { Topic } from '../content/topics.ts';
import { readPostings, type ReadPostings, type TermPostings, type TextOf } from './word-postings.ts';
import { letGo, PostingCursor, readPlaces } from './number-lists.ts';

/** At most this many postings, and this many places, are laid out by term at a time (16 and 32 MB). */
const LAID_OUT_POSTINGS = 1 << 22;
const LAID_OUT_PLACES = 1 << 23;

/** Every term of a read in code-point order, and each term's postings handed out for runs of those terms (sortedWords). */
export interface SortedWords {
  /** The terms, in code-point order. */
  terms: readonly string[];
  /** How many topics hold each term (by its place in `terms`). */
  df: Int32Array;
  /** The postings of the terms from place `from` up to `to` in `terms`, in that order. */
  postings(from: number, to: number): Generator<TermPostings>;
}

/**
 * The terms of a read in code-point order, with what handing out their postings needs. Each term's
 * lists are made only when it is handed out: what a big site holds meanwhile is a few bytes a
 * posting, not an array per term.
 *
 * The read is in ordinal order, and taking each term's postings straight from it jumps about the
 * whole table for every posting (3 s at 100,000 topics, most of it waiting for memory). So the
 * terms are taken a run at a time, each run's postings and places first laid out term by term in
 * one pass over the table (a counting sort), then handed out from there in order: one pass for
 * all terms up to some 10,000 topics, a few passes for bigger sites, whose runs are sized to keep
 * the laid-out copy within 48 MB. `run` sets those sizes (the tests make them small). A rebuild
 * asks for the terms of the few postings files it makes (../search/index-build.ts): one pass a run of them.
 */
export function sortedWords(read: ReadPostings, run = { postings: LAID_OUT_POSTINGS, places: LAID_OUT_PLACES }): SortedWords {
  const { names, df, titleDf, placeCount, topicPostings, postings: bytes } = read;
  const terms = names.length;
  const order = names.map((_, id) => id).sort((a, b) => (names[a]! < names[b]! ? -1 : names[a]! > names[b]! ? 1 : 0));
  const rank = new Int32Array(terms);
  order.forEach((id, r) => (rank[id] = r));
  // Per term in that order: where its postings, and its places, start among all terms'.
  const firstPosting = new Float64Array(terms + 1);
  const firstPlace = new Float64Array(terms + 1);
  for (let r = 0; r < terms; r++) {
    firstPosting[r + 1] = firstPosting[r]! + df[order[r]!]!;
    firstPlace[r + 1] = firstPlace[r]! + placeCount[order[r]!]!;
  }
  function* postings(start: number, end: number): Generator<TermPostings> {
    /** A run's postings (each its ordinal, or -1 - ordinal when the term is in its title) and places; bigger for a term that needs more. */
    let ordinals = new Int32Array(Math.min(run.postings, firstPosting[end]! - firstPosting[start]!));
    let places = new Int32Array(Math.min(run.places, firstPlace[end]! - firstPlace[start]!));
    try {
      for (let from = start; from < end; ) {
        // The run: terms from `from` up to `to`, as many as fit (at least one).
        let to = from + 1;
        while (to < end && firstPosting[to + 1]! - firstPosting[from]! <= ordinals.length && firstPlace[to + 1]! - firstPlace[from]! <= places.length) to++;
        if (firstPosting[to]! - firstPosting[from]! > ordinals.length) {
          letGo(ordinals);
          ordinals = new Int32Array(firstPosting[to]! - firstPosting[from]!);
        }
        if (firstPlace[to]! - firstPlace[from]! > places.length) {
          letGo(places);
          places = new Int32Array(firstPlace[to]! - firstPlace[from]!);
        }
        const nextPosting = new Float64Array(to - from);
        const nextPlace = new Float64Array(to - from);
        for (let r = from; r < to; r++) {
          nextPosting[r - from] = firstPosting[r]! - firstPosting[from]!;
          nextPlace[r - from] = firstPlace[r]! - firstPlace[from]!;
        }
        // The read is in ordinal order, topic by topic; each posting begins where the one before ends.
        const posting = new PostingCursor(bytes);
        for (let ordinal = 0; ordinal < topicPostings.length; ordinal++) {
          for (let n = topicPostings[ordinal]!; n > 0; n--) {
            posting.next();
            const r = rank[posting.term]! - from;
            if (r < 0 || r >= to - from) continue;
            // The first number after the term's, its first byte's lowest bit: whether the term is in the title.
            ordinals[nextPosting[r]!++] = bytes[posting.from]! & 1 ? -1 - ordinal : ordinal;
            nextPlace[r] = readPlaces(bytes, posting.from, posting.end, places, nextPlace[r]!);
          }
        }
        // Each list is made at its final length (its counts are known), not grown as it is filled.
        for (let r = from; r < to; r++) {
          const id = order[r]!;
          const all: number[] = new Array(df[id]!);
          const title: number[] = new Array(titleDf[id]!);
          let titles = 0;
          for (let k = firstPosting[r]! - firstPosting[from]!, n = 0; n < all.length; k++, n++) {
            const ordinal = ordinals[k]!;
            if (ordinal < 0) all[n] = title[titles++] = -1 - ordinal;
            else all[n] = ordinal;
          }
          const list: number[] = new Array(placeCount[id]!);
          for (let k = firstPlace[r]! - firstPlace[from]!, n = 0; n < list.length; k++, n++) list[n] = places[k]!;
          yield { term: names[id]!, all, title, positions: list };
        }
        from = to;
      }
    } finally {
      // Tens of megabytes outside the heap: given back now (letGo).
      letGo(ordinals);
      letGo(places);
    }
  }
  return { terms: order.map((id) => names[id]!), df: Int32Array.from(order, (id) => df[id]!), postings };
}

/** Every term of a read with its postings, in code-point order of the terms (sortedWords). */
export function termPostings(read: ReadPostings, run?: { postings: number; places: number }): Generator<TermPostings> {
  const words = sortedWords(read, run);
  return words.postings(0, words.terms.length);
}

/** Every term of the topics' titles and posts with its postings, in code-point order of the terms (`topics` in number order: ./index-build.ts topicNumbers). */
export function wordPostings(topics: readonly Topic[], textOf?: TextOf): SortedWords {
  return sortedWords(readPostings(topics, undefined, textOf));
}
