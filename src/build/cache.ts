/**
 * The build's memory of its last output, kept in the build's cache folder: the key of every page
 * (./page-reuse.ts) and, for every topic file, its record and its first post's rendering
 * (../content/load.ts), with a digest of the site's code.
 * Nothing is reused when the code digest differs; a page only while its previous file is as that build left it.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { writer } from './write-files.ts';
import { digest } from '../content/digest.ts';
import { replaceFile } from '../cli/atomic-file.ts';
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
 * The topic memory: the remembered files in chunks, each chunk a file of its own in `posts/`
 * (a v8-serialized array of [file, post]) named by the digest of its bytes, and `posts.json`
 * naming the chunks of the last build with its code digest. A chunk ends after a file whose path
 * hashes to a multiple of POSTS_PER_CHUNK (about that many files a chunk, at most four times as
 * many): a file added or deleted changes its own chunk only. A chunk whose files are all kept as
 * read keeps its file, so a rebuild after one change writes one chunk (a big site's memory is
 * hundreds of megabytes: 37 MB at 10,000 topics, which the last form copied whole every build).
 * The list is replaced in one step after the new chunks are written, and the chunks it no longer
 * names are deleted after it: a build killed at any moment leaves a list whose chunks are all there.
 */
const postsList = (cacheDir: string) => join(cacheDir, 'posts.json');
const chunksFolder = (cacheDir: string) => join(cacheDir, 'posts');
const POSTS_PER_CHUNK = 1000;

interface PostsList {
  code: string;
  chunks: string[];
}

/** Whether a chunk ends after `path`: content-defined, so the chunks of unchanged files stay as they were. */
function endsChunk(path: string, size: number): boolean {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193) >>> 0;
  return hash % POSTS_PER_CHUNK === 0 || size >= 4 * POSTS_PER_CHUNK;
}

/** A chunk as read: its file's name in `posts/`, and what it held. */
interface StoredChunk {
  name: string;
  entries: Array<[string, RememberedPost]>;
}

/** The stored chunk each remembered post was read from (the first post of a chunk stands for it). */
const storedChunks = new WeakMap<RememberedPost, StoredChunk>();

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
      const entries = deserialize(readFileSync(join(chunksFolder(cacheDir), name))) as Array<[string, RememberedPost]>;
      if (!Array.isArray(entries)) continue;
      if (entries.length > 0) storedChunks.set(entries[0]![1], { name, entries });
      for (const [file, post] of entries) memory.set(file, post);
    } catch {
      // gone, cut short or not a chunk: its files are read again
    }
  }
  return memory;
}

/** The stored chunk holding exactly `entries`, the same posts as read; else undefined. */
function storedChunk(entries: Array<[string, RememberedPost]>): StoredChunk | undefined {
  const stored = storedChunks.get(entries[0]![1]);
  if (!stored || stored.entries.length !== entries.length) return undefined;
  for (let i = 0; i < entries.length; i++) {
    if (stored.entries[i]![0] !== entries[i]![0] || stored.entries[i]![1] !== entries[i]![1]) return undefined;
  }
  return stored;
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
    const bytes = serialize(entries);
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
  rmSync(join(cacheDir, 'posts.v8'), { force: true }); // the memory's last form
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
