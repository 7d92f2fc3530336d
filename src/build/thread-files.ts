/**
 * The files the index thread puts into the new site (./index-and-feeds.ts), and the previous
 * output's that it takes instead of making them: a file is taken when its key is the same and it is
 * still as the build that made it left it. Updated in place, a file taken stays where it is;
 * otherwise it is linked into the new site, once.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { sameFile } from './folder-files.ts';
import { writer } from './write-files.ts';
import type { RememberedFile } from './cache.ts';
import type { RouteFiles } from './store.ts';

/** A file of the new site taken from the previous output, not written. */
export interface TakenFile {
  file: string;
  key: string;
  written: false;
}

export interface ThreadFiles {
  /** The key of a file of the previous output as its build left it, if it is one. */
  keyOf(file: string): string | undefined;
  /** Whether the previous output has `file` with this key, as its build left it. */
  unchanged(file: string, key: string): boolean;
  /** Puts the previous output's `file` into the new site if unchanged with this key; says whether it did. */
  keep(file: string, key: string): boolean;
  /** Writes a file made anew: a file kept before is a link to the previous output, replaced, never written through. */
  write(file: string, text: string): void;
  /**
   * The files of a group the previous build made from the same `inputs` (its RouteFiles): all
   * kept, with their keys, when all are as it left them; none otherwise (then they are made).
   */
  keepGroup(earlier: RouteFiles | undefined, inputs: string | undefined): TakenFile[] | undefined;
}

/** The thread's files in `outDir`, with the previous output's files (`files`, in `from`). */
export function threadFiles(outDir: string, { from, files, inPlace }: { from: string; files: readonly RememberedFile[]; inPlace: boolean }): ThreadFiles {
  const folder = writer(outDir);
  const previous = new Map(files.map(([file, key, size, mtimeMs]) => [file, { key, size, mtimeMs }]));
  const carried = new Set<string>();
  const unchanged = (file: string, key: string) => {
    const earlier = previous.get(file);
    return earlier?.key === key && (inPlace || carried.has(file) || sameFile(join(from, file), earlier.size, earlier.mtimeMs));
  };
  const keep = (file: string, key: string) => {
    if (!unchanged(file, key)) return false;
    if (inPlace || carried.has(file)) return true;
    try {
      folder.carry(file, from);
      carried.add(file);
      return true;
    } catch {
      return false; // gone since the build looked: made again
    }
  };
  return {
    keyOf: (file) => previous.get(file)?.key,
    unchanged,
    keep,
    write(file, text) {
      if (carried.delete(file)) rmSync(join(outDir, file), { force: true });
      folder.write(file, text);
    },
    keepGroup(earlier, inputs) {
      if (inputs === undefined || earlier?.inputs !== inputs) return undefined;
      const taken = earlier.files.map((file) => ({ file, key: previous.get(file)?.key ?? '', written: false as const }));
      if (!taken.every(({ file, key }) => unchanged(file, key))) return undefined;
      return taken.every(({ file, key }) => keep(file, key)) ? taken : undefined;
    },
  };
}
