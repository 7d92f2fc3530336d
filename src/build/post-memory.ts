/**
 * The topic memory, kept in the build's cache folder: for every topic file, its record and its
 * first post's rendering (../content/load.ts), with a digest of the site's code; nothing is
 * reused when that differs.
 *
 * The remembered files are kept in chunks, each chunk a file of its own in `posts/` named by the
 * digest of its bytes, and `posts.json` names the chunks of the last build with its code digest.
 * A chunk ends after a file whose path hashes to a multiple of POSTS_PER_CHUNK (about that many
 * files a chunk, at most four times as many): a file added or deleted changes its own chunk only.
 * A chunk whose files are all kept as read keeps its file, so a rebuild after one change writes
 * one chunk (a big site's memory is hundreds of megabytes: 37 MB at 10,000 topics).
 * The list is replaced in one step after the new chunks are written, and the chunks it no longer
 * names are deleted after it: a build killed at any moment leaves a list whose chunks are all there.
 *
 * A chunk file holds the records first and the posts' HTML and text after them, behind the two
 * parts' byte lengths: the records v8-serialized, each with where its post is in the second part,
 * and each post's HTML and text in UTF-8 (postBytes). A build reads the records of every chunk
 * from the file, and a post's HTML and text only when they are asked for, one post at a time
 * (./chunk-posts.ts): a topic page rendered, a topic whose words the index thread does not have
 * (read in that thread). A chunk written anew copies the posts it keeps from their chunk's file as they are.
 *
 * So the posts need not stay in the heap once read: a build hands its pages and its index thread
 * each post as its chunk holds it (rememberPosts), and a topic's page reads its post as it renders. Held, they took
 * 1.4 KB of the heap a topic: at 1,000,000 topics a third of Node's default heap limit.
 * Deserializing the records takes some 80 ms at 10,000 topics, their bytes' size hardly matters.
 */
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { digest } from '../content/digest.ts';
import { replaceFile } from '../cli/atomic-file.ts';
import type { RememberedPost, RenderMemory } from '../content/read-topics.ts';
import type { RenderedPost } from '../content/topics.ts';
import { bodyBytes, PostInChunk, postBytes, readPart, RememberedInChunk, type ChunkBodies } from './chunk-posts.ts';

const postsList = (cacheDir: string) => join(cacheDir, 'posts.json');
const chunksFolder = (cacheDir: string) => join(cacheDir, 'posts');
const POSTS_PER_CHUNK = 1000;
/** The two byte lengths before a chunk's parts. */
const HEADER = 8;

interface PostsList {
  code: string;
  chunks: string[];
}

/** A post as a chunk's records hold it: without its HTML and text, which are `body` (offset, length) in the chunk's bodies. */
type PostRecord = Omit<RememberedPost, 'html' | 'text'> & { body: [at: number, length: number] };

/** Whether a chunk ends after `path`: content-defined, so the chunks of unchanged files stay as they were. */
function endsChunk(path: string, size: number): boolean {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193) >>> 0;
  return hash % POSTS_PER_CHUNK === 0 || size >= 4 * POSTS_PER_CHUNK;
}

/** A chunk as read: its posts, and where their HTML and text are in its file. */
interface StoredChunk {
  entries: Array<[string, RememberedPost]>;
  bodies: ChunkBodies;
}

/** A remembered post read from a chunk, with its record. */
class StoredPost extends RememberedInChunk {
  /** The chunk it was read from. */
  readonly chunk: StoredChunk;

  constructor(record: PostRecord, chunk: StoredChunk) {
    super(chunk.bodies, record.body[0], record.body[1], record.digest, record.read);
    this.chunk = chunk;
  }
}

/**
 * A chunk file's records, read from its start: undefined when the file is not a whole chunk. Its
 * posts' HTML and text are not read now (PostInChunk).
 */
