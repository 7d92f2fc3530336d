/**
 * Node's compile cache, which `npm run build` turns on (scripts/build.mjs), keeps an entry for every
 * module it compiles, by path, and never deletes one. Each full build keeps its page code at a new
 * path (./kept-renderer.ts), so the entries of the page code it replaces stay behind: 31,000 entries
 * and 259 MB after a few hundred builds on one machine. A full build that keeps new page code
 * empties the cache once it holds more than MAX_ENTRIES entries; the next build fills it again.
 */
import { readdirSync, rmSync } from 'node:fs';
import { getCompileCacheDir } from 'node:module';
import { join } from 'node:path';

/** Some 160 MB of entries (8 KB each on average). */
export const MAX_ENTRIES = 20_000;

/**
 * Empties the compile cache `dir` (this process's, if it has one) of its entries when it holds more
 * than `max`; its folders stay, for the entries this process writes as it ends. Returns how many
 * entries were deleted.
 */
export function trimCompileCache(dir = getCompileCacheDir(), max = MAX_ENTRIES): number {
  if (!dir) return 0;
  let entries: string[];
  try {
    entries = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  } catch {
    return 0; // no cache folder (yet)
  }
  if (entries.length <= max) return 0;
  for (const entry of entries) rmSync(entry, { force: true });
  return entries.length;
}
