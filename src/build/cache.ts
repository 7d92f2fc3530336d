/**
 * The build's memory of its last output, kept in the build's cache folder: the key of every page
 * (./page-reuse.ts) and, for every topic file, its record and its first post's rendering
 * (../content/load.ts), with a digest of the site's code.
 * Nothing is reused when the code digest differs; a page only while its previous file is as that build left it.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, resolve, sep } from 'node:path';
import { writer } from './write-files.ts';
import { deserialize, serialize } from 'node:v8';
import type { RenderMemory } from '../content/load.ts';
import type { FolderFiles } from './folder-files.ts';

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
    for (const [file, key, size, mtimeMs] of manifest.pages) {
      const now = statSync(join(outDir, file), { throwIfNoEntry: false });
      if (now?.isFile() && now.size === size && now.mtimeMs === mtimeMs) reusable.set(file, key);
    }
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

const postsFile = (cacheDir: string) => join(cacheDir, 'posts.v8');

/** The topic files read and first posts rendered by the last build with the same code (an empty memory otherwise). */
export function rememberedPosts(cacheDir: string, code: string): RenderMemory {
  try {
    const saved = deserialize(readFileSync(postsFile(cacheDir))) as { code: string; memory: RenderMemory };
    if (saved.code === code && saved.memory instanceof Map) return saved.memory;
  } catch {
    // none yet, or unreadable: render everything
  }
  return new Map();
}

/** Remembers this build's topic records and renderings for the next build. */
export function rememberPosts(cacheDir: string, code: string, memory: RenderMemory): void {
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(postsFile(cacheDir), serialize({ code, memory }));
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
