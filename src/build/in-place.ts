/**
 * A content rebuild that updates the output in place. When the output is exactly as the last
 * build left it (its stamp, ./unchanged.ts), the rebuild writes only the files it made into its
 * work folder; the pages, feeds, index files and browser files it reuses stay where they are,
 * instead of being linked one by one into a new folder beside the output (at 10,000 topics 27,000
 * links and 16,000 folders made again, and as many deleted with the old output). Then each file
 * made is renamed over its old version, and each file of the old output the site no longer has
 * is deleted, with the folders it leaves empty: the same files a clean build writes.
 *
 * Each file is replaced whole (a rename), and the output holds a mix of old and new files only
 * for the moment the renames take. The page keys are forgotten first (./cache.ts): a build killed
 * in that moment leaves an output its stamp no longer describes, and the next build renders every
 * page into a new folder and swaps it in whole. Builds of one output take turns (outputLock).
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { folderListing, inPathOrder, listedFile, sitePath, type FolderListing } from './folder-files.ts';

/** Updating the output in place failed part way: it may hold some of the new files. */
export class PartlyUpdatedError extends Error {}

/** The lock file that makes builds of one output folder take turns in changing it (../cli/lock.ts). */
export function outputLock(root: string, outDir: string): string {
  return join(root, '.tagsite-build', `output-${createHash('sha1').update(outDir).digest('hex').slice(0, 16)}.lock`);
}

/** Moves `from` to `to`, replacing it: a rename, or across file systems a copy renamed into place. */
function moveOver(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    const partial = `${to}.${process.pid}.partial`;
    copyFileSync(from, partial);
    renameSync(partial, to);
  }
}

/**
 * Puts the files of `fresh` (this build's, in their site paths) into `outDir`, which holds
 * `previous` (the output as the last build left it), and deletes the files of `previous` that are
 * neither made again nor in `kept` (site paths, `/`-separated), then the folders left empty.
 * Returns the output's listing afterwards, as `folderListing` would list it.
 */
export function updateInPlace(fresh: string, outDir: string, previous: FolderListing, kept: ReadonlySet<string>): FolderListing {
  const made = folderListing(fresh);
  try {
    return update(made, fresh, outDir, previous, kept);
  } catch (error) {
    throw new PartlyUpdatedError(`${outDir} could not be updated in place (${(error as Error).message}); it may hold some of the new files, and the next build replaces it whole`);
  }
}

function update(made: FolderListing, fresh: string, outDir: string, previous: FolderListing, kept: ReadonlySet<string>): FolderListing {
  const madePaths = new Set(made.files.map(([path]) => path));
  const gone = previous.files.filter(([path]) => !madePaths.has(path) && !kept.has(sitePath(path))).map(([path]) => path);
  const folders = new Set(previous.folders);
  // The folders whose entries this changes: their modification times move.
  const touched = new Set<string>();
  for (const folder of made.folders) {
    if (folders.has(folder)) continue;
    mkdirSync(join(outDir, folder), { recursive: true });
    folders.add(folder);
    touched.add(folder).add(folderOf(folder));
  }
  for (const [path] of made.files) {
    moveOver(join(fresh, path), join(outDir, path));
    touched.add(folderOf(path));
  }
  for (const path of gone) {
    rmSync(join(outDir, path), { force: true });
    touched.add(folderOf(path));
  }
  // Folders left empty, deepest first; a folder still holding something stays.
  const emptied = [...new Set(gone.flatMap((path) => ancestors(path)))].sort((a, b) => b.length - a.length);
  for (const folder of emptied) {
    try {
      rmdirSync(join(outDir, folder));
      folders.delete(folder);
      touched.add(folderOf(folder));
    } catch {
      // not empty
    }
  }
  // The stamp's times of the folders left as they were, so the next stamp looks up only the others.
  const folderTimes = new Map<string, number>();
  for (const folder of folders) {
    const time = touched.has(folder) ? undefined : previous.folderTimes?.get(folder);
    if (time !== undefined) folderTimes.set(folder, time);
  }
  const goneSet = new Set(gone);
  const files = [...previous.files.filter(([path]) => !goneSet.has(path) && !madePaths.has(path)), ...made.files.map(([path]) => listedFile(outDir, path))];
  return { ...inPathOrder(files, [...folders]), folderTimes };
}

/** The folder a path is in ('' for the output's own). */
function folderOf(path: string): string {
  const folder = dirname(path);
  return folder === '.' ? '' : folder;
}

/** The folders a file is in, nearest first, not counting the output's own (''). */
function ancestors(path: string): string[] {
  const folders: string[] = [];
  for (let folder = dirname(path); folder !== '.' && folder !== ''; folder = dirname(folder)) folders.push(folder);
  return folders;
}
