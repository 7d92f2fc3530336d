// The word postings of the search index: every term of the topics' titles and posts, with the
// topics that hold it and where it stands in each, read in one pass (./index-build.ts writes them).
import type { Topic } from '../content/topics.ts';
import { terms } from './words.ts';
import { IntList, PlaceBytes, PostingCursor, writeNumber } from './number-lists.ts';

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
  /** Per topic: where its postings begin in `postings`; and (last) where the last topic's end. */
  topicStarts: Float64Array;
  /**
   * Per posting, one after another: its term's id, its post occurrences × 2 + inTitle, its title
   * occurrences when inTitle, then its places as deltas (the title's from 0, then the post's from
   * 0); each number in its bytes (PlaceBytes: readPlaces reads them). A posting's numbers after its
   * term say how many it has (PostingCursor), so where each begins is found by reading them in
   * order, not kept: with the terms in their bytes, a posting takes some 5 bytes instead of 8 and
   * its places' (0.8 GB less at 1,000,000 topics).
   */
  postings: Uint8Array;
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
  const topicStarts = new Float64Array(topics.length + 1);
  const postings = new PlaceBytes(table && Math.ceil(table.postings.length * 1.01));
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
    topicStarts[ordinal] = postings.length;
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
      postings.pushNumber(slotTerm.items[slot]!);
      postings.pushNumber(posts[slot]! * 2 + inTitle);
      if (inTitle) postings.pushNumber(titles[slot]!);
      const from = start[slot]!;
      const postFrom = from + titles[slot]!;
      for (let k = from; k < start[slot + 1]!; k++) postings.pushNumber(grouped[k]! - (k > from && k !== postFrom ? grouped[k - 1]! : 0));
    }
  };

  // Copying from the earlier table: a run of its topics, copied to consecutive ordinals, is copied
  // whole, and their starts moved by where their postings land now.
  /** Copies the earlier table's topics from `at` up to `end`, as the ordinals from `ordinal` on. */
  const copy = (at: number, end: number, ordinal: number) => {
    const { topicStarts: starts } = table!;
    const shift = postings.length - starts[at]!;
    for (let k = at; k < end; k++) topicStarts[ordinal + k - at] = starts[k]! + shift;
    postings.append(table!.postings.subarray(starts[at]!, starts[end]!));
    topicPostings.append(table!.topicPostings.subarray(at, end));
  };

  const copiedFrom = new Int32Array(topics.length).fill(-1);
  /** The run being copied: from the earlier table's `at`, `length` of its topics, to the ordinals from `ordinal` on. */
  const run = { at: 0, length: 0, ordinal: 0 };
  const flush = () => {
    if (run.length > 0) copy(run.at, run.at + run.length, run.ordinal);
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
      Object.assign(run, { at, length: 1, ordinal });
    }
  });
  flush();
  topicStarts[topics.length] = postings.length;
  const counted = termCounts(names, topicPostings.values, topicStarts, postings.values);
  return {
    ...counted,
    topicPostings: topicPostings.values,
    topicStarts,
    copiedFrom,
  };
}

/**
 * Per term: how many postings hold it, how many in the title, and how many numbers its positions
 * take. A term no posting holds (one only topics of the earlier table held) is dropped, and the
 * postings' term ids renumbered: in place, each as long as it was or shorter, so the postings'
 * bytes may end earlier (`postings` as they are now) and the topics' starts move (`topicStarts`, in place).
 */
function termCounts(names: readonly string[], topicPostings: Int32Array, topicStarts: Float64Array, bytes: Uint8Array): Pick<ReadPostings, 'names' | 'postings' | 'df' | 'titleDf' | 'placeCount'> {
  const df = new Int32Array(names.length);
  const titleDf = new Int32Array(names.length);
  const placeCount = new Int32Array(names.length);
  const total = topicPostings.reduce((sum, count) => sum + count, 0);
  const counting = new PostingCursor(bytes);
  for (let p = 0; p < total; p++) {
    counting.next();
    const id = counting.term;
    df[id]!++;
    // The first number after the term's, its first byte's lowest bit: whether the term is in the title.
    titleDf[id]! += bytes[counting.from]! & 1;
    placeCount[id]! += counting.numbers;
  }
  if (df.every((count) => count > 0)) return { names, postings: bytes, df, titleDf, placeCount };
  const renumbered = new Int32Array(names.length);
  const kept: number[] = [];
  names.forEach((_, id) => {
    renumbered[id] = kept.length;
    if (df[id]! > 0) kept.push(id);
  });
  let written = 0;
  const moving = new PostingCursor(bytes);
  for (let topic = 0; topic < topicPostings.length; topic++) {
    topicStarts[topic] = written;
    for (let n = topicPostings[topic]!; n > 0; n--) {
      moving.next();
      written = writeNumber(bytes, written, renumbered[moving.term]!);
      bytes.copyWithin(written, moving.from, moving.end);
      written += moving.end - moving.from;
    }
  }
  topicStarts[topicPostings.length] = written;
  const pick = (counts: Int32Array) => Int32Array.from(kept, (id) => counts[id]!);
  return { names: kept.map((id) => names[id]!), postings: bytes.subarray(0, written), df: pick(df), titleDf: pick(titleDf), placeCount: pick(placeCount) };
}
