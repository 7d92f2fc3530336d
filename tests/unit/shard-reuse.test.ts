// A rebuild keeps the last build's postings and positions shards that its word memory says are the
// same (src/build/shard-reuse.ts), and makes the others; while the topics without their posts are
// the same, it keeps the files made from them alone, and core.json's part of them: the index must be
// exactly what building it from nothing makes, whatever changed, and a shard may only be kept when it is that file.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Topic } from '../../src/content/topics.ts';
import { sortForListing } from '../../src/model/listing.ts';
import { buildSearchIndex, emitSearchIndex, topicNumbers } from '../../src/search/index-build.ts';
import { readPostings, type PostingsTable } from '../../src/search/word-postings.ts';
import { sortedWords } from '../../src/search/sorted-words.ts';
import { earlierPostings } from '../../src/build/word-memory.ts';
import { sameShards, type ShardMemory } from '../../src/build/shard-reuse.ts';
import { topicRecordKey } from '../../src/content/read-topics.ts';
import { digest } from '../../src/content/digest.ts';
import { CONTENT_TYPES, corpusArb, WORDS } from './search-corpus.ts';

/** Small shards, so a corpus of a few topics has many. */
const PER_SHARD = 6;

const keyOf = (topic: Topic) => topicRecordKey(topic);

/** A build's index files and the memory it leaves: its read, with each topic's key, and the shards it made. */
interface Built {
  files: Map<string, string>;
  table: PostingsTable & { keys: string[]; shards: ShardMemory };
  /** The shards taken from the previous build's files. */
  kept: number[];
  /** The topics in listing order without their posts, and whether the files made from them alone were the previous build's. */
  listings: string;
  keptListing: boolean;
}

/** The index files made from the topics without their posts (emitSearchIndex's `listing`). */
const LISTING_FILE = /^(?:display|display-all|tag-ordinals|tags)\//;

/** Builds the index of `topics` as a rebuild does after `last`: the shards its memory says are the same are taken from its files. */
function rebuild(topics: readonly Topic[], last?: Built): Built {
  const listed = sortForListing(topics);
  const { byNumber } = topicNumbers(listed);
  const read = readPostings(byNumber, last && earlierPostings(last.table, keyOf));
  const same = last && sameShards(last.table, last.table.shards, read);
  const files = new Map<string, string>();
  const shards = { bounds: [] as string[], keys: [] as Array<[string, string]> };
  const kept: number[] = [];
  // While the topics without their posts are the same, the files made from them alone are the previous build's.
  const listings = JSON.stringify(listed.map((topic) => ({ ...topic, html: '', text: '' })));
  const keptListing = last?.listings === listings;
  if (keptListing) for (const [path, text] of last!.files) if (LISTING_FILE.test(path)) files.set(path, text);
  const names = (n: number) => [`postings/${n}.json`, `positions/${n}.json`] as const;
  emitSearchIndex(
    listed,
    CONTENT_TYPES,
    new Map(),
    (path, text) => {
      files.set(path, text);
      const shard = /^(postings|positions)\/(\d+)\.json$/.exec(path);
      if (shard) (shards.keys[Number(shard[2])] ??= ['', ''])[shard[1] === 'postings' ? 0 : 1] = digest(text);
    },
    {
      key: () => '',
      take: () => false,
      shard: (n, first, next) => {
        shards.bounds[n] = first;
        const keys = same?.(n, first, next);
        if (!keys) return false;
        // The previous output's files, which must be the files of those keys.
        names(n).forEach((name, i) => {
          expect(digest(last!.files.get(name)!)).toBe(keys[i]);
          files.set(name, last!.files.get(name)!);
        });
        shards.keys[n] = [...keys];
        kept.push(n);
        return true;
      },
    },
    { postings: () => sortedWords(read), postingsPerShard: PER_SHARD, ...(keptListing ? { listing: JSON.parse(last!.files.get('core.json')!) } : {}) },
  );
  return { files, table: { ...read, keys: byNumber.map(keyOf), shards }, kept, listings, keptListing };
}

