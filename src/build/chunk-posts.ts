/**
 * A post in a chunk file of the topic memory (./post-memory.ts), read from the file each time its
 * HTML or text is asked for, never held: a build's posts are on the disk, not in its heap, until
 * their page renders or the index thread reads their words. The chunk's posts' part holds each
 * post as its HTML's byte length (4 bytes), then the HTML and the text in UTF-8.
 *
 * A post read in another thread (the index thread, ./index-and-feeds.ts) is sent as its place:
 * its chunk file, where its bytes start and how many there are (postPlace, placesToSend, sentTexts).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import type { RenderedPost } from '../content/topics.ts';
import type { RememberedPost } from '../content/read-topics.ts';

/**
 * A chunk file's posts' part: where it is in the file, and while a chunk is written from them,
 * those of its bytes that hold the posts copied (`bytes`, from `bytesAt` in the part on).
 */
export interface ChunkBodies {
  name: string;
  path: string;
  start: number;
  length: number;
  bytes?: Buffer;
  bytesAt?: number;
}

/** A post's HTML and text as a chunk holds them: the HTML's byte length (4 bytes), then both in UTF-8. */
export function postBytes({ html, text }: RenderedPost): Buffer {
  const htmlLength = Buffer.byteLength(html);
  const bytes = Buffer.allocUnsafe(4 + htmlLength + Buffer.byteLength(text));
  bytes.writeUInt32LE(htmlLength, 0);
  bytes.write(html, 4);
  bytes.write(text, 4 + htmlLength);
  return bytes;
}

/** `length` bytes of a file from `start`, read into `into` if given (its start), else a buffer of their own; fewer where the file is shorter. */
export function readPart(fd: number, start: number, length: number, into?: Buffer): Buffer {
  const bytes = into ? into.subarray(0, length) : Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const got = readSync(fd, bytes, done, length - done, start + done);
    if (got === 0) break;
    done += got;
  }
  return done === length ? bytes : bytes.subarray(0, done);
}

/** The error of a chunk file that is gone or not as written: what to do about it. */
const damaged = (bodies: Pick<ChunkBodies, 'name'>) => new Error(`the build's topic memory is damaged (.tagsite-build/…/posts/${bodies.name}); run npm run build -- --clean`);

/** The `length` bytes of a chunk file that `read` reads: the memory is damaged when they cannot be read, or are fewer. */
function wholePart(bodies: Pick<ChunkBodies, 'name'>, length: number, read: () => Buffer): Buffer {
  let bytes: Buffer;
  try {
    bytes = read();
  } catch {
    throw damaged(bodies);
  }
  if (bytes.length !== length) throw damaged(bodies);
  return bytes;
}

/** Where a post's text starts in its bytes (postBytes): after its HTML. */
function textStart(bytes: Buffer, bodies: Pick<ChunkBodies, 'name'>): number {
  const htmlEnd = bytes.length >= 4 ? 4 + bytes.readUInt32LE(0) : Infinity;
  if (htmlEnd > bytes.length) throw damaged(bodies);
  return htmlEnd;
}

/** `length` bytes of a chunk's posts' part from `at` (read into `into`'s start, if given, when they are read from the file). */
export function bodyBytes(bodies: ChunkBodies, at: number, length: number, into?: Buffer): Buffer {
  if (bodies.bytes) {
    const from = at - (bodies.bytesAt ?? 0);
    return bodies.bytes.subarray(from, from + length);
  }
  // Builds of one output take turns, and this one deletes a chunk file only once it has written
  // anew the chunks it read from it (rememberPosts): the file is there until then.
  return wholePart(bodies, length, () => {
    const fd = openSync(bodies.path, 'r');
    try {
      return readPart(fd, bodies.start + at, length, into);
    } finally {
      closeSync(fd);
    }
  });
}

/**
 * A post whose HTML and text are in a chunk file: read from there each time they are asked for,
 * never held, so a build's posts are on the disk, not in its heap, until their page renders.
 */
export class PostInChunk implements RenderedPost {
  readonly bodies: ChunkBodies;
  readonly at: number;
  readonly length: number;

  constructor(bodies: ChunkBodies, at: number, length: number) {
    this.bodies = bodies;
    this.at = at;
    this.length = length;
  }

