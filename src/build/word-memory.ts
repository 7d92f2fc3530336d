/**
 * The build's memory of its topics' words: the postings table of the last build's search index
 * (../search/word-postings.ts), with each topic's record key. A rebuild copies the postings of
 * every topic whose record is unchanged instead of reading its words again, which was most of the
 * index thread's work after one topic changed.
 *
 * The file: its header's length in bytes (32 bits, little-endian), the header (JSON: the code
 * digest, the topics' record keys, the terms, the arrays' lengths, and the postings shards the
 * build made of the table: ./shard-reuse.ts), padding to 4 bytes, then the table's arrays as
 * 32-bit integers of this machine, and its places in their bytes. It is replaced whole: a killed
 * build leaves the last one. A file that is unreadable, of other code, or whose numbers do not fit
 * together is not used: every topic is read.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { replaceFile } from '../cli/atomic-file.ts';
import { letGo, readPostings, type EarlierPostings, type PostingsTable, type TextOf } from '../search/word-postings.ts';
import { PostingCursor } from '../search/number-lists.ts';
import { sortedWords, type SortedWords } from '../search/sorted-words.ts';
import type { Topic } from '../content/topics.ts';
import { sameShards, type SameShard, type ShardMemory } from './shard-reuse.ts';

/** Where the words are remembered, and the code digest they are valid for (./cache.ts). */
export interface WordMemoryFile {
  file: string;
  code: string;
}

export const wordMemoryFile = (cacheDir: string, code: string): WordMemoryFile => ({ file: join(cacheDir, 'words.bin'), code });

interface Header {
  code: string;
  /** Per topic of the table: its record key ('' for a topic read without one: never copied). */
  keys: readonly string[];
  names: readonly string[];
  /** The lengths of topicPostings and of postings (its bytes). */
  lengths: [topics: number, postings: number];
  /** The postings shards the build made of the table (./shard-reuse.ts). */
  shards?: ShardMemory;
}

/** A table the last build remembered, with the record key of each of its topics ('' for none), and the shards it made of it. */
export type RememberedTable = PostingsTable & { keys: readonly string[]; shards?: ShardMemory };

/** The table the last build with the same code remembered; none if there is no usable one. */
export function readWordMemory({ file, code }: WordMemoryFile): RememberedTable | undefined {
  let bytes: Buffer;
  try {
    if (!ofCode(file, code)) return undefined;
    bytes = readFileSync(file);
  } catch {
    return undefined; // none yet
  }
  return tableOf(bytes, code);
}

/**
 * Whether the memory in `file` starts as one of this code does (its header begins with the code
 * digest): after the code changed it is not read further, hundreds of megabytes at 100,000 topics.
 */
function ofCode(file: string, code: string): boolean {
  const start = Buffer.from(JSON.stringify({ code }).slice(0, -1));
  const head = Buffer.alloc(4 + start.length);
  const fd = openSync(file, 'r');
  try {
    return readSync(fd, head, 0, head.length, 0) === head.length && head.subarray(4).equals(start);
  } finally {
    closeSync(fd);
  }
}

/** A remembered table, and which topic (by record key) is where in it. */
export function earlierPostings(table: RememberedTable, keyOf: (topic: Topic) => string | undefined): EarlierPostings {
  const index = new Map<string, number>();
  table.keys.forEach((key, i) => key && index.set(key, i));
  return {
    table,
    at: (topic) => {
      const key = keyOf(topic);
      return key ? index.get(key) : undefined;
    },
  };
}

/** The table in a memory file's bytes, if it is of this code and whole. */
function tableOf(bytes: Buffer, code: string): RememberedTable | undefined {
  try {
    const headerLength = bytes.readUInt32LE(0);
    const header = JSON.parse(bytes.toString('utf8', 4, 4 + headerLength)) as Header;
    if (header.code !== code) return undefined;
    const [topics, postings] = header.lengths;
    if (header.keys.length !== topics) return undefined;
    const offset = align(4 + headerLength);
    if (bytes.length !== offset + 8 * (topics + 1) + 4 * topics + postings) return undefined;
    // The starts and the counts are views of the file's bytes, or copies where those do not start at a multiple of their size.
    const start = bytes.byteOffset + offset;
    const countsAt = start + 8 * (topics + 1);
    const topicStarts = start % 8 === 0 ? new Float64Array(bytes.buffer, start, topics + 1) : new Float64Array(bytes.buffer.slice(start, countsAt));
    const topicPostings = countsAt % 4 === 0 ? new Int32Array(bytes.buffer, countsAt, topics) : new Int32Array(bytes.buffer.slice(countsAt, countsAt + 4 * topics));
    const postingBytes = new Uint8Array(bytes.buffer, countsAt + 4 * topics, postings);
    const table = { names: header.names, keys: header.keys, topicPostings, topicStarts, postings: postingBytes, ...(isShardMemory(header.shards) ? { shards: header.shards } : {}) };
    return fitsTogether(table) ? table : undefined;
  } catch {
    return undefined; // cut short or not ours
  }
}