/** One change, as an edit of one topic's file, or adding or deleting one, makes it. */
const changes: Record<string, (topics: Topic[], at: number, word: string) => Topic[]> = {
  post: (topics, at, word) => topics.map((topic, i) => (i === at ? { ...topic, text: `${topic.text} ${word}` } : topic)),
  postStart: (topics, at, word) => topics.map((topic, i) => (i === at ? { ...topic, text: `${word} ${topic.text}` } : topic)),
  title: (topics, at, word) => topics.map((topic, i) => (i === at ? { ...topic, title: `${word} ${topic.title}` } : topic)),
  emptied: (topics, at) => topics.map((topic, i) => (i === at ? { ...topic, title: '', text: '' } : topic)),
  replies: (topics, at) => topics.map((topic, i) => (i === at ? { ...topic, replies: topic.replies + 1 } : topic)),
  // To the top of the listing: every ordinal before it changes, but no topic's number.
  bumped: (topics, at) => topics.map((topic, i) => (i === at ? { ...topic, updatedMs: Date.UTC(2030, 0, 1), updated: '2030-01-01T00:00:00.000Z' } : topic)),
  deleted: (topics, at) => topics.filter((_, i) => i !== at),
  // The newest of all: first in the listing, and the last number; no topic's number changes.
  addedNewest: (topics, at, word) => [...topics, { ...topics[at]!, slug: `${topics[at]!.slug}-new`, file: `content/topics/${topics[at]!.slug}-new.md`, title: word, updatedMs: Date.UTC(2031, 0, 1), createdMs: Date.UTC(2031, 0, 1), updated: '2031-01-01T00:00:00.000Z', created: '2031-01-01T00:00:00.000Z' }],
  // The oldest of all: last in the listing, and number 0: every topic's number changes.
  addedLast: (topics, at, word) => [...topics, { ...topics[at]!, slug: `${topics[at]!.slug}-old`, file: `content/topics/${topics[at]!.slug}-old.md`, title: word, updatedMs: 0, createdMs: 0, updated: '1970-01-01T00:00:00.000Z', created: '1970-01-01T00:00:00.000Z' }],
};

const versionsArb = corpusArb
  .filter(({ topics }) => topics.length > 0)
  .chain(({ topics }) =>
    fc.array(fc.tuple(fc.constantFrom(...Object.keys(changes)), fc.nat(), fc.constantFrom(...WORDS, 'fernwick', 'aardvark', 'zzyzx')), { minLength: 1, maxLength: 3 }).map((steps) => {
      const versions = [topics];
      for (const [change, at, word] of steps) {
        const last = versions.at(-1)!;
        if (last.length === 0) break;
        versions.push(changes[change]!(last, at % last.length, word));
      }
      return versions;
    }),
  );

describe('postings shards kept by a rebuild', () => {
  it('give the index of building from nothing, after edits, additions, deletions and moves, build after build', () => {
    let keptShards = 0;
    let madeShards = 0;
    let keptListings = 0;
    fc.assert(
      fc.property(versionsArb, (versions) => {
        let last: Built | undefined;
        for (const topics of versions) {
          const built = rebuild(topics, last);
          expect(built.files).toEqual(buildSearchIndex(sortForListing(topics), CONTENT_TYPES, new Map(), PER_SHARD));
          if (last) {
            keptShards += built.kept.length;
            keptListings += built.keptListing ? 1 : 0;
            madeShards += built.table.shards.bounds.length - built.kept.length;
          }
          last = built;
        }
      }),
      { numRuns: 200 },
    );
    // Both ways were taken, many times.
    expect(keptShards).toBeGreaterThan(100);
    expect(madeShards).toBeGreaterThan(100);
    expect(keptListings).toBeGreaterThan(50);
  });

  it('are all when nothing changed or a topic was bumped to the top of the listing, and none when a topic of the last build has another number', () => {
    fc.assert(
      fc.property(corpusArb.filter(({ topics }) => topics.length > 2), ({ topics }) => {
        const first = rebuild(topics);
        const all = first.table.shards.bounds.map((_, n) => n);
        expect(rebuild(topics, first).kept).toEqual(all);
        // The last topic of the listing bumped to its top: every ordinal changes, no number does.
        const listed = sortForListing(topics);
        const bumped = changes.bumped!(listed, listed.length - 1, '');
        expect(sortForListing(bumped)[0]!.slug).toBe(listed.at(-1)!.slug);
        expect(rebuild(bumped, first).kept).toEqual(all);
        // The oldest topic deleted: every other one's number goes down by one.
        const { byNumber } = topicNumbers(listed);
        const rest = byNumber.slice(1);
        const moved = rebuild(rest, first);
        expect(sameShards(first.table, first.table.shards, readPostings(topicNumbers(sortForListing(rest)).byNumber, earlierPostings(first.table, keyOf)))).toBeUndefined();
        expect(moved.kept).toEqual([]);
      }),
      { numRuns: 50 },
    );
  });
});
