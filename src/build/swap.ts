/**
 * Where a build assembles the new site, and how it takes the place of the old one whole: a failed
 * or killed build never leaves the output folder half-written.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { basename, dirname, join } from 'node:path';
import { processAlive } from '../cli/lock.ts';
import { listedFile, type FolderListing } from './folder-files.ts';

/**
 * This process's work folder. Astro builds inside the project: it keeps its prerender chunks under
 * the output folder only when that folder is inside the working directory (elsewhere they would go
 * to a shared ./.astro/, and concurrent builds would overwrite each other's).
 */
export function workFolder(root: string, pid = process.pid): string {
  return join(root, '.tagsite-build', String(pid));
}

/** A work folder set aside to be deleted by a process of its own (removeWorkFolder). */
const SET_ASIDE = '.discarded';

/**
 * Deletes the work folders of builds whose process is gone (killed builds leave theirs behind),
 * and those set aside whose deletion was cut short.
 */
export function removeDeadWorkFolders(root: string): string[] {
  const dir = join(root, '.tagsite-build');
  if (!existsSync(dir)) return [];
  const dead = readdirSync(dir).filter((name) => {
    const pid = /^(\d+)(?:\.discarded)?$/.exec(name)?.[1];
    return pid !== undefined && Number(pid) !== process.pid && !processAlive(Number(pid));
  });
  for (const name of dead) rmSync(join(dir, name), { recursive: true, force: true });
  return dead;
}

/**
 * Deletes this process's work folder. One that still `holdsSite` (a site copied to an output on
 * another file system: its files stay here) is set aside at once and deleted by a process of its
 * own, as a replaced output is: 27,000 files took 4.5 s of a build of 10,000 topics.
 */
export function removeWorkFolder(root: string, { holdsSite }: { holdsSite: boolean }): void {
  const work = workFolder(root);
  if (!holdsSite || !existsSync(work)) {
    rmSync(work, { recursive: true, force: true });
    return;
  }
  const aside = `${work}${SET_ASIDE}`;
  rmSync(aside, { recursive: true, force: true });
  renameSync(work, aside);
  removeInBackground([aside]);
}

/** The folder beside the output where the new site waits for the swap (same file system: the swap is a rename). */
function stagingFolder(outDir: string): string {
  return join(dirname(outDir), `.${basename(outDir)}.building-${process.pid}`);
}

/** Old outputs of earlier builds that were still being deleted when their build ended. */
function leftovers(outDir: string): string[] {
  const prefix = `.${basename(outDir)}.building-`;
  if (!existsSync(dirname(outDir))) return [];
  return readdirSync(dirname(outDir))
    .filter((name) => name.startsWith(prefix) && name.endsWith('.previous'))
    .map((name) => join(dirname(outDir), name));
}

/** Deletes folders in a process of its own that outlives this one: deleting tens of thousands of files takes seconds. */
function removeInBackground(dirs: string[]): void {
  const present = dirs.filter((dir) => existsSync(dir));
  if (present.length === 0) return;
  const script = 'for (const dir of process.argv.slice(1)) require("node:fs").rmSync(dir, { recursive: true, force: true, maxRetries: 3 });';
  spawn(process.execPath, ['-e', script, ...present], { detached: true, stdio: 'ignore' }).unref();
}

/**
 * Puts the finished site `fresh`, whose files and folders are `listing` (folderListing), in the
 * place of `outDir`: it moves beside the output, the old output moves aside, the new one takes its
 * place, and the old one is deleted in the background (with any left by an interrupted deletion).
 * Returns the output's listing: `listing`, or, where the site was copied to another file system,
 * with each file's time as the copy has it.
 */
export function swapIn(fresh: string, outDir: string, listing: FolderListing): FolderListing {
  const staging = stagingFolder(outDir);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(dirname(outDir), { recursive: true });
  let output = listing;
  try {
    renameSync(fresh, staging);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    cpSync(fresh, staging, { recursive: true });
    // The next build's checks compare these times (./unchanged.ts, unchangedFiles in ./cache.ts). A
    // copy's own, not the originals': set on a copy they come out some hundred nanoseconds apart.
    output = { ...listing, files: listing.files.map(([path]) => listedFile(staging, path)) };
  }
  const old = `${staging}.previous`;
  if (existsSync(outDir)) renameSync(outDir, old);
  renameSync(staging, outDir);
  removeInBackground(leftovers(outDir)); // the old output among them
  return output;
}