function chunkOf(name: string, path: string): StoredChunk | undefined {
  const fd = openSync(path, 'r');
  try {
    const header = readPart(fd, 0, HEADER);
    if (header.length < HEADER) return undefined;
    const recordsLength = header.readUInt32LE(0);
    const bodiesLength = header.readUInt32LE(4);
    if (fstatSync(fd).size !== HEADER + recordsLength + bodiesLength) return undefined; // cut short, or not a chunk
    const records = deserialize(readPart(fd, HEADER, recordsLength)) as unknown;
    if (!Array.isArray(records)) return undefined;
    const chunk: StoredChunk = { entries: [], bodies: { name, path, start: HEADER + recordsLength, length: bodiesLength } };
    chunk.entries = (records as Array<[string, PostRecord]>).map(([file, record]) => [file, new StoredPost(record, chunk)]);
    return chunk;
  } finally {
    closeSync(fd);
  }
}

/**
 * The topic files read and first posts rendered by the last build with the same code (an empty
 * memory otherwise). A chunk that cannot be read is left out: its files are read again.
 */
export function rememberedPosts(cacheDir: string, code: string): RenderMemory {
  const memory: RenderMemory = new Map();
  let list: Partial<PostsList>;
  try {
    list = JSON.parse(readFileSync(postsList(cacheDir), 'utf8')) as Partial<PostsList>;
  } catch {
    return memory; // none yet, or unreadable: render everything
  }
  if (list.code !== code || !Array.isArray(list.chunks)) return memory;
  for (const name of list.chunks) {
    try {
      const chunk = chunkOf(name, join(chunksFolder(cacheDir), name));
      if (!chunk) continue;
      for (const [file, post] of chunk.entries) memory.set(file, post);
    } catch {
      // gone, or not a chunk: its files are read again
    }
  }
  return memory;
}

/** The stored chunk holding exactly `entries`, the same posts as read; else undefined. */
function storedChunk(entries: Array<[string, RememberedPost]>): StoredChunk | undefined {
  const first = entries[0]![1];
  const stored = first instanceof StoredPost ? first.chunk : undefined;
  if (!stored || stored.entries.length !== entries.length) return undefined;
  for (let i = 0; i < entries.length; i++) {
    if (stored.entries[i]![0] !== entries[i]![0] || stored.entries[i]![1] !== entries[i]![1]) return undefined;
  }
  return stored;
}

/**
 * A buffer used again for every chunk that rememberPosts writes, grown when one needs more. A
 * buffer of its own for each chunk's bytes would be memory outside V8's heap that V8 answers with
 * full collections as it adds up: one every few seconds at 1,000,000 topics, each seconds long
 * (all the records are in the heap then), for minutes.
 */
function reusedBuffer(): (size: number) => Buffer {
  let buffer = Buffer.allocUnsafeSlow(0);
  return (size) => {
    if (buffer.length < size) buffer = Buffer.allocUnsafeSlow(Math.max(size, 2 * buffer.length));
    return buffer.subarray(0, size);
  };
}

/** A chunk file's parts for `entries`: the records, then the posts' HTML and text (postBytes); posts copied from files are read into `room`. */
function chunkParts(entries: Array<[string, RememberedPost]>, room: (size: number) => Buffer): { records: Buffer; bodies: Buffer[]; ranges: Array<PostRecord['body']> } {
  // The posts of an earlier chunk, or of a spill file (../content/post-spill.ts), are copied as they
  // are in its file: the part of it that holds them, read once.
  const sources = new Map<ChunkBodies, [from: number, to: number]>();
  for (const [, post] of entries) {
    if (!(post instanceof PostInChunk) || post.bodies.bytes) continue;
    const [from, to] = sources.get(post.bodies) ?? [post.at, post.at];
    sources.set(post.bodies, [Math.min(from, post.at), Math.max(to, post.at + post.length)]);
  }
  try {
    const read = room([...sources.values()].reduce((sum, [from, to]) => sum + to - from, 0));
    let into = 0;
    for (const [source, [from, to]] of sources) {
      Object.assign(source, { bytes: bodyBytes(source, from, to - from, read.subarray(into)), bytesAt: from });
      into += to - from;
    }
    let at = 0;
    const bodies = entries.map(([, post]) => (post instanceof PostInChunk ? post.bytes() : postBytes(post)));
    const ranges = bodies.map((body): PostRecord['body'] => [(at += body.length) - body.length, body.length]);
    const records = entries.map(([file, { digest, read }], i): [string, PostRecord] => [file, { digest, body: ranges[i]!, ...(read ? { read } : {}) }]);
    return { records: serialize(records), bodies, ranges };
  } finally {
    for (const source of sources.keys()) {
      delete source.bytes;
      delete source.bytesAt;
    }
  }
}

