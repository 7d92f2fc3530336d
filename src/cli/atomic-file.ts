import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Replaces a file all at once: `write` puts its bytes into a temporary file in the same folder
 * (same file system, so the rename is atomic), which is flushed to disk (unless `flush` is false:
 * a cache the next build can do without) and only then renamed over the file. Readers, and a run
 * interrupted at any moment, see the old file or the new one, never a part. `rename` is injectable
 * so tests can fail it.
 */
export function replaceFile(
  path: string,
  write: (put: (data: string | Uint8Array) => void) => void,
  { flush = true, rename = renameSync }: { flush?: boolean; rename?: (from: string, to: string) => void } = {},
): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx');
  try {
    try {
      write((data) => {
        const bytes = typeof data === 'string' ? Buffer.from(data) : data;
        for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
      });
      if (flush) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    rename(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Replaces a file's text all at once, flushed to disk first (replaceFile). */
export function writeFileAtomic(path: string, text: string, rename: (from: string, to: string) => void = renameSync): void {
  replaceFile(path, (put) => put(text), { rename });
}
