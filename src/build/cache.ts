/**
 * The build's memory of its last output, kept in the build's cache folder: the key of every page
 * (./page-reuse.ts) and, for every topic file, its record and its first post's rendering
 * (../content/load.ts), with a digest of the site's code.
 * Nothing is reused when the code digest differs; a page only while its previous file is as that build left it.
 */
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { writer } from './write-files.ts';
import { deserialize, serialize } from 'node:v8';
import type { RememberedPost, RenderMemory } from '../content/load.ts';
import { sameFile, sitePath, type FolderFiles, type FolderListing } from './folder-files.ts';

const CODE = ['src', 'public', 'schemas', 'package-lock.json'];

/** A file of the previous output as its build left it: its key, size and modification time. */
export type RememberedFile = [file: string, key: string, size: number, mtimeMs: number];

interface Manifest {
  code: string;
  /** Each page, feed or index file. */
  pages: RememberedFile[];
}

/**
 * Digest of everything besides the content that shapes the pages: the site's code (src/, public/,
 * schemas/, the lock file, the Astro config files), the Node version and `settings` (the resolved
 * options, `site` and `base`).
 */
export function codeDigest(root: string, settings: string): string {
  const hash = createHash('sha1');
  const configFiles = readdirSync(root).filter((name) => /^astro\.config\.[cm]?[jt]s$/.test(name));
  for (const part of [...CODE, ...configFiles.sort()]) {
    const path = resolve(root, part);
    if (!existsSync(path)) continue;
    const files = statSync(path).isDirectory()
      ? readdirSync(path, { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name)).sort()
      : [path];
    for (const file of files) hash.update(`${file}\0`).update(readFileSync(file)).update('\0');
  }
  hash.update(JSON.stringify([settings, process.version]));
  return hash.digest('hex');
}

const manifestFile = (cacheDir: string) => join(cacheDir, 'pages.json');

/** The files of the previous output with their keys, when the same code built it; none otherwise. */
export function rememberedFiles(cacheDir: string, code: string): RememberedFile[] {
  if (!existsSync(manifestFile(cacheDir))) return [];
  try {
    const manifest = JSON.parse(readFileSync(manifestFile(cacheDir), 'utf8')) as Manifest;
    return manifest.code === code && manifest.pages.every((entry) => entry.length === 4) ? manifest.pages : [];
  } catch {
    return []; // an unreadable manifest: make everything
  }
}

/**
 * The keys of the remembered files that may be reused: those still as their build left them in
 * `outDir` (same size and modification time: a page edited by hand is rendered again, not carried over).
 * `listing`, when given, is the output as just checked file by file: it is looked up instead.
 */
export function unchangedFiles(outDir: string, files: readonly RememberedFile[], listing?: FolderListing): Map<string, string> {
  const listed = listing && new Map(listing.files.map((entry) => [sitePath(entry[0]), entry]));
  const same = (file: string, size: number, mtimeMs: number) => {
    if (!listed) return sameFile(join(outDir, file), size, mtimeMs);
    const entry = listed.get(file);
    return entry !== undefined && entry[1] === size && entry[2] === mtimeMs;
  };
  const reusable = new Map<string, string>();
  for (const [file, key, size, mtimeMs] of files) if (same(file, size, mtimeMs)) reusable.set(file, key);
  return reusable;
}

/** Forgets the previous output's keys (before it is replaced, so a crash can never pair old keys with new files). */
export function forgetPages(cacheDir: string): void {
  rmSync(manifestFile(cacheDir), { force: true });
}

/** Remembers this output's keys, with each file's size and modification time as `files` (the output's listing) has them. */
export function rememberPages(cacheDir: string, code: string, pages: Map<string, string>, files: FolderFiles): void {
  const stamps = new Map(files.map(([path, size, mtimeMs]) => [sitePath(path), [size, mtimeMs] as const]));
  const manifest: Manifest = { code, pages: [...pages].flatMap(([file, key]): Manifest['pages'] => (stamps.has(file) ? [[file, key, ...stamps.get(file)!]] : [])) };
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(manifestFile(cacheDir), JSON.stringify(manifest));
}

/** Puts the reused page files of the previous output into the new one: a hard link, or a copy across file systems. */
export function carryOver(files: Iterable<string>, from: string, to: string): void {
  const folder = writer(to);
  for (const file of files) folder.carry(file, from);
}

/**
 * The topic memory's file: its header (`{ code }`), then the remembered files in chunks, each a
 * v8-serialized array of [file, post] preceded by its length in bytes (32 bits, little-endian).
 * It is read and written a chunk at a time, so a big site's memory (37 MB at 10,000 topics) is
 * never also held as one buffer. A chunk ends after a file whose path hashes to a multiple of
 * POSTS_PER_CHUNK (about that many files a chunk, at most four times as many): a file added or
 * deleted changes its own chunk only. A chunk whose files are all kept as read is copied from the
 * previous file instead of serialized again, so a rebuild after one change serializes one chunk.
 */
const postsFile = (cacheDir: string) => join(cacheDir, 'posts.v8');
const POSTS_PER_CHUNK = 1000;

/** Whether a chunk ends after `path`: content-defined, so the chunks of unchanged files stay as they were. */
function endsChunk(path: string, size: number): boolean {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193) >>> 0;
  return hash % POSTS_PER_CHUNK === 0 || size >= 4 * POSTS_PER_CHUNK;
}

