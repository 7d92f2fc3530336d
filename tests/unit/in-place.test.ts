// Updating an output in place (src/build/in-place.ts): the made files replace their old versions,
// the files the site lost go with the folders they leave empty, and a failure part way says so.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { folderListing } from '../../src/build/folder-files.ts';
import { PartlyUpdatedError, updateInPlace } from '../../src/build/in-place.ts';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A folder holding `files` (path → text). */
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'tagsite-in-place-'));
  made.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('updating an output in place', () => {
  it('puts the made files over the old, keeps what it is told to, deletes the rest with their empty folders, and lists the result', () => {
    const outDir = folder({ 'index.html': 'old home', 'topics/a/index.html': 'a', 'topics/b/index.html': 'b', 'tags/x/index.html': 'x' });
    const previous = folderListing(outDir);
    const fresh = folder({ 'index.html': 'new home', 'topics/c/index.html': 'c' });
    const listing = updateInPlace(fresh, outDir, previous, new Set(['topics/a/index.html']));
    expect(readFileSync(join(outDir, 'index.html'), 'utf8')).toBe('new home');
    expect(readFileSync(join(outDir, 'topics/c/index.html'), 'utf8')).toBe('c');
    expect(readFileSync(join(outDir, 'topics/a/index.html'), 'utf8'), 'kept').toBe('a');
    expect(existsSync(join(outDir, 'topics/b')), 'gone, with its folder').toBe(false);
    expect(existsSync(join(outDir, 'tags')), 'a folder left empty goes too').toBe(false);
    expect({ files: listing.files, folders: listing.folders }).toEqual(folderListing(outDir));
  });

  it("gives the stamp's times of the folders it left as they were, and none of those whose entries it changed", () => {
    const outDir = folder({ 'index.html': 'old home', 'topics/a/index.html': 'a', 'topics/b/index.html': 'b', 'tags/x/index.html': 'x', 'tags/y/index.html': 'y', 'members/m/index.html': 'm' });
    // Every folder dated in the past, as a stamp notes them: a folder changed now has another time.
    const past = new Date('2024-05-06T07:08:09Z');
    const listed = folderListing(outDir);
    for (const name of [...listed.folders].reverse()) utimesSync(join(outDir, name), past, past);
    const previous = { ...listed, folderTimes: new Map(listed.folders.map((name) => [name, statSync(join(outDir, name)).mtimeMs])) };
    // The home page replaced (''), a page added in a new folder (topics/c, and topics), one deleted with its folder (tags/x, and tags).
    const fresh = folder({ 'index.html': 'new home', 'topics/c/index.html': 'c' });
    const listing = updateInPlace(fresh, outDir, previous, new Set(['topics/a/index.html', 'topics/b/index.html', 'tags/y/index.html', 'members/m/index.html']));
    expect([...listing.folderTimes!.keys()].sort()).toEqual(['members', 'members/m', 'tags/y', 'topics/a', 'topics/b']);
    // What it gives is what each folder has.
    for (const [name, time] of listing.folderTimes!) expect(time, name).toBe(statSync(join(outDir, name)).mtimeMs);
    for (const name of ['', 'topics', 'tags']) expect(statSync(join(outDir, name)).mtimeMs, name).not.toBe(past.getTime());
  });

  it('says the output may hold some of the new files when a file cannot be put in place', () => {
    const outDir = folder({ 'index.html': 'old home', 'topics/a/index.html': 'a' });
    const previous = folderListing(outDir);
    // A folder where the new page goes (put there since the last build): the rename cannot replace it.
    mkdirSync(join(outDir, 'topics/b/index.html/inside'), { recursive: true });
    const fresh = folder({ 'index.html': 'new home', 'topics/b/index.html': 'b' });
    let failure: unknown;
    try {
      updateInPlace(fresh, outDir, previous, new Set());
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(PartlyUpdatedError);
    const { message } = failure as Error;
    expect(message.startsWith(`${outDir} could not be updated in place (`), message).toBe(true);
    expect(message.endsWith('); it may hold some of the new files, and the next build replaces it whole'), message).toBe(true);
    expect(readFileSync(join(outDir, 'index.html'), 'utf8'), 'a file put in place before the failure').toBe('new home');
  });
});
