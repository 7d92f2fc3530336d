/**
 * The build's memory of its last output, kept in the build's cache folder: the key of every page
 * (./page-reuse.ts) and, for every topic file, its record and its first post's rendering
 * (../content/load.ts), with a digest of the site's code.
 * Nothing is reused when the code digest differs; a page only while its previous file is as that build left it.
 */
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, resolve, sep } from 'node:path';
import { writer } from './write-files.ts';
import { deserialize, serialize } from 'node:v8';
import type { RememberedPost, RenderMemory } from '../content/load.ts';
import { sameFile, type FolderFiles } from './folder-files.ts';

const CODE = ['src', 'public', 'schemas', 'package-lock.json'];

interface Manifest {
  code: string;
  /** Each page or feed file: its key, and the size and modification time the build left it with. */
  pages: Array<[file: string, key: string, size: number, mtimeMs: number]>;
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

/**
 * The pages of the previous output that may be reused: same code, and the file still as that build
 * left it (same size and modification time: a page edited by hand is rendered again, not carried over).
 */
export function reusablePages(cacheDir: string, outDir: string, code: string): Map<string, string> {
  const reusable = new Map<string, string>();
  if (!existsSync(manifestFile(cacheDir))) return reusable;
  try {
    const manifest = JSON.parse(readFileSync(manifestFile(cacheDir), 'utf8')) as Manifest;
    if (manifest.code !== code) return reusable;
    for (const [file, key, size, mtimeMs] of manifest.pages) if (sameFile(join(outDir, file), size, mtimeMs)) reusable.set(file, key);
  } catch {
    // an unreadable manifest: render everything
  }
  return reusable;
}

/** Forgets the previous output's keys (before it is replaced, so a crash can never pair old keys with new files). */
export function forgetPages(cacheDir: string): void {
  rmSync(manifestFile(cacheDir), { force: true });
}

/** Remembers this output's keys, with each file's size and modification time as `files` (the output's listing) has them. */
export function rememberPages(cacheDir: string, code: string, pages: Map<string, string>, files: FolderFiles): void {
  const stamps = new Map(files.map(([path, size, mtimeMs]) => [path.split(sep).join('/'), [size, mtimeMs] as const]));
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
 * The topic memory's file: its header (`{ code }`), then the remembered files in chunks of
 * POSTS_PER_CHUNK, each a v8-serialized array of [file, post] preceded by its length in bytes
 * (32 bits, little-endian). It is read and written a chunk at a time, so a big site's memory
 * (37 MB at 10,000 topics) is never also held as one buffer.
 */
const postsFile = (cacheDir: string) => join(cacheDir, 'posts.v8');
const POSTS_PER_CHUNK = 1000;

/** The topic files read and first posts rendered by the last build with the same code (an empty memory otherwise). */
export function rememberedPosts(cacheDir: string, code: string): RenderMemory {
  const memory: RenderMemory = new Map();
  let fd: number | undefined;
  try {
    fd = openSync(postsFile(cacheDir), 'r');
    const file = fd;
    const length = Buffer.alloc(4);
    /** The next chunk, or undefined at the end of the file. */
    const next = (): unknown => {
      if (readSync(file, length, 0, 4, null) < 4) return undefined;
      const bytes = Buffer.alloc(length.readUInt32LE(0));
      if (readSync(file, bytes, 0, bytes.length, null) < bytes.length) throw new Error('cut short');
      return deserialize(bytes);
    };
    if ((next() as { code?: string } | undefined)?.code !== code) return memory;
    for (let chunk = next(); chunk !== undefined; chunk = next()) for (const [path, post] of chunk as Array<[string, RememberedPost]>) memory.set(path, post);
    return memory;
  } catch {
    // none yet, of an older form, or unreadable: render everything
    return new Map();
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Remembers this build's topic records and renderings for the next build (replacing the file whole: a killed build leaves the last one). */
export function rememberPosts(cacheDir: string, code: string, memory: RenderMemory): void {
  mkdirSync(cacheDir, { recursive: true });
  const partial = `${postsFile(cacheDir)}.${process.pid}.partial`;
  const fd = openSync(partial, 'w');
  try {
    try {
      const put = (value: unknown) => {
        const bytes = serialize(value);
        const length = Buffer.alloc(4);
        length.writeUInt32LE(bytes.length, 0);
        writeSync(fd, length);
        writeSync(fd, bytes);
      };
      put({ code });
      let chunk: Array<[string, RememberedPost]> = [];
      for (const entry of memory) {
        chunk.push(entry);
        if (chunk.length === POSTS_PER_CHUNK) {
          put(chunk);
          chunk = [];
        }
      }
      if (chunk.length > 0) put(chunk);
    } finally {
      closeSync(fd);
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
