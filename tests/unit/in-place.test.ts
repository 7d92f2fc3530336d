// Updating an output in place (src/build/in-place.ts): the made files replace their old versions,
// the files the site lost go with the folders they leave empty, and a failure part way says so.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
    expect(listing).toEqual(folderListing(outDir));
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
