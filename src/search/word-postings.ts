// The word postings of the search index: every term of the topics' titles and posts, with the
// topics that hold it and where it stands in each, read in one pass (./index-build.ts writes them).
import type { Topic } from '../content/topics.ts';
import { terms } from './words.ts';
import { IntList, PlaceBytes, placesIn } from './number-lists.ts';

export { letGo, readPlaces } from './number-lists.ts';

/** A topic's post's text: its record's, or read from where the build keeps it (../build/chunk-posts.ts). */
export type TextOf = (topic: Topic) => string;

/** One term's postings: the ordinals holding it, those holding it in the title, and where it stands (see PositionsFile). */
export interface TermPostings {
  term: string;
  all: number[];
  title: number[];
  positions: number[];
}

/**
 * The topics' postings as read, topic by topic, in flat arrays: what a rebuild keeps of the
 * analysis of every topic's words (../build/word-memory.ts), so a topic it has read before is
 * copied, not read again. Ordinals (the topics' numbers in the index) are not in it: they change
 * whenever a topic is added or deleted before another.
 */
export interface PostingsTable {
  /** The terms, by id. */
  names: readonly string[];
  /** Per topic, in the order read: how many postings (distinct terms) it has. */
  topicPostings: Int32Array;
  /** Per posting: its term's id. */
  postingTerm: Int32Array;
  /** Per posting: its first byte in `positions`, its title flag in the lowest bit (start × 2 + inTitle). */
  postingStart: Int32Array;
  /**
   * Per posting, from its start: its post occurrences × 2 + inTitle, its title occurrences when
   * inTitle, then its places as deltas (the title's from 0, then the post's from 0); each number in
   * its bytes (PlaceBytes: readPlaces reads them, placesIn counts them).
   */
  positions: Uint8Array;
}

/** A table read before, and where each topic's postings are in it (its index among the table's topics), if they are. */
export interface EarlierPostings {
  table: PostingsTable;
  at: (topic: Topic) => number | undefined;
}

/** A table as read, with what handing out each term's postings needs. */
export interface ReadPostings extends PostingsTable {
  /** Per topic (by ordinal): the index in the earlier table its postings were copied from, or -1 where its words were read. */
  copiedFrom: Int32Array;
  /** Per term id: how many topics hold it, how many hold it in the title, and how many numbers its positions take. */
  df: Int32Array;
  titleDf: Int32Array;
  placeCount: Int32Array;
}

/**
 * Reads every term of the topics' titles and posts, topic by topic (in the order given, which is
 * their ordinals: the index's topic numbers, ./index-build.ts topicNumbers). A topic found in `earlier` has its postings copied from there instead: the
 * same numbers its words give. `textOf` gives a topic's post's text (its record's own by default).
 */
