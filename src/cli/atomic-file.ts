import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Replaces a file's text all at once: the text goes to a temporary file in the same folder (same
 * file system, so the rename is atomic), is flushed to disk, and only then renamed over the file.
 * Readers, and a run interrupted at any moment, see the old text or the new one, never a part.
 * `rename` is injectable so tests can fail it.
 */
export function writeFileAtomic(path: string, text: string, rename: (from: string, to: string) => void = renameSync): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx');
  try {
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    rename(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
