/**
 * The files of a folder as the build notes them: the site's size (./host-limits.ts) and the
 * no-change check (./unchanged.ts) both read it, from one walk of the output; the prerenderer
 * (./prerenderer.ts) reads public/'s.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Each file of a folder: its path (relative), size and modification time, in path order. */
export type FolderFiles = Array<[path: string, size: number, mtimeMs: number]>;

export function folderFiles(dir: string): FolderFiles {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry): [string, number, number] => {
      const path = join(entry.parentPath, entry.name);
      const { size, mtimeMs } = statSync(path);
      return [relative(dir, path), size, mtimeMs];
    })
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
