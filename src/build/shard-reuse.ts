/**
 * Which postings shards (and their positions shards) of the last build's search index a rebuild
 * keeps as they are, instead of making every shard again and comparing it by its digest: the
 * larger part of the index thread's work after one topic changed (./index-and-feeds.ts).
 *
 * A shard holds, for each of its terms, the ordinals of the topics holding it (their numbers in
 * the index: ../search/index-build.ts topicNumbers) and its places in them. So it is the same file
 * as the last build's when it begins and ends at the same terms and none of its terms' postings
 * changed: all topics the last build read keep their ordinals (none was added or deleted before
 * another, nor changed its `created`: a bump keeps them all), and no topic holding one of its
 * terms changed how it holds it. An edited topic read anew at its ordinal changes the postings of
 * the words it gained or lost and of those it holds at other places; a new topic, or one deleted,
 * those of all its words.
 */
import type { PostingsTable, ReadPostings } from '../search/word-postings.ts';
import { PostingCursor } from '../search/number-lists.ts';

/** A topic's postings in a table, each its term's name and the bytes of its places (from, to: after its term's id). */
function postingsOf(table: PostingsTable, topic: number): Array<[name: string, from: number, to: number]> {
  const postings: Array<[string, number, number]> = [];
  const posting = new PostingCursor(table.postings, table.topicStarts[topic]!);
  for (let n = table.topicPostings[topic]!; n > 0; n--) {
    posting.next();
    postings.push([table.names[posting.term]!, posting.from, posting.end]);
  }
  return postings;
}

/** Whether two postings' bytes are the same: in the title or not alike (the first number's lowest bit), and the same numbers for the places. */
function sameBytes(a: Uint8Array, [aFrom, aTo]: readonly [number, number], b: Uint8Array, [bFrom, bTo]: readonly [number, number]): boolean {
  if (aTo - aFrom !== bTo - bFrom) return false;
  for (let i = 0; i < aTo - aFrom; i++) if (a[aFrom + i] !== b[bFrom + i]) return false;
  return true;
}

/** The postings shards a build made: where each begins (the index's postingBounds), and the keys of its postings and positions files. */
export interface ShardMemory {
  bounds: readonly string[];
  keys: ReadonlyArray<readonly [postings: string, positions: string]>;
}

/** A shard of the last build that is the same now: the keys of its two files; undefined when it is not. */
export type SameShard = (n: number, first: string, next: string | undefined) => readonly [string, string] | undefined;

/**
 * The shards of the last build that `read` leaves as they were, asked by number with the terms the
 * shard begins at and the next begins at (none for the last shard). `table` is that build's read,
 * `shards` what it made of it. None at all when a topic of that build has another ordinal now (one
 * added or deleted before it): every ordinal after that changed.
 */
export function sameShards(table: PostingsTable, shards: ShardMemory, read: ReadPostings): SameShard | undefined {
  const { copiedFrom } = read;
  const copied = new Uint8Array(table.topicPostings.length);
  for (let ordinal = 0; ordinal < copiedFrom.length; ordinal++) {
    const at = copiedFrom[ordinal]!;
    if (at === -1) continue;
    if (at !== ordinal) return undefined;
    copied[at] = 1;
  }
  // The words whose postings changed: of a topic read anew where the last build had a topic it did
  // not copy, those whose posting there is not the same (present, in the title, at the same places);
  // of any other topic read anew, all its words as they are now, and of any other not copied, all as they were.
  const changed = new Set<string>();
  const compared = new Uint8Array(table.topicPostings.length);
  for (let ordinal = 0; ordinal < copiedFrom.length; ordinal++) {
    if (copiedFrom[ordinal] !== -1) continue;
    const then = new Map<string, [number, number]>();
    if (ordinal < copied.length && copied[ordinal] === 0) {
      compared[ordinal] = 1;
      for (const [name, from, to] of postingsOf(table, ordinal)) then.set(name, [from, to]);
    }
    for (const [name, from, to] of postingsOf(read, ordinal)) {
      const before = then.get(name);
      if (before === undefined || !sameBytes(table.postings, before, read.postings, [from, to])) changed.add(name);
      then.delete(name);
    }
    for (const name of then.keys()) changed.add(name);
  }
  for (let at = 0; at < copied.length; at++) {
    if (copied[at] === 1 || compared[at] === 1) continue;
    for (const [name] of postingsOf(table, at)) changed.add(name);
  }
  // In code-unit order, as the terms are sorted.
  const sorted = [...changed].sort();
  /** Whether a changed word lies from `from` on (from the start when undefined) and before `to` (to the end when undefined). */
  const touched = (from: string | undefined, to: string | undefined) => {
    let low = 0;
    let high = sorted.length;
    while (from !== undefined && low < high) {
      const middle = (low + high) >> 1;
      if (sorted[middle]! < from) low = middle + 1;
      else high = middle;
    }
    return low < sorted.length && (to === undefined || sorted[low]! < to);
  };
  return (n, first, next) => {
    const keys = shards.keys[n];
    if (keys === undefined || shards.bounds[n] !== first || shards.bounds[n + 1] !== next) return undefined;
    // The first shard holds every term before its first too: one that went, or came, changes it.
    return touched(n === 0 ? undefined : first, next) ? undefined : keys;
  };
}
