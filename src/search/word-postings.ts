// The word postings of the search index: every term of the topics' titles and posts, with the
// topics that hold it and where it stands in each, read in one pass (./index-build.ts writes them).
import type { Topic } from '../content/topics.ts';
import { terms } from './words.ts';
import { afterNumbers, IntList, PlaceBytes, postingEnd, postingNumbers } from './number-lists.ts';

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
  /**
   * Per posting, one after another: its post occurrences × 2 + inTitle, its title occurrences when
   * inTitle, then its places as deltas (the title's from 0, then the post's from 0); each number in
   * its bytes (PlaceBytes: readPlaces reads them). A posting's first numbers say how many it has
   * (postingNumbers), so where each begins is found by reading them in order, not kept: four bytes
   * a posting less, some 0.5 GB at 1,000,000 topics.
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
      positions.pushNumber(posts[slot]! * 2 + inTitle);
      if (inTitle) positions.pushNumber(titles[slot]!);
      const from = start[slot]!;
      const postFrom = from + titles[slot]!;
      for (let k = from; k < start[slot + 1]!; k++) positions.pushNumber(grouped[k]! - (k > from && k !== postFrom ? grouped[k - 1]! : 0));
    }
  };

  // Copying from the earlier table: where each of its topics' postings and places start. A run of
  // its topics, copied to consecutive ordinals, is copied whole.
  const firstPosting = new Float64Array((table?.topicPostings.length ?? 0) + 1);
  if (table) for (let t = 0; t < table.topicPostings.length; t++) firstPosting[t + 1] = firstPosting[t]! + table.topicPostings[t]!;
  const firstPlace = table ? topicPlaces(table) : new Float64Array(1);
  /** Copies the earlier table's topics from `at` up to `end` (as the next ordinals). */
  const copy = (at: number, end: number) => {
    postingTerm.append(table!.postingTerm.subarray(firstPosting[at]!, firstPosting[end]!));
    positions.append(table!.positions.subarray(firstPlace[at]!, firstPlace[end]!));
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
  const counted = termCounts(names, postingTerm.values, positions.values);
  return {
    ...counted,
    topicPostings: topicPostings.values,
    positions: positions.values,
    copiedFrom,
  };
}

/**
 * Per term: how many postings hold it, how many in the title, and how many numbers its positions
 * take. A term no posting holds (one only topics of the earlier table held) is dropped, and the
 * postings' term ids renumbered (`postingTerm` in place).
 */
function termCounts(names: readonly string[], postingTerm: Int32Array, positions: Uint8Array): Pick<ReadPostings, 'names' | 'postingTerm' | 'df' | 'titleDf' | 'placeCount'> {
  const df = new Int32Array(names.length);
  const titleDf = new Int32Array(names.length);
  const placeCount = new Int32Array(names.length);
  const last = postingTerm.length - 1;
  for (let p = 0, start = 0; p <= last; p++) {
    const id = postingTerm[p]!;
    const count = postingNumbers(positions, start);
    df[id]!++;
    // The first number's lowest bit, its first byte's: whether the term is in the title.
    titleDf[id]! += positions[start]! & 1;
    placeCount[id]! += count;
    start = afterNumbers(positions, start, count);
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

/** Where each topic's places begin in a table's `positions`, and (last) where the last topic's end: read posting by posting. */
export function topicPlaces({ topicPostings, positions }: Pick<PostingsTable, 'topicPostings' | 'positions'>): Float64Array {
  const first = new Float64Array(topicPostings.length + 1);
  let at = 0;
  for (let topic = 0; topic < topicPostings.length; topic++) {
    for (let n = topicPostings[topic]!; n > 0; n--) at = postingEnd(positions, at);
    first[topic + 1] = at;
  }
  return first;
}
