/**
 * A content file's stamp, as the topic memory (./read-topics.ts) and the data files' memory
 * (../build/data-memory.ts) note it: a file with the same stamp is not read again. The build's
 * listing of the content takes it from the same `lstat` that lists the file
 * (../build/folder-files.ts), so a rebuild does not look each file up twice.
 */
import { lstatSync, type BigIntStats } from 'node:fs';

/**
 * The file as make and Hugo judge a source, made stricter: its size, modification and change
 * times (to the nanosecond; any write moves the change time) and inode.
 */
export function statStamp({ size, mtimeNs, ctimeNs, ino }: BigIntStats): string {
  return `${size}:${mtimeNs}:${ctimeNs}:${ino}`;
}

/** The stamp of the file at `path`; undefined if it cannot be stat'ed. */
export function fileStamp(path: string): string | undefined {
  try {
    return statStamp(lstatSync(path, { bigint: true }));
  } catch {
    return undefined; // reading it reports the problem
  }
}

/**
 * The modification time in milliseconds that a `stat` without `bigint` gives (seconds times 1,000
 * plus nanoseconds over a million, as Node works it out), from a `bigint` one.
 */
export function mtimeMsOf({ mtimeNs }: BigIntStats): number {
  return Number(mtimeNs / 1_000_000_000n) * 1000 + Number(mtimeNs % 1_000_000_000n) / 1e6;
}
