/**
 * The files of a folder as the build notes them: the site's size (./host-limits.ts) and the
 * no-change check (./unchanged.ts) both read it, from one walk of the output; the prerenderer
 * (./prerenderer.ts) reads public/'s.
 */
import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { mtimeMsOf, statStamp } from '../content/file-stamp.ts';

/** Each file of a folder: its path (relative), size and modification time, in path order. */
export type FolderFiles = Array<[path: string, size: number, mtimeMs: number]>;

/** A folder's files, and the folders within it ('' for itself; relative paths, in path order). */
export interface FolderListing {
  files: FolderFiles;
  folders: string[];
  /**
   * Folders' modification times where they are known: a stamped output's, kept up to date by an
   * update in place (./in-place.ts), which the next stamp takes instead of looking each up again.
   */
  folderTimes?: ReadonlyMap<string, number>;
}

/**
 * What a folder's listed paths (relative, normalised: folderListing's) are put after to name its
 * files: `dir` and a separator, joined once rather than by `join` for each path (tens of thousands
 * a rebuild); none for the current folder, so that a path stays as `join` would give it.
 */
export function folderPrefix(dir: string): string {
  return join(dir) === '.' ? '' : join(dir, sep);
}

const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A listed path (the system's separators) as the site names it, `/`-separated. */
export function sitePath(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/** A listing of these files and folders, each in path order (sorted in place). */
export function inPathOrder(files: FolderFiles, folders: string[]): FolderListing {
  return { files: files.sort(([a], [b]) => byPath(a, b)), folders: folders.sort(byPath) };
}

/** The file `path` of `dir` as a listing notes it now: its path, size and modification time. */
export function listedFile(dir: string, path: string): FolderFiles[number] {
  const { size, mtimeMs } = statSync(join(dir, path));
  return [path, size, mtimeMs];
}

/** Whether `path` is still a file with the size and modification time a listing noted. */
export function sameFile(path: string, size: number, mtimeMs: number): boolean {
  const now = statSync(path, { throwIfNoEntry: false });
  return now !== undefined && now.isFile() && now.size === size && now.mtimeMs === mtimeMs;
}

export function folderFiles(dir: string): FolderFiles {
  return folderListing(dir).files;
}

/**
 * folderFiles, and the folders the same walk found. A link to a folder is followed, a link to a
 * file is not listed (as readdirSync's `recursive` does: this walk, folder by folder, takes about
 * two thirds of its time on a site's 16,000 folders). `leaveOut` names a folder of `dir` not walked.
 * With `stamps`, each file's stamp (../content/file-stamp.ts) is noted there by its full path, from
 * the same `lstat`.
 */
export function folderListing(dir: string, leaveOut?: string, stamps?: Map<string, string>): FolderListing {
  if (!existsSync(dir)) return { files: [], folders: [] };
  const files: FolderFiles = [];
  const folders = [''];
  const waiting = [''];
  const inDir = folderPrefix(dir);
  while (waiting.length > 0) {
    const folder = waiting.pop()!;
    for (const entry of readdirSync(`${inDir}${folder}` || '.', { withFileTypes: true })) {
      if (folder === '' && entry.name === leaveOut) continue;
      const path = folder === '' ? entry.name : `${folder}${sep}${entry.name}`;
      if (entry.isFile() && stamps) {
        const full = `${inDir}${path}`;
        const stats = lstatSync(full, { bigint: true });
        files.push([path, Number(stats.size), mtimeMsOf(stats)]);
        stamps.set(full, statStamp(stats));
      } else if (entry.isFile()) {
        const { size, mtimeMs } = statSync(`${inDir}${path}`);
        files.push([path, size, mtimeMs]);
      } else if (entry.isDirectory() || (entry.isSymbolicLink() && statSync(`${inDir}${path}`, { throwIfNoEntry: false })?.isDirectory())) {
        folders.push(path);
        waiting.push(path);
      }
    }
  }
  return inPathOrder(files, folders);
}

/** A listing of a folder walked but for its folder `name` (see folderListing), with `inner`, the listing of that folder. */
export function withFolder(outer: FolderListing, name: string, inner: FolderListing): FolderListing {
  return inPathOrder(
    [...outer.files, ...inner.files.map(([path, size, mtimeMs]): FolderFiles[number] => [join(name, path), size, mtimeMs])],
    [...outer.folders, ...inner.folders.map((folder) => join(name, folder))],
  );
}