/** A chunk as it lies in a memory file that was read: the file (by identity), where the chunk's bytes are, and what it held. */
interface StoredChunk {
  file: { path: string; ino: number; size: number; mtimeMs: number };
  offset: number;
  length: number;
  entries: Array<[string, RememberedPost]>;
}

/** The stored chunk each remembered post was read from (the first post of a chunk stands for it). */
const storedChunks = new WeakMap<RememberedPost, StoredChunk>();

/** The topic files read and first posts rendered by the last build with the same code (an empty memory otherwise). */
export function rememberedPosts(cacheDir: string, code: string): RenderMemory {
  const memory: RenderMemory = new Map();
  const path = postsFile(cacheDir);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const file = fd;
    const { ino, size, mtimeMs } = fstatSync(file);
    const length = Buffer.alloc(4);
    let offset = 0;
    /** The next chunk and where it lies, or undefined at the end of the file. */
    const next = (): { value: unknown; offset: number; length: number } | undefined => {
      if (readSync(file, length, 0, 4, offset) < 4) return undefined;
      const bytes = Buffer.alloc(length.readUInt32LE(0));
      if (readSync(file, bytes, 0, bytes.length, offset + 4) < bytes.length) throw new Error('cut short');
      const at = offset;
      offset += 4 + bytes.length;
      return { value: deserialize(bytes), offset: at, length: 4 + bytes.length };
    };
    if ((next()?.value as { code?: string } | undefined)?.code !== code) return memory;
    for (let chunk = next(); chunk !== undefined; chunk = next()) {
      const entries = chunk.value as Array<[string, RememberedPost]>;
      if (entries.length > 0) storedChunks.set(entries[0]![1], { file: { path, ino, size, mtimeMs }, offset: chunk.offset, length: chunk.length, entries });
      for (const [file, post] of entries) memory.set(file, post);
    }
    return memory;
  } catch {
    // none yet, of an older form, or unreadable: render everything
    return new Map();
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The stored chunk holding exactly `entries`, the same posts as read, in a file still as it was read; else undefined. */
function storedChunk(entries: Array<[string, RememberedPost]>): StoredChunk | undefined {
  const stored = storedChunks.get(entries[0]![1]);
  if (!stored || stored.entries.length !== entries.length) return undefined;
  for (let i = 0; i < entries.length; i++) {
    if (stored.entries[i]![0] !== entries[i]![0] || stored.entries[i]![1] !== entries[i]![1]) return undefined;
  }
  return stored;
}

/** Remembers this build's topic records and renderings for the next build (replacing the file whole: a killed build leaves the last one). */
export function rememberPosts(cacheDir: string, code: string, memory: RenderMemory): void {
  mkdirSync(cacheDir, { recursive: true });
  const partial = `${postsFile(cacheDir)}.${process.pid}.partial`;
  const fd = openSync(partial, 'w');
  // The file the kept chunks are copied from, while it is the file they were read from (-1: gone).
  let previous: number | undefined;
  try {
    try {
      const put = (bytes: Uint8Array) => {
        const length = Buffer.alloc(4);
        length.writeUInt32LE(bytes.length, 0);
        writeSync(fd, length);
        writeSync(fd, bytes);
      };
      const copied = (entries: Array<[string, RememberedPost]>): boolean => {
        const stored = storedChunk(entries);
        if (!stored) return false;
        try {
          previous ??= openSync(stored.file.path, 'r');
        } catch {
          previous = -1; // deleted meanwhile (a `--clean` build of the same output): every chunk is serialized
        }
        if (previous === -1) return false;
        const now = fstatSync(previous);
        if (now.ino !== stored.file.ino || now.size !== stored.file.size || now.mtimeMs !== stored.file.mtimeMs) return false;
        const bytes = Buffer.alloc(stored.length);
        if (readSync(previous, bytes, 0, stored.length, stored.offset) < stored.length) return false;
        writeSync(fd, bytes);
        return true;
      };
      put(serialize({ code }));
      let chunk: Array<[string, RememberedPost]> = [];
      const flush = () => {
        if (chunk.length > 0 && !copied(chunk)) put(serialize(chunk));
        chunk = [];
      };
      for (const entry of memory) {
        chunk.push(entry);
        if (endsChunk(entry[0], chunk.length)) flush();
      }
      flush();
    } finally {
      closeSync(fd);
      if (previous !== undefined && previous !== -1) closeSync(previous);
    }
    renameSync(partial, postsFile(cacheDir));
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

const sourceFile = (cacheDir: string) => join(cacheDir, 'source.json');

/** Notes which content folder a cache folder is for (so it can be pruned once that is gone). */
export function noteSource(cacheDir: string, content: string): void {
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(sourceFile(cacheDir), JSON.stringify({ content }));
}

/**
 * Deletes the cache folders under `cacheRoot` whose content folder no longer exists (builds of
 * temporary folders, such as the tests', would otherwise pile up); returns how many.
 */
export function pruneCaches(cacheRoot: string): number {
  if (!existsSync(cacheRoot)) return 0;
  let pruned = 0;
  for (const name of readdirSync(cacheRoot)) {
    const dir = join(cacheRoot, name);
    try {
      const { content } = JSON.parse(readFileSync(sourceFile(dir), 'utf8')) as { content: string };
      if (existsSync(content)) continue;
    } catch {
      // no source noted: a cache of an older tagsite, or half-written
    }
    rmSync(dir, { recursive: true, force: true });
    pruned++;
  }
  return pruned;
}