/** Whether every posting lies within the table: its topics' counts are whole and each topic begins where its start says, its terms exist, its bytes are read to their last. */
function fitsTogether({ names, topicPostings, topicStarts, postings }: PostingsTable): boolean {
  const posting = new PostingCursor(postings);
  for (let topic = 0; topic < topicPostings.length; topic++) {
    const count = topicPostings[topic]!;
    if (count < 0 || topicStarts[topic] !== posting.end) return false;
    for (let n = 0; n < count; n++) if (!posting.next() || posting.term < 0 || posting.term >= names.length) return false;
  }
  return posting.end === postings.length && topicStarts[topicPostings.length] === posting.end;
}

/** The header is padded to a multiple of 8: the topics' starts (8 bytes each) follow it. */
const align = (offset: number) => Math.ceil(offset / 8) * 8;

/** Whether a header's shards are whole: a first term and two keys for each. */
function isShardMemory(shards: unknown): shards is ShardMemory {
  if (typeof shards !== 'object' || shards === null) return false;
  const { bounds, keys } = shards as Partial<ShardMemory>;
  return Array.isArray(bounds) && Array.isArray(keys) && bounds.length === keys.length && bounds.every((bound) => typeof bound === 'string') && keys.every((pair) => Array.isArray(pair) && pair.length === 2 && pair.every((key) => typeof key === 'string'));
}

/**
 * Remembers `table`, read from topics whose record keys are `keys` (in the table's order), and the
 * postings `shards` made of it, for the next build.
 */
export function rememberWords({ file, code }: WordMemoryFile, table: PostingsTable, keys: readonly string[], shards?: ShardMemory): void {
  const header = Buffer.from(JSON.stringify({ code, keys, names: table.names, lengths: [table.topicPostings.length, table.postings.length], ...(shards ? { shards } : {}) } satisfies Header));
  replaceFile(
    file,
    (put) => {
      const length = Buffer.alloc(4);
      length.writeUInt32LE(header.length, 0);
      put(length);
      put(header);
      put(Buffer.alloc(align(4 + header.length) - 4 - header.length));
      for (const array of [table.topicStarts, table.topicPostings, table.postings]) put(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    },
    { flush: false },
  );
}

/** The word memory at work in a build: what it reads the topics' words with, the shards it keeps, and how it is remembered. */
export interface WordsAtWork {
  postings: (topics: readonly Topic[]) => SortedWords;
  /** Once the words are read: the last build's shards that they leave as they were. */
  same?: SameShard;
  /** Remembers the words read, and the `shards` made of them, for the next build, once; then lets go of them (letGo). */
  remember: (shards: ShardMemory) => void;
}

/**
 * Reads the topics' postings, copying those of unchanged records from the word memory (the
 * topics the build sent without their text); says which of the last build's shards are the same
 * (./shard-reuse.ts), and remembers the words for the next build.
 */
export function wordsAtWork({ file, table }: { file: WordMemoryFile; table?: RememberedTable }, keyOf: (topic: Topic) => string | undefined, textOf?: TextOf): WordsAtWork {
  let remember: WordsAtWork['remember'] = () => {};
  const atWork: WordsAtWork = {
    postings: (topics) => {
      const read = readPostings(topics, table && earlierPostings(table, keyOf), textOf);
      const same = table?.shards && sameShards(table, table.shards, read);
      if (same) atWork.same = same;
      remember = (shards) => {
        rememberWords(file, read, topics.map((topic) => keyOf(topic) ?? ''), shards);
        // Nothing reads them any more: their memory goes now, and what held them (`same` holds the read too).
        letGo(read.topicPostings);
        letGo(read.topicStarts);
        letGo(read.postings);
        letGo(read.copiedFrom);
        delete atWork.same;
        remember = () => {};
      };
      return sortedWords(read);
    },
    remember: (shards) => remember(shards),
  };
  return atWork;
}
