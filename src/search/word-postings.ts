// The word postings of the search index: every term of the topics' titles and posts, with the
// topics that hold it and where it stands in each, read in one pass (./index-build.ts writes them).
import type { Topic } from '../content/topics.ts';
import { terms } from './words.ts';

/** A list of 32-bit integers that grows as it is pushed to: a big site's postings without a JS number per element. */
class IntList {
  items = new Int32Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.items.length) {
      const grown = new Int32Array(this.items.length * 2);
      grown.set(this.items);
      this.items = grown;
    }
    this.items[this.length++] = value;
  }
}

/** One term's postings: the ordinals holding it, those holding it in the title, and where it stands (see PositionsFile). */
export interface TermPostings {
  term: string;
  all: number[];
  title: number[];
  positions: number[];
}

/**
 * Every term of the topics' titles and posts with its postings, in code-point order of the terms.
 * Read in one pass into flat typed arrays (a posting: its term, ordinal and where its positions
 * start; then the positions), each term's lists are made only when it is handed out: what a big
 * site holds meanwhile is a few bytes a posting, not an array per term.
 */
export function* wordPostings(topics: readonly Topic[]): Generator<TermPostings> {
  const ids = new Map<string, number>();
  const names: string[] = [];
  const df = new IntList();
  /** Per term id: how many topics hold it in the title, and how many numbers its positions take. */
  const titleDf = new IntList();
  const placeCount = new IntList();
  const postingTerm = new IntList();
  const postingOrdinal = new IntList();
  /** A posting's first number in `positions`, its title flag in the lowest bit (start × 2 + inTitle). */
  const postingStart = new IntList();
  const positions = new IntList();
  // One topic's terms, without an object per term: each distinct term gets a slot (in the order the
  // terms first appear), and each occurrence notes its slot and place; the occurrences are then
  // grouped by slot, title ones first, each group in order of place.
  /** Per term id: the last ordinal + 1 whose topic holds it, and its slot there. */
  const seenIn = new IntList();
  const slotOf = new IntList();
  const slotTerm = new IntList();
  const occurrenceSlot = new IntList();
  const occurrencePlace = new IntList();
  const note = (list: readonly string[], ordinal: number) => {
    for (let i = 0; i < list.length; i++) {
      const term = list[i]!;
      let id = ids.get(term);
      if (id === undefined) {
        ids.set(term, (id = names.length));
        names.push(term);
        df.push(0);
        titleDf.push(0);
        placeCount.push(0);
        seenIn.push(0);
        slotOf.push(0);
      }
      if (seenIn.items[id] !== ordinal + 1) {
        seenIn.items[id] = ordinal + 1;
        slotOf.items[id] = slotTerm.length;
        slotTerm.push(id);
      }
      occurrenceSlot.push(slotOf.items[id]!);
      occurrencePlace.push(i);
    }
  };
  topics.forEach((topic, ordinal) => {
    slotTerm.length = occurrenceSlot.length = occurrencePlace.length = 0;
    note(terms(topic.title), ordinal);
    const titleOccurrences = occurrenceSlot.length;
    note(terms(topic.text), ordinal);
    const slots = slotTerm.length;
    // Per slot: its title and post occurrences, counted, then laid out slot by slot (a counting sort).
    const titles = new Int32Array(slots);
    const posts = new Int32Array(slots);
    for (let o = 0; o < occurrenceSlot.length; o++) (o < titleOccurrences ? titles : posts)[occurrenceSlot.items[o]!]!++;
    const start = new Int32Array(slots + 1);
    for (let slot = 0; slot < slots; slot++) start[slot + 1] = start[slot]! + titles[slot]! + posts[slot]!;
    const grouped = new Int32Array(occurrenceSlot.length);
    const next = start.slice(0, slots);
    for (let o = 0; o < occurrenceSlot.length; o++) grouped[next[occurrenceSlot.items[o]!]!++] = occurrencePlace.items[o]!;
    for (let slot = 0; slot < slots; slot++) {
      const id = slotTerm.items[slot]!;
      const inTitle = titles[slot]! > 0 ? 1 : 0;
      df.items[id]!++;
      titleDf.items[id]! += inTitle;
      const placed = positions.length;
      postingTerm.push(id);
      postingOrdinal.push(ordinal);
      postingStart.push(placed * 2 + inTitle);
      positions.push(posts[slot]! * 2 + inTitle);
      if (inTitle) positions.push(titles[slot]!);
      // Places as deltas: the title's from 0, then the post's from 0.
      const from = start[slot]!;
      const postFrom = from + titles[slot]!;
      for (let k = from; k < start[slot + 1]!; k++) positions.push(grouped[k]! - (k > from && k !== postFrom ? grouped[k - 1]! : 0));
      placeCount.items[id]! += positions.length - placed;
    }
  });
  ids.clear();
  // Each term's postings together, still in ordinal order (a counting sort by term).
  const first = new Int32Array(names.length + 1);
  for (let id = 0; id < names.length; id++) first[id + 1] = first[id]! + df.items[id]!;
  const byTerm = new Int32Array(postingTerm.length);
  const filled = first.slice(0, names.length);
  for (let p = 0; p < postingTerm.length; p++) byTerm[filled[postingTerm.items[p]!]!++] = p;
  const end = (p: number) => (p + 1 < postingStart.length ? postingStart.items[p + 1]! >> 1 : positions.length);
  const order = names.map((_, id) => id).sort((a, b) => (names[a]! < names[b]! ? -1 : names[a]! > names[b]! ? 1 : 0));
  // Each list is made at its final length (its counts are known), not grown as it is filled.
  for (const id of order) {
    const all: number[] = new Array(df.items[id]!);
    const title: number[] = new Array(titleDf.items[id]!);
    const places: number[] = new Array(placeCount.items[id]!);
    let titles = 0;
    let placed = 0;
    for (let k = first[id]!, n = 0; k < first[id + 1]!; k++, n++) {
      const p = byTerm[k]!;
      const ordinal = postingOrdinal.items[p]!;
      const start = postingStart.items[p]!;
      all[n] = ordinal;
      if (start & 1) title[titles++] = ordinal;
      for (let i = start >> 1, last = end(p); i < last; i++) places[placed++] = positions.items[i]!;
    }
    yield { term: names[id]!, all, title, positions: places };
  }
}