  /** The post's bytes in the chunk (postBytes). */
  bytes(): Buffer {
    return bodyBytes(this.bodies, this.at, this.length);
  }

  /** The HTML and text, read at once. */
  rendering(): RenderedPost {
    const bytes = this.bytes();
    const htmlEnd = textStart(bytes, this.bodies);
    return { html: bytes.toString('utf8', 4, htmlEnd), text: bytes.toString('utf8', htmlEnd) };
  }

  get html(): string {
    return this.rendering().html;
  }

  /** The text alone (the index thread reads no HTML). */
  get text(): string {
    const bytes = this.bytes();
    return bytes.toString('utf8', textStart(bytes, this.bodies));
  }
}

/**
 * A remembered post (the digest of its Markdown, and its record) whose HTML and text are in a file
 * of posts: a chunk's (./post-memory.ts), or a spill file (../content/post-spill.ts).
 */
export class RememberedInChunk extends PostInChunk implements RememberedPost {
  readonly digest: string;
  readonly read?: RememberedPost['read'];

  constructor(bodies: ChunkBodies, at: number, length: number, digest: string, read?: RememberedPost['read']) {
    super(bodies, at, length);
    this.digest = digest;
    if (read) this.read = read;
  }
}

/** Where a post is: its chunk file, where its bytes start in the file, and how many there are. */
export type PostPlace = [path: string, start: number, length: number];

/** Where `post` is, when it is a post in a chunk file (to read in another thread: sentTexts); else undefined. */
export function postPlace(post: RenderedPost | undefined): PostPlace | undefined {
  return post instanceof PostInChunk && !post.bodies.bytes ? [post.bodies.path, post.bodies.start + post.at, post.length] : undefined;
}

/** Posts' places as one thread sends them to another, by their records' positions: each chunk file named once. */
export interface SentPlaces {
  chunks: string[];
  /** By position (sparse): the chunk file's number in `chunks`, where the post starts there, and its length. */
  at: Array<[chunk: number, start: number, length: number]>;
}

/** Collects posts' places to send (SentPlaces). */
export function placesToSend(): { sent: SentPlaces; note(position: number, place: PostPlace): void } {
  const sent: SentPlaces = { chunks: [], at: [] };
  const numbers = new Map<string, number>();
  return {
    sent,
    note(position, [path, start, length]) {
      let chunk = numbers.get(path);
      if (chunk === undefined) numbers.set(path, (chunk = sent.chunks.push(path) - 1));
      sent.at[position] = [chunk, start, length];
    },
  };
}

/** At most this many chunk files are kept open while texts are read from them (a file a thousand posts). */
const FILES_OPEN = 64;

/**
 * The text of each record sent (a post's text as `textOf` takes it): read from its chunk file each
 * time it is asked for, for a record sent with its post's place (SentPlaces); the record's own
 * otherwise. The `filesOpen` files last read from stay open until `close`: the records are read
 * in any order, a post from one file, the next from another.
 * (Not a getter put on each record: V8 would then hold every record as a dictionary, and all work on them slows.)
 */
export function sentTexts<R extends { text: string }>(records: readonly R[], { chunks, at }: SentPlaces, filesOpen = FILES_OPEN): { textOf(record: R): string; close(): void } {
  const places = new Map<R, [chunk: number, start: number, length: number]>();
  at.forEach((place, position) => places.set(records[position]!, place));
  /** Open files by chunk number, the one read from last at the end. */
  const open = new Map<number, number>();
  const fileOf = (chunk: number) => {
    let fd = open.get(chunk);
    if (fd !== undefined) open.delete(chunk);
    else {
      // The file read from longest ago is closed first.
      const [oldest] = open.size >= filesOpen ? open : [];
      if (oldest) {
        closeSync(oldest[1]);
        open.delete(oldest[0]);
      }
      fd = openSync(chunks[chunk]!, 'r');
    }
    open.set(chunk, fd);
    return fd;
  };
  return {
    textOf(record) {
      const place = places.get(record);
      if (!place) return record.text;
      const [chunk, start, length] = place;
      const file = { name: basename(chunks[chunk]!) };
      const bytes = wholePart(file, length, () => readPart(fileOf(chunk), start, length));
      return bytes.toString('utf8', textStart(bytes, file));
    },
    close() {
      for (const fd of open.values()) closeSync(fd);
      open.clear();
    },
  };
}
