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
 * A chunk file holds the records first and the posts' HTML and text after them, each part
 * v8-serialized behind the two parts' byte lengths. A build reads the records of every chunk from
 * the file, and the HTML and text of a chunk only when one of its posts is asked for them: a topic
 * page rendered again, a topic whose words the index thread does not have, a chunk written anew.
 * They are two thirds of the memory's bytes: held, they took 26 MB of the main thread's heap for
 * the whole of a rebuild at 10,000 topics (53 MB against 27 MB after reading the memory), and
 * reading them from the disk, then copying them, some 70 ms. Deserializing the records takes some
 * 80 ms at 10,000 topics, their bytes' size hardly matters.
 */
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { digest } from '../content/digest.ts';
import { replaceFile } from '../cli/atomic-file.ts';
import type { RememberedPost, RenderMemory } from '../content/read-topics.ts';

const postsList = (cacheDir: string) => join(cacheDir, 'posts.json');
const chunksFolder = (cacheDir: string) => join(cacheDir, 'posts');
const POSTS_PER_CHUNK = 1000;
/** The two byte lengths before a chunk's parts. */
const HEADER = 8;

interface PostsList {
  code: string;
  chunks: string[];
}

/** A post as a chunk's records hold it: without its HTML and text. */
type PostRecord = Omit<RememberedPost, 'html' | 'text'>;

/** Whether a chunk ends after `path`: content-defined, so the chunks of unchanged files stay as they were. */
function endsChunk(path: string, size: number): boolean {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193) >>> 0;
  return hash % POSTS_PER_CHUNK === 0 || size >= 4 * POSTS_PER_CHUNK;
}

/**
 * A chunk as read: its file's name in `posts/` and path, what it held, and where its posts' HTML
 * and text are in the file (read from it when first asked for).
 */
interface StoredChunk {
  name: string;
  path: string;
  entries: Array<[string, RememberedPost]>;
  bodies: { start: number; length: number };
  read?: Array<[html: string, text: string]>;
}

/** `length` bytes of a file from `start`; fewer where the file is shorter. */
function readPart(fd: number, start: number, length: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const got = readSync(fd, bytes, done, length - done, start + done);
    if (got === 0) break;
    done += got;
  }
  return done === length ? bytes : bytes.subarray(0, done);
}

function bodiesOf(chunk: StoredChunk): Array<[html: string, text: string]> {
  if (chunk.read) return chunk.read;
  let bodies: unknown;
  try {
    // Builds of one output take turns, and this one deletes a chunk file only once it has written
    // anew the chunks it read from it (rememberPosts): the file is there until then.
    const fd = openSync(chunk.path, 'r');
    try {
      bodies = deserialize(readPart(fd, chunk.bodies.start, chunk.bodies.length));
    } finally {
      closeSync(fd);
    }
  } catch {
    bodies = undefined;
  }
  if (!Array.isArray(bodies) || bodies.length !== chunk.entries.length) {
    throw new Error(`the build's topic memory is damaged (.tagsite-build/…/posts/${chunk.name}); run npm run build -- --clean`);
  }
  return (chunk.read = bodies as Array<[string, string]>);
}

/** A remembered post read from a chunk: its HTML and text come from the chunk when first asked for. */
class StoredPost implements RememberedPost {
  readonly digest: string;
  readonly read?: RememberedPost['read'];
  readonly #chunk: StoredChunk;
  readonly #index: number;

  constructor(record: PostRecord, chunk: StoredChunk, index: number) {
    this.digest = record.digest;
    if (record.read) this.read = record.read;
    this.#chunk = chunk;
    this.#index = index;
  }

  get html(): string {
    return bodiesOf(this.#chunk)[this.#index]![0];
  }

  get text(): string {
    return bodiesOf(this.#chunk)[this.#index]![1];
  }

  /** The chunk it was read from. */
  get chunk(): StoredChunk {
    return this.#chunk;
  }
}

/**
 * A chunk file's records, read from its start: undefined when the file is not a whole chunk. Its
 * posts' HTML and text are not read now (bodiesOf).
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
    const chunk: StoredChunk = { name, path, entries: [], bodies: { start: HEADER + recordsLength, length: bodiesLength } };
    chunk.entries = (records as Array<[string, PostRecord]>).map(([file, record], i) => [file, new StoredPost(record, chunk, i)]);
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

/** A chunk file's bytes for `entries`: the two parts' lengths, the records, then the posts' HTML and text. */
function chunkBytes(entries: Array<[string, RememberedPost]>): Buffer {
  const records = serialize(entries.map(([file, { digest, read }]): [string, PostRecord] => [file, read ? { digest, read } : { digest }]));
  const bodies = serialize(entries.map(([, post]) => [post.html, post.text]));
  const header = Buffer.alloc(HEADER);
  header.writeUInt32LE(records.length, 0);
  header.writeUInt32LE(bodies.length, 4);
  return Buffer.concat([header, records, bodies]);
}

/** Remembers this build's topic records and renderings for the next build. */
export function rememberPosts(cacheDir: string, code: string, memory: RenderMemory): void {
  const folder = chunksFolder(cacheDir);
  mkdirSync(folder, { recursive: true });
  const chunks: string[] = [];
  const flush = (entries: Array<[string, RememberedPost]>) => {
    // A chunk kept as read keeps its file, while that is there (a `--clean` build deletes the cache).
    const stored = entries.length > 0 ? storedChunk(entries) : undefined;
    if (stored && existsSync(join(folder, stored.name))) return void chunks.push(stored.name);
    let bytes: Buffer;
    try {
      bytes = chunkBytes(entries);
    } catch {
      return; // posts whose chunk file is gone (deleted by hand meanwhile): left out, their files are read again
    }
    const name = `${digest(bytes)}.v8`;
    if (!existsSync(join(folder, name))) replaceFile(join(folder, name), (put) => put(bytes), { flush: false });
    chunks.push(name);
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
}
