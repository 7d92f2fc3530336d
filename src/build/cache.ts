/**
 * The build's memory of its last output, kept in the build's cache folder: the key of every page
 * (./page-reuse.ts), with a digest of the site's code (the topic memory is ./post-memory.ts).
 * Nothing is reused when the code digest differs; a page only while its previous file is as that build left it.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { writer } from './write-files.ts';
import { replaceFile } from '../cli/atomic-file.ts';
import { sameFile, sitePath, type FolderFiles, type FolderListing } from './folder-files.ts';
import type { RouteFiles } from './store.ts';
import type { SiteContent } from '../content/load.ts';

const CODE = ['src', 'public', 'schemas', 'package-lock.json'];

/** A file of the previous output as its build left it: its key, size and modification time. */
export type RememberedFile = [file: string, key: string, size: number, mtimeMs: number];

interface Manifest {
  code: string;
  /** Each page, feed or index file. */
  pages: RememberedFile[];
  /** The routes whose pages are made from the listings only, by pattern (./page-reuse.ts). */
  routes?: Record<string, RouteFiles>;
}

/** What the previous build left: its files with their keys, and its routes made from the listings. */
export interface RememberedOutput {
  files: RememberedFile[];
  routes: Map<string, RouteFiles>;
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

/** The files of the previous output with their keys, and its routes, when the same code built it; none otherwise. */
export function rememberedOutput(cacheDir: string, code: string): RememberedOutput {
  const none = { files: [], routes: new Map() };
  if (!existsSync(manifestFile(cacheDir))) return none;
  try {
    const manifest = JSON.parse(readFileSync(manifestFile(cacheDir), 'utf8')) as Manifest;
    if (manifest.code !== code || !manifest.pages.every((entry) => entry.length === 4)) return none;
    return { files: manifest.pages, routes: new Map(Object.entries(manifest.routes ?? {})) };
  } catch {
    return none; // an unreadable manifest: make everything
  }
}

/** The files of the previous output with their keys, when the same code built it; none otherwise. */
export const rememberedFiles = (cacheDir: string, code: string): RememberedFile[] => rememberedOutput(cacheDir, code).files;

/**
 * The keys of the remembered files that may be reused: those still as their build left them in
 * `outDir` (same size and modification time: a page edited by hand is rendered again, not carried over).
 */
export function unchangedFiles(outDir: string, files: readonly RememberedFile[]): Map<string, string> {
  return keysOf(files.filter(([file, , size, mtimeMs]) => sameFile(join(outDir, file), size, mtimeMs)));
}

/**
 * The key of what the topics' shape gives a page or value besides the code: what orders, groups
 * and dates the topics, in the content's order (each one's slug, author, dates, content type, tags,
 * replies and views, not its title, excerpt or post), and the content types. What is made from
 * these alone (each intersection page's topics, the sitemap, the search page's answer to a search
 * for nothing) stays the same while it does: after a title edit, say (./page-reuse.ts sameWhileShape).
 */
export function shapeKey({ topics, contentTypes }: SiteContent): string {
  const shape = topics.map(({ slug, author, createdMs, updatedMs, contentType, contentGroup, tags, replies, views }) => [slug, author, createdMs, updatedMs, contentType, contentGroup, tags, replies, views]);
  return createHash('sha1').update(JSON.stringify(['shape', shape, contentTypes.list])).digest('hex');
}

/** The key of the topics' tags, in the content's order: the same key, the same tags on the same topics, in whatever order they are listed (./page-reuse.ts sameWhileTags). */
export function tagsKey({ topics }: SiteContent): string {
  return createHash('sha1').update(JSON.stringify(topics.map((topic) => topic.tags))).digest('hex');
}

/** Remembered files' keys by file. */
export const keysOf = (files: readonly RememberedFile[]): Map<string, string> => new Map(files.map(([file, key]) => [file, key]));

/**
 * The remembered files that `listing` (an output as checked file by file) has with the same size
 * and modification time: unchangedFiles's answer, looked up in the listing instead of the folder.
 */
export function listedAsRemembered(files: readonly RememberedFile[], listing: FolderListing): RememberedFile[] {
  const listed = new Map(listing.files.map((entry) => [sitePath(entry[0]), entry]));
  return files.filter(([file, , size, mtimeMs]) => {
    const entry = listed.get(file);
    return entry !== undefined && entry[1] === size && entry[2] === mtimeMs;
  });
}

/** Forgets the previous output's keys (before it is replaced, so a crash can never pair old keys with new files). */
export function forgetPages(cacheDir: string): void {
  rmSync(manifestFile(cacheDir), { force: true });
}

/**
 * Remembers this output's keys, with each file's size and modification time as `files` (the
 * output's listing) has them, and its `routes` made from the listings.
 */
export function rememberPages(cacheDir: string, code: string, pages: Map<string, string>, files: FolderFiles, routes: ReadonlyMap<string, RouteFiles> = new Map()): void {
  // In the listing's order: one look-up a file, where a map of the listing's stamps took twice the time.
  const remembered: RememberedFile[] = [];
  for (const [path, size, mtimeMs] of files) {
    const file = sitePath(path);
    const key = pages.get(file);
    if (key !== undefined) remembered.push([file, key, size, mtimeMs]);
  }
  const manifest: Manifest = { code, pages: remembered, routes: Object.fromEntries(routes) };
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(manifestFile(cacheDir), JSON.stringify(manifest));
}

/** Puts the reused page files of the previous output into the new one: a hard link, or a copy across file systems. */
export function carryOver(files: Iterable<string>, from: string, to: string): void {
  const folder = writer(to);
  for (const file of files) folder.carry(file, from);
}

const sourceFile = (cacheDir: string) => join(cacheDir, 'source.json');

/**
 * Notes which content folder a cache folder is for (so it can be pruned once that is gone). The
 * note is replaced whole: a build of another content folder or output, which prunes the caches
 * meanwhile (pruneCaches), never reads half of it.
 */
export function noteSource(cacheDir: string, content: string): void {
  mkdirSync(cacheDir, { recursive: true });
  replaceFile(sourceFile(cacheDir), (put) => put(JSON.stringify({ content })), { flush: false });
}

/**
 * How long a cache folder that names no content folder is left alone before it is pruned: a build
 * running beside the one that prunes may have just made it, and note its source next (the stamp's
 * folder gets its note when the build ends: ./unchanged.ts).
 */
export const UNNAMED_CACHE_MS = 24 * 60 * 60_000;

/** The content folder a cache folder notes, or undefined when it notes none that can be read. */
function notedSource(dir: string): string | undefined {
  try {
    const { content } = JSON.parse(readFileSync(sourceFile(dir), 'utf8')) as { content?: unknown };
    return typeof content === 'string' ? content : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Deletes the cache folders under `cacheRoot` whose content folder no longer exists (builds of
 * temporary folders, such as the tests', would otherwise pile up), and those that name no content
 * folder once nothing has changed in them for UNNAMED_CACHE_MS (an older tagsite's, or one a build
 * killed at its start left); returns how many.
 */
export function pruneCaches(cacheRoot: string, now = Date.now()): number {
  if (!existsSync(cacheRoot)) return 0;
  let pruned = 0;
  for (const name of readdirSync(cacheRoot)) {
    const dir = join(cacheRoot, name);
    const source = notedSource(dir);
    if (source === undefined ? !leftAlone(dir, now) : existsSync(source)) continue;
    rmSync(dir, { recursive: true, force: true });
    pruned++;
  }
  return pruned;
}

/** Whether nothing was added to the folder `dir`, taken out or renamed for UNNAMED_CACHE_MS; false when it is gone (another build pruned it). */
function leftAlone(dir: string, now: number): boolean {
  const stats = statSync(dir, { throwIfNoEntry: false });
  return stats !== undefined && stats.mtimeMs < now - UNNAMED_CACHE_MS;
}