/**
 * Remembers this build's topic records and renderings for the next build. Returns each
 * remembered post as the chunk file holds it, by file: its HTML and text are read from there when
 * asked for, and this build can let go of them (a post whose chunk could not be written is left out).
 */
export function rememberPosts(cacheDir: string, code: string, memory: RenderMemory): Map<string, RenderedPost> {
  const folder = chunksFolder(cacheDir);
  mkdirSync(folder, { recursive: true });
  const chunks: string[] = [];
  const posts = new Map<string, RenderedPost>();
  const [sourceRoom, chunkRoom] = [reusedBuffer(), reusedBuffer()];
  const flush = (entries: Array<[string, RememberedPost]>) => {
    // A chunk kept as read keeps its file, while that is there (a `--clean` build deletes the cache).
    const stored = entries.length > 0 ? storedChunk(entries) : undefined;
    if (stored && existsSync(stored.bodies.path)) {
      chunks.push(stored.bodies.name);
      // Not the posts as read, which hold their records (a copy of each topic's) too.
      for (const [file, { at, length }] of stored.entries as Array<[string, StoredPost]>) posts.set(file, new PostInChunk(stored.bodies, at, length));
      return;
    }
    let parts: ReturnType<typeof chunkParts>;
    try {
      parts = chunkParts(entries, sourceRoom);
    } catch {
      return; // posts whose chunk file is gone (deleted by hand meanwhile): left out, their files are read again
    }
    const bodiesLength = parts.bodies.reduce((sum, body) => sum + body.length, 0);
    const bytes = chunkRoom(HEADER + parts.records.length + bodiesLength);
    bytes.writeUInt32LE(parts.records.length, 0);
    bytes.writeUInt32LE(bodiesLength, 4);
    let at = HEADER + parts.records.copy(bytes, HEADER);
    for (const body of parts.bodies) at += body.copy(bytes, at);
    const name = `${digest(bytes)}.v8`;
    const path = join(folder, name);
    if (!existsSync(path)) replaceFile(path, (put) => put(bytes), { flush: false });
    chunks.push(name);
    const bodies: ChunkBodies = { name, path, start: HEADER + parts.records.length, length: bytes.length - HEADER - parts.records.length };
    parts.ranges.forEach(([at, length], i) => posts.set(entries[i]![0], new PostInChunk(bodies, at, length)));
  };
  let chunk: Array<[string, RememberedPost]> = [];
  for (const entry of memory) {
    chunk.push(entry);
    if (endsChunk(entry[0], chunk.length)) {
      flush(chunk);
      chunk = [];
    }
  }
  if (chunk.length > 0) flush(chunk);
  replaceFile(postsList(cacheDir), (put) => put(JSON.stringify({ code, chunks } satisfies PostsList)), { flush: false });
  const named = new Set(chunks);
  for (const name of readdirSync(folder)) if (!named.has(name)) rmSync(join(folder, name), { force: true });
  rmSync(join(cacheDir, 'posts.v8'), { force: true }); // the memory's first form
  return posts;
}
