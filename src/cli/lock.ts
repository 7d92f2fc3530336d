/**
 * A lock file that lets one command at a time change a content folder (two runs at once could
 * both read the old files and each write its own version). The file holds the owner's pid and
 * start time; a lock whose process is gone, or older than `staleMs`, is taken over.
 */
import { closeSync, linkSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';

export interface LockOptions {
  /** How long to wait for another run to finish, in milliseconds (default 10 s). */
  waitMs?: number;
  /** A lock older than this is stale even if its pid is alive (pids are reused); default 10 minutes. */
  staleMs?: number;
}

/** The lock file of a content folder: every command that changes the folder takes it. */
export const CONTENT_LOCK = '.tagsite-content.lock';

/** The lock is held by a run that is still going. */
export class LockBusyError extends Error {}

/** Whether a process of this machine is still running (a lock's holder, a build's work folder). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True when the lock at `path` no longer protects anything: unreadable, its process gone, or too old. */
function isStale(path: string, staleMs: number): boolean {
  let owner: { pid?: unknown; since?: unknown };
  try {
    owner = JSON.parse(readFileSync(path, 'utf8')) as typeof owner;
  } catch (error) {
    // Gone meanwhile: not stale, just free. Half-written or garbage: stale.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
  if (typeof owner.pid !== 'number' || typeof owner.since !== 'number') return true;
  return !processAlive(owner.pid) || Date.now() - owner.since > staleMs;
}

/**
 * Removes a stale lock so that only one waiting run can: it is renamed away first (one rename
 * wins), and a lock that a run took meanwhile, found under the new name, is put back.
 */
function takeOver(path: string, staleMs: number): void {
  const moved = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.stale`;
  try {
    renameSync(path, moved);
  } catch {
    return; // another run moved it first
  }
  if (!isStale(moved, staleMs)) {
    try {
      linkSync(moved, path);
    } catch {
      // A third run holds the path now; the lock moved was taken over as stale a moment too late.
    }
  }
  rmSync(moved, { force: true });
}

/**
 * Takes the lock if nobody holds it, else throws EEXIST. The owner is written to a file of this
 * run first and then linked into place in one step, so another run never reads a lock that is
 * still empty (and would take it over as garbage).
 */
function takeFree(path: string): void {
  const own = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.new`;
  const fd = openSync(own, 'wx');
  try {
    writeSync(fd, JSON.stringify({ pid: process.pid, since: Date.now() }));
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(own, path);
  } finally {
    rmSync(own, { force: true });
  }
}

/** Runs `work` while holding the lock file at `path`; the lock is removed afterwards, also when `work` throws. */
export async function withLock<T>(path: string, work: () => T | Promise<T>, options: LockOptions = {}): Promise<T> {
  const release = await takeLock(path, options);
  try {
    return await work();
  } finally {
    release();
  }
}

/**
 * Takes the lock file at `path`, waiting for another run as withLock does, for work that spans
 * more than one call (a build's steps, run by Astro's hooks); returns what removes it.
 */
export async function takeLock(path: string, options: LockOptions = {}): Promise<() => void> {
  const { waitMs = 10_000, staleMs = 10 * 60_000 } = options;
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      takeFree(path);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (isStale(path, staleMs)) {
        takeOver(path, staleMs);
        continue;
      }
      if (Date.now() > deadline) throw new LockBusyError(`another run is changing these files (lock file ${path}); try again when it has finished`);
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 50));
    }
  }
  return () => rmSync(path, { force: true });
}