export function readPostings(topics: readonly Topic[], earlier?: EarlierPostings, textOf: TextOf = (topic) => topic.text): ReadPostings {
  // A rebuild's terms keep the earlier table's ids (a term only topics no longer here held is
  // dropped at the end), so its topics' postings are copied whole, not term by term.
  const table = earlier?.table;
  const names: string[] = table ? [...table.names] : [];
  const ids = new Map<string, number>(names.map((name, id) => [name, id]));
  // A rebuild's lists come out about as long as the earlier table's.
  const topicPostings = new IntList(topics.length);
  const postings = table && Math.ceil(table.postingTerm.length * 1.01);
  const postingTerm = new IntList(postings);
  const postingStart = new IntList(postings);
  const positions = new PlaceBytes(table && Math.ceil(table.positions.length * 1.01));
  // One topic's terms, without an object per term: each distinct term gets a slot (in the order the
  // terms first appear), and each occurrence notes its slot and place; the occurrences are then
  // grouped by slot, title ones first, each group in order of place.
  /** Per term id: the last ordinal + 1 whose topic holds it, and its slot there. */
  const seenIn = new IntList(names.length);
  const slotOf = new IntList(names.length);
  seenIn.length = slotOf.length = names.length;
  const slotTerm = new IntList();
  const occurrenceSlot = new IntList();
  const occurrencePlace = new IntList();
  const idOf = (term: string) => {
    let id = ids.get(term);
    if (id === undefined) {
      ids.set(term, (id = names.length));
      names.push(term);
      seenIn.push(0);
      slotOf.push(0);
    }
    return id;
  };
  const note = (list: readonly string[], ordinal: number) => {
    for (let i = 0; i < list.length; i++) {
      const id = idOf(list[i]!);
      if (seenIn.items[id] !== ordinal + 1) {
        seenIn.items[id] = ordinal + 1;
        slotOf.items[id] = slotTerm.length;
        slotTerm.push(id);
      }
      occurrenceSlot.push(slotOf.items[id]!);
      occurrencePlace.push(i);
    }
  };
  const read = (topic: Topic, ordinal: number) => {
    slotTerm.length = occurrenceSlot.length = occurrencePlace.length = 0;
    note(terms(topic.title), ordinal);
    const titleOccurrences = occurrenceSlot.length;
    note(terms(textOf(topic)), ordinal);
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
    topicPostings.push(slots);
    for (let slot = 0; slot < slots; slot++) {
      const inTitle = titles[slot]! > 0 ? 1 : 0;
      postingTerm.push(slotTerm.items[slot]!);
      postingStart.push(positions.length * 2 + inTitle);
      positions.pushNumber(posts[slot]! * 2 + inTitle);
      if (inTitle) positions.pushNumber(titles[slot]!);
      const from = start[slot]!;
      const postFrom = from + titles[slot]!;
      for (let k = from; k < start[slot + 1]!; k++) positions.pushNumber(grouped[k]! - (k > from && k !== postFrom ? grouped[k - 1]! : 0));
    }
  };

  // Copying from the earlier table: where each of its topics' postings start. A run of its topics,
  // copied to consecutive ordinals, is copied whole: their postings as they are, their starts moved
  // by where their places land now.
  const firstPosting = new Int32Array((table?.topicPostings.length ?? 0) + 1);
  if (table) for (let t = 0; t < table.topicPostings.length; t++) firstPosting[t + 1] = firstPosting[t]! + table.topicPostings[t]!;
  const placesStart = (p: number) => (p < table!.postingStart.length ? table!.postingStart[p]! >> 1 : table!.positions.length);
  /** Copies the earlier table's topics from `at` up to `end` (as the next ordinals). */
  const copy = (at: number, end: number) => {
    const from = firstPosting[at]!;
    const to = firstPosting[end]!;
    const shift = (positions.length - placesStart(from)) * 2;
    const first = postingStart.length;
    postingTerm.append(table!.postingTerm.subarray(from, to));
    postingStart.append(table!.postingStart.subarray(from, to));
    if (shift !== 0) for (let p = first; p < postingStart.length; p++) postingStart.items[p]! += shift;
    positions.append(table!.positions.subarray(placesStart(from), placesStart(to)));
    topicPostings.append(table!.topicPostings.subarray(at, end));
  };

  const copiedFrom = new Int32Array(topics.length).fill(-1);
  /** The run being copied: from the earlier table's `at`, `length` of its topics. */
  const run = { at: 0, length: 0 };
  const flush = () => {
    if (run.length > 0) copy(run.at, run.at + run.length);
    run.length = 0;
  };
  topics.forEach((topic, ordinal) => {
    const at = earlier?.at(topic);
    if (at === undefined) {
      flush();
      read(topic, ordinal);
      return;
    }
    copiedFrom[ordinal] = at;
    if (run.length > 0 && at === run.at + run.length) run.length++;
    else {
      flush();
      Object.assign(run, { at, length: 1 });
    }
  });
  flush();
  const counted = termCounts(names, postingTerm.values, postingStart.values, positions.values);
  return {
    ...counted,
    topicPostings: topicPostings.values,
    postingStart: postingStart.values,
    positions: positions.values,
    copiedFrom,
  };
}

/**
 * Per term: how many postings hold it, how many in the title, and how many numbers its positions
 * take. A term no posting holds (one only topics of the earlier table held) is dropped, and the
 * postings' term ids renumbered (`postingTerm` in place).
 */
function termCounts(names: readonly string[], postingTerm: Int32Array, postingStart: Int32Array, positions: Uint8Array): Pick<ReadPostings, 'names' | 'postingTerm' | 'df' | 'titleDf' | 'placeCount'> {
  const df = new Int32Array(names.length);
  const titleDf = new Int32Array(names.length);
  const placeCount = new Int32Array(names.length);
  const last = postingTerm.length - 1;
  for (let p = 0; p <= last; p++) {
    const id = postingTerm[p]!;
    const start = postingStart[p]!;
    df[id]!++;
    titleDf[id]! += start & 1;
    placeCount[id]! += placesIn(positions, start >> 1, p < last ? postingStart[p + 1]! >> 1 : positions.length);
  }
  if (df.every((count) => count > 0)) return { names, postingTerm, df, titleDf, placeCount };
  const renumbered = new Int32Array(names.length);
  const kept: number[] = [];
  names.forEach((_, id) => {
    renumbered[id] = kept.length;
    if (df[id]! > 0) kept.push(id);
  });
  for (let p = 0; p <= last; p++) postingTerm[p] = renumbered[postingTerm[p]!]!;
  const pick = (counts: Int32Array) => Int32Array.from(kept, (id) => counts[id]!);
  return { names: kept.map((id) => names[id]!), postingTerm, df: pick(df), titleDf: pick(titleDf), placeCount: pick(placeCount) };
}
