/**
 * The files of a folder as the build notes them: the site's size (./host-limits.ts) and the
 * no-change check (./unchanged.ts) both read it, from one walk of the output; the prerenderer
 * (./prerenderer.ts) reads public/'s.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Each file of a folder: its path (relative), size and modification time, in path order. */
export type FolderFiles = Array<[path: string, size: number, mtimeMs: number]>;

/** A folder's files, and the folders within it ('' for itself; relative paths, in path order). */
export interface FolderListing {
  files: FolderFiles;
  folders: string[];
}

const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function folderFiles(dir: string): FolderFiles {
  return folderListing(dir).files;
}

/** folderFiles, and the folders the same walk found. A link to a folder is followed, a link to a file is not listed. */
export function folderListing(dir: string): FolderListing {
  if (!existsSync(dir)) return { files: [], folders: [] };
  const files: FolderFiles = [];
  const folders = [''];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile()) {
      const { size, mtimeMs } = statSync(path);
      files.push([relative(dir, path), size, mtimeMs]);
    } else if (entry.isDirectory() || (entry.isSymbolicLink() && statSync(path, { throwIfNoEntry: false })?.isDirectory())) {
      folders.push(relative(dir, path));
    }
  }
  return { files: files.sort(([a], [b]) => byPath(a, b)), folders: folders.sort(byPath) };
}
