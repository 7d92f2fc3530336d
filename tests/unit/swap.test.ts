// Swapping a finished site in (src/build/swap.ts): the output it leaves is the site it was given,
// and the listing it returns is what the next build's checks find there, also where the site is
// copied from the project's file system to another (an output in /dev/shm or a tmpfs /tmp).
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { folderListing } from '../../src/build/folder-files.ts';
import { folderTimes, unchangedFolder } from '../../src/build/output-check.ts';
import { removeDeadWorkFolders, removeWorkFolder, swapIn, workFolder } from '../../src/build/swap.ts';
import { spawnSync } from 'node:child_process';
import { otherFileSystemThan } from '../helpers/build.ts';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new folder in `parent` holding `count` pages in folders of their own, and an old output beside it. */
function site(parent: string, count: number): { fresh: string; outDir: string } {
  const dir = mkdtempSync(join(parent, 'tagsite-swap-'));
  made.push(dir);
  const fresh = join(dir, 'fresh');
  for (let i = 0; i < count; i++) {
    const path = join(fresh, 'topics', `topic-${i}`, 'index.html');
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `<h1>Topic ${i}</h1>`);
  }
  const outDir = join(dir, 'dist');
  mkdirSync(outDir);
  writeFileSync(join(outDir, 'stale.html'), 'from the last build');
  return { fresh, outDir };
}

/** Whether the next build would find `outDir` as the stamp of this listing notes it (../../src/build/unchanged.ts). */
function unchangedSince(outDir: string, listing: ReturnType<typeof folderListing>): boolean {
  return unchangedFolder(outDir, listing.files, folderTimes(outDir, listing.folders));
}

const otherFileSystem = otherFileSystemThan(tmpdir());

describe('swapping a finished site in', () => {
  it('moves the site into the place of the output, whose listing it returns as it was', () => {
    const { fresh, outDir } = site(tmpdir(), 3);
    const listing = folderListing(fresh);
    const output = swapIn(fresh, outDir, listing);
    expect(existsSync(fresh)).toBe(false);
    expect(existsSync(join(outDir, 'stale.html')), 'the old output is gone').toBe(false);
    expect(readFileSync(join(outDir, 'topics/topic-2/index.html'), 'utf8')).toBe('<h1>Topic 2</h1>');
    expect(output).toEqual(listing);
    expect(unchangedSince(outDir, output)).toBe(true);
  });

  it('copied to another file system, returns each file with the time the copy has, which the next build finds unchanged', () => {
    expect(otherFileSystem, `${tmpdir()} and /dev/shm are on one file system here: this test needs two`).toBeDefined();
    // The site is made where the project is (os.tmpdir() here) and its output is on the other.
    const { fresh } = site(tmpdir(), 300);
    const { outDir } = site(otherFileSystem!, 0);
    const listing = folderListing(fresh);
    const output = swapIn(fresh, outDir, listing);
    expect(existsSync(join(outDir, 'stale.html'))).toBe(false);
    expect(readFileSync(join(outDir, 'topics/topic-299/index.html'), 'utf8')).toBe('<h1>Topic 299</h1>');
    expect(output.files.map(([path, size]) => [path, size])).toEqual(listing.files.map(([path, size]) => [path, size]));
    expect(output.folders).toEqual(listing.folders);
    expect(output.files.every(([path, , time]) => statSync(join(outDir, path)).mtimeMs === time)).toBe(true);
    expect(unchangedSince(outDir, output)).toBe(true);
  });
});

/** A project folder whose work folder (for this process, or `pid`'s) holds a site of `count` pages. */
function project(count: number, pid = process.pid): { root: string; work: string } {
  const root = mkdtempSync(join(tmpdir(), 'tagsite-work-'));
  made.push(root);
  const work = workFolder(root, pid);
  for (let i = 0; i < count; i++) {
    mkdirSync(join(work, 'site', `page-${i}`), { recursive: true });
    writeFileSync(join(work, 'site', `page-${i}`, 'index.html'), `<p>${i}</p>`);
  }
  return { root, work };
}

/** Waits until `path` is gone, for up to 20 s; whether it is. */
async function goneSoon(path: string): Promise<boolean> {
  for (let waited = 0; existsSync(path) && waited < 20_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  return !existsSync(path);
}

describe("a build's work folder", () => {
  it('is deleted at once when it holds no site; set aside at once and deleted by a process of its own when it still holds one', async () => {
    const small = project(0);
    mkdirSync(small.work, { recursive: true });
    removeWorkFolder(small.root, { holdsSite: false });
    expect(existsSync(small.work)).toBe(false);

    const big = project(2000);
    removeWorkFolder(big.root, { holdsSite: true });
    expect(existsSync(big.work), 'out of the way of the next build at once').toBe(false);
    const aside = `${big.work}.discarded`;
    expect(existsSync(join(aside, 'site/page-1999/index.html')), 'deleted after this call returned').toBe(true);
    expect(await goneSoon(aside)).toBe(true);
  });

  it("is deleted by the next build when its build's process is gone, set aside or not, and kept while that process lives", () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    const dead = project(3, gone);
    mkdirSync(`${dead.work}.discarded/site`, { recursive: true });
    const live = workFolder(dead.root, process.pid);
    mkdirSync(live, { recursive: true });
    expect(removeDeadWorkFolders(dead.root).sort()).toEqual([String(gone), `${gone}.discarded`]);
    expect(existsSync(dead.work) || existsSync(`${dead.work}.discarded`)).toBe(false);
    expect(existsSync(live)).toBe(true);
  });
});

